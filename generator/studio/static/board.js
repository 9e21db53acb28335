/* Trailwright studio, Board view: a hex grid painted hex by hex (slot, landmark, connector, wall), checked by the
 * server after every stroke with the board loader's own one-line message, and drawn by the renderer. A board of
 * square tiles is a square grid of cells [x, y] (state.geometry.shape), painted the same way. */
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const s = window.studio;
  const SIZE = 18, R3 = Math.sqrt(3);
  const NAMES = { hex: ["N", "NE", "SE", "S", "SW", "NW"], square: ["N", "E", "S", "W"] };
  const CELL = 1.8 * SIZE; // a square cell's width
  const FILL = { slot: "#e8dcb8", landmark: "#c98a1b", connector: "#8fb3d9", wall: "#f8f5ec" };
  let board = null;
  let connector = null; // the connector hex being painted, then the slot hexes it joins (a side pinned: its two)
  let version = 0;

  const odd = (q) => ((q % 2) + 2) % 2;
  const shape = () => s.state().geometry.shape;
  const centre = (q, r) => shape() === "square" ? [CELL * q, CELL * r] : [1.5 * SIZE * q, R3 * SIZE * (r + 0.5 * odd(q))];
  const key = (h) => h[0] + "," + h[1];

  function corners(x, y) {
    if (shape() === "square") {
      const h = 0.48 * CELL;
      return [[-h, -h], [h, -h], [h, h], [-h, h]].map(([dx, dy]) => (x + dx).toFixed(1) + "," + (y + dy).toFixed(1)).join(" ");
    }
    return [0, 1, 2, 3, 4, 5].map((k) => {
      const a = Math.PI / 3 * k;
      return (x + 0.96 * SIZE * Math.cos(a)).toFixed(1) + "," + (y + 0.96 * SIZE * Math.sin(a)).toFixed(1);
    }).join(" ");
  }

  function label(svg, x, y, text, kind) { // a name fitted to its hex: shrunk, then cut with an ellipsis
    const shown = text.length > 10 ? text.slice(0, 9) + "…" : text;
    const size = kind === "slot" ? 10 : Math.max(3.5, Math.min(7, 1.5 * SIZE / (0.7 * shown.length)));
    const t = s.el("text", { x: x, y: y + size / 2.5, "text-anchor": "middle", "font-size": size.toFixed(1),
      "pointer-events": "none" }, svg);
    t.textContent = shown;
  }

  function verdict() { // one verdict from the draft and the files on disk: "valid" only when both are
    const onDisk = s.disk().problems.filter((p) => p.file === "board.toml" || p.file === "rules.toml");
    if (onDisk.length) return [onDisk.map((p) => p.file + " on disk does not load: " + p.error).join("; "), "worse"];
    if (board.error) return ["Not a valid board yet: " + board.error, "worse"];
    return ["The board is valid.", "better"];
  }

  function drawVerdict() {
    const [words, cls] = verdict();
    $("bd-error").textContent = words;
    $("bd-error").className = cls;
  }

  function draw() {
    const svg = $("bd-grid");
    svg.textContent = "";
    const painted = new Map(board.cells.map((c) => [key(c.hex), c]));
    const wrong = new Map();
    for (const p of board.problems) wrong.set(key(p.hex), (wrong.has(key(p.hex)) ? wrong.get(key(p.hex)) + "; " : "") + p.problem);
    const qs = board.cells.map((c) => c.hex[0]), rs = board.cells.map((c) => c.hex[1]);
    const q0 = Math.min(0, ...qs) - 2, q1 = Math.max(4, ...qs) + 2, r0 = Math.min(0, ...rs) - 2, r1 = Math.max(4, ...rs) + 2;
    const [x0, y0] = centre(q0, r0), [x1, y1] = centre(q1, r1);
    svg.setAttribute("viewBox", [x0 - SIZE, y0 - SIZE, x1 - x0 + 2 * SIZE, y1 - y0 + 2.5 * SIZE].join(" "));
    for (let q = q0; q <= q1; q++) {
      for (let r = r0; r <= r1; r++) {
        const [x, y] = centre(q, r);
        const cell = painted.get(q + "," + r);
        const kind = cell ? cell.kind : "wall";
        const chosen = connector && connector.some((h) => h[0] === q && h[1] === r);
        const problem = wrong.get(q + "," + r);
        const hex = s.el("polygon", { points: corners(x, y), fill: FILL[kind], stroke: chosen || problem ? "#d1495b" : "#b5a98c",
          "stroke-width": chosen || problem ? 3 : 1, class: "bd-hex" + (problem ? " bd-wrong" : ""),
          "data-hex": q + "," + r, "data-kind": kind }, svg);
        const tip = s.el("title", {}, hex);
        tip.textContent = "[" + q + ", " + r + "] " + kind + (cell && cell.label ? " " + cell.label : "") +
          (problem ? ": " + problem : "");
        hex.addEventListener("click", () => paint([q, r]));
        if (cell && cell.label) label(svg, x, y, cell.label, kind);
        for (const d of (cell && cell.pinned) || []) { // a pinned side: a dot on the edge it faces
          const names = NAMES[shape()];
          const a = (-90 + 360 / names.length * names.indexOf(d)) * Math.PI / 180;
          s.el("circle", { cx: x + 0.62 * SIZE * Math.cos(a), cy: y + 0.62 * SIZE * Math.sin(a), r: 3.2,
            fill: "#2b2418", class: "bd-pin", "data-pin": q + "," + r + "," + d, "pointer-events": "none" }, svg);
        }
        if (problem) s.el("text", { x: x + 0.45 * SIZE, y: y - 0.35 * SIZE, "font-size": 9, fill: "#a1231b",
          "font-weight": "bold", "pointer-events": "none" }, svg).textContent = "!";
      }
    }
    drawVerdict();
    $("bd-said").textContent = board.said || "";
    $("bd-count").textContent = board.slots + " slots · the tile set has " + board.tiles + " tiles";
    if (!board.error) $("bd-picture").src = "/board.svg?v=" + (++version);
  }

  function tool() { return document.querySelector("input[name=bd-tool]:checked").value; }

  async function paint(h) {
    const kind = tool();
    if (kind === "connector" || kind === "pin") {
      connector = (connector || []).concat([h]);
      if (connector.length < (kind === "pin" ? 2 : 3)) { draw(); return; }
      const [at, a, b] = connector;
      connector = null;
      if (kind === "pin") return stroke({ hex: at, slot: a }, "/api/board/pin");
      return stroke({ hex: at, kind: "connector", joins: [a, b] });
    }
    connector = null;
    return stroke({ hex: h, kind: kind, name: $("bd-name").value });
  }

  async function stroke(body, path) { // any stroke is taken; the draft may be wrong on the way (drawn on its hexes)
    const v = await s.call(path || "/api/board/paint", body, body.kind === "landmark" ? $("bd-name") : $("bd-said"));
    if (v) { show(v); }
  }

  function show(v) {
    board = v;
    s.truth({ problems: v.disk });
    draw();
  }

  async function save(confirm) {
    const reply = await s.send("/api/board/save", { confirm: confirm });
    if (reply.status === 409 && !confirm) {
      if (window.confirm(reply.data.error + ". Save the board and change the tile set?")) await save(true);
      return;
    }
    if (!reply.ok) { s.say(reply.data.error, { error: true, near: $("bd-save") }); return; }
    show(reply.data);
    await s.apply(s.call("/api/state"));
    s.say("Board saved; " + reply.data.saved + ".", { near: $("bd-save") });
  }

  $("bd-save").addEventListener("click", () => save(false));
  $("bd-revert").addEventListener("click", async () => { const v = await s.call("/api/board/revert", {}); if (v) show(v); });
  document.addEventListener("studio-files", async () => { // the board file changed on disk: drawn again
    if (!$("view-board").hidden) { const v = await s.call("/api/board/state"); if (v) show(v); }
  });
  document.addEventListener("studio-disk", () => { if (board) drawVerdict(); });
  document.addEventListener("studio-view", async (event) => {
    if (event.detail !== "board") return;
    const v = await s.call("/api/board/state");
    if (v) show(v);
  });
})();
