"""The box's one table: the pure engine table, made durable and observable.

Every change goes through :meth:`TableService.submit` (or :meth:`undo`): the action
is checked against the rules, appended to the SQLite log, and only then adopted
and its effects handed to the listeners (speaker, LEDs).  Pages learn of changes
through a version counter; each page then fetches its *own* view, so the shared
change signal never carries anybody's secret, and every seat is signalled at the
same moment whatever changed (no timing tells who was dealt what).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from device.store import BadEntry, Kept, SeatTaken, Store
from engine import timers as timing
from engine.actions import Action, IllegalAction
from engine.effects import Effect, Expect, Notice, Say, Track
from engine.messages import _, _n, said
from engine.table import NEW, UNDO, UNDO_PASSES, GameFault, ReplayError, replay

log = logging.getLogger(__name__)
Listener = Callable[[list[Effect]], None]
log = logging.getLogger("familiar")

NOTICES = 20
PAIRING_DIGITS = 6
PAIRING_TRIES = 5
"""Wrong pairing codes before the pairing closes: 5 guesses of a million codes."""


@dataclass
class Pairing:
    """An open host pairing: the code a new device must type, until when, tries left."""

    code: str
    until: float
    tries: int = PAIRING_TRIES


SEAT_JOINS_PER_MINUTE = 10
"""Tries to take one seat in a minute, from any address: a squatter's fresh addresses
share its seat's limit (issue 51: 20 of 20 races won after a reset)."""
REQUEST_DIGITS = 4


@dataclass(frozen=True)
class SeatRequest:
    """A phone asking for a seat that was reset: it waits for the host, who compares the
    number the phone shows with the one on the host page."""

    id: str
    game: int
    seat: int
    number: str
    token: str


class AwaitsHost(PermissionError):
    """The seat was reset: the phone has asked for it and waits for the host's approval.
    ``token`` is the phone's cookie (it opens the seat once approved), ``number`` what
    the phone shows."""

    def __init__(self, message: str, token: str, number: str) -> None:
        super().__init__(message)
        self.token, self.number = token, number


class WrongPairingCode(PermissionError):
    """The pairing code typed on a new device is not the one the box shows."""


@dataclass(frozen=True)
class Announce(Say):
    """A line the whole table must hear now, before any line still waiting: a seat reset
    (else a host could reset a seat, rejoin it and read its secret while the warning waits
    behind a long queue) or host pairing opened."""


