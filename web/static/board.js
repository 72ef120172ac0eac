// The virtual board: the box's lights as they are lit now, redrawn several times a
// second so blinking and breathing show; the simulated buttons when there are any.
"use strict";
(() => {
  const { el, clear, api, say, leds } = Familiar;

  async function refresh() {
    const reply = await api("/api/board");
    if (reply.ok) draw(reply.data);
    setTimeout(refresh, 400);
  }

  function draw(board) {
    const status = document.getElementById("status-light");
    status.className = `led status ${board.status}`;
    document.getElementById("status-text").textContent = board.status;
    clear(document.getElementById("tracks")).append(...Object.entries(board.tracks).map(([name, track]) => leds(name, track)));
    clear(document.getElementById("spoken")).append(...board.spoken.slice().reverse().map((line) => el("li", {}, line)));
    clear(document.getElementById("parts")).append(Familiar.renderObject(board.parts));
    clear(document.getElementById("problems")).append(...board.problems.map((p) => el("li", {}, p)));
  }

  for (const button of document.querySelectorAll("[data-button]")) {
    button.addEventListener("click", async () => {
      const reply = await api("/api/board/press", { button: button.dataset.button });
      if (!reply.ok) say(reply.data.error, true);
    });
  }
  refresh();
})();
