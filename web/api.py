"""The JSON API behind the pages.

Three audiences, three doors: anyone on the box's network may read the *public*
table and the board; a phone with a seat cookie may read and answer for its own seat
(the seat comes only from the cookie, never from the URL or body); the host's device
may do everything else.  Every refusal is ``{"error": ...}`` and changes nothing.
"""

from __future__ import annotations

import base64
import ipaddress
import re
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from engine.actions import Action, IllegalAction
from engine.messages import said, words
from web.events import version_events
from web.join_link import join_link
from web.security import (
    HOST_COOKIE,
    JOIN_COOKIE,
    SEAT_COOKIE,
    ApiError,
    current_seat,
    host_only,
    is_host,
    json_body,
    seat_only,
    service,
    set_token_cookie,
)
from web.seen import shown_seen

api = Blueprint("api", __name__, url_prefix="/api")
_, _n = words("messages")

CATALOG_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _-]{0,39}")
MAX_GRID = 9


def _web() -> Any:
    return current_app.extensions["familiar"]


def _int_field(body: dict[str, Any], key: str) -> int:
    value = body.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ApiError(400, _("{key} must be a whole number", key=key))
    return value


def _action(body: dict[str, Any], seat: int | None) -> Action:
    """Build the action a page posted: ``{"kind": str, "data": {...}}`` and nothing else."""
    unknown = set(body) - {"kind", "data"}
    if unknown:
        raise ApiError(400, _("unknown fields: {unknown}", unknown=", ".join(sorted(unknown))))
    if not isinstance(body.get("kind"), str) or not body["kind"]:
        raise ApiError(400, _("kind must be the name of an action"))
    if not isinstance(body.get("data", {}), dict):
        raise ApiError(400, _("data must be an object"))
    try:
        return Action(kind=body["kind"], data=body.get("data", {}), seat=seat)
    except IllegalAction as exc:
        raise ApiError(400, said(exc)) from None


def _submit(action: Action) -> Response:
    """Hand an action to the rules; a refusal is a 409 with the rules' own words."""
    try:
        service().submit(action)
    except IllegalAction as exc:
        raise ApiError(409, said(exc)) from None
    return jsonify(ok=True, version=service().version)


# Anyone at the table


@api.get("/table")
def table() -> Response:
    """The public view: exactly what the host page and the whole table may see."""
    return jsonify(service().public_view())