class SteadyClock:
    """Wall time that a jump of the system clock does not move: the wall time at start
    plus the monotonic time since.  NTP setting a Pi's clock at boot (it has no
    real-time clock), or someone changing it, would otherwise end or stretch every running
    timer, whose deadlines are wall times in the log.  :meth:`moved` says how far the
    system clock has moved away from it since the last look, so the box can say so."""

    def __init__(self, wall: Callable[[], float] = time.time, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._wall, self._monotonic = wall, monotonic
        self._start_wall, self._start = wall(), monotonic()
        self._offset = 0.0

    def __call__(self) -> float:
        return self._start_wall + self._monotonic() - self._start

    def moved(self) -> float:
        """Seconds the system clock jumped (+ on, - back) since the last call; 0 if steady."""
        offset = self._wall() - self()
        jump, self._offset = offset - self._offset, offset
        return jump


class WrongJoinCode(PermissionError):
    """The phone's join link is not the current game's (old, or guessed)."""


def new_token() -> str:
    """A 256-bit random token for a seat or the host, URL- and cookie-safe."""
    return secrets.token_urlsafe(32)


class TableService:
    """Thread-safe owner of the table, the log and the seat claims."""

    def __init__(self, store: Store, games: dict | None = None, language: str = "en") -> None:
        self.store = store
        self.games = games
        self.box_language = language
        """The box's language (``box.language``): a game set up without one speaks it."""
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._listeners: list[Listener] = []
        self.version = 0
        self.notices: deque[str] = deque(maxlen=NOTICES)
        self._pairing: Pairing | None = None
        self._requests: dict[str, SeatRequest] = {}
        self._joins: dict[tuple[int, int], deque[float]] = {}
        self.clock: Callable[[], float] = SteadyClock()
        """Wall time for the log and the timers (the timer thread reads it too): steady
        through a jump of the system clock while the box runs."""
        self.replay_problems: list[str] = []
        """What the last start or undo had to set aside, for the daemon to say aloud."""
        self._views_of: tuple[Any, Any] | None = None
        self._views: dict[int | None, dict[str, Any]] = {}
        self._key = store.box_key()
        self._fits: dict[tuple[str, str, str], bool] = {}
        """Whether each saved option (game, option, saved text) fits its game, checked once:
        the rules are the box's code, so the answer holds, and a misfit is told once."""
        self._load()

    def _load(self) -> None:
        """Replay the log: this is crash recovery.

        An entry that no longer parses or applies (an older box's, or a damaged one) is
        set aside with every entry after it, so the table is as it was just before that
        entry and one bad entry cannot block every later start and undo.  Later entries go
        too because each was accepted in a state that held the bad one.  The host is told
        which entry; the reason is kept beside it in the store (private, like the seeds)
        and not logged or shown, as a rule's message may quote a secret."""
        self.replay_problems = []
        while True:
            try:
                self.table = replay(self.store.entries(), self.games)
                break
            except BadEntry as exc:
                seq, reason = exc.seq, str(exc)
            except ReplayError as exc:
                seq, reason = exc.seq, exc.reason
            count = self.store.set_aside(seq, reason)
            log.error("log entry #%d does not replay: it and %d after it set aside", seq, count - 1)
            text = _n(
                "Log entry #{seq} could not be replayed: it and the {count} after it were set aside;"
                " the table is as it was before it.",
                "Log entry #{seq} could not be replayed: it and the {count} after it were set aside;"
                " the table is as it was before it.",
                count - 1,
                seq=seq,
            )
            self.notices.append(text)
            self.replay_problems.append(text)

    @property
    def game_seq(self) -> int:
        """The key of the current game's seat claims: the log position where it became
        current, its start or the undo that brought it back.  So undoing a new game gives
        the old game fresh seats: the phones that held them before do not get them back."""
        return self.table.current_since

    def add_listener(self, listener: Listener) -> None:
        """Call ``listener(effects)`` after each accepted change (in order, one at a time)."""
        self._listeners.append(listener)

    # Changing the table

    def submit(self, action: Action) -> list[Effect]:
        """Check, persist, adopt, then announce one action; IllegalAction changes nothing."""
        with self._lock:
            action, keep = self._with_kept(action)
            seed = secrets.randbits(63) if action.kind == NEW else 0
            at = self.clock()  # one moment for the rules and the log: timers fold from it
            try:
                outcome = self.table.attempt(action, seed, at)
            except GameFault as fault:
                log.error("a game fault on %s (refused, nothing changed):\n%s", action.kind, fault.trace)
                raise
            maybe_quiet = action.seat is not None and not outcome.effects  # only then can it be quiet
            before = self.table.seen_by_all() if maybe_quiet else None
            entry = self.store.append(action, seed, at, keep)
            self.table.commit(outcome, entry)
            quiet = maybe_quiet and self.table.seen_by_all() == before
            self._changed_with(outcome.effects, wake=not quiet)
            return outcome.effects

    # Options kept per board

    def kept_options(self, name: str) -> dict[str, Any]:
        """What ``name``'s set-up offers for each option the game keeps per board: the value
        its last game started with, or None when there is none (or it no longer fits)."""
        with self._lock:
            game = self.table.games.get(name)
            if game is None:
                return {}
            saved = self.store.kept(name)
            return {o: self._still_fits(name, o, saved[o]) if o in saved else None for o in game.kept_options}

    def _still_fits(self, name: str, option: str, text: str) -> Any:
        """A saved option, checked as a fresh one is: by setting up the game with it (at its
        fewest players, nothing kept).  One that no longer fits (saved by an older box, or
        damaged) is offered as None, and the host is told once."""
        key = (name, option, text)
        if key not in self._fits:
            self._fits[key] = self._fits_now(name, option, text)
        return json.loads(text) if self._fits[key] else None

    def _fits_now(self, name: str, option: str, text: str) -> bool:
        game = self.table.games[name]
        seats = [str(n + 1) for n in range(game.min_seats)]
        try:
            value = json.loads(text)
            self.table.attempt(Action(NEW, {"game": name, "seats": seats, "options": {option: value}}), 0)
        except (ValueError, RecursionError) as exc:  # IllegalAction (a refusal, a game's fault) or bad JSON
            said_why = _(
                "The saved option {option!r} for {game} was set aside: {reason}",
                option=option,
                game=game.title,
                reason=said(exc),
            )
            self.note(said_why)
            return False
        return True

    def _with_kept(self, action: Action) -> tuple[Action, Kept | None]:
        """A new game as the host asked for it, with each option kept per board that the
        host left out filled in from the box, and what to keep from it.  The filled-in
        action is the one logged, so the log alone still replays the game exactly."""
        name, options = action.data.get("game"), action.data.get("options") or {}
        game = self.table.games.get(name) if isinstance(name, str) else None
        if action.kind != NEW or action.seat is not None or game is None or not isinstance(options, dict):
            return action, None
        if not game.kept_options:
            return action, None
        saved = {o: v for o, v in self.kept_options(name).items() if v is not None and o not in options}
        if saved:
            action = Action(NEW, {**action.data, "options": {**saved, **options}})
            options = action.data["options"]
        return action, (name, {o: options.get(o) for o in game.kept_options})

    def undo(self) -> list[Effect]:
        """Take back the table's last step, unless it showed a secret (``UndoRefused``
        says why in public words: see ``Table.undo_refusal``)."""
        with self._lock:
            self.table.check_undo()
            action = Action(UNDO, {UNDO_PASSES: "private"})
            entry = self.store.append(action, 0)
            self.table.undo(entry.seq, action)
            effects: list[Effect] = [Say(_("Undone."))]
            self._changed_with(effects)
            return effects

    def note(self, text: str, speak: bool = False) -> None:
        """Tell the host something (and the table, if ``speak``): warnings, degraded parts."""
        with self._lock:
            self._changed_with([Notice(text), *([Say(text)] if speak else [])])

    def held(self) -> threading.RLock:
        """The table's lock, for a reader that must see one consistent moment (the board's
        redraw) and take its own lock after this one, never before."""
        return self._lock

    def touch(self) -> None:
        """Wake every page without changing the table: something a page shows beside
        the table changed (a reading parked for the host, or dropped by it)."""
        with self._lock:
            self.version += 1
            self._changed.notify_all()

    def _changed_with(self, effects: list[Effect], wake: bool = True) -> None:
        self.notices.extend(e.text for e in effects if isinstance(e, Notice))
        if wake:
            self.version += 1
            self._changed.notify_all()
        for listener in self._listeners:
            try:
                listener(effects)
            except Exception:  # noqa: BLE001 - the change is made; one output must not hide it from the rest
                log.exception("a listener failed; the change stands")

    def wait_for_change(self, since: int, timeout: float) -> int:
        """Block until the version passes ``since`` (or timeout); returns the version."""
        with self._changed:
            self._changed.wait_for(lambda: self.version != since, timeout=timeout)
            return self.version

    # Reading the table

    @property
    def language(self) -> str:
        """The language the table speaks now: the game's own, else the box's."""
        return self.table.current.language or self.box_language

    def _view(self, seat: int | None) -> dict[str, Any]:
        """The engine's view for ``seat`` (None: the public one), built once per table
        state: every view copies and redacts the whole state, and ten phones polling a
        table that has not moved would each do it again.  Every change (a commit, an
        undo, a restart) replaces the state object, so holding it says the views are
        current, quiet answers (which move no version) included."""
        now = (self.table, self.table.current)
        if self._views_of is None or any(a is not b for a, b in zip(self._views_of, now, strict=True)):
            self._views_of, self._views = now, {}
        if seat not in self._views:
            self._views[seat] = self.table.public_view() if seat is None else self.table.private_view(seat)
        return dict(self._views[seat])

    def public_view(self) -> dict[str, Any]:
        with self._lock:
            view = self._view(None)
            claimed = self.store.claimed(self.game_seq)
            view["claimed"] = [i in claimed for i in range(len(view["seats"]))]
            view["notices"] = list(self.notices)
            view["timers"] = timing.shown(self.table.current.timers, self.clock())
            view["version"] = self.version
            view["language"] = self.language
            return view

    def public_prompts(self) -> list[Expect]:
        """What the whole table is asked now (no seat's secret prompt): all the box's own
        outputs and its camera may answer or show."""
        with self._lock:
            return [e for e in self.table.expects() if not e.secret]

    def public_tracks(self) -> dict[str, Track]:
        """The board's tracks, from the public view (the game reads them off the redacted
        state), for the lights."""
        with self._lock:
            return {name: Track(**shown) for name, shown in self._view(None)["tracks"].items()}

    def timers(self) -> timing.Timers:
        """The table's timers now (each frozen), read under the lock for the timer thread."""
        with self._lock:
            return dict(self.table.current.timers)

    def private_view(self, seat: int) -> dict[str, Any]:
        with self._lock:
            view = self._view(seat)
            view["version"] = self.version
            return view

    # Seats and host

    def join_code(self) -> str:
        """The current game's join code, carried by the QR code and the short address
        on the host's screen: only people who can see that screen can join.  40 bits,
        derived from the box's key and the game's claim key, so every new game (and every
        undo that brings back an older one) has a new code that cannot be guessed."""
        with self._lock:
            mac = hmac.new(self._key, f"join {self.game_seq}".encode(), hashlib.sha256).digest()
            return base64.b32encode(mac[:5]).decode("ascii")

    def claim_seat(self, seat: int, code: str | None) -> str:
        """Give the caller ``seat`` and return its new token (SeatTaken if it is not free,
        WrongJoinCode without the current game's join code)."""
        with self._lock:
            if not code or not hmac.compare_digest(code.encode("utf-8", "replace"), self.join_code().encode()):
                raise WrongJoinCode(
                    _("this join link is not for the current game: scan the QR code on the host's screen")
                )
            seats = self.table.current.seats
            if not 0 <= seat < len(seats):
                raise IllegalAction(_("there is no seat {seat}", seat=seat))
            self._count_join(seat)
            token = new_token()
            if self.store.was_reset(self.game_seq, seat):
                self._ask_host(seat, token)
            self.store.claim(self.game_seq, seat, token)
            self.note(_("A phone took {name}'s seat.", name=seats[seat]))
            return token

    def _count_join(self, seat: int) -> None:
        """At most SEAT_JOINS_PER_MINUTE tries at one seat, whoever makes them."""
        now = time.monotonic()
        for old in [key for key in self._joins if key[0] != self.game_seq]:  # earlier games' counts go
            del self._joins[old]
        tries = self._joins.setdefault((self.game_seq, seat), deque())
        while tries and now - tries[0] > 60:
            tries.popleft()
        if len(tries) >= SEAT_JOINS_PER_MINUTE:
            name = self.table.current.seats[seat]
            raise PermissionError(_("too many tries to take {name}'s seat: wait a minute", name=name))
        tries.append(now)

    def _ask_host(self, seat: int, token: str) -> None:
        """A seat that was reset: its secrets were dealt to a phone already, so a new
        phone sees nothing until the host approves it, naming the seat."""
        if seat in self.store.claimed(self.game_seq):
            raise SeatTaken(f"seat {seat} is already taken")
        for old in [r.id for r in self._requests.values() if r.game != self.game_seq]:  # an earlier game's
            del self._requests[old]
        number = f"{secrets.randbelow(10**REQUEST_DIGITS):0{REQUEST_DIGITS}d}"
        request = SeatRequest(secrets.token_urlsafe(8), self.game_seq, seat, number, token)
        self._requests[request.id] = request
        name = self.table.current.seats[seat]
        self.note(_("A phone asks for {name}'s seat: approve it on the host page if it is {name}'s.", name=name))
        raise AwaitsHost(
            _(
                "{name}'s seat was reset: the host approves this phone. Show the host the number {number}.",
                name=name,
                number=number,
            ),
            token,
            number,
        )

    def seat_requests(self) -> list[dict[str, Any]]:
        """The phones waiting for a reset seat, for the host page: the seat and the number
        each phone shows (never its token)."""
        with self._lock:
            seats = self.table.current.seats
            return [
                {"id": r.id, "seat": r.seat, "name": seats[r.seat], "number": r.number}
                for r in self._requests.values()
                if r.game == self.game_seq and r.seat < len(seats)
            ]

    def answer_seat_request(self, request_id: str, approve: bool) -> None:
        """The host gives the seat to the asking phone, or refuses it; approving one gives
        the seat to that phone alone (every other request for it is refused)."""
        with self._lock:
            request = self._requests.pop(request_id, None)
            if request is None or request.game != self.game_seq:
                raise IllegalAction(_("that request is no longer open"))
            name = self.table.current.seats[request.seat]
            if not approve:
                self.note(_("The host refused a phone for {name}'s seat.", name=name))
                return
            self.store.claim(request.game, request.seat, request.token)
            for other in [r.id for r in self._requests.values() if (r.game, r.seat) == (request.game, request.seat)]:
                del self._requests[other]
            self.note(_("The host gave {name}'s seat to the phone showing {number}.", name=name, number=request.number))

    def seat_of(self, token: str | None) -> int | None:
        if not token:
            return None
        with self._lock:
            return self.store.seat_of(self.game_seq, token)

    def reset_seat(self, seat: int) -> None:
        """A lost phone: free the seat, kill the old token, and say so aloud."""
        with self._lock:
            seats = self.table.current.seats
            if not 0 <= seat < len(seats):
                raise IllegalAction(_("there is no seat {seat}", seat=seat))
            if not self.store.release(self.game_seq, seat):
                raise IllegalAction(_("{name}'s seat has no phone to reset", name=seats[seat]))
            self._changed_with(
                [Announce(_("{name}'s seat was reset. {name}, join again from your phone.", name=seats[seat]))]
            )

    def open_host_pairing(self, seconds: float = 60.0) -> None:
        """The box's button was held: for a minute, a new device may become host by typing
        the code the old host's screen (and the box's own board) shows.  Without it the
        window went to whoever polled ``/host`` first (86 ms after the hold, a stranger)."""
        with self._lock:
            code = f"{secrets.randbelow(10**PAIRING_DIGITS):0{PAIRING_DIGITS}d}"
            self._pairing = Pairing(code, time.monotonic() + seconds)
            self._changed_with(
                [Announce(_("Host pairing: type the code shown on the host's screen into the new device's host page."))]
            )

    def pairing_code(self) -> str | None:
        """The open pairing's code, for the host's page and the box's own screen only."""
        with self._lock:
            return self._open_pairing().code if self._open_pairing() else None

    def _open_pairing(self) -> Pairing | None:
        if self._pairing is not None and time.monotonic() > self._pairing.until:
            self._pairing = None
        return self._pairing

    def claim_host(self, code: str | None = None) -> str:
        """Make the caller host: free when there is none, else only with the open pairing's
        code (``WrongPairingCode``; after PAIRING_TRIES wrong codes the pairing closes)."""
        with self._lock:
            if self.store.has_host():
                self._check_pairing(code)
            token = new_token()
            self.store.set_host(token)
            self._pairing = None
            self._changed_with([])  # the old host's page learns it is no longer host
            return token

    def _check_pairing(self, code: str | None) -> None:
        pairing = self._open_pairing()
        if pairing is None:
            raise PermissionError(_("this box already has a host: hold the box's confirm button, then try again"))
        if not code:  # not a guess: only a typed code uses up a try
            raise WrongPairingCode(_("type the code shown on the host's screen"))
        if not hmac.compare_digest(code.strip().encode("utf-8", "replace"), pairing.code.encode()):
            pairing.tries -= 1
            if pairing.tries <= 0:
                self._pairing = None
                self._changed_with([Announce(_("Host pairing closed after wrong codes."))])
            raise WrongPairingCode(_("that is not the code on the host's screen"))

    def is_host(self, token: str | None) -> bool:
        return bool(token) and self.store.host_matches(token)


__all__ = ["Announce", "AwaitsHost", "TableService", "SeatTaken", "WrongJoinCode", "WrongPairingCode", "new_token"]
