/* Trailwright game server: one room's table. The server holds the game and says what is legal; this page
 * draws what it is told (the board and tile art are inline SVG, the data is JSON in "trailwright-data") and
 * sends the player's clicks. Every name is written as text, never as markup. No network but the server. */
"use strict";
(function () {
  const SVGNS = "http://www.w3.org/2000/svg";
  const data = JSON.parse(document.getElementById("trailwright-data").textContent);
  const $ = (id) => document.getElementById(id);
  const svg = $("table");
  if (svg.dataset.least) svg.style.cssText = svg.dataset.least; // the board's least size (no inline style: the CSP)
  const tilesLayer = $("tiles");
  const pawns = Array.from(document.querySelectorAll("#pawns .pawn"));
  const targets = document.createElementNS(SVGNS, "g");
  targets.id = "targets";
  svg.appendChild(targets);
  const STEP = data.geometry.step; // degrees a turn: the geometry's (the classic game's: 60)
  const room = data.room;
  const seatKey = "trailwright-seat-" + room;
  const ownerKey = "trailwright-owner-" + room;
  const radius = Math.hypot(data.slots.length > 1 ? data.slots[1][0] - data.slots[0][0] : 20,
                            data.slots.length > 1 ? data.slots[1][1] - data.slots[0][1] : 0) / 2 || 10;
  let ws = null;
  let last = null;
  let frames = null;

  const owner = /#owner=([A-Za-z0-9_-]+)/.exec(window.location.hash);
  const mine = /[#&]seat=(\d+)/.exec(window.location.hash); // the seat kept for the owner (the studio's designer)
  if (mine) localStorage.setItem(ownerKey + "-seat", mine[1]);
  if (owner) {
    localStorage.setItem(ownerKey, owner[1]);
    history.replaceState(null, "", window.location.pathname);  // the key leaves the address bar
  }

  function send(message) { // an error answers the player's last message: it stays until the next one, whatever others do
    $("message").textContent = "";
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  }

  function act(action) {
    send({ type: "act", token: localStorage.getItem(seatKey) || "", action: action });
  }

  function place(el, x, y, rot) {
    el.setAttribute("transform", "translate(" + x + " " + y + ")" + (rot ? " rotate(" + STEP * rot + ")" : ""));
  }

  function drawTiles(laid) {
    tilesLayer.textContent = "";
    document.querySelectorAll(".slot").forEach((s) => s.classList.remove("laid"));
    for (const [slot, tile, face, rot] of laid) {
      const art = $("side-" + tile + "-" + (face === 0 ? "front" : "back"));
      if (!art) continue;
      const g = document.createElementNS(SVGNS, "g");
      g.setAttribute("class", "tile");
      g.setAttribute("data-slot", String(slot));
      const copy = art.cloneNode(true);
      copy.removeAttribute("id");
      g.appendChild(copy);
      place(g, data.slots[slot][0], data.slots[slot][1], rot);
      tilesLayer.appendChild(g);
      const hex = document.querySelector('.slot[data-slot="' + slot + '"]');
      if (hex) hex.classList.add("laid");
    }
  }

  function drawPawns(xy) {
    pawns.forEach((p, i) => {
      p.style.display = i < xy.length ? "" : "none";
      if (i < xy.length) place(p, xy[i][0], xy[i][1], 0);
    });
  }

  function circle(cls, x, y, r, title, onClick) {
    const c = document.createElementNS(SVGNS, "circle");
    c.setAttribute("class", cls);
    c.setAttribute("cx", x);
    c.setAttribute("cy", y);
    c.setAttribute("r", r);
    const t = document.createElementNS(SVGNS, "title");
    t.textContent = title;
    c.appendChild(t);
    c.addEventListener("click", onClick);
    targets.appendChild(c);
    return c;
  }

  function drawTargets(list) {
    targets.textContent = "";
    for (const t of list) {
      const a = t.action;
      if (a[0] === "step") {
        const where = t.slot !== undefined ? "slot " + (t.slot + 1) : data.landmarks[t.landmark].name;
        const r = t.r !== undefined ? t.r : radius * 0.45; // the server's end target, else a slot's share
        const c = circle("target", t.at[0], t.at[1], r, "step to " + where, () => act(a));
        c.setAttribute("data-action", a.join(" "));
      } else {
        const dx = (a[2] > 0 ? 1 : -1) * radius * 0.35;
        const c = circle("turn-target", t.at[0] + dx, t.at[1] + radius * 0.45, radius * 0.2,
          "turn slot " + (t.slot + 1) + (a[2] > 0 ? " clockwise" : " anticlockwise"), () => act(a));
        c.setAttribute("data-action", a.join(" "));
      }
    }
    showTargets();
  }

  function showTargets() { // a board larger than its view scrolls to the steps when none of them is whole in sight
    const view = $("board-view").getBoundingClientRect();
    const steps = Array.from(targets.querySelectorAll(".target"));
    const inSight = (el) => {
      const b = el.getBoundingClientRect();
      return b.left >= view.left && b.right <= view.right && b.top >= view.top && b.bottom <= view.bottom;
    };
    if (steps.length && !steps.some(inSight)) steps[0].scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  function drawSeats(s) {
    const list = $("seat-list");
    list.textContent = "";
    const ownerSecret = localStorage.getItem(ownerKey);
    s.seats.forEach((seat, i) => {
      const li = document.createElement("li");
      const swatch = document.createElement("span");
      swatch.textContent = "● ";
      swatch.style.color = data.colours[i];
      li.appendChild(swatch);
      li.appendChild(document.createTextNode(seat ? seat.name : "empty"));
      if (seat) li.appendChild(document.createTextNode(" · " + s.ticked[i] + "/" + s.required));
      if (i === s.current && !s.over) li.classList.add("current");
      if (i === s.you) li.classList.add("you");
      const kept = localStorage.getItem(ownerKey + "-seat"); // the owner's own seat offers no bots while they stand
      if (!seat && ownerSecret && !(s.you === null && kept === String(i))) {
        for (const policy of s.bots) {
          const b = document.createElement("button");
          b.type = "button";
          b.className = "seat-bot";
          b.textContent = "+ " + policy + " bot";
          b.addEventListener("click", () => send({ type: "bot", seat: i, policy: policy, owner: ownerSecret }));
          li.appendChild(b);
        }
      }
      list.appendChild(li);
    });
    $("sit").hidden = s.you !== null || !s.seats.includes(null);
    $("invite").hidden = !s.seats.includes(null); // while a seat is open: the link to send (never the owner key)
    $("invite-link").textContent = window.location.origin + window.location.pathname;
  }

  function drawFeed(feed) {
    const ol = $("feed");
    ol.textContent = "";
    for (const line of feed) {
      const li = document.createElement("li");
      li.textContent = line;
      ol.appendChild(li);
    }
    ol.scrollTop = ol.scrollHeight;
  }

  function status(s) {
    const name = (i) => (s.seats[i] ? s.seats[i].name : "seat " + (i + 1));
    if (s.over) return s.winner >= 0 ? name(s.winner) + " won in round " + s.round : "the round cap ended the game";
    if (s.seats.includes(null)) return "waiting for every seat to be filled";
    if (s.warming) return "the server is warming up: the bots move in a moment";
    const turn = s.current === s.you ? "your turn" : name(s.current) + "'s turn";
    return "round " + s.round + " · " + turn + (s.pips ? " · " + s.pips + " to walk" : "");
  }

  function render(s) {
    last = s;
    drawTiles(s.laid);
    drawPawns(s.pawns);
    drawTargets(s.targets);
    drawSeats(s);
    drawFeed(s.feed);
    $("status").textContent = status(s);
    const legal = s.legal.map((a) => a[0]);
    $("roll").hidden = !legal.includes("roll");
    $("pass").hidden = !legal.includes("pass");
    $("replay").hidden = !s.over;
    if (s.over && !frames) loadReplay();
  }

  async function loadReplay() {
    const reply = await fetch("/api/rooms/" + room + "/replay");
    if (!reply.ok) return;
    frames = (await reply.json()).frames;
    const slider = $("replay-slider");
    slider.max = String(frames.length - 1);
    slider.value = slider.max;
    $("replay-at").textContent = frames.length - 1 + " / " + (frames.length - 1);
  }

  $("replay-slider").addEventListener("input", (event) => {
    if (!frames) return;
    const k = Number(event.target.value);
    const f = frames[k];
    drawTiles(f.laid);
    drawPawns(f.pawns);
    drawTargets([]);
    drawFeed(f.feed);
    $("replay-at").textContent = k + " / " + (frames.length - 1);
  });

  $("copy-invite").addEventListener("click", async () => {
    const link = $("invite-link").textContent;
    try {
      await navigator.clipboard.writeText(link);
      $("copy-invite").textContent = "Copied";
    } catch (err) { // no clipboard here (an insecure origin): select the link for the player to copy
      window.getSelection().selectAllChildren($("invite-link"));
    }
  });
  $("roll").addEventListener("click", () => act(["roll"]));
  $("pass").addEventListener("click", () => act(["pass"]));
  $("sit").addEventListener("submit", (event) => {
    event.preventDefault();
    send({ type: "sit", name: $("name").value });
  });

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    ws = new WebSocket(scheme + window.location.host + "/ws/" + room);
    ws.addEventListener("open", () => {
      const token = localStorage.getItem(seatKey);
      if (token) send({ type: "hello", token: token });
    });
    ws.addEventListener("message", (event) => {
      const m = JSON.parse(event.data);
      if (m.type === "state") {
        render(m);
      } else if (m.type === "seated") {
        localStorage.setItem(seatKey, m.token);
        send({ type: "hello", token: m.token });
      } else if (m.type === "error") {
        $("message").textContent = m.error;
      }
    });
    ws.addEventListener("close", (event) => {
      if (event.code >= 4400 && event.code < 4500) { // the server refused the connection, with its reason
        $("status").textContent = "refused: " + (event.reason || "the server would not take this connection");
        if (event.code !== 4429) return;
      } else {
        $("status").textContent = "disconnected: reconnecting…";
      }
      setTimeout(connect, event.code === 4429 ? 10000 : 1000);
    });
  }
  window.trailwright = { render: render }; // for tests and the curious: draw a state as the server sends it
  connect();
})();
