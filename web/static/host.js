// The host's page: the public table only (never /api/me), the host's own prompts,
// readings to confirm, seats to reset, undo, notices, lights, new game, teach a deck or a die.
"use strict";
(() => {
  const { el, clear, api, say, live, pretty, renderObject, renderTable, renderPrompt, t } = Familiar;

  let games = [];

  async function post(path, body, done) {
    const reply = await api(path, body);
    say(reply.ok ? done : reply.data.error || t("Not accepted."), !reply.ok);
    return reply;
  }

  const act = (kind, data) => post("/api/host/act", { kind, data }, t("Done."));

  function seatRow(name, seat, claimed) {
    return el("li", { class: "seat-row" },
      el("span", { class: claimed ? "joined" : "waiting" }, claimed ? t("{name}: joined", { name }) : t("{name}: not joined", { name })),
      claimed ? el("button", { class: "small", onclick: () => {
        if (window.confirm(t("Reset {name}'s seat? Their phone stops working and they join again.", { name }))) {
          post("/api/host/reset", { seat }, t("{name} can join again.", { name }));
        }
      } }, t("Reset")) : null);
  }

  // Prompts for a seat are shown with that seat's name; the host may answer for them.
  function prompt(expect, seats) {
    if (expect.seat === null || expect.seat === undefined) return renderPrompt(expect, act);
    const who = seats[expect.seat];
    const box = renderPrompt(expect, act, { seat: expect.seat });
    box.prepend(el("p", { class: "muted" }, t("Waiting for {name}; or enter it for them:", { name: who })));
    return box;
  }

  // Fold the QR code away once every seat has its phone (once: the host may reopen it).
  let folded = false;
  function foldJoin(view) {
    if (!folded && view.seats.length && view.claimed.every(Boolean)) {
      document.getElementById("join-box").open = false;
      folded = true;
    }
  }

  // A prompt that wants a roll or cards has the camera's view beside it.
  const SEEN_BY_CAMERA = new Set(["dice", "cards"]);

  function drawJoined(view) {
    const joined = view.claimed.filter(Boolean).length;
    const line = document.getElementById("joined");
    line.hidden = !view.seats.length;
    line.textContent = joined === view.seats.length ? t("Every player has joined.")
      : t("{joined} of {count} players have joined (Players tab: reset a seat).", { joined, count: view.seats.length });
  }

  function drawUndo(view) {
    lastBy = view.last_by || null;
    document.getElementById("undo").textContent = lastBy ? t("Undo {name}'s answer", { name: lastBy }) : t("Undo last step");
    const what = document.getElementById("undo-what");
    // A step that showed a secret is final: the page says so before anyone presses.
    const says = view.undo_refused || (view.undoes ? t("Undo takes back the answer to: {prompt}", { prompt: view.undoes }) : "");
    what.hidden = !says;
    what.textContent = says;
    document.getElementById("undo").disabled = Boolean(view.undo_refused);
  }

  function drawTable(view) {
    Familiar.follow(view.language);
    foldJoin(view);
    Familiar.labels = view.labels || {};
    document.getElementById("title").textContent = !view.game ? t("No game yet") : view.over ? t("{title} (over)", { title: view.title }) : view.title;
    clear(document.getElementById("seats")).append(...view.seats.map((n, i) => seatRow(n, i, view.claimed[i])));
    drawJoined(view);
    Familiar.redrawEach(document.getElementById("prompts"), view.expects.map((e) => [e, view.seats]), ([e, seats]) => prompt(e, seats));
    document.getElementById("turn-panel").hidden = !view.expects.length;
    document.getElementById("turn-camera").hidden = !view.expects.some((e) => SEEN_BY_CAMERA.has(e.kind));
    Familiar.timers(document.getElementById("timers"), view.timers, timerControls);
    clear(document.getElementById("view")).append(view.game ? renderTable(view.view) : el("p", { class: "muted" }, t("Start a game below.")));
    clear(document.getElementById("notices")).append(...view.notices.slice().reverse().map((n) => el("li", {}, n)));
    drawUndo(view);
    playing = Boolean(view.game) && !view.over;
  }
  let lastBy = null;
  let playing = false;

  // A timer's controls: they are table actions, logged (and undone) like any other.
  function timerControls(name, timer) {
    const control = (what) => act("table.timer", { name, do: what });
    return el("div", { class: "row" },
      el("button", { class: "small", onclick: () => control(timer.running ? "pause" : "resume") }, timer.running ? t("Pause") : t("Resume")),
      el("button", { class: "small", onclick: () => control("add") }, t("+1 minute")),
      el("button", { class: "small no", onclick: () => control("end") }, t("End now")));
  }

  function drawBoard(board) {
    clear(document.getElementById("problems")).append(...board.problems.map((p) => el("li", { class: "problem" }, p)),
      ...Object.entries(board.parts).filter(([, s]) => s !== "ok").map(([part, s]) => el("li", { class: "problem" }, `${Familiar.boxWord(part)}: ${Familiar.boxWord(s)}`)));
    const tracks = Object.entries(board.tracks).map(([name, track]) => Familiar.leds(name, track));
    clear(document.getElementById("lights")).append(...(tracks.length ? tracks : [el("p", { class: "muted" }, t("No lights ({status}).", { status: board.status }))]));
  }

  function pendingReading(reading) {
    const named = reading.values.map((v) => (v && typeof v === "object" ? v.card : v));  // a card read with its data
    const values = el("input", { type: "text", value: named.join(", "), "aria-label": t("values read") });
    const parse = () => values.value.split(",").map((s) => s.trim()).filter(Boolean).map((s) => (reading.kind === "dice" && /^\d+$/.test(s) ? Number(s) : s));  // a taught die's faces are names
    const resolve = (vals, done) => post(`/api/host/pending/${encodeURIComponent(reading.id)}`, { values: vals }, done).then(refresh);
    return el("div", { class: "reading", "data-reading": reading.id },
      el("img", { class: "photo", alt: t("the photo of this reading"), src: `/api/host/pending/${encodeURIComponent(reading.id)}/photo` }),
      el("p", {}, t("{kind} read as {values} (sure: {percent}%)", { kind: pretty(reading.kind), values: named.join(", "), percent: Math.round(reading.confidence * 100) })),
      el("div", { class: "row" }, el("button", { class: "big yes", onclick: () => resolve(reading.values, t("Confirmed.")) }, t("Right"))),
      el("label", {}, t("Or correct it:"), values),
      el("div", { class: "row" },
        el("button", { class: "big", onclick: () => resolve(parse(), t("Corrected.")) }, t("Use these")),
        el("button", { class: "small no", onclick: () => resolve(null, t("Discarded.")) }, t("Discard"))));
  }

  // Readings in the box's order (newest first), each kept as drawn while it waits: a
  // live update never wipes a correction being typed into one.
  const drawnReadings = new Map();
  function drawPending(readings) {
    document.getElementById("pending-panel").hidden = !readings.length;
    const holder = document.getElementById("pending");
    const waiting = new Set(readings.map((r) => r.id));
    for (const [id, node] of drawnReadings) if (!waiting.has(id)) { node.remove(); drawnReadings.delete(id); }
    readings.forEach((reading, index) => {
      if (!drawnReadings.has(reading.id)) drawnReadings.set(reading.id, pendingReading(reading));
      const node = drawnReadings.get(reading.id);
      // only a node out of place moves (moving one would take the focus from its field)
      if (holder.children[index] !== node) holder.insertBefore(node, holder.children[index] || null);
    });
  }

  // Phones asking for a seat that was reset: the host gives it to the one showing the number.
  function drawSeatRequests(requests) {
    document.getElementById("seat-requests-panel").hidden = !requests.length;
    clear(document.getElementById("seat-requests")).append(...requests.map((r) => el("li", {},
      t("A phone asks for {name}'s seat and shows {number}.", { name: r.name, number: r.number }), " ",
      el("button", { type: "button", onclick: () => post("/api/host/seats", { id: r.id, approve: true },
        t("{name}'s seat is that phone's.", { name: r.name })).then(refresh) }, t("Give {name}'s seat to it", { name: r.name })), " ",
      el("button", { type: "button", onclick: () => post("/api/host/seats", { id: r.id, approve: false },
        t("Refused.")).then(refresh) }, t("Refuse")))));
  }

  // A new game (or an undone one) has a new join code: show its address and QR code.
  function drawJoin(link) {
    document.getElementById("pairing-panel").hidden = !link.pairing;
    document.getElementById("pairing-code").textContent = link.pairing || "";
    const url = document.getElementById("join-url");
    if (url.textContent === link.url) return;
    url.textContent = link.url;
    const qr = document.getElementById("join-qr");
    qr.src = link.qr;
    qr.alt = t("QR code for {url}", { url: link.url });
  }

  const refresh = Familiar.serial(async () => {
    const [table, board, pending, join, seats] = await Promise.all(
      [api("/api/table"), api("/api/board"), api("/api/host/pending"), api("/api/host/join"), api("/api/host/seats")]);
    if (pending.status === 403) { window.location.reload(); return; }
    if (join.ok) drawJoin(join.data);
    if (seats.ok) drawSeatRequests(seats.data.requests);
    if (table.ok) drawTable(table.data);
    if (board.ok) drawBoard(board.data);
    if (pending.ok) drawPending(pending.data.pending);
  });

  // New game

  function drawGameOptions() {
    const game = games.find((g) => g.name === document.getElementById("game-select").value);
    const holder = clear(document.getElementById("game-options"));
    // Each option is sent as the game's own value and shown in the table's language.
    for (const [name, choices] of Object.entries((game && game.options) || {})) {
      const shown = (game.option_labels && game.option_labels[name]) || choices;
      const label = (game.labels && game.labels[name]) || pretty(name);
      holder.append(el("label", {}, label,
        el("select", { "data-option": name }, choices.map((c, i) => el("option", { value: JSON.stringify(c) }, String(shown[i]))))));
    }
    // An option the box keeps per board: shown as saved, sent as it then reads (empty: none).
    for (const [name, saved] of Object.entries((game && game.kept) || {})) {
      const label = (game.labels && game.labels[name]) || pretty(name);
      const field = el("textarea", { "data-kept": name, "data-label": label, rows: 4, maxlength: 4000, spellcheck: "false" });
      field.value = saved === null ? "" : JSON.stringify(saved);
      const example = game.kept_examples && game.kept_examples[name];
      if (example !== undefined) field.placeholder = JSON.stringify(example);
      holder.append(el("label", {}, t("{name} (kept for this board, as JSON)", { name: label }), field));
    }
  }

  function typed(text) {
    if (/^-?\d+$/.test(text)) return Number(text);
    if (text === "true" || text === "false") return text === "true";
    return text;
  }

  // The options as set; throws (with the host's words) when a kept option is not JSON.
  function options() {
    const chosen = {};
    for (const select of document.querySelectorAll("[data-option]")) chosen[select.dataset.option] = JSON.parse(select.value);
    for (const field of document.querySelectorAll("[data-kept]")) {
      const name = field.dataset.kept;
      try {
        chosen[name] = field.value.trim() ? JSON.parse(field.value) : null;
      } catch (error) {
        throw new Error(t("{name} is not valid JSON: {reason}", { name: field.dataset.label, reason: error.message }));
      }
    }
    for (const line of document.getElementById("extra-options").value.split("\n")) {
      const at = line.indexOf("=");
      if (at > 0) chosen[line.slice(0, at).trim()] = typed(line.slice(at + 1).trim());
    }
    return chosen;
  }

  async function loadGames() {
    const reply = await api("/api/host/games");
    if (!reply.ok) return;
    games = reply.data.games;
    const select = document.getElementById("game-select");
    const was = select.value;
    clear(select).append(...games.map((g) => el("option", { value: g.name }, t("{title} ({least}-{most} players)", { title: g.title, least: g.min_seats, most: g.max_seats }))));
    if (games.some((g) => g.name === was)) select.value = was;
    drawGameOptions();
    drawTeachGames();
  }

  document.getElementById("game-select").addEventListener("change", drawGameOptions);
  document.getElementById("new-game").addEventListener("submit", async (event) => {
    event.preventDefault();
    const seats = document.getElementById("seat-names").value.split("\n").map((s) => s.trim()).filter(Boolean);
    let chosen;
    try {
      chosen = options();
    } catch (error) {
      say(error.message, true);
      return;
    }
    if (playing && !window.confirm(t("A game is being played. Start a new one? Undo can bring this one back."))) return;
    const language = document.getElementById("game-language").value;
    const reply = await act("table.new", { game: document.getElementById("game-select").value, seats, options: { ...chosen, language } });
    if (reply.ok) loadGames(); // the form now offers what the box kept from this game
  });
  // Undo of a player's answer asks first; a step that showed a secret is refused (409).
  document.getElementById("undo").addEventListener("click", async () => {
    if (lastBy && !window.confirm(t("Undo {name}'s answer? {name} will have to answer again.", { name: lastBy }))) return;
    const reply = await api("/api/host/undo", {});
    if (reply.ok) { say(t("Undone.")); return; }
    say(reply.data.error || t("Not accepted."), true);
  });

  // Teach a deck

  function teachRequest(commit) {
    return {
      catalog: document.getElementById("deck").value.trim(),
      rows: Number(document.getElementById("rows").value),
      cols: Number(document.getElementById("cols").value),
      names: document.getElementById("card-names").value.split(/[\n,]/).map((s) => s.trim()).filter(Boolean),
      commit,
    };
  }

  async function teach(commit) {
    const request = teachRequest(commit);
    const reply = await post("/api/host/teach", request, commit ? (request.names.length === 1 ? t("Saved 1 card.") : t("Saved {count} cards.", { count: request.names.length })) : t("Check each card, then save."));
    const previews = clear(document.getElementById("teach-previews"));
    document.getElementById("teach-save").disabled = !reply.ok || commit;
    if (!reply.ok) return;
    reply.data.previews.forEach((src, i) => previews.append(el("figure", {}, el("img", { src, alt: request.names[i] }), el("figcaption", {}, request.names[i]))));
  }

  // A game's own decks (Secret Voldemort's two policy cards): one tap fills the form in.
  function drawTeachGames() {
    const holder = clear(document.getElementById("teach-games"));
    for (const deck of games.flatMap((g) => g.teach || [])) {
      holder.append(el("button", { type: "button", class: "big", onclick: () => fillTeach(deck) }, deck.title));
    }
  }

  function fillTeach(deck) {
    document.getElementById("deck").value = deck.deck;
    document.getElementById("rows").value = deck.rows;
    document.getElementById("cols").value = deck.cols;
    document.getElementById("card-names").value = deck.names.join("\n");
    const how = document.getElementById("teach-how");
    how.textContent = deck.how;
    how.hidden = false;
  }

  document.getElementById("teach").addEventListener("submit", (event) => { event.preventDefault(); teach(false); });
  document.getElementById("teach-save").addEventListener("click", () => teach(true));
  for (const button of document.querySelectorAll("button.meter-camera")) {
    button.addEventListener("click", () => post("/api/host/camera/meter", {}, t("The camera measures the light again.")));
  }
  for (const box of document.querySelectorAll("details.camera-box")) {
    box.addEventListener("toggle", () => {
      if (box.open) box.querySelector("img").src = `/api/host/camera?t=${Date.now()}`;
    });
  }

  // Teach a symbol die: one capture adds one photo of one face; the list shows every
  // taught die with its faces and photo counts, and forgets a die after a confirmation.

  function faceList(faces) {
    return el("ul", { class: "face-counts" },
      Object.entries(faces).map(([face, n]) => el("li", {}, n === 1 ? t("{face}: 1 photo", { face }) : t("{face}: {count} photos", { face, count: n }))));
  }

  // The box reads a die by its face names only once all six faces are taught (see
  // vision/dice/taught.py FACES_PER_DIE); until then it asks the host to confirm it.
  function faceProgress(count) {
    return el("p", { class: "muted face-progress" }, count >= 6 ? t("All six faces taught: rolls read this die.")
      : t("{count} of 6 faces taught: until all six are, rolls with this die ask you to confirm it.", { count }));
  }

  function drawTaughtDice(dice) {
    const holder = clear(document.getElementById("taught-dice"));
    const names = Object.keys(dice);
    if (!names.length) { holder.append(el("p", { class: "muted" }, t("No die taught yet."))); return; }
    holder.append(...names.map((name) => el("div", { class: "taught-die", "data-die": name },
      el("div", { class: "row" }, el("strong", {}, name),
        el("button", { class: "small no", type: "button", onclick: () => forgetDie(name) }, t("Forget {name}", { name }))),
      faceList(dice[name]), faceProgress(Object.keys(dice[name]).length))));
  }

  async function loadTaughtDice() {
    const reply = await api("/api/host/dice");
    if (reply.ok) drawTaughtDice(reply.data.dice);
  }

  async function forgetDie(name) {
    if (!window.confirm(t("Forget the die \"{name}\" and all its photos? Rolls will no longer read it.", { name }))) return;
    const reply = await post("/api/host/dice/forget", { die: name }, t("Forgot {name}.", { name }));
    if (reply.ok) drawTaughtDice(reply.data.dice);
  }

  async function captureFace() {
    const die = document.getElementById("die-name").value.trim();
    const face = document.getElementById("face-name").value.trim();
    const result = document.getElementById("die-result");
    const preview = document.getElementById("die-preview");
    const button = document.getElementById("capture");
    button.disabled = true;
    const reply = await api("/api/host/dice/teach", { die, face });
    button.disabled = false;
    if (!reply.ok) {
      result.textContent = reply.data.error || t("Not accepted.");
      result.className = "problem";
      preview.hidden = true;  // the last good patch is not what this capture saw
      say(result.textContent, true);
      return;
    }
    const n = reply.data.faces[face];
    result.textContent = t("Saved photo {count} of {face}. Turn or move the die and capture again, or show the next face.", { count: n, face });
    result.className = "muted";
    preview.hidden = false;
    preview.querySelector("img").src = reply.data.preview;
    preview.querySelector("figcaption").textContent = `${die}: ${face}`;
    say(t("Saved photo {count} of {face}.", { count: n, face }));
    drawTaughtDice(reply.data.dice);
  }

  document.getElementById("teach-die").addEventListener("submit", (event) => { event.preventDefault(); captureFace(); });

  Familiar.tabs(document.querySelector("[role=tablist]"));
  loadGames();
  loadTaughtDice();
  live(refresh);
})();
