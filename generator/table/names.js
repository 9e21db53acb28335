/* Trailwright: the landmarks' names stay readable on screen. The board is drawn at its printed size in mm, so on
 * a big board (or a small window) a name printed 9 pt high is a few pixels; here it grows to LEAST_PX, centred where
 * it was, with a halo of its disc's colour over the trails it then covers. Shared by the play table and the game
 * server's rooms. */
"use strict";
(function () {
  const LEAST_PX = 12;
  const svg = document.getElementById("table");
  if (!svg) return;
  const halo = JSON.parse(document.getElementById("trailwright-data").textContent).ground; // the discs' colour
  const names = Array.from(svg.querySelectorAll("text.landmark-name")).map(function (text) {
    return { text: text, size: Number(text.getAttribute("font-size")), y: Number(text.getAttribute("y")) };
  });

  function fit() {
    const m = svg.getScreenCTM();
    if (!m || !m.a) return;
    const pxPerUnit = Math.hypot(m.a, m.b);
    names.forEach(function (n) {
      const size = Math.max(n.size, LEAST_PX / pxPerUnit);
      n.text.setAttribute("font-size", size.toFixed(3));
      n.text.setAttribute("y", (n.y + 0.35 * (size - n.size)).toFixed(3)); // the same centre line
      if (size > n.size) {
        n.text.setAttribute("stroke", halo);
        n.text.setAttribute("stroke-width", (0.3 * size).toFixed(3));
        n.text.setAttribute("stroke-linejoin", "round");
        n.text.setAttribute("paint-order", "stroke");
      } else {
        ["stroke", "stroke-width", "stroke-linejoin", "paint-order"].forEach(function (a) { n.text.removeAttribute(a); });
      }
    });
  }

  window.addEventListener("resize", fit);
  if (window.ResizeObserver) new window.ResizeObserver(fit).observe(svg);
  fit();
})();
