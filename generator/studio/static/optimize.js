/* Trailwright studio, Optimize view: start and stop a search, its best fitness over time streamed from the
 * server (server-sent events), and its result beside the edited set: the sides it changed and both sets'
 * figures, to accept (one edit, undone by Undo) or discard. */
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const s = window.studio;

  function chart(history) {
    const svg = $("op-chart");
    svg.textContent = "";
    if (history.length < 1) return;
    const ts = history.map((h) => h.t), bs = history.map((h) => h.best);
    const t1 = Math.max(...ts, 1), b0 = Math.min(...bs), b1 = Math.max(...bs);
    const x = (t) => 30 + 280 * t / t1, y = (b) => 120 - 100 * (b1 > b0 ? (b - b0) / (b1 - b0) : 0.5);
    s.el("line", { x1: 30, y1: 120, x2: 310, y2: 120, stroke: "#6f6552" }, svg);
    s.el("polyline", { points: history.map((h) => x(h.t).toFixed(1) + "," + y(h.best).toFixed(1)).join(" "),
      fill: "none", stroke: "#8c4521", "stroke-width": 2 }, svg);
    const low = s.el("text", { x: 0, y: 124, "font-size": 9 }, svg);
    low.textContent = b0.toFixed(3);
    const high = s.el("text", { x: 0, y: 24, "font-size": 9 }, svg);
    high.textContent = b1.toFixed(3);
    const end = s.el("text", { x: 280, y: 134, "font-size": 9 }, svg);
    end.textContent = t1.toFixed(0) + " s";
  }

  function sideImage(tile, face, offer, version) {
    const img = document.createElement("img");
    img.src = "/side/" + tile + "/" + face + ".svg" + (offer ? "?of=offer&v=" : "?v=") + version;
    img.alt = (offer ? "the result's " : "your ") + "tile " + s.state().tiles[tile].id + " " + face;
    return img;
  }

  let clicked = null; // performance.now() at the click on Start: the clock counts from it
  let ticker = null;
  let shown = null; // the offer whose pictures are drawn (its version)
  let latest = null;

  function status(v) { // the status line: wall time from the click, the best so far, the time left
    const running = v.state === "running" || v.state === "stopping";
    const last = v.history.length ? v.history[v.history.length - 1] : null;
    const elapsed = clicked !== null ? (performance.now() - clicked) / 1000 : (v.elapsed || 0);
    if (v.state === "failed") return "The search failed: " + v.error;
    if (running) {
      const left = Math.max(0, v.seconds - elapsed);
      let words = (v.state === "stopping" ? "stopping… " : "searching… ") + elapsed.toFixed(0) + " s";
      words += v.stage ? ", " + v.stage : left > 0 ? ", about " + left.toFixed(0) + " s left" : ", finishing";
      if (!last) return words + (v.warm ? ", the workers are starting the chains" : ", starting the workers");
      words += " · best " + last.best.toFixed(4);
      if (last.lowered !== null && last.lowered !== undefined) words += " (a re-score lowered a chain's best to " + last.lowered.toFixed(4) + ")";
      return words + (last.rate ? " · " + last.rate + " evaluations/s" : "");
    }
    if (v.offer) {
      return (shown === v.version ? "Done: " : "Done, drawing the changed sides: ") + "fitness " + v.offer.fitness.toFixed(4) +
        " re-scored on fresh layouts (" + v.offer.seconds + " s from the click)" + (v.offer.stopped ? ", stopped early." : ".");
    }
    return v.last || "No search yet.";
  }

  function tick() {
    clearInterval(ticker);
    ticker = setInterval(() => {
      if (!latest || !(latest.state === "running" || latest.state === "stopping")) { clearInterval(ticker); return; }
      $("op-status").textContent = status(latest);
    }, 500);
  }

  async function drawOffer(v) { // the result appears once its pictures are ready
    const t = $("op-compare");
    t.textContent = "";
    const b = v.offer.before, a = v.offer.figures;
    s.row(t, "", "yours → the result");
    s.row(t, "fitness", b.fitness.toFixed(3) + " → " + a.fitness.toFixed(3), a.fitness > b.fitness ? "better" : "worse");
    s.row(t, "sides with bridges", b.terms.bridges + " → " + a.terms.bridges);
    s.row(t, "dupScore", b.terms.dup_score + " → " + a.terms.dup_score);
    s.row(t, "pairs joined (mean)", (100 * b.terms.pairs_joined).toFixed(1) + "% → " + (100 * a.terms.pairs_joined).toFixed(1) + "%");
    s.row(t, "median rounds (explorers)", b.median_rounds + " → " + a.median_rounds);
    s.row(t, "turns trapped", (100 * b.trapped).toFixed(1) + "% → " + (100 * a.trapped).toFixed(1) + "%");
    $("op-changed-title").textContent = v.offer.changed.length + " side(s) changed";
    const box = $("op-changed");
    box.textContent = "";
    const images = [];
    for (const [tile, face] of v.offer.changed) {
      const pair = document.createElement("figure");
      pair.className = "changed";
      const mine = sideImage(tile, face, false, v.version), theirs = sideImage(tile, face, true, v.version);
      images.push(mine, theirs);
      pair.append(mine, theirs);
      const cap = document.createElement("figcaption");
      cap.textContent = s.state().tiles[tile].id + " " + face;
      pair.appendChild(cap);
      box.appendChild(pair);
    }
    await Promise.all(images.map((img) => img.decode().catch(() => null)));
    if (latest !== v) return; // a newer view came meanwhile
    shown = v.version;
    $("op-offer").hidden = false;
    $("op-status").textContent = status(v);
  }

  function show(v) {
    latest = v;
    const running = v.state === "running" || v.state === "stopping";
    $("op-start").disabled = running;
    $("op-stop").disabled = v.state !== "running";
    if (!running) clicked = null;
    $("op-status").textContent = status(v);
    chart(v.history);
    if (running) tick();
    if (!v.offer) { $("op-offer").hidden = true; shown = null; return; }
    if (shown !== v.version) { $("op-offer").hidden = true; drawOffer(v); }
  }

  $("op-start").addEventListener("click", async () => {
    clicked = performance.now();
    const v = await s.call("/api/search/start", { seconds: Math.floor(Number($("op-seconds").value)),
      seed: Math.floor(Number($("op-seed").value)) }, $("op-start"));
    if (v) follow(v); else clicked = null;
  });
  $("op-stop").addEventListener("click", async () => { const v = await s.call("/api/search/stop", {}); if (v) show(v); });
  $("op-accept").addEventListener("click", async () => {
    await s.apply(s.call("/api/search/accept", {}, $("op-accept")));
    const v = await s.call("/api/search/state");
    if (v) { show(v); s.say(v.last); }
  });
  $("op-discard").addEventListener("click", async () => { const v = await s.call("/api/search/discard", {}); if (v) show(v); });
  const follow = s.job("/api/search", "optimize", show);
})();
