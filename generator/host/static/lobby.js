/* Trailwright game server: the host's lobby makes a room and opens it (the owner key rides in the
 * address's fragment, which no server ever sees). */
"use strict";
(function () {
  const token = new URLSearchParams(window.location.search).get("token") || "";
  document.getElementById("create").addEventListener("submit", async (event) => {
    event.preventDefault();
    const players = Number(document.getElementById("players").value);
    const made = document.getElementById("made");
    const reply = await fetch("/api/rooms", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Trailwright": "1", "Authorization": "Bearer " + token },
      body: JSON.stringify({ players: players }),
    });
    const data = await reply.json();
    if (!reply.ok) { made.textContent = data.error; return; }
    const invite = window.location.origin + data.url;
    made.textContent = "Invite link (send it to the players): " + invite;
    window.location.href = data.url + "#owner=" + encodeURIComponent(data.owner);
  });
})();
