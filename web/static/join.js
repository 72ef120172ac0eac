// The join page: show free seats; tapping one claims it and opens the player's page.
"use strict";
(() => {
  const { el, clear, api, say, live, t } = Familiar;


  const refresh = Familiar.serial(async () => {
    const [table, me] = await Promise.all([api("/api/table"), api("/api/me")]);
    if (!table.ok) { say(table.data.error || t("The box is not answering."), true); return; }
    const view = table.data;
    Familiar.follow(view.language);
    document.getElementById("game").textContent = view.game
      ? t("{title}: {count} seats", { title: view.title, count: view.seats.length })
      : t("No game yet: the host starts one on the host page.");
    const mine = me.ok ? me.data : null;
    document.getElementById("mine").hidden = !mine;
    if (mine) document.getElementById("mine-name").textContent = mine.name;
    document.getElementById("pick").hidden = Boolean(mine) || !view.seats.length;
    const seats = clear(document.getElementById("seats"));
    view.seats.forEach((name, seat) => {
      const taken = view.claimed[seat];
      seats.append(el("button", { class: "big seat" + (taken ? " taken" : ""), disabled: taken,
        onclick: () => join(seat, name) }, taken ? t("{name} (taken)", { name }) : name));
    });
  });

  async function join(seat, name) {
    // a mis-tap would show this phone someone else's secret and lock that player out
    if (!window.confirm(t("Are you {name}? This phone will show {name}'s secrets, to you alone.", { name }))) return;
    const reply = await api("/api/join", { seat });
    if (reply.status === 202) { awaitHost(reply.data.message); return; }
    if (reply.ok) { window.location.assign("/me"); return; }
    say(reply.data.error || t("Could not join."), true);
    refresh();
  }

  // A seat that was reset: this phone sees nothing until the host approves the number
  // it shows; then the seat is this phone's.
  async function awaitHost(message) {
    say(message);
    for (;;) {
      await new Promise((done) => setTimeout(done, 2000));
      if ((await api("/api/me")).ok) { window.location.assign("/me"); return; }
    }
  }

  live(refresh);
  Familiar.onRestore(refresh);
})();
