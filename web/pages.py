"""The HTML pages: shells only.  No view is baked into any page; each page's script
fetches its own JSON after loading, so a page restored from history or the
back-forward cache never shows a secret that is no longer (or never was) its own."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, make_response, redirect, render_template, request

from engine.messages import LANGUAGES
from web.join_link import join_link
from web.language import script_words
from web.security import HOST_COOKIE, JOIN_COOKIE, is_host, service, set_token_cookie, table_language, top_level_visit

pages = Blueprint("pages", __name__)


@pages.app_context_processor
def _words() -> dict[str, object]:
    """What every page's template needs to speak the table's language."""
    language = table_language()
    return {"language": language, "languages": LANGUAGES, "script_words": script_words(language)}


JOIN_COOKIE_MAX_AGE = 24 * 3600  # one evening: the next game has a new code anyway


@pages.get("/")
def join() -> str:
    """Pick a free seat (taking one needs the code that ``/j/CODE`` left in a cookie)."""
    return render_template("join.html")


@pages.get("/j/<code>")
def join_with_code(code: str) -> Response:
    """The QR code's and the short address's target: keep the join code in this browser
    (a cookie, so it leaves the address bar, and "join again" after a reset still holds
    it), then show the seats.  The code is checked when a seat is taken."""
    response = redirect("/", code=303)
    set_token_cookie(response, JOIN_COOKIE, code[:16], max_age=JOIN_COOKIE_MAX_AGE)
    return response


@pages.get("/me")
def me() -> str:
    """A player's own page; its content comes from ``/api/me`` by script."""
    return render_template("me.html")


@pages.get("/host")
def host() -> Response:
    """The host's page.  The first device to open it becomes host; a later device needs
    the box's confirm button held (pairing) and the code the old host's screen then
    shows, typed on the locked page (``/api/host/pair``)."""
    token = None
    if not is_host():
        if not top_level_visit():
            return _locked()
        try:
            token = service().claim_host()
        except PermissionError:
            return _locked()
    web = current_app.extensions["familiar"]
    join = join_link(request.host_url, web.public_url, service().join_code(), web.listening)
    response = make_response(render_template("host.html", join=join))
    if token is not None:
        set_token_cookie(response, HOST_COOKIE, token)
    return response


def _locked() -> Response:
    """The page of a device that is not host: how to pair, with the code's field while
    a pairing is open."""
    pairing = service().pairing_code() is not None
    return make_response(render_template("host_locked.html", simulated=_simulated(), pairing=pairing), 403)


def _simulated() -> bool:
    return bool(current_app.extensions["familiar"].simulated)


@pages.get("/board")
def board() -> str:
    """The virtual board: the box's lights as lit, its buttons when simulated."""
    return render_template("board.html", simulated=_simulated())
