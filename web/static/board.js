// The virtual board: the box's lights as they are lit now, redrawn several times a
// second so blinking and breathing show; the simulated buttons when there are any.
"use strict";
(() => {
  const { el, clear, redraw, api, say, leds, live, t } = Familiar;


  async function refresh() {
    const reply = await api("/api/board");
    if (reply.ok) draw(reply.data);
    setTimeout(refresh, 400);
  }

  function draw(board) {
    const status = document.getElementById("status-light");
    status.className = `led status ${board.status}`;
    document.getElementById("status-text").textContent = Familiar.boxWord(board.status);
    document.getElementById("pairing-panel").hidden = !board.pairing;  // only on the box's own screen
    document.getElementById("pairing-code").textContent = board.pairing || "";
    // Redrawn only when the lights change, so a blinking LED keeps its rhythm between polls
    // (or the game's names for them arrive).
    redraw(document.getElementById("tracks"), [board.tracks, board.blink_seconds, Familiar.labels], () => {
      const tracks = Object.entries(board.tracks);
      return tracks.length ? tracks.map(([name, track]) => leds(name, track, board.blink_seconds))
        : [el("p", { class: "muted" }, t("No track lights: no game is using them."))];
    });
    clear(document.getElementById("spoken")).append(...board.spoken.slice().reverse().map((line) => el("li", {}, line)));
    clear(document.getElementById("parts")).append(Familiar.parts(board.parts));
    clear(document.getElementById("problems")).append(...board.problems.map((p) => el("li", {}, p)));
  }

  // The end of a game, as every page shows it: everyone's cards, the outcome and the
  // story, from the public table whenever its version changes (the lights poll apart).
  async function drawEnd() {
    const reply = await api("/api/table");
    if (!reply.ok) return;
    Familiar.follow(reply.data.language);  // a game set up in another language: this page too
    Familiar.labels = reply.data.labels || {};  // the game's names for its tracks
    const ending = (reply.data.view && reply.data.view.reveal) || null;
    document.getElementById("end-panel").hidden = !ending;
    redraw(document.getElementById("end"), [ending], () => (ending ? [Familiar.renderObject({ reveal: ending })] : []));
  }

  for (const button of document.querySelectorAll("[data-button]")) {
    button.addEventListener("click", async () => {
      const reply = await api("/api/board/press", { button: button.dataset.button });
      if (!reply.ok) say(reply.data.error, true);
    });
  }
  refresh();
  live(drawEnd);
})();
