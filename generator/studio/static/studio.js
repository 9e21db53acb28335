/* Trailwright studio: every side as the project's renderer draws it; click one to edit its trails by their
 * exits, and see the figures after every edit. The server holds the tile set; this page only asks it.
 * The side editor draws the tile's outline and its ends from the geometry's facts in the state (state.geometry:
 * corners and end points on a tile of circumradius 1, the ends' names, turns, trails); on paired trails a click
 * on two ends pairs them. Every part of the studio takes every geometry's tiles.
 * Every name is written as text, never as markup. No network but the studio. */
"use strict";
(function () {
  const SVGNS = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  const ART = 55; // the side's picture in the editor: its circumradius (the SVG's viewBox is -60 -60 120 120)
  let state = null;
  let chosen = null; // [tile, face]
  let picked = null; // an exit clicked first
  let stamp = 0; // the side pictures' cache stamp

  // what the page says (see "messages" in docs/studio.md): a toast that stays in view at the top of the window,
  // and, where a control caused it, a note beside that control; a file on disk that does not load is a banner
  // until it is fixed. One state (disk) draws the banner, the header's saved state and the board's verdict.
  let toastTimer = null;
  let disk = { dirty: false, changed: false, declined: false, problems: [], warming: false };

  function say(text, how) {
    how = how || {};
    const box = $("message");
    box.textContent = text || "";
    box.hidden = !text;
    box.className = how.error ? "error" : "";
    for (const n of document.querySelectorAll(".note")) n.remove();
    if (text && how.near && how.near.offsetParent !== null) { // the control is on screen: the note beside it too
      const note = document.createElement("span");
      note.className = "note" + (how.error ? " error" : "");
      note.textContent = text;
      how.near.insertAdjacentElement("afterend", note);
    }
    clearTimeout(toastTimer);
    if (text && !how.error) toastTimer = setTimeout(() => { box.hidden = true; }, 10000);
  }

  function truth(update) { // the one state behind the banner, the header's saved state and the board's verdict
    Object.assign(disk, update || {});
    const banner = $("banner");
    banner.textContent = "";
    const lines = disk.problems.map((p) => p.file + " on disk does not load: " + p.error +
      " (the studio keeps what it read; fix the file and it is read again)");
    const w = disk.warming;
    if (w) { // the engines first (the seconds left, about), then the playtests' bots
      lines.unshift(w.expected === undefined ? "warming up: the playtests' bots compile their engine; they move once it is done"
        : "warming up: first start compiles the engines (" + (w.left !== null ? "about " + w.left + " s"
          : w.spent + " s so far, longer than the " + w.expected + " s expected: the machine is busy") +
          "); edits are taken now and their figures come when it is done");
    }
    for (const line of lines) banner.appendChild(document.createElement("div")).textContent = line;
    banner.hidden = lines.length === 0;
    banner.className = disk.problems.length ? "" : "warming"; // a file that does not load is red; a warm-up is news
    const broken = disk.problems.some((p) => p.file === "tileset.json");
    const others = disk.problems.filter((p) => p.file !== "tileset.json").map((p) => p.file);
    $("status").textContent = (disk.dirty ? "edited, not saved"
      : broken ? "tileset.json on disk is broken"
      : disk.changed ? "tileset.json changed on disk, not loaded" : "saved") +
      (others.length ? " · " + others.join(", ") + " on disk does not load" : "");
    $("status").className = disk.dirty || disk.problems.length || disk.changed ? "unsaved" : "";
    document.dispatchEvent(new CustomEvent("studio-disk"));
  }

  async function request(path, options) { // every call the page makes goes through here
    return fetch(path, options || {});
  }

  async function send(path, body) { // a call and its reply: { ok, status, data }
    const options = body === undefined ? {} : {
      method: "POST", headers: { "Content-Type": "application/json", "X-Trailwright": "1" }, body: JSON.stringify(body),
    };
    const reply = await request(path, options);
    let data;
    try { data = await reply.json(); } catch (err) { data = { error: "the studio answered " + reply.status }; }
    return { ok: reply.ok, status: reply.status, data: data };
  }

  // a POST is an action: its success clears the last action's message; a read never. near: the control that acted
  async function call(path, body, near) {
    const reply = await send(path, body);
    if (!reply.ok) { say(reply.data.error, { error: true, near: near }); return null; }
    if (body !== undefined) say("");
    return reply.data;
  }

  function el(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  }

  let drawn = null; // the key of the side the editor shows (its picture is fetched once per key)

  function sideKey(i, face) {
    const t = state.tiles[i];
    return JSON.stringify([t.id, t.sides[face].trails]);
  }

  async function drawEditor() { // the side as the renderer draws it (as it will print), its exits over it
    const hex = $("hex");
    if (!chosen) { $("side-editor").hidden = true; hex.textContent = ""; drawn = null; return; }
    $("side-editor").hidden = false;
    const [tile, face] = chosen;
    const info = state.tiles[tile].sides[face];
    $("editing").textContent = "Tile " + info.id + ", " + face;
    const key = sideKey(tile, face);
    if (drawn !== key) {
      drawn = key;
      const reply = await request("/side/" + tile + "/" + face + ".svg?t=" + encodeURIComponent(key));
      const text = reply.ok ? await reply.text() : "";
      if (drawn !== key) return; // another side was chosen meanwhile
      hex.textContent = "";
      const doc = new DOMParser().parseFromString(text, "image/svg+xml");
      const art = doc.documentElement;
      if (art && art.nodeName === "svg") {
        const [, , w, h] = art.getAttribute("viewBox").split(/[ ,]+/).map(Number);
        // the renderer's own drawing (its circumradius is w / 2), its trails in the page to light them; a theme's
        // art with CSS of its own is shown as a picture instead (the page's CSP takes no style in its markup)
        const styled = art.querySelector("style, [style]") !== null;
        const side = styled ? el("image", { href: "/side/" + tile + "/" + face + ".svg?t=" + encodeURIComponent(key) })
          : document.importNode(art, true);
        side.setAttribute("x", -55); side.setAttribute("width", 110);
        side.setAttribute("y", -55 * h / w); side.setAttribute("height", 110 * h / w);
        side.setAttribute("id", "hex-art");
        hex.appendChild(side);
      }
    }
    for (const c of hex.querySelectorAll(".exit, .tile-outline")) c.remove();
    const geo = state.geometry;
    hex.dataset.side = tile + "-" + face; // the side the editor draws now (its picture and exits)
    const trailOf = (e) => info.trails.findIndex((t) => t.includes(e));
    const light = (k, on) => {
      for (const g of hex.querySelectorAll("g.trail")) g.classList.toggle("lit", on && g.dataset.trail === String(k));
    };
    for (const g of hex.querySelectorAll("g.trail")) {
      g.onmouseenter = () => light(g.dataset.trail, true);
      g.onmouseleave = () => light(null, false);
    }
    el("polygon", { class: "tile-outline", points: geo.corners.map(([x, y]) => ART * x + "," + ART * y).join(" ") }, hex);
    for (let e = 0; e < geo.ends; e++) {
      const [x, y] = geo.endPoints[e].map((v) => ART * v);
      const c = el("circle", { cx: x, cy: y, r: 6, class: "exit" + (picked === e ? " picked" : "") }, hex);
      c.setAttribute("data-exit", String(e));
      const k = trailOf(e);
      el("title", {}, c).textContent = geo.endNames[e] + (info.trails[k].length === 1 ? " (a dead end)" : "");
      c.addEventListener("click", () => clickExit(e));
      c.addEventListener("mouseenter", () => light(k, true));
      c.addEventListener("mouseleave", () => light(null, false));
    }
    $("pin").checked = info.pinned;
    $("forbid").checked = info.forbidden;
    $("side-info").textContent = "design " + info.design + " of " + info.designs + " · " + info.bridges +
      " bridge(s) · " + info.copies + " side(s) of the set share this design";
  }

  async function clickExit(e) {
    const [tile, face] = chosen;
    if (picked === null) { picked = e; drawEditor(); return; }
    if (picked === e && state.geometry.trails === "pairs") { picked = null; drawEditor(); return; } // no dead ends
    const body = picked === e ? { op: "split", tile: tile, face: face, a: e }
      : { op: "join", tile: tile, face: face, a: picked, b: e };
    picked = null;
    await apply(call("/api/edit", body, $("hex")));
  }

  function drawGrid() {
    const grid = $("grid");
    grid.textContent = "";
    stamp += 1;
    state.tiles.forEach((t, i) => {
      for (const face of state.faces) { // a single-sided tile's front only
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

  function drawGeometry() { // the side editor's words for these tiles: a turn, and what a click does
    const geo = state.geometry;
    $("rotate").textContent = geo.turns === 4 ? "Turn a quarter" : "Turn a sixth";
    // the help line above the buttons says what a click does on these trails
    const help = $("rotate").parentElement.previousElementSibling;
    help.textContent = geo.trails === "pairs"
      ? "Click two ends to pair them: their old partners pair with each other, so every end joins exactly one other."
      : "Click two exits to join them into one trail; click an exit twice to make it a dead end.";
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
    $("undo").disabled = state.edits.undo === 0;
    $("redo").disabled = state.edits.redo === 0;
    if (f === null) { // the engines warm up (see the banner): the figures come when they are warm
      row(t, "fitness", "after the warm-up…");
      $("pairs").textContent = "";
      $("figures").classList.add("playing");
      $("games").textContent = "the figures of this version come once the engines are warm";
      return;
    }
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
    drawGames(f);
  }

  function drawGames(f) { // the games: drawn once played (an edit's reply may come before them: see playGames)
    if (f.games === null) {
      $("figures").classList.add("playing");
      $("games").textContent = "playing the explorer games of this version…";
      return;
    }
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
    let words = "median " + f.median_rounds + " ± " + f.median_rounds_se + " rounds · " + (100 * f.trapped).toFixed(1) + "% of turns trapped";
    if (f.unfinished > 0) words += " · " + (100 * f.unfinished).toFixed(1) + "% unfinished at " + f.round_cap + " rounds";
    $("games").textContent = words + " (" + f.games + " games, the same games every time)";
    $("figures").classList.remove("playing");
  }

  async function playGames() { // the games of the version shown, asked after its score is drawn
    const version = state.version;
    const g = await call("/api/games");
    if (!g || !state || state.version !== version || g.version !== version) return; // another edit came since
    Object.assign(state.figures, g);
    drawGames(state.figures);
  }

  async function apply(promise) {
    const data = await promise;
    if (!data) return;
    state = data;
    truth({ dirty: data.edits.dirty, changed: data.changed_on_disk && disk.declined, problems: data.problems,
      warming: data.warming || false });
    drawGrid();
    drawEditor();
    drawFigures();
    drawMaze();
    drawGeometry();
    if (state.figures && state.figures.games === null) playGames();
    if (data.warming && !warmingPoll) { // asked again each second until warm: the figures of the version shown
      warmingPoll = setTimeout(() => { warmingPoll = null; apply(call("/api/state")); }, 1000);
    }
  }
  let warmingPoll = null;

  $("message").addEventListener("click", () => { $("message").hidden = true; }); // read: clicked away
  for (const op of ["copy", "swap"]) {
    $(op).addEventListener("click", () => {
      pending = op;
      say(op === "copy" ? "Click the side to copy this one onto." : "Click the side to swap this one with.",
        { near: $(op) });
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
    if (chosen) apply(call("/api/edit", { op: "rotate", tile: chosen[0], face: chosen[1], steps: 1 }));
  });
  $("save").addEventListener("click", async () => {
    const reply = await send("/api/save", {});
    if (reply.status === 409) {
      if (window.confirm("tileset.json changed on disk since the studio read it. Save over it?")) {
        await apply(call("/api/save", { overwrite: true }, $("save")));
        if (state && !state.edits.dirty) say("Saved over tileset.json.");
      }
      return;
    }
    if (!reply.ok) { say(reply.data.error, { error: true, near: $("save") }); return; }
    disk.declined = false;
    await apply(Promise.resolve(reply.data));
    say("Saved tileset.json.");
  });

  let declined = null; // the file version the designer chose not to load over unsaved edits (asked once a version)

  async function watch() { // a file changed by another program: picked up, never silently overwritten
    const w = await call("/api/watch");
    if (w) {
      truth({ problems: w.problems, dirty: w.dirty });
      const broken = new Set(w.problems.map((p) => p.file));
      // without unsaved edits a new file loads at once, whatever was declined before
      if (w.changed_on_disk && !broken.has("tileset.json") && (!w.dirty || w.disk !== declined)) {
        if (!w.dirty || window.confirm("tileset.json changed on disk. Load it and drop your unsaved edits?")) {
          declined = null;
          await apply(call("/api/reload", {}));
          truth({ declined: false, changed: false });
          say("tileset.json changed on disk: loaded.");
        } else {
          declined = w.disk;
          truth({ declined: true, changed: true });
        }
      }
      const readable = w.files_changed.filter((f) => !broken.has(f));
      if (readable.length && readable.length === w.files_changed.length) { // the board, rules or objective
        const loaded = await call("/api/reload-files", {});
        if (loaded) {
          await apply(Promise.resolve(loaded));
          say(w.files_changed.join(", ") + " changed on disk: read again.");
          document.dispatchEvent(new CustomEvent("studio-files"));
        }
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
  window.studio = { call: call, send: send, request: request, say: say, el: el, row: row, apply: apply,
    state: () => state, job: job, disk: () => disk, truth: truth };

  apply(call("/api/state")).then(() => setTimeout(watch, 2000));
})();
