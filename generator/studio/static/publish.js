/* Trailwright studio, Publish view: run the publish, watch what it prints (server-sent events), then the
 * preflight's verdict and every file of the kit, each PDF with a thumbnail of each page. */
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const s = window.studio;

  function fileLink(path, text) {
    const a = document.createElement("a");
    a.href = "/kit/" + path.split("/").map(encodeURIComponent).join("/");
    a.target = "_blank";
    a.textContent = text;
    return a;
  }

  function drawKit(v) {
    const box = $("pb-kit");
    box.textContent = "";
    $("pb-note").textContent = v.note || (v.kit.length ? v.kit.length + " files in output/kit/" : "Not published yet.");
    const pdfs = v.kit.filter((f) => f.pages.length);
    const others = v.kit.filter((f) => !f.pages.length);
    for (const f of pdfs) {
      const fig = document.createElement("figure");
      fig.className = "kit-file";
      for (const page of f.pages.slice(0, 16)) {
        const img = document.createElement("img");
        img.src = "/kit-pages/" + encodeURIComponent(page);
        img.alt = f.path + ", " + page;
        img.loading = "lazy";
        fig.appendChild(img);
      }
      const cap = document.createElement("figcaption");
      cap.appendChild(fileLink(f.path, f.path));
      cap.append(" · " + f.pages.length + " page(s) · " + Math.round(f.bytes / 1024) + " KiB");
      fig.appendChild(cap);
      box.appendChild(fig);
    }
    if (others.length) {
      const list = document.createElement("ul");
      for (const f of others) {
        const li = document.createElement("li");
        li.appendChild(fileLink(f.path, f.path));
        li.append(" · " + Math.round(f.bytes / 1024) + " KiB");
        list.appendChild(li);
      }
      box.appendChild(list);
    }
  }

  function show(v) {
    const running = v.state === "running" || v.state === "stopping";
    $("pb-start").disabled = running;
    $("pb-stop").disabled = v.state !== "running";
    const log = $("pb-log");
    const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4; // the designer has not scrolled up
    log.textContent = v.lines.join("\n") + (v.state === "failed" ? "\n" + v.error : "");
    if (atEnd) log.scrollTop = log.scrollHeight; // the log follows its last line
    if (running) {
      const left = v.took === null ? null : Math.max(0, v.took - v.elapsed);
      $("pb-time").textContent = "publishing… " + v.elapsed.toFixed(0) + " s" + (left === null
        ? " (the first publish: the next ones say the time left)"
        : left > 0 ? ", about " + left.toFixed(0) + " s left (the last publish took " + v.took.toFixed(0) + " s)"
        : ", longer than the last publish (" + v.took.toFixed(0) + " s)");
    } else {
      $("pb-time").textContent = v.state === "done" && v.took !== null ? "published in " + v.took.toFixed(0) + " s" : "";
    }
    const c = v.checks;
    $("pb-checks").textContent = c ? c.summary : "";
    $("pb-checks").className = c ? (c.failed.length ? "worse" : "better") : "";
    const failed = $("pb-failed");
    failed.textContent = "";
    for (const line of c ? c.failed : []) {
      const li = document.createElement("li");
      li.textContent = line;
      failed.appendChild(li);
    }
    if (!running) drawKit(v);
  }

  $("pb-start").addEventListener("click", async () => {
    const v = await s.call("/api/publish/start", {}, $("pb-start"));
    if (v) follow(v);
  });
  $("pb-stop").addEventListener("click", async () => { const v = await s.call("/api/publish/stop", {}); if (v) show(v); });
  const follow = s.job("/api/publish", "publish", show);
})();
