"""Who is asking, and whether to believe the request at all.

A seat or the host is known only by an HttpOnly, SameSite=Strict cookie holding a
random token; the service compares it (hashed, constant time), so no URL ever names
a seat and a guessed URL shows nothing.  Cross-site writes are refused twice over:
the strict cookie is not sent by other sites, and API POSTs must be JSON from this
origin (a plain HTML form on another site cannot send ``application/json``).
"""

from __future__ import annotations

import functools
import ipaddress
import json
import socket
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from flask import Response, current_app, request

from engine.actions import MAX_DEPTH, nesting_depth
from engine.messages import words

SEAT_COOKIE = "familiar_seat"
HOST_COOKIE = "familiar_host"
JOIN_COOKIE = "familiar_join"
COOKIE_MAX_AGE = 180 * 24 * 3600  # a season of game nights; the game's start resets seats anyway
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
SAME_SITE_FETCH = {"same-origin", "none"}  # "none": typed in the address bar or a bookmark
MAX_BODY_DEPTH = MAX_DEPTH + 2  # a body wraps an action's data in at most two levels

CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


_, _n = words("messages")


class ApiError(Exception):
    """A refusal with a message for the person at the table, sent as ``{"error": ...}``."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


def service() -> Any:
    """The table service of the running app."""
    return current_app.extensions["familiar"].service


def table_language(app: Any = None) -> str:
    """The language of every page and answer: the table's (its game's, else the box's);
    ``app`` for a caller outside a request (the app's JSON provider)."""
    table = (app or current_app).extensions["familiar"].service
    return str(getattr(table, "language", "en"))


def set_token_cookie(response: Response, name: str, token: str, max_age: int = COOKIE_MAX_AGE) -> None:
    """Hand a token to this browser only: script cannot read it, other sites cannot send it."""
    response.set_cookie(
        name, token, max_age=max_age, path="/", httponly=True, samesite="Strict", secure=request.is_secure
    )


def current_seat() -> int | None:
    """The seat this browser holds in the current game, from its cookie alone."""
    return service().seat_of(request.cookies.get(SEAT_COOKIE))


def is_host() -> bool:
    return service().is_host(request.cookies.get(HOST_COOKIE))


class KnownClients:
    """The addresses whose recent requests carried a working seat or host cookie: when
    the server runs short of connections it closes other addresses' idle sockets first
    (``web.serve``).  Only the latest ``kept`` addresses are kept."""

    def __init__(self, kept: int = 64) -> None:
        self._kept = kept
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()

    def saw(self, address: str) -> None:
        with self._lock:
            self._seen[address] = None
            self._seen.move_to_end(address)
            while len(self._seen) > self._kept:
                self._seen.popitem(last=False)

    def __contains__(self, address: object) -> bool:
        with self._lock:
            return address in self._seen


def note_known_client() -> None:
    """Before each request: an address showing a working seat or host cookie is known."""
    if not (request.cookies.get(SEAT_COOKIE) or request.cookies.get(HOST_COOKIE)):
        return
    if current_seat() is not None or is_host():
        current_app.extensions["familiar"].known.saw(request.remote_addr or "")


def host_only(view: Callable[..., Any]) -> Callable[..., Any]:
    """Refuse a route to anyone without the host cookie."""

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not is_host():
            raise ApiError(403, _("only the host's device may do that"))
        return view(*args, **kwargs)

    return wrapper


def seat_only(view: Callable[..., Any]) -> Callable[..., Any]:
    """Pass the caller's seat to the route, or answer "rejoin" when the cookie holds none."""

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        seat = current_seat()
        if seat is None:
            raise ApiError(403, _("this phone has no seat in the current game: join again"), rejoin=True)
        return view(seat, *args, **kwargs)

    return wrapper


def own_names() -> set[str]:
    """The names this machine answers to: ``localhost``, its host name, and the mDNS
    name ``<host>.local`` that avahi announces for it."""
    full = socket.gethostname().lower().rstrip(".")
    short = full.split(".")[0]
    return {"localhost", "localhost.localdomain", full, short, f"{short}.local"}


def own_address(text: str) -> bool:
    """Is ``text`` one of this machine's IP addresses?  The kernel knows: only a local
    address can be bound (so no list of interfaces to keep up to date)."""
    try:
        ip = ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        return False
    if ip.is_loopback:
        return True
    if ip.is_unspecified or ip.is_multicast:
        return False  # 0.0.0.0 reaches the box from a browser page, but is nobody's address
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    with socket.socket(family, socket.SOCK_DGRAM) as probe:
        try:
            probe.bind((str(ip), 0))
        except OSError:
            return False
    return True


def trusted_host(host: str, public_url: str | None) -> bool:
    """Is ``host`` (the Host header, without port) a name this box may be reached by?

    A page on the internet (or a LAN name anyone can register on the router, such as
    ``anything.lan``) can be pointed at the box's address (DNS rebinding) and then
    talk to the box as "same origin"; so the box answers only to its own addresses,
    its own names and the configured public URL's host.
    """
    host = host.rstrip(".").lower()
    if public_url and host == (urlsplit(public_url).hostname or "").lower():
        return True
    return host in own_names() or own_address(host)


def check_host(public_url: str | None) -> None:
    if not trusted_host(urlsplit("//" + request.host).hostname or "", public_url):
        raise ApiError(400, _("this box answers only to its own address; set web.public_url to use this name"))


def top_level_visit() -> bool:
    """A page opened by the person (typed, scanned, tapped), not loaded by another page."""
    return (
        request.headers.get("Sec-Fetch-Dest", "document") == "document"
        and request.headers.get("Sec-Fetch-Site", "none") in SAME_SITE_FETCH
    )


def check_same_origin_write() -> None:
    """Refuse state-changing requests that a page on another site could have made."""
    if request.method in SAFE_METHODS:
        return
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site is not None and fetch_site not in SAME_SITE_FETCH:
        raise ApiError(403, _("cross-site requests are refused"))
    origin = request.headers.get("Origin")
    if origin is not None and urlsplit(origin).netloc != request.host:
        raise ApiError(403, _("cross-site requests are refused"))
    if request.mimetype != "application/json":
        raise ApiError(400, _("send JSON with Content-Type: application/json"))


def _no_constants(name: str) -> None:
    """NaN and Infinity are not JSON; Python would accept them and log them forever."""
    raise ValueError(f"{name} is not allowed")


def json_body() -> dict[str, Any]:
    """The request's JSON object; malformed or non-object bodies are a 400."""
    raw = request.get_data(cache=True)
    if not raw:
        return {}
    try:
        body = json.loads(raw, parse_constant=_no_constants)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ApiError(400, _("the body is not valid JSON")) from None
    if not isinstance(body, dict):
        raise ApiError(400, _("the body must be a JSON object"))
    if nesting_depth(body) > MAX_BODY_DEPTH:
        raise ApiError(400, _("the body nests deeper than {most} levels", most=MAX_BODY_DEPTH))
    return body


def secure_headers(response: Response) -> Response:
    """Headers for every response; nothing but static files may be cached anywhere."""
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Cross-Origin-Opener-Policy"] = "same-origin"
    response.headers["Cross-Origin-Resource-Policy"] = "same-origin"
    if request.endpoint != "static":
        response.headers["Cache-Control"] = "no-store"
    return response
