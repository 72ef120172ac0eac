"""The box's web pages: the host's page, each player's private page, the virtual board.

``create_app`` is the only entry point; the daemon hands it the table service and
the box's hardware side (:class:`web.box.Box`) and serves it with
:func:`web.serve.serve`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, Response, current_app, jsonify, request
from flask.json.provider import DefaultJSONProvider
from flask_babel import Babel
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from werkzeug.exceptions import HTTPException

from web.api import api
from web.box import Box, NoHardware
from web.events import StreamSlots
from web.language import TRANSLATIONS, Language
from web.pages import pages
from web.security import (
    ApiError,
    KnownClients,
    check_host,
    check_same_origin_write,
    note_known_client,
    secure_headers,
    table_language,
)

MAX_BODY = 64 * 1024  # the largest honest request (a deck's names) is a few kB
JOIN_LIMIT = "10 per minute"
"""Join attempts per client address: a phone joins once or twice a game (a taken seat
tapped, a reset); one client once claimed all 6 seats in 43 ms and tried 188 a second."""


@dataclass
class WebState:
    """What the routes share: the table, the hardware, and the server's stop signal."""

    service: Any
    box: Box
    public_url: str | None
    simulated: bool
    stopping: threading.Event = field(default_factory=threading.Event)
    streams: StreamSlots = field(default_factory=StreamSlots)
    known: KnownClients = field(default_factory=KnownClients)
    listening: str | None = None
    """The address the server is bound to (set by ``web.serve``), for the join link."""


class TranslatingJSON(DefaultJSONProvider):
    """Every JSON answer in the table's language: the one place where the engine's
    messages in views, prompts, notices and refusals become words (keys stay as they are)."""

    def response(self, *args: Any, **kwargs: Any) -> Response:
        words = Language(table_language(self._app))
        return super().response(*words.deep(list(args)), **words.deep(kwargs))


class FamiliarApp(Flask):
    json_provider_class = TranslatingJSON


def _api_error(exc: ApiError) -> tuple[Response, int] | tuple[str, int]:
    if not request.path.startswith("/api/"):
        return Language(table_language()).text(exc.message), exc.status
    return jsonify(error=exc.message, **exc.extra), exc.status


def _http_error(exc: HTTPException) -> Response | HTTPException:
    """API callers get JSON for every HTTP error (413, 404, 405...); pages keep HTML."""
    if not request.path.startswith("/api/"):
        return exc
    response = jsonify(error=exc.description or exc.name)
    response.status_code = exc.code or 500
    return response


def _unavailable(exc: OSError) -> tuple[Response | str, int]:
    """A part the request needs is out (the disk is full, the state folder read-only):
    nothing was changed, and the host can fix it and try again, so 503 with the reason."""
    current_app.logger.warning("unavailable serving %s %s: %s", request.method, request.path, exc)
    message = f"The box cannot do that right now: {exc}."
    if request.path.startswith("/api/"):
        return jsonify(error=message), 503
    return message, 503


def _crash(exc: Exception) -> tuple[Response | str, int]:
    """A bug must not show a traceback to a phone.  The log gets the traceback, which
    holds code lines and names only: no views, no cookies, no tokens."""
    current_app.logger.error("error serving %s %s", request.method, request.path, exc_info=exc)
    if request.path.startswith("/api/"):
        return jsonify(error="the box hit an internal error; the host may undo and try again"), 500
    return "The box hit an internal error. Reload the page.", 500


def _guard_requests() -> None:
    check_host(current_app.extensions["familiar"].public_url)
    if request.path.startswith("/api/"):
        check_same_origin_write()


def _limit_joins(app: Flask) -> None:
    """Flask-Limiter, in memory (one process per box), on the join route only."""
    limiter = Limiter(get_remote_address, app=app, storage_uri="memory://", headers_enabled=True)
    limit = limiter.limit(JOIN_LIMIT, error_message="too many tries to join from this phone: wait a minute")
    app.view_functions["api.join"] = limit(app.view_functions["api.join"])


def create_app(
    service: Any, box: Box | None = None, *, public_url: str | None = None, simulated: bool = False
) -> Flask:
    """The Flask app for one table service; ``box`` defaults to :class:`NoHardware`."""
    app = FamiliarApp(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.json.sort_keys = False
    app.extensions["familiar"] = WebState(service, box or NoHardware(), public_url or None, simulated)
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(TRANSLATIONS)
    Babel(app, locale_selector=table_language)
    app.register_blueprint(pages)
    app.register_blueprint(api)
    app.before_request(_guard_requests)
    app.before_request(note_known_client)
    app.after_request(secure_headers)
    app.register_error_handler(ApiError, _api_error)
    app.register_error_handler(HTTPException, _http_error)
    _limit_joins(app)
    app.register_error_handler(OSError, _unavailable)
    app.register_error_handler(Exception, _crash)
    return app


__all__ = ["create_app", "WebState"]
