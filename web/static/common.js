// Shared by every page: JSON calls, live updates, and generic rendering of any game's
// views and prompts.  Everything is built with textContent (never innerHTML), because
// seat names and game text come from people at the table.
"use strict";

const Familiar = (() => {
  // The page's words in the table's language, from the box's catalog (the page carries
  // them, so no script builds an English sentence): t("{name} joined", { name }).
  const words = JSON.parse(document.body.dataset.words || "{}");
  function t(text, params) {
    const said = words[text] || text;
    return said.replace(/\{(\w+)\}/g, (whole, key) => (params && key in params ? String(params[key]) : whole));
  }

  // Build an element: el("button", {class: "big", onclick: f}, "text", child...)
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  // GET when body is undefined, else POST JSON.  Never throws: {ok, status, data}.
  async function api(path, body) {
    const init = { credentials: "same-origin", cache: "no-store", headers: {} };
    if (body !== undefined) {
      init.method = "POST";
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    try {
      const response = await fetch(path, init);
      const data = await response.json().catch(() => ({}));
      reachable(true);
      return { ok: response.ok, status: response.status, data };
    } catch (err) {
      reachable(false);
      return { ok: false, status: 0, data: { error: t("the box cannot be reached") } };
    }
  }

  // A banner while the box does not answer (Wi-Fi lost, the box restarting), gone with
  // the first answer, so nobody waits on a page that cannot hear the table.
  function reachable(yes) {
    const banner = document.getElementById("offline");
    if (banner) banner.hidden = yes;
  }

  let sayTimer = null;
  function say(message, isError) {
    const bar = document.getElementById("message");
    if (!bar) return;
    bar.textContent = message || "";
    bar.className = isError ? "message error" : "message";
    bar.hidden = !message;
    clearTimeout(sayTimer);
    sayTimer = setTimeout(() => { bar.hidden = true; }, isError ? 8000 : 4000);
  }

  // A track's lights exactly as the box lights them: each LED in the track's colour
  // (a track on no LEDs in the page's own), the blinking one at the box's own rhythm.
  const SHOWN_ON = { bar: t("LED bar"), strip: t("LED strip") };
  function leds(name, track, blinkSeconds) {
    const where = track.idle ? t("not used by this game") : (SHOWN_ON[track.on] || t("on this page only"));
    const row = el("div", { class: "leds" },
      track.lit.map((on, i) => el("span", {
        class: "led" + (on ? " on" : "") + (i === track.blinking ? " blinking" : ""), title: `${i + 1}` })));
    // Through the CSSOM: the page's content security policy refuses inline style attributes.
    if (track.colour) row.style.setProperty("--lit", track.colour);
    row.style.setProperty("--blink", `${2 * (blinkSeconds || 0.3)}s`);
    return el("div", { class: "track" + (track.idle ? " idle" : ""), "data-track": name, "data-on": track.on || "page" },
      el("p", {}, pretty(name), " ", el("span", { class: "muted" }, `(${where})`)), row);
  }

  // The box's own words (web/box.py: its parts, their states, the status light) in the
  // table's language; a word the page does not know (a driver's message) is shown as it comes.
  const BOX_WORDS = {
    camera: t("Camera"), speaker: t("Speaker"), gpio: t("Lights and buttons"), storage: t("Storage"),
    ok: t("ok"), missing: t("missing"), starting: t("starting"), simulated: t("simulated"), failing: t("failing"),
    "missing: WAV files only": t("missing: WAV files only"),
    waiting: t("waiting"), ready: t("ready"), attention: t("attention"), off: t("off"),
  };
  function boxWord(word) {
    return Object.prototype.hasOwnProperty.call(BOX_WORDS, word) ? BOX_WORDS[word] : String(word);
  }

  // The box's parts, each named and in its state: "Camera: missing".
  function parts(states) {
    const named = Object.entries(states || {});
    if (!named.length) return el("p", { class: "muted" }, t("Nothing to show."));
    return el("dl", { class: "view" }, named.map(([part, state]) => [el("dt", {}, boxWord(part)), el("dd", {}, boxWord(state))]));
  }

  // A page's refresh, run one at a time: a call while one is under way runs it once
  // more after that one, so a slow read begun before a change never draws over a newer
  // one (two live updates close together on a loaded box) and the last draw is fresh.
  function serial(run) {
    let busy = null;
    let again = false;
    return () => {
      if (busy) { again = true; return busy; }
      busy = (async () => {
        try {
          do {
            again = false;
            try { await run(); } catch (error) { console.error(error); }
          } while (again);
        } finally { busy = null; }
      })();
      return busy;
    };
  }

  // Live updates: server-sent events carrying only the table's version.  Whenever the
  // stream is down (a proxy that buffers, a phone waking up, an old browser), the page
  // polls the public table's version instead, until the stream is back.
  function live(onVersion) {
    let last = null;
    let polling = false;
    const seen = (version) => {
      if (version !== last) { last = version; onVersion(version); }
    };
    const poll = async () => {
      if (!polling) return;
      const reply = await api("/api/table");
      if (reply.ok && polling) seen(reply.data.version);
      if (polling) setTimeout(poll, 3000);
    };
    const startPolling = () => { if (!polling) { polling = true; poll(); } };
    if (!window.EventSource) { startPolling(); return; }
    const source = new EventSource("/api/events");
    source.onopen = () => { polling = false; };
    source.onmessage = (event) => { polling = false; seen(Number(event.data)); };
    source.onerror = startPolling;
  }

  // A view's key as the game labels it (in the table's language), else prettified.
  function pretty(key) {
    if (Familiar.labels && Familiar.labels[key]) return Familiar.labels[key];
    const spaced = String(key).replace(/[_-]+/g, " ").trim();
    return spaced.charAt(0).toUpperCase() + spaced.slice(1);
  }

  function scalar(value) {
    if (value === null || value === undefined) return "-";
    if (value === true) return t("yes");
    if (value === false) return t("no");
    return String(value);
  }

  // Any JSON as readable sections: objects become labelled rows, lists of plain
  // values one line, lists of objects or lists one line each.
  function renderValue(value) {
    if (Array.isArray(value)) {
      if (value.length === 0) return el("span", { class: "muted" }, t("none"));
      if (value.every((v) => v === null || typeof v !== "object")) return el("span", {}, value.map(scalar).join(", "));
      return el("ol", { class: "list" }, value.map((v) => el("li", {}, renderValue(v))));
    }
    if (value !== null && typeof value === "object") return renderObject(value);
    return el("span", {}, scalar(value));
  }

  // A card's icon by the name the game gives (engine/display.py ICONS): glyphs every
  // phone's fonts have, so no card shows a missing-glyph box.
  const ICONS = { phoenix: "❂", skull: "☠", bolt: "⚡", moon: "☾", crown: "♛", scales: "⚖", swords: "⚔",
    star: "★", house: "⌂", flag: "⚑", heart: "❤", diamond: "♦", wheel: "☸", sun: "☼" };

  // A secret card: its icon and word large in its colour, the detail and the history
  // under it, in a box of one size for every role.
  function renderCard(shown) {
    const history = shown.history || [];
    return el("div", { class: `card card-${shown.colour}` },
      el("p", { class: "card-icon", "aria-hidden": "true" }, ICONS[shown.icon] || ""),
      el("p", { class: "card-word" }, shown.word),
      shown.detail ? el("p", { class: "card-detail" }, shown.detail) : null,
      history.length ? el("ul", { class: "card-history" }, history.map((line) => el("li", {}, line))) : null);
  }

  // The end, on every page: the outcome, each seat's card under its name, who was
  // accused, and the story in order.
  function renderReveal(reveal) {
    const ending = Array.isArray(reveal) ? { cards: reveal } : reveal;
    return el("section", { class: "reveal-end" },
      ending.outcome ? el("p", { class: "outcome" }, ending.outcome) : null,
      el("h3", {}, t("Everyone's cards")),
      el("div", { class: "cards" }, ending.cards.map((seat) => el("figure", {}, renderCard(seat.card), el("figcaption", {}, seat.name)))),
      (ending.accused || []).length ? el("p", { class: "accused" }, t("Accused: {names}", { names: ending.accused.join(", ") })) : null,
      (ending.story || []).length ? renderStory(ending.story) : null);
  }

  // The story in order; a long one (a Deal game of a hundred turns) folded under its
  // heading, so the end screen stays the outcome and the cards, not pages of turns.
  const STORY_SHOWN = 12;
  function renderStory(story) {
    const list = el("ol", {}, story.map((line) => el("li", {}, line)));
    if (story.length <= STORY_SHOWN) return el("div", { class: "story" }, el("h3", {}, t("The story of the game")), list);
    return el("details", { class: "story" },
      el("summary", {}, t("The story of the game ({count} lines)", { count: story.length })), list);
  }

  function renderObject(obj) {
    const { card, reveal, ...rest } = obj || {};
    // Only a card made by engine/display.py is drawn; a row naming a card (a hand's) stays a row.
    const shown = card && typeof card === "object" ? card : null;
    if (card !== undefined && !shown) rest.card = card;
    for (const key of (shown && shown.covers) || []) delete rest[key];  // the card says these already
    const drawn = [shown ? renderCard(shown) : null, reveal ? renderReveal(reveal) : null].filter(Boolean);
    if (drawn.length) return el("div", {}, ...drawn, Object.keys(rest).length ? renderObject(rest) : null);
    const entries = Object.entries(obj || {});
    if (entries.length === 0) return el("p", { class: "muted" }, t("Nothing to show."));
    return el("dl", { class: "view" }, entries.map(([k, v]) => [el("dt", {}, pretty(k)), el("dd", {}, renderValue(v))]));
  }

  // A game's public view: its one-line status (when the game gives one) stays in
  // sight; everything else folds away, so a phone in a dark room is not a wall of text.
  function renderTable(view) {
    const { status, reveal, ...rest } = view || {};
    if (status === undefined && !reveal) return renderObject(view);
    const details = el("details", { class: "view-details" }, el("summary", {}, t("Details")), renderObject(rest));
    details.open = renderTable.open === true; // live redraws keep the reader's choice
    details.addEventListener("toggle", () => { renderTable.open = details.open; });
    // at the end, the outcome and every card in sight above the details
    return el("div", {}, el("p", { class: "status-line" }, scalar(status)), reveal ? renderReveal(reveal) : null, details);
  }

  // One prompt (an engine Expect) as inputs; submit(kind, data) posts the action.
  // Data shapes: dice {dice:[ints]}, choice {choice} or {choices:[...]} when count>1,
  // vote {vote:bool}, cards {cards:[names]}, confirm {}.
  function renderPrompt(expect, submit, extra) {
    const data = (more) => Object.assign({}, extra || {}, more);
    const box = el("div", { class: "prompt" + (expect.secret ? " secret-prompt" : "") }, el("p", { class: "prompt-text" }, expect.prompt));
    // A final answer (an accusation) is asked first: a mis-tap there settles the game.
    const sure = () => !expect.final || window.confirm(t("This answer cannot be taken back at the table. Send it?"));
    const send = (payload) => { if (sure()) submit(expect.action, data(payload)); };
    if (expect.kind === "dice") box.append(diceInput(expect.count, (dice) => send({ dice }), expect.options, expect.option_labels));
    else if (expect.kind === "choice") box.append(choiceInput(expect.options, expect.option_labels || expect.options, expect.count || 1, send));
    else if (expect.kind === "vote") {
      box.append(el("div", { class: "row" },
        el("button", { class: "big yes", onclick: () => send({ vote: true }) }, t("Yes")),
        el("button", { class: "big no", onclick: () => send({ vote: false }) }, t("No"))));
    } else if (expect.kind === "cards") box.append(cardsInput(expect.count, (cards) => send({ cards })));
    // a confirmation's button says what it does when the game names it ("Ask for a veto")
    else box.append(el("button", { class: "big", onclick: () => send({}) }, (expect.option_labels || [])[0] || t("Next")));
    return box;
  }

  // One tap per die face; the roll is sent when complete (or with Done when any count).
  // A symbol die's faces (Clue's black die) are tapped by name beside the pips.
  function diceInput(count, done, symbols, labels) {
    const rolled = [];
    const shown = el("p", { class: "dice-shown" });
    const pips = () => rolled.filter((v) => typeof v === "number");
    const shownAs = (v) => (typeof v === "number" ? String(v) : labels[symbols.indexOf(v)]);
    const label = () => (rolled.length
      ? rolled.map(shownAs).join(" + ") + (pips().length > 1 ? ` = ${pips().reduce((a, b) => a + b, 0)}` : "")
      : (count === 1 ? t("Tap the die's face") : count ? t("0 of {count} dice", { count }) : t("Tap each die's face")));
    const update = () => {
      if (count && rolled.length === count) { done(rolled.slice()); rolled.length = 0; }
      shown.textContent = label();
    };
    update();
    const faces = el("div", { class: "faces" });
    for (let face = 1; face <= 6; face += 1) {
      faces.append(el("button", { class: "face", "aria-label": t("die showing {face}", { face }), onclick: () => { rolled.push(face); update(); } }, "⚀⚁⚂⚃⚄⚅"[face - 1]));
    }
    const named = (symbols || []).length ? el("div", { class: "faces symbols" }, symbols.map((name, i) =>
      el("button", { class: "face symbol", onclick: () => { rolled.push(name); update(); } }, labels[i]))) : null;
    const controls = el("div", { class: "row" },
      el("button", { class: "small", onclick: () => { rolled.length = 0; update(); } }, t("Clear")),
      count ? null : el("button", { class: "big", onclick: () => { if (rolled.length) { done(rolled.slice()); rolled.length = 0; update(); } } }, t("Done")));
    return el("div", {}, shown, faces, named, controls);
  }

  // Each option is shown by its label (the table's language) and answers with its value.
  const MOST_BUTTONS = 12;
  function choiceInput(options, labels, count, send) {
    if (count <= 1 && options.length > MOST_BUTTONS && options.every((o) => /^\d+$/.test(o))) return numberInput(options, send);
    if (count <= 1) return el("div", { class: "choices" }, options.map((o, i) => el("button", { class: "big", onclick: () => send({ choice: o }) }, labels[i])));
    const picked = new Set();
    const submit = el("button", { class: "big", disabled: true }, t("Choose {count}", { count }));
    const buttons = options.map((o, i) => el("button", { class: "big toggle", "aria-pressed": "false", onclick: (ev) => {
      if (picked.has(o)) picked.delete(o); else if (picked.size < count) picked.add(o);
      ev.currentTarget.setAttribute("aria-pressed", picked.has(o) ? "true" : "false");
      submit.disabled = picked.size !== count;
    } }, labels[i]));
    submit.addEventListener("click", () => send({ choices: options.filter((o) => picked.has(o)) }));
    return el("div", { class: "choices" }, buttons, submit);
  }

  // A long run of numbers (a target from 1 to 35) as a stepper, not a wall of buttons.
  function numberInput(options, send) {
    const numbers = options.map(Number);
    const input = el("input", { type: "number", inputmode: "numeric", min: Math.min(...numbers), max: Math.max(...numbers), value: numbers[0], class: "number-choice" });
    const choose = el("button", { class: "big", onclick: () => {
      if (options.includes(String(input.value).trim())) send({ choice: String(input.value).trim() });
      else say(t("Choose a number from {least} to {most}", { least: input.min, most: input.max }), true);
    } }, t("Choose"));
    return el("div", { class: "row choices" }, input, choose);
  }

  // Typed cards, as the prompt above asks for them (a game asks for names, or for each
  // card's dice value): the field itself promises no particular form.
  function cardsInput(count, done) {
    const input = el("input", { type: "text", placeholder: t("cards, separated by commas"), autocomplete: "off" });
    const send = el("button", { class: "big", onclick: () => {
      const cards = input.value.split(",").map((s) => s.trim()).filter(Boolean);
      if (cards.length && (!count || cards.length <= count)) done(cards);
      else say(count ? t("Too many cards: at most {count} here", { count }) : t("Enter some cards"), true);
    } }, t("Send cards"));
    return el("div", {}, input, send);
  }

  // What is happening now, in one place at the top of a phone: the game's status line,
  // then who is asked what (the table's public prompts; a seat's own are its prompts).
  function renderNow(table, seat) {
    const view = table.view || {};
    const asked = (table.expects || []).filter((e) => e.seat !== seat).map((e) => {
      const who = e.seat === null || e.seat === undefined ? t("the host") : table.seats[e.seat];
      return el("li", {}, String(e.prompt).startsWith(who) ? e.prompt : t("{name}: {prompt}", { name: who, prompt: e.prompt }));
    });
    return [
      view.status !== undefined ? el("p", { class: "now-status" }, scalar(view.status)) : null,
      asked.length ? el("ul", { class: "now-asked", "aria-label": t("Waiting for") }, asked) : null,
      view.reveal ? renderReveal(view.reveal) : null,  // the end: the reveal screen, first thing on the phone
    ].filter(Boolean);
  }

  // Tabs as the ARIA pattern has them: one tab stop, the arrow keys (and Home, End) move
  // between tabs, each tab shows its panel and hides the others' (whose fields keep what
  // was typed in them: hidden, never redrawn).
  function tabs(list) {
    const all = Array.from(list.querySelectorAll("[role=tab]"));
    const select = (tab, focus) => {
      for (const other of all) {
        const on = other === tab;
        other.setAttribute("aria-selected", on ? "true" : "false");
        other.tabIndex = on ? 0 : -1;
        document.getElementById(other.getAttribute("aria-controls")).hidden = !on;
      }
      if (focus) tab.focus();
    };
    const moves = { ArrowRight: 1, ArrowLeft: -1, Home: "first", End: "last" };
    for (const tab of all) {
      tab.addEventListener("click", () => select(tab, false));
      tab.addEventListener("keydown", (event) => {
        const move = moves[event.key];
        if (move === undefined) return;
        event.preventDefault();
        const at = all.indexOf(tab);
        const next = move === "first" ? 0 : move === "last" ? all.length - 1 : (at + move + all.length) % all.length;
        select(all[next], true);
      });
    }
    return select;
  }

  // The table's timers, counted down on the page from the seconds the box said were left
  // when the view arrived: only the time since then is measured here, so a phone whose
  // own clock is wrong still shows the box's time.  ``controls(name, timer)`` adds the
  // host's buttons.
  const ticking = new Map();
  function clockText(seconds) {
    const s = Math.ceil(Math.max(0, seconds));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }
  function tickTimers() {
    for (const [holder, { shown, at }] of ticking) {
      for (const node of holder.querySelectorAll("[data-timer]")) {
        const timer = shown[node.dataset.timer];
        const left = timer.running ? timer.left - (performance.now() - at) / 1000 : timer.left;
        node.querySelector(".timer-left").textContent = clockText(left);
      }
    }
  }
  function timers(holder, shown, controls) {
    const names = Object.keys(shown || {});
    holder.hidden = !names.length;
    clear(holder).append(...names.map((name) => el("div", { class: "timer", "data-timer": name },
      el("p", {}, el("span", { class: "timer-name" }, pretty(name)), " ", el("span", { class: "timer-left" }),
        shown[name].running ? null : el("span", { class: "muted" }, " ", t("(paused)"))),
      controls ? controls(name, shown[name]) : null)));
    ticking.set(holder, { shown: shown || {}, at: performance.now() });
    tickTimers();
  }
  setInterval(tickTimers, 250);

  // Redraw a holder only when what it shows changed, so a live update (someone joins)
  // does not wipe dice half-entered in a prompt.
  function redraw(holder, data, build) {
    const key = JSON.stringify(data);
    if (holder.dataset.drawn === key) return;
    holder.dataset.drawn = key;
    clear(holder).append(...build());
  }

  // Redraw a list item by item: an item whose data did not change keeps its node, and what
  // was half-entered in it, while other items come and go around it (one seat's prompt
  // answered while another's dice are being tapped in).  Nodes are moved only where the
  // order changed, so a field being typed in keeps its focus.
  function redrawEach(holder, items, build) {
    const before = holder.drawnItems || new Map();
    const after = new Map();
    const seen = new Map();
    const nodes = items.map((item) => {
      const data = JSON.stringify(item);
      const count = (seen.get(data) || 0) + 1;
      seen.set(data, count);
      const key = `${count}:${data}`;
      const node = before.get(key) || build(item);
      after.set(key, node);
      return node;
    });
    for (const [key, node] of before) if (!after.has(key)) node.remove();
    nodes.forEach((node, index) => {
      if (holder.children[index] !== node) holder.insertBefore(node, holder.children[index] || null);
    });
    while (holder.children.length > nodes.length) holder.lastElementChild.remove();
    holder.drawnItems = after;
  }

  // A game set up in another language: the page's own words come with the page, so it
  // loads again in the table's new language.
  function follow(language) {
    if (language && language !== document.documentElement.lang) window.location.reload();
  }

  // Hide anything secret when the page is restored from the back-forward cache.
  function onRestore(handler) {
    window.addEventListener("pageshow", (event) => { if (event.persisted) handler(); });
  }

  return { el, clear, redraw, redrawEach, api, say, leds, live, boxWord, parts, serial, pretty, renderValue, renderObject, renderTable, renderPrompt, renderNow, tabs, timers, onRestore, follow, t, labels: {} };

})();
