// The locked host page: the code from the old host's screen makes this device the host.
"use strict";
(() => {
  const { api, say, t } = Familiar;
  const form = document.getElementById("pair");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const reply = await api("/api/host/pair", { code: document.getElementById("pair-code").value.trim() });
    if (reply.ok) { window.location.assign("/host"); return; }
    say(reply.data.error || t("Could not become the host."), true);
  });
})();
