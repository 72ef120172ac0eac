"""The HTML pages: shells only.  No view is baked into any page; each page's script
fetches its own JSON after loading, so a page restored from history or the
back-forward cache never shows a secret that is no longer (or never was) its own."""
from __future__ import annotations

from flask import Blueprint, Response, current_app, make_response, render_template, request

from web.join_link import join_url, qr_svg
from web.security import HOST_COOKIE, is_host, service, set_token_cookie, top_level_visit

pages = Blueprint("pages", __name__)


@pages.get("/")
def join() -> str:
    """The QR code's target: pick a free seat."""
    return render_template("join.html")


@pages.get("/me")
def me() -> str:
    """A player's own page; its content comes from ``/api/me`` by script."""
    return render_template("me.html")


@pages.get("/host")
def host() -> Response:
    """The host's page.  The first device to open it becomes host; later devices need
    the box's confirm button pressed (pairing) before they may take over."""
    token = None
    if not is_host():
        if not top_level_visit():
            return make_response(render_template("host_locked.html"), 403)
        try:
            token = service().claim_host()
        except PermissionError:
            return make_response(render_template("host_locked.html"), 403)
    url = join_url(request.host_url, current_app.extensions["familiar"].public_url)
    response = make_response(render_template("host.html", join_url=url, qr=qr_svg(url)))
    if token is not None:
        set_token_cookie(response, HOST_COOKIE, token)
    return response


@pages.get("/board")
def board() -> str:
    """The virtual board: the box's lights as lit, its buttons when simulated."""
    return render_template("board.html", simulated=current_app.extensions["familiar"].simulated)
