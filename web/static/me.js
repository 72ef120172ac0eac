// A player's page.  The private view is fetched after load and kept out of the DOM
// except while revealed; it hides itself after a few seconds, when the phone turns
// away from the page, and when the page comes back from history.
"use strict";
(() => {
  const { el, clear, api, say, live, renderObject, renderTable, renderPrompt, t } = Familiar;

  const SHOW_MS = 6000;
  const secret = document.getElementById("secret");
  const reveal = document.getElementById("reveal");
  let mine = null;
  let hideTimer = null;

  function hide() {
    clearTimeout(hideTimer);
    secret.hidden = true;
    clear(document.getElementById("secret-view"));
    clear(document.getElementById("secret-prompts"));
    reveal.hidden = false;
  }

  function armHide() {
    clearTimeout(hideTimer);
    hideTimer = setTimeout(hide, SHOW_MS);
  }

  // A secret prompt stays behind the tap (its words may name the role), unless it is
  // glanceable: its words give nothing away (a Revelio peek), so it is shown openly.
  const behindTap = (e) => e.secret && !e.glanceable;

  function show() {
    if (!mine) return;
    const secretPrompts = mine.expects.filter(behindTap);
    document.getElementById("secret-view").append(renderObject(mine.view));
    // What this phone showed before the host undid it stays shown: it cannot be unseen.
    if (mine.seen && mine.seen.length) {
      document.getElementById("secret-view").append(
        el("h3", {}, t("Seen before an undo")), ...mine.seen.map((item) => renderObject(item)));
    }
    document.getElementById("secret-prompts").append(...secretPrompts.map((e) => renderPrompt(e, act)));
    secret.hidden = false;
    reveal.hidden = true;
    armHide();
  }

  async function act(kind, data) {
    const reply = await api("/api/me/act", { kind, data });
    say(reply.ok ? t("Sent.") : reply.data.error || t("Not accepted."), !reply.ok);
    hide();
    // an answer nobody else can see wakes no other page: this one looks for itself
    if (reply.ok) refresh();
  }

  function rejoin(why) {
    mine = null;
    hide();
    document.getElementById("seat").hidden = true;
    document.getElementById("rejoin").hidden = false;
    document.getElementById("rejoin-why").textContent = why;
    document.getElementById("name").textContent = t("No seat");
  }

  // The last lines the box said, as captions: for whoever missed the speaker or cannot hear it.
  const CAPTIONS = 3;
  function captions(spoken) {
    const recent = spoken.slice(-CAPTIONS);
    document.getElementById("captions-box").hidden = !recent.length;
    Familiar.redraw(document.getElementById("captions"), recent, () => recent.map((line) => el("li", {}, line)));
  }

  // What is happening now, at the top: redrawn only when it changed (a screen reader
  // is not read the same line again at every update).
  function drawNow(table, seat) {
    const now = document.getElementById("now");
    now.hidden = !table || !table.game;
    if (now.hidden) return;
    const shown = [table.view && table.view.status, table.view && table.view.reveal, table.expects, seat, table.seats];
    Familiar.redraw(now, shown, () => Familiar.renderNow(table, seat));
  }

  const refresh = Familiar.serial(async () => {
    const [me, table, board] = await Promise.all([api("/api/me"), api("/api/table"), api("/api/board")]);
    // shown now, not when the reads began: a tap while they were under way still counts
    const wasShown = !secret.hidden;
    if (board.ok) captions(board.data.spoken || []);
    hide();
    if (table.ok) {
      Familiar.follow(table.data.language);
      document.getElementById("game").textContent = table.data.title || t("No game");
      Familiar.labels = table.data.labels || {};
      const { reveal: shownAtTop, ...rest } = table.data.view || {};  // the end is shown at the top (drawNow)
      clear(document.getElementById("table-view")).append(renderTable(rest));
      Familiar.timers(document.getElementById("timers"), table.data.timers);
    }
    drawNow(table.ok ? table.data : null, me.ok ? me.data.seat : null);
    if (!me.ok) { rejoin(me.data.error || t("This phone has no seat.")); return; }
    // the two reads straddled a change: read again, so the seat's view and the table's agree
    if (table.ok && me.data.version !== table.data.version) { setTimeout(refresh, 50); }
    mine = me.data;
    document.getElementById("rejoin").hidden = true;
    document.getElementById("seat").hidden = false;
    document.getElementById("name").textContent = mine.name;
    const open = mine.expects.filter((e) => !behindTap(e));
    Familiar.redrawEach(document.getElementById("prompts"), open, (e) => renderPrompt(e, act));
    // The button says that a prompt behind it waits for this seat, so it is never missed.
    const waiting = mine.expects.some((e) => behindTap(e) && !e.optional);
    reveal.textContent = waiting ? t("Something is asked of you: tap to answer in private") : t("Tap to see your secret");
    reveal.classList.toggle("asked", waiting);
    if (wasShown) show();
  });

  // The reveal button is there for every seat in every game, secret or not, so that
  // nobody can tell from across the table whose phone has something to hide.
  reveal.addEventListener("click", show);
  secret.addEventListener("pointerdown", armHide);
  document.addEventListener("visibilitychange", () => { if (document.hidden) hide(); });
  window.addEventListener("pagehide", hide);
  window.addEventListener("blur", hide);
  Familiar.onRestore(() => { mine = null; hide(); refresh(); });
  live(refresh);
})();
