/* Trailwright play table: lay tiles from a seeded pile, turn them, move pawns, roll a die.
 * Everything it needs is in the page: the board and the tile art are inline SVG, the data is JSON
 * in the script element "trailwright-data". No network, no libraries. The pile is the same as Python's
 * generator.table.pile.draw_pile(n, seed, faces, turns): mulberry32, Fisher-Yates, then a coin (double-sided
 * tiles only) and a die per tile. The geometry comes as data (data.geometry: its turns, the angle of one,
 * its ends and ends per edge, its faces). */
"use strict";
(function () {
  const SVGNS = "http://www.w3.org/2000/svg";
  const data = JSON.parse(document.getElementById("trailwright-data").textContent);
  const svg = document.getElementById("table");
  const tilesLayer = document.getElementById("tiles");
  const pawnsLayer = document.getElementById("pawns");
  const $ = (id) => document.getElementById(id);
  const geo = data.geometry; // turns, step (degrees), ends, endsPerEdge, faces
  let state = null;

  function mulberry32(seed) {
    let a = seed | 0;
    return function () {
      a = (a + 0x6D2B79F5) | 0;
      let t = Math.imul(a ^ (a >>> 15), a | 1);
      t = (t + Math.imul(t ^ (t >>> 7), t | 61)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  function drawPile(n, seed) {
    const rand = mulberry32(seed);
    const order = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    return order.map((t) => {
      const face = geo.faces === 2 && rand() < 0.5 ? "back" : "front";
      return { tile: t, face: face, rot: Math.floor(rand() * geo.turns) };
    });
  }

  function seedFromUrl() {
    const m = /[?&]seed=(\d{1,10})(?:&|$)/.exec(window.location.search);
    if (m && Number(m[1]) <= 4294967295) return Number(m[1]);
    return data.seed;
  }

  function randomInt(below) { // unbiased, from the browser's CSPRNG (the die and new mazes)
    const limit = Math.floor(4294967296 / below) * below;
    const a = new Uint32Array(1);
    do { window.crypto.getRandomValues(a); } while (a[0] >= limit);
    return a[0] % below;
  }

  function place(el, x, y, rot) {
    el.setAttribute("transform", "translate(" + x + " " + y + ") rotate(" + geo.step * rot + ")");
  }

  function start(seed) {
    state = { seed: seed, pile: drawPile(data.tiles.length, seed), next: 0, laid: new Map() };
    tilesLayer.textContent = "";
    document.querySelectorAll(".slot").forEach((s) => s.classList.remove("laid"));
    placePawns();
    $("seed").textContent = String(seed);
    $("share").textContent = "?seed=" + seed;
    try { window.history.replaceState(null, "", "?seed=" + seed); } catch (e) { /* file:// may refuse; the seed is shown */ }
    update();
  }

  function lay(slot) {
    if (state.laid.has(slot) || state.next >= state.pile.length) return;
    const d = state.pile[state.next++];
    const tile = data.tiles[d.tile];
    const g = document.createElementNS(SVGNS, "g");
    g.setAttribute("class", "tile");
    g.setAttribute("data-slot", String(slot));
    g.setAttribute("data-tile", tile.id);
    g.setAttribute("data-tile-index", String(d.tile));
    g.setAttribute("data-face", d.face);
    const art = $("side-" + d.tile + "-" + d.face).cloneNode(true);
    art.removeAttribute("id");
    art.querySelectorAll("path, circle").forEach((el) => {
      if (el.getAttribute("stroke") === data.sand) el.classList.add("sand-stroke");
      if (el.getAttribute("fill") === data.sand) el.classList.add("sand-fill");
    });
    g.appendChild(art);
    const laid = { tile: d.tile, face: d.face, rot: d.rot, el: g };
    state.laid.set(slot, laid);
    setRot(slot, d.rot);
    g.addEventListener("click", (ev) => turn(slot, ev.shiftKey ? -1 : 1));
    g.addEventListener("contextmenu", (ev) => { ev.preventDefault(); turn(slot, -1); });
    tilesLayer.appendChild(g);
    document.querySelector('.slot[data-slot="' + slot + '"]').classList.add("laid");
    update();
  }

  function setRot(slot, rot) {
    const laid = state.laid.get(slot);
    laid.rot = ((rot % geo.turns) + geo.turns) % geo.turns;
    laid.el.setAttribute("data-rot", String(laid.rot));
    place(laid.el, data.slots[slot][0], data.slots[slot][1], laid.rot);
  }

  function turn(slot, by) {
    setRot(slot, state.laid.get(slot).rot + by);
    update();
  }

  // --- what each landmark reaches: union-find over (slot, trail) and landmarks -----------------
  function trailIndex(slot, end) { // the printed trail of the tile in ``slot`` that leaves through ``end``
    const laid = state.laid.get(slot);
    const printed = ((end - laid.rot * geo.endsPerEdge) % geo.ends + geo.ends) % geo.ends;
    return data.tiles[laid.tile][laid.face].findIndex((t) => t.includes(printed));
  }

  function reach() {
    const parent = new Map();
    const find = (v) => {
      if (!parent.has(v)) parent.set(v, v);
      while (parent.get(v) !== v) { parent.set(v, parent.get(parent.get(v))); v = parent.get(v); }
      return v;
    };
    const vertex = (slot, end) => {
      if (slot < 0) return "L" + (-1 - slot);
      return state.laid.has(slot) ? "s" + slot + ":" + trailIndex(slot, end) : null;
    };
    for (const [sa, da, sb, db] of data.joins) {
      const a = vertex(sa, da), b = vertex(sb, db);
      if (a !== null && b !== null) parent.set(find(a), find(b));
    }
    return find;
  }

  function update() {
    $("left").textContent = String(state.pile.length - state.next);
    const on = $("highlight").checked;
    const find = reach();
    const roots = data.landmarks.map((_, k) => find("L" + k));
    for (const [slot, laid] of state.laid) {
      laid.el.querySelectorAll(".trail").forEach((g) => {
        const k = roots.indexOf(find("s" + slot + ":" + g.getAttribute("data-trail")));
        const colour = on && k >= 0 ? data.colours[k % data.colours.length] : "";
        g.querySelectorAll(".sand-stroke").forEach((el) => { el.style.stroke = colour; });
        g.querySelectorAll(".sand-fill").forEach((el) => { el.style.fill = colour; });
      });
    }
    document.querySelectorAll(".connector-reach").forEach((path) => { // the board's printed trails between slots
      const slot = Number(path.getAttribute("data-slot"));
      const k = state.laid.has(slot) ? roots.indexOf(find("s" + slot + ":" + trailIndex(slot, Number(path.getAttribute("data-end"))))) : -1;
      path.style.stroke = on && k >= 0 ? data.colours[k % data.colours.length] : "";
    });
    const legend = $("legend");
    legend.textContent = "";
    if (!on) return;
    data.landmarks.forEach((lm, k) => { // one line per group of joined landmarks, in its trails' colour
      if (roots.indexOf(roots[k]) !== k) return;
      const group = data.landmarks.filter((_, j) => roots[j] === roots[k]).map((o) => o.name);
      const item = document.createElement("li");
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = data.colours[k % data.colours.length];
      item.append(swatch, group.length > 1 ? group.join(", ") + ": " + data.words.joined : lm.name + ": " + data.words.alone);
      legend.appendChild(item);
    });
  }

  // --- pawns ----------------------------------------------------------------------------------
  function placePawns() {
    pawnsLayer.querySelectorAll(".pawn").forEach((p, k) => {
      const a = (k / data.players.length) * 2 * Math.PI;
      place(p, data.start[0] + data.pawnRadius * 3.5 * Math.cos(a), data.start[1] + data.pawnRadius * 3.5 * Math.sin(a), 0);
    });
  }

  function svgPoint(ev) {
    const p = svg.createSVGPoint();
    p.x = ev.clientX; p.y = ev.clientY;
    return p.matrixTransform(svg.getScreenCTM().inverse());
  }

  pawnsLayer.querySelectorAll(".pawn").forEach((pawn) => {
    pawn.addEventListener("pointerdown", (ev) => {
      pawn.setPointerCapture(ev.pointerId);
      pawn.classList.add("dragging");
      ev.preventDefault();
    });
    pawn.addEventListener("pointermove", (ev) => {
      if (!pawn.hasPointerCapture(ev.pointerId)) return;
      const p = svgPoint(ev);
      place(pawn, p.x, p.y, 0);
    });
    const drop = (ev) => { pawn.classList.remove("dragging"); if (pawn.hasPointerCapture(ev.pointerId)) pawn.releasePointerCapture(ev.pointerId); };
    pawn.addEventListener("pointerup", drop);
    pawn.addEventListener("pointercancel", drop);
  });

  // --- controls -------------------------------------------------------------------------------
  document.querySelectorAll(".slot").forEach((s) => {
    s.addEventListener("click", () => lay(Number(s.getAttribute("data-slot"))));
  });
  $("roll").addEventListener("click", () => {
    const value = 1 + randomInt(data.die); // the rules' die of steps
    $("die-value").textContent = String(value);
    $("die-face").textContent = data.die === 6 ? "\u2680\u2681\u2682\u2683\u2684\u2685"[value - 1] : "";
  });
  $("new-maze").addEventListener("click", () => start(randomInt(4294967296)));
  $("highlight").addEventListener("change", update);

  start(seedFromUrl());
  window.trailwright = { // for tests and the curious: the pile, the state, and which landmarks are joined
    drawPile: drawPile,
    state: () => state,
    groups: () => { const find = reach(); const roots = data.landmarks.map((_, k) => find("L" + k)); return roots.map((r) => roots.indexOf(r)); },
  };
})();
