/* Trailwright studio: every side as the project's renderer draws it; click one to edit its trails by their
 * exits, and see the figures after every edit. The server holds the tile set; this page only asks it.
 * Every name is written as text, never as markup. No network but the studio. */
"use strict";
(function () {
  const SVGNS = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  const NAMES = ["N", "NE", "SE", "S", "SW", "NW"];
  const COLOURS = ["#8c4521", "#1f87ff", "#31b32b", "#d1495b", "#7b4fa0", "#c98a1b"];
  let state = null;
  let chosen = null; // [tile, face]
  let picked = null; // an exit clicked first
  let stamp = 0; // the side pictures' cache stamp

  function say(text) { $("message").textContent = text || ""; }

  async function call(path, body) { // a POST is an action: its success clears the last action's message; a read never
    const options = body === undefined ? {} : {
      method: "POST", headers: { "Content-Type": "application/json", "X-Trailwright": "1" }, body: JSON.stringify(body),
    };
    const reply = await fetch(path, options);
    const data = await reply.json();
    if (!reply.ok) { say(data.error); return null; }
    if (body !== undefined) say("");
    return data;
  }

  function midpoint(e, r) { // exit e's edge midpoint, N at the top, clockwise
    const a = (-90 + 60 * e) * Math.PI / 180;
    return [r * Math.cos(a), r * Math.sin(a)];
  }

  function el(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  }

  function drawEditor() {
    const hex = $("hex");
    hex.textContent = "";
    if (!chosen) { $("side-editor").hidden = true; return; }
    $("side-editor").hidden = false;
    const [tile, face] = chosen;
    const info = state.tiles[tile].sides[face];
    $("editing").textContent = "Tile " + info.id + ", " + face;
    const corners = [0, 1, 2, 3, 4, 5].map((k) => {
      const a = (-120 + 60 * k) * Math.PI / 180;
      return (55 * Math.cos(a)).toFixed(2) + "," + (55 * Math.sin(a)).toFixed(2);
    });
    el("polygon", { points: corners.join(" "), fill: "#e8dcb8", stroke: "#6f6552", "stroke-width": 1.5 }, hex);
    info.trails.forEach((trail, i) => {
      const colour = COLOURS[i % COLOURS.length];
      for (const e of trail) {
        const [x, y] = midpoint(e, 47.6);
        if (trail.length === 1) {
          el("line", { x1: x, y1: y, x2: x * 0.45, y2: y * 0.45, class: "trail", stroke: colour }, hex);
          el("line", { x1: x * 0.45 - y * 0.12, y1: y * 0.45 + x * 0.12, x2: x * 0.45 + y * 0.12,
            y2: y * 0.45 - x * 0.12, class: "trail", stroke: colour }, hex);
        } else {
          el("path", { d: "M" + x + " " + y + " Q0 0 0 0", class: "trail", stroke: colour }, hex);
        }
      }
    });
    for (let e = 0; e < 6; e++) {
      const [x, y] = midpoint(e, 47.6);
      const c = el("circle", { cx: x, cy: y, r: 6, class: "exit" + (picked === e ? " picked" : "") }, hex);
      c.setAttribute("data-exit", String(e));
      const t = el("title", {}, c);
      t.textContent = NAMES[e];
      c.addEventListener("click", () => clickExit(e));
    }
    $("pin").checked = info.pinned;
    $("forbid").checked = info.forbidden;
    $("side-info").textContent = "design " + info.design + " of " + info.designs + " · " + info.bridges +
      " bridge(s) · " + info.copies + " side(s) of the set share this design";
  }

  async function clickExit(e) {
    const [tile, face] = chosen;
    if (picked === null) { picked = e; drawEditor(); return; }
    const body = picked === e ? { op: "split", tile: tile, face: face, a: e }
      : { op: "join", tile: tile, face: face, a: picked, b: e };
    picked = null;
    await apply(call("/api/edit", body));
  }

  function drawGrid() {
    const grid = $("grid");
    grid.textContent = "";
    stamp += 1;
    state.tiles.forEach((t, i) => {
      for (const face of ["front", "back"]) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "side" + (chosen && chosen[0] === i && chosen[1] === face ? " chosen" : "") +
          (t.sides[face].pinned ? " pinned" : "") + (t.sides[face].forbidden ? " forbidden" : "");
        b.setAttribute("data-side", i + "-" + face);
        const img = document.createElement("img");
        img.alt = "tile " + t.id + " " + face;
        // keyed by the side's trails: an unchanged side comes from the browser's cache, not the renderer
        img.src = "/side/" + i + "/" + face + ".svg?t=" + encodeURIComponent(JSON.stringify([t.id, t.sides[face].trails]));
        b.appendChild(img);
        const label = document.createElement("small");
        label.textContent = (t.sides[face].pinned ? "📌 " : "") + t.id + " " + face[0].toUpperCase() + " · d" +
          t.sides[face].design;
        b.appendChild(label);
        b.addEventListener("click", () => pickSide(i, face));
        grid.appendChild(b);
      }
    });
  }

  let pending = null; // "copy" or "swap": the next side clicked in the grid is the other one

  async function pickSide(i, face) {
    if (pending && chosen) {
      const op = pending;
      pending = null;
      await apply(call("/api/edit", { op: op, tile: chosen[0], face: chosen[1], to_tile: i, to_face: face }));
      return;
    }
    chosen = [i, face];
    picked = null;
    drawGrid();
    drawEditor();
  }

  function drawMaze() {
    const seed = Math.max(0, Math.floor(Number($("maze-seed").value) || 0));
    $("maze").src = "/maze.svg?seed=" + seed + "&v=" + stamp;
  }

  function row(table, name, value, cls) {
    const tr = document.createElement("tr");
    const a = document.createElement("td");
    a.textContent = name;
    const b = document.createElement("td");
    b.textContent = value;
    if (cls) b.className = cls;
    tr.append(a, b);
    table.appendChild(tr);
  }

  function drawFigures() {
    const f = state.figures;
    const t = $("figure-table");
    t.textContent = "";
    row(t, "fitness", f.fitness.toFixed(3) + " ± " + f.fitness_se.toFixed(3));
    const d = f.difference;
    row(t, "since the last save", (d >= 0 ? "+" : "") + d.toFixed(3) + " ± " + f.difference_half.toFixed(3),
      f.difference_verdict); // a 95 % interval; the verdict a paired t-test's (generator/stats.py)
    row(t, "sides with bridges", String(f.terms.bridges));
    row(t, "dupScore", String(f.terms.dup_score));
    row(t, "fully connected tiles", String(f.terms.fully_connected));
    row(t, "extra edges (mean)", f.terms.extra_edges.toFixed(3));
    row(t, "pairs joined (mean)", (100 * f.terms.pairs_joined).toFixed(1) + "%");
    const p = $("pairs");
    p.textContent = "";
    for (const [name, value] of Object.entries(f.pairs)) row(p, name, (100 * value).toFixed(1) + "%");
    $("games-title").textContent = f.games.toLocaleString("en") + " explorer games"; // fewer on a big board
    const h = $("histogram");
    h.textContent = "";
    const top = Math.max(...f.histogram, 1);
    const width = 300 / Math.max(f.histogram.length, 1);
    f.histogram.forEach((n, k) => {
      const height = 80 * n / top;
      el("rect", { x: k * width, y: 85 - height, width: Math.max(width - 1, 0.5), height: height, fill: "#8c4521" }, h);
    });
    const last = f.histogram.length - 1; // the rounds axis: 0, the median, and the last bar (every longer game too)
    const marks = [[0, "0"], [f.median_rounds, String(f.median_rounds)], [last, "≥ " + last + " rounds"]];
    marks.forEach(([k, label], i) => {
      if (i === 1 && (k < 0.08 * last || k > 0.65 * last)) return; // too near another label
      const anchor = i === 0 ? "start" : i === 2 ? "end" : "middle";
      const x = i === 0 ? 0 : i === 2 ? 300 : (k + 0.5) * width;
      el("text", { x: x, y: 99, "font-size": 10, fill: "#5a4e3c", "text-anchor": anchor }, h).textContent = label;
    });
    let words = "median " + f.median_rounds + " rounds · " + (100 * f.trapped).toFixed(1) + "% of turns trapped";
    if (f.unfinished > 0) words += " · " + (100 * f.unfinished).toFixed(1) + "% unfinished at " + f.round_cap + " rounds";
    $("games").textContent = words + " (" + f.games + " games, the same games every time)";
    $("undo").disabled = f.undo === 0;
    $("redo").disabled = f.redo === 0;
    $("status").textContent = f.dirty ? "edited, not saved" : "saved";
  }

  async function apply(promise) {
    const data = await promise;
    if (!data) return;
    state = data;
    drawGrid();
    drawEditor();
    drawFigures();
    drawMaze();
  }

  for (const op of ["copy", "swap"]) {
    $(op).addEventListener("click", () => {
      pending = op;
      say(op === "copy" ? "Click the side to copy this one onto." : "Click the side to swap this one with.");
    });
  }
  $("pin").addEventListener("change", () => {
    if (chosen) apply(call("/api/pin", { tile: chosen[0], on: $("pin").checked })).then(drawEditor); // a refusal unticks
  });
  $("forbid").addEventListener("change", () => {
    if (chosen) apply(call("/api/forbid", { tile: chosen[0], face: chosen[1], on: $("forbid").checked })).then(drawEditor);
  });
  $("maze-seed").addEventListener("change", drawMaze);
  $("maze-new").addEventListener("click", () => { $("maze-seed").value = String(Number($("maze-seed").value) + 1); drawMaze(); });
  $("undo").addEventListener("click", () => apply(call("/api/undo", {})));
  $("redo").addEventListener("click", () => apply(call("/api/redo", {})));
  $("rotate").addEventListener("click", () => {
    if (chosen) apply(call("/api/edit", { op: "rotate", tile: chosen[0], face: chosen[1], sixths: 1 }));
  });
  $("save").addEventListener("click", async () => {
    const reply = await fetch("/api/save", { method: "POST", headers: { "Content-Type": "application/json", "X-Trailwright": "1" }, body: "{}" });
    if (reply.status === 409) {
      if (window.confirm("tileset.json changed on disk since the studio read it. Save over it?")) {
        await apply(call("/api/save", { overwrite: true }));
      }
      return;
    }
    const data = await reply.json();
    if (!reply.ok) { say(data.error); return; }
    apply(Promise.resolve(data));
  });

  let declined = null; // the file version the designer chose not to load (asked once per version)

  async function watch() { // a file changed by another program: picked up, never silently overwritten
    const w = await call("/api/watch");
    if (w && w.changed_on_disk && w.disk !== declined) {
      if (!w.dirty || window.confirm("tileset.json changed on disk. Load it and drop your unsaved edits?")) {
        await apply(call("/api/reload", {}));
      } else {
        declined = w.disk;
      }
    }
    if (w && w.files_changed.length) { // the board, rules or objective: nothing of them is edited here unsaved
      const loaded = await call("/api/reload-files", {});
      if (loaded) {
        await apply(Promise.resolve(loaded));
        say(w.files_changed.join(", ") + " changed on disk: read again.");
        document.dispatchEvent(new CustomEvent("studio-files"));
      }
    }
    setTimeout(watch, 2000);
  }

  function show(view) { // one view at a time; the others' scripts hear of it through the "studio-view" event
    for (const b of document.querySelectorAll("#views button")) b.classList.toggle("on", b.dataset.view === view);
    for (const m of document.querySelectorAll("main.view")) m.hidden = m.id !== "view-" + view;
    document.dispatchEvent(new CustomEvent("studio-view", { detail: view }));
  }
  for (const b of document.querySelectorAll("#views button")) b.addEventListener("click", () => show(b.dataset.view));

  // a job on the server (a search, a publish) at path: show draws its view, and while it runs the view follows it
  // as server-sent events; opening the page's view asks for it again
  function job(path, view, show) {
    let stream = null;
    const busy = (v) => v.state === "running" || v.state === "stopping";
    function follow(v) {
      show(v);
      if (!busy(v) || stream) return;
      stream = new EventSource(path + "/events");
      stream.onmessage = (event) => {
        const w = JSON.parse(event.data);
        show(w);
        if (!busy(w)) { stream.close(); stream = null; }
      };
      stream.onerror = () => { stream.close(); stream = null; };
    }
    document.addEventListener("studio-view", async (event) => {
      if (event.detail !== view) return;
      const v = await call(path + "/state");
      if (v) follow(v);
    });
    return follow;
  }

  // what the other views' scripts share: the calls, the message line, the state and its redraw, jobs
  window.studio = { call: call, say: say, el: el, row: row, apply: apply, state: () => state, job: job };

  apply(call("/api/state")).then(() => setTimeout(watch, 2000));
})();
