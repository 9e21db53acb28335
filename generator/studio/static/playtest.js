/* Trailwright studio, Playtest view: a room of the game server that plays the tiles as edited now, the
 * designer in seat 0 and bots in the others; the games so far, with links to watch or replay them. */
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const s = window.studio;

  function fillPlayers() {
    const select = $("pt-players");
    if (select.options.length || !s.state()) return;
    const [low, high, usual] = s.state().players;
    for (let n = low; n <= high; n++) {
      const o = document.createElement("option");
      o.value = String(n);
      o.textContent = String(n);
      o.selected = n === usual;
      select.appendChild(o);
    }
  }

  async function listRooms() {
    const data = await s.call("/api/playtests");
    if (!data) return;
    const table = $("pt-rooms");
    table.textContent = "";
    if (!data.rooms.length) { s.row(table, "no games yet", ""); return; }
    data.rooms.slice().reverse().forEach((r) => {
      const tr = document.createElement("tr");
      const who = document.createElement("td");
      who.textContent = r.seats.map((n) => n === null ? "(empty)" : n).join(", ");
      const how = document.createElement("td");
      how.textContent = r.over ? (r.winner >= 0 ? "won by " + r.seats[r.winner] + " in round " + r.round
        : "no winner") : "round " + r.round + ", " + r.moves + " moves";
      const link = document.createElement("td");
      const a = document.createElement("a");
      a.href = "/room/" + encodeURIComponent(r.room);
      a.target = "_blank";
      a.textContent = r.over ? "replay" : "open";
      link.appendChild(a);
      tr.append(who, how, link);
      table.appendChild(tr);
    });
  }

  $("pt-start").addEventListener("click", async () => {
    const made = await s.call("/api/playtest", { players: Number($("pt-players").value), policy: $("pt-policy").value });
    if (!made) return;
    const a = document.createElement("a");
    a.href = made.url;
    a.target = "_blank";
    a.id = "pt-link";
    a.textContent = "Open the room (take seat 0 with your name)";
    $("pt-made").textContent = "";
    $("pt-made").appendChild(a);
    window.open(made.url, "_blank");
    listRooms();
  });

  document.addEventListener("studio-view", (event) => {
    if (event.detail === "playtest") { fillPlayers(); listRooms(); }
  });
})();