@api.get("/events")
def events() -> Response:
    stream = version_events(
        service(),
        _web().stopping,
        _web().streams,
        request.remote_addr or "",
        known=current_seat() is not None or is_host() or _on_the_box(),
        gone=request.environ.get("waitress.client_disconnected", lambda: False),
    )
    return Response(
        stream,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


@api.get("/board")
def board() -> Response:
    """The lights, parts and last spoken lines: all things the table sees or hears anyway;
    on the box's own screen only, the open host pairing's code too."""
    shown = _web().box.board()
    if _from_this_machine():
        shown["pairing"] = service().pairing_code()
    return jsonify(shown)


def _from_this_machine() -> bool:
    try:
        return ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        return False


def _on_the_box() -> bool:
    """The box's own browser (its board on a screen), which connects from 127.0.0.1 or
    ::1; other loopback addresses are tests' stand-ins for other clients."""
    return request.remote_addr in ("127.0.0.1", "::1")


@api.post("/board/press")
def press() -> Response:
    """A simulated button, for the demo's virtual board (the box's buttons open host pairing,
    so only the host or someone at the box's own keyboard may press them)."""
    if not _web().simulated:
        raise ApiError(403, _("this box has real buttons: press them on the box"))
    if not (is_host() or _from_this_machine()):
        raise ApiError(403, _("only the host's device may press the simulated buttons"))
    button = json_body().get("button")
    if button not in ("confirm", "confirm-hold", "undo", "undo-hold", "roll"):
        raise ApiError(400, _("button must be confirm, confirm-hold, undo, undo-hold or roll"))
    try:
        _web().box.press(button)
    except PermissionError as exc:
        raise ApiError(403, said(exc)) from None
    return jsonify(ok=True)


# A phone at a seat


@api.post("/join")
def join() -> Response:
    """Take a free seat with the current game's join code (from the QR code's link); the
    token goes into this browser's cookie and nowhere else.  Rate-limited per client
    (see :data:`JOIN_LIMIT`)."""
    seat = _int_field(json_body(), "seat")
    if current_seat() is not None:
        raise ApiError(409, _("this phone already has a seat in this game"))
    try:
        token = service().claim_seat(seat, request.cookies.get(JOIN_COOKIE))
    except PermissionError as exc:  # no or an old join code, too many tries at the seat
        if getattr(exc, "token", None):  # the service's AwaitsHost: a reset seat, approved by the host first
            return _awaiting_host(exc)
        raise ApiError(403, said(exc)) from None
    except IllegalAction as exc:  # no such seat; SeatTaken (a plain ValueError) is below
        raise ApiError(404, said(exc)) from None
    except ValueError:
        raise ApiError(409, _("someone else has taken that seat")) from None
    response = jsonify(ok=True)
    set_token_cookie(response, SEAT_COOKIE, token)
    return response


def _awaiting_host(waiting: Any) -> Response:
    """202: the phone's cookie, which opens the seat once the host approves the number
    the phone shows (until then it sees nothing)."""
    response = jsonify(ok=False, waiting=True, number=waiting.number, message=said(waiting))
    response.status_code = 202
    set_token_cookie(response, SEAT_COOKIE, waiting.token)
    return response


@api.get("/me")
@seat_only
def me(seat: int) -> Response:
    """This phone's own private view; never cached (see the app's headers).  What it saw
    before an undo comes as the phone first showed it (web/seen.py), never as raw state."""
    table = service()
    with table.held():  # the view and the state its memories are shown against: one moment
        mine = table.private_view(seat)
        game, state = table.table.game, table.table.current.state
        mine["seen"] = shown_seen(game, state, seat, mine.get("seen") or [])
    return jsonify(mine)


@api.post("/me/act")
@seat_only
def act_as_seat(seat: int) -> Response:
    """Answer one of this seat's own prompts; other actions are the host's or the rules'."""
    action = _action(json_body(), seat)
    mine = {e["action"] for e in service().private_view(seat)["expects"]}
    if action.kind not in mine:
        raise ApiError(403, _("that is not yours to answer now"))
    return _submit(action)


# The host's device


def _option_words(game: Any) -> dict[str, list[str]]:
    """Each option's values as the form shows them: the game's words for a value
    (``option_words``, "10" as "10 minutes"), else the value itself (already a message)."""
    words = getattr(game, "option_words", {})
    return {
        name: [words.get(name, {}).get(str(value), value) for value in values]
        for name, values in getattr(game, "option_choices", {}).items()
    }


@api.get("/host/games")
@host_only
def games() -> Response:
    """The games the box can start, with any simple options a game declares (``options``
    the values to send, ``option_labels`` them in the table's language) and, in
    ``kept``, the options the box keeps per board with what it offers for each (None: none saved)
    and in ``kept_examples`` an example of each one's form, named by the game's ``labels``;
    ``teach`` lists the decks the host page fills in for teaching (a game's ``teach``)."""
    listed = [
        {
            "name": g.name,
            "title": g.title,
            "min_seats": g.min_seats,
            "max_seats": g.max_seats,
            # what the form sends back (the English values the game checks) and shows
            "options": {k: [str(c) for c in v] for k, v in getattr(g, "option_choices", {}).items()},
            "option_labels": _option_words(g),
            "kept": service().kept_options(g.name),
            "kept_examples": dict(getattr(g, "kept_options", {})),
            # the form's names first: a view's label for the same key may mean something else
            "labels": {**getattr(g, "labels", {}), **getattr(g, "option_names", {})},
            "teach": list(getattr(g, "teach", ())),
        }
        for g in service().table.games.values()
    ]
    return jsonify(games=sorted(listed, key=lambda g: g["title"]))


@api.post("/host/act")
@host_only
def act_as_host() -> Response:
    """The host may enter anything for the table (``table.new`` starts a game)."""
    return _submit(_action(json_body(), None))


@api.get("/host/join")
@host_only
def host_join_link() -> Response:
    """The join address and QR code of the current game (a new game has a new one), and
    the open host pairing's code, which the new host device must type."""
    web = _web()
    link = join_link(request.host_url, web.public_url, service().join_code(), web.listening)
    return jsonify({**link, "pairing": service().pairing_code()})


@api.get("/host/seats")
@host_only
def seat_requests() -> Response:
    """The phones asking for a reset seat, each with the number it shows."""
    return jsonify(requests=service().seat_requests())


@api.post("/host/seats")
@host_only
def answer_seat_request() -> Response:
    """Give a reset seat to the asking phone (``approve``: true), or refuse it."""
    body = json_body()
    request_id, approve = body.get("id"), body.get("approve")
    if not isinstance(request_id, str) or not isinstance(approve, bool):
        raise ApiError(400, _("send the request's id and approve: true or false"))
    try:
        service().answer_seat_request(request_id, approve)
    except IllegalAction as exc:
        raise ApiError(404, said(exc)) from None
    return jsonify(ok=True)


@api.post("/host/pair")
def pair_host() -> Response:
    """A new device becomes host with the code the old host's screen shows (the box's
    confirm button held first); the old host device loses its rights."""
    code = json_body().get("code")
    try:
        token = service().claim_host(code if isinstance(code, str) else None)
    except PermissionError as exc:
        raise ApiError(403, said(exc)) from None
    response = jsonify(ok=True)
    set_token_cookie(response, HOST_COOKIE, token)
    return response


@api.post("/host/undo")
@host_only
def undo() -> Response:
    """Undo the table's last step; one that showed a secret is final (409 says why, in
    the words the host page already shows: see ``Table.undo_refusal``)."""
    if json_body():
        raise ApiError(400, _("undo takes no options"))
    try:
        service().undo()
    except IllegalAction as exc:
        raise ApiError(409, said(exc)) from None
    return jsonify(ok=True, version=service().version)


@api.post("/host/reset")
@host_only
def reset_seat() -> Response:
    """A lost phone: free the seat so its player can join again; the old cookie dies."""
    seat = _int_field(json_body(), "seat")
    try:
        service().reset_seat(seat)
    except IllegalAction as exc:
        raise ApiError(409, said(exc)) from None
    return jsonify(ok=True)


@api.get("/host/pending")
@host_only
def pending() -> Response:
    return jsonify(pending=_web().box.pending())


def _jpeg(data: bytes | None, missing: str) -> Response:
    if data is None:
        raise ApiError(404, missing)
    return Response(data, mimetype="image/jpeg")


@api.get("/host/pending/<reading_id>/photo")
@host_only
def pending_photo(reading_id: str) -> Response:
    return _jpeg(_web().box.pending_jpeg(reading_id), "that reading has no photo (any more)")


@api.post("/host/pending/<reading_id>")
@host_only
def resolve(reading_id: str) -> Response:
    """Confirm a reading as read, with corrected values, or discard it (``values: null``)."""
    body = json_body()
    values = body.get("values")
    if values is not None and not isinstance(values, list):
        raise ApiError(400, _("values must be a list, or null to discard the reading"))
    try:
        _web().box.resolve(reading_id, values)
    except KeyError:
        raise ApiError(404, _("that reading is no longer waiting")) from None
    except IllegalAction as exc:
        raise ApiError(409, said(exc)) from None
    except ValueError as exc:
        raise ApiError(400, said(exc)) from None
    return jsonify(ok=True)


@api.get("/host/camera")
@host_only
def camera() -> Response:
    return _jpeg(_web().box.camera_jpeg(), "there is no camera picture")


@api.post("/host/camera/meter")
@host_only
def meter_camera() -> Response:
    """The host changed the lights: the camera measures exposure and colour again."""
    try:
        _web().box.remeter_camera()
    except ValueError as exc:
        raise ApiError(400, said(exc)) from None
    return jsonify(ok=True)


def _teach_request(body: dict[str, Any]) -> tuple[str, int, int, list[str], bool]:
    catalog = body.get("catalog")
    if not isinstance(catalog, str) or not CATALOG_NAME.fullmatch(catalog):
        raise ApiError(400, _("the deck needs a name of letters, digits, spaces, - or _ (at most 40)"))
    rows, cols = _int_field(body, "rows"), _int_field(body, "cols")
    if not (1 <= rows <= MAX_GRID and 1 <= cols <= MAX_GRID):
        raise ApiError(400, _("rows and cols must be from 1 to {most}", most=MAX_GRID))
    names = body.get("names")
    if not isinstance(names, list) or any(not isinstance(n, str) or not n.strip() for n in names):
        raise ApiError(400, _("names must be a list of card names"))
    names = [n.strip() for n in names]
    if len(names) != rows * cols:
        raise ApiError(
            400,
            _(
                "a {rows}x{cols} grid needs {count} names, not {got}",
                rows=rows,
                cols=cols,
                count=rows * cols,
                got=len(names),
            ),
        )
    if len(set(names)) != len(names):
        raise ApiError(400, _("two cards have the same name"))
    commit = body.get("commit", False)
    if not isinstance(commit, bool):
        raise ApiError(400, _("commit must be true or false"))
    return catalog, rows, cols, names, commit


@api.post("/host/teach")
@host_only
def teach() -> Response:
    """Teach a deck from the camera: preview the warped cards, then commit them."""
    catalog, rows, cols, names, commit = _teach_request(json_body())
    try:
        previews = _web().box.teach_cards(catalog, rows, cols, names, commit)
    except ValueError as exc:
        raise ApiError(400, said(exc)) from None
    urls = ["data:image/jpeg;base64," + base64.b64encode(p).decode("ascii") for p in previews]
    return jsonify(ok=True, committed=commit, previews=urls)


def _name_field(body: dict[str, Any], key: str, missing: str) -> str:
    """A die or face name as typed; the box checks it fully (names become file names)."""
    value = body.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ApiError(400, missing)
    return value.strip()


@api.get("/host/dice")
@host_only
def taught_dice() -> Response:
    """The symbol dice taught on this box, with the photos of each face."""
    return jsonify(dice=_web().box.taught_dice())


@api.post("/host/dice/teach")
@host_only
def teach_die() -> Response:
    """One more photo of one face of a symbol die, from the camera's latest frame."""
    body = json_body()
    die, face = _name_field(body, "die", _("type the die's name")), _name_field(body, "face", _("type the face's name"))
    try:
        result = _web().box.teach_die(die, face)
    except ValueError as exc:
        raise ApiError(400, said(exc)) from None
    preview = "data:image/jpeg;base64," + base64.b64encode(result["preview"]).decode("ascii")
    return jsonify(
        ok=True,
        die=result["die"],
        face=result["face"],
        preview=preview,
        faces=result["faces"],
        dice=_web().box.taught_dice(),
    )


@api.post("/host/dice/forget")
@host_only
def forget_die() -> Response:
    die = _name_field(json_body(), "die", _("type the die's name"))
    try:
        _web().box.forget_die(die)
    except KeyError:
        raise ApiError(404, _("no die called {name!r} is taught", name=die)) from None
    except ValueError as exc:
        raise ApiError(400, said(exc)) from None
    return jsonify(ok=True, dice=_web().box.taught_dice())
