"""The table: seats, the game being played, and its state as the fold of the log.

Nothing here does I/O.  The box's service appends each accepted action to a durable
log *before* it runs the effects; on start it replays the log through :func:`replay`.
Undo is an entry too (``table.undo``), so the log stays append-only and a crash in the
middle of an undo loses nothing.

Hidden randomness comes from the game's own seed (the ``table.new`` entry's), never
from the action that happens to trigger a deal, so undoing a step and doing it again
deals the same cards.  What a seat has been shown cannot be unseen, so **a step that
showed a secret is final** (boardgame.io's ``undoable: false``): undo stops at it, and
the table corrects a fact with one of the game's declared corrections instead
(``StepGame.corrections``).  Final are: a step that showed some seat something it had
not been shown (``Game.learned``, compared by :func:`news`: a card drawn or peeked at,
not a card played from a hand), every step taken while who acts is itself a secret (a
one-night game's night, when undo is refused altogether: an answer that undo took back,
or a refusal that came only when a phone had answered, would say who is awake), and the
end of a game (it reveals every role).  A new game is not final: what its deal showed
says nothing of the game it replaced, which undo brings back.  A seat's private move
(``Move.private``: its own notepad tick) is never the table's step: undo passes over
it.  Whether undo is refused, and its words, come from the public state alone (:meth:`Table.undo_refusal`).

Logs written before steps were final may hold undos of such steps: they still replay,
and the seat keeps seeing what it saw (``seen`` in its view) until the game shows it
the same again.

Table timers are state too (:mod:`engine.timers`): each entry carries the wall time it
was accepted, so a timer's deadline is folded from the log, a restart resumes it and an
undo of the step that started it cancels it.  The host's controls are ``table.timer``.
"""

from __future__ import annotations

import copy
import traceback
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import secrets
from engine import timers as timing
from engine.actions import Action, IllegalAction
from engine.effects import TIMER_DONE, Effect, Expect, Say, Track
from engine.game import Game, Turn
from engine.games import registry
from engine.messages import LANGUAGES, _, listing

NEW = "table.new"
UNDO = "table.undo"
TIMER = "table.timer"
MAX_NAME = 24
MARK_EVERY = 8
"""Undo keeps the state after every MARK_EVERY-th kept entry of the current game, so it
replays at most that many entries instead of the whole game: a long game's undo held
the table's lock for a whole replay while every page waited (issue 24).  Eight states
a game of hundreds of entries is a few hundred kilobytes."""

Learned = dict[str, Any]


@dataclass(frozen=True)
class Entry:
    """One accepted action with the seed drawn for it (only a new game's is used) and
    the wall time it was accepted (only timers use it: the engine never reads a clock)."""

    seq: int
    action: Action
    seed: int
    at: float = 0.0


class GameFault(IllegalAction):
    """A game raised something other than a refusal: a bug.  The table treats it as a
    refusal (nothing changes) and keeps the traceback for the box's log."""

    def __init__(self, kind: str, trace: str) -> None:
        super().__init__(
            _("the box could not take {kind!r}: that is a fault in the box, and it has been logged", kind=kind[:40])
        )
        self.trace = trace


class ReplayError(Exception):
    """A logged entry no longer applies (an older box's log, or a damaged one): ``seq``
    says which, so the box can set it aside rather than fail to start."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(f"log entry #{seq} does not replay: {reason}")
        self.seq, self.reason = seq, reason


class UndoRefused(IllegalAction):
    """Undo stops at a step that showed a secret (see the module docstring); the words
    say why in the table's terms and what can still be corrected."""


NIGHT_FINAL = _(
    "Nothing done while the table's eyes are closed can be taken back: every step of it may have shown a secret."
)
SHOWN_FINAL = _("That step showed a secret on a phone, so undo stops there: what was seen cannot be unseen.")
OVER_FINAL = _("The game is over and its secrets are out, so undo stops there: start a new game instead.")
UNDO_PASSES = "passes"
"""An undo entry's data ``{"passes": "private"}``: it takes back the table's last step,
passing over seats' private moves (see the module docstring).  An undo without it (an
older box's log) takes back the last entry, whatever it was."""


@dataclass
class TableState:
    """Who sits where, which game, that game's seed and its own state."""

    game: str | None = None
    seats: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    language: str | None = None
    """The game's language if chosen at set-up (option ``language``), else the box's."""
    seed: int = 0
    state: Any = None
    timers: timing.Timers = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome:
    """What an action would do: the state after it, its effects, and which seats it
    showed something (by secret field), for the undo warning."""

    state: TableState
    effects: list[Effect]
    informed: dict[int, list[str]]
    hidden: bool = False
    """Taken while who acts is itself a secret (a night): the table names nobody for it."""
    private: bool = False
    """A seat's private move (``Move.private``): never the table's step for undo."""
    over: bool = False
    """The action ended the game."""
    news: bool = False
    """Some seat was shown something it had not been shown before (see :func:`news`)."""


def effective(entries: Iterable[Entry], games: Mapping[str, Game[Any]] | None = None) -> list[Entry]:
    """The entries that still count once every ``table.undo`` has removed its target
    (the table's last step, or for an older undo the last entry)."""
    known = games if games is not None else registry()
    kept: list[Entry] = []
    for entry in entries:
        if entry.action.kind != UNDO:
            kept.append(entry)
            continue
        started = next((e for e in reversed(kept) if e.action.kind == NEW), None)
        game = known.get(str(started.action.data.get("game"))) if started else None
        at = _undone_at(kept, entry.action, lambda e, game=game: _is_private(game, e.action))
        if at is not None:
            del kept[at]
    return kept


def _is_private(game: Game[Any] | None, action: Action) -> bool:
    """Whether ``action`` is a seat's private move in ``game`` (see ``Move.private``)."""
    return game is not None and action.seat is not None and game.is_private(action.kind)


def _undone_at(kept: Sequence[Entry], undo: Action, private: Any) -> int | None:
    """Where in ``kept`` the entry is that ``undo`` takes back, or None if none."""
    if not kept:
        return None
    if undo.data.get(UNDO_PASSES) != "private":
        return len(kept) - 1
    return next((i for i in range(len(kept) - 1, -1, -1) if not private(kept[i])), None)


def _seat_names(raw: Any, game: Game[Any]) -> tuple[str, ...]:
    """Validate seat names for a new game: distinct, short, printable, right count."""
    if not isinstance(raw, list) or any(not isinstance(n, str) for n in raw):
        raise IllegalAction(_("seats must be a list of names"))
    names = tuple(" ".join(n.split()) for n in raw)
    if any(not n or len(n) > MAX_NAME or not n.isprintable() for n in names):
        raise IllegalAction(_("each seat needs a name of 1 to {most} printable characters", most=MAX_NAME))
    if len({n.casefold() for n in names}) != len(names):
        raise IllegalAction(_("two seats have the same name"))
    if not game.min_seats <= len(names) <= game.max_seats:
        raise IllegalAction(
            _(
                "{game} is for {least} to {most} players, not {count}",
                game=game.title,
                least=game.min_seats,
                most=game.max_seats,
                count=len(names),
            )
        )
    return names


class Table:
    """Applies actions to the table state; pure and deterministic given the log."""

    def __init__(self, games: Mapping[str, Game[Any]] | None = None) -> None:
        self.games: Mapping[str, Game[Any]] = games if games is not None else registry()
        self.current = TableState()
        self.kept: list[Entry] = []
        """The effective entries, oldest first: what undo rebuilds from."""
        self.informed: dict[int, dict[int, list[str]]] = {}
        """By entry seq: the seats that entry showed a secret to, and which secrets."""
        self.seen: dict[int, dict[int, list[Learned]]] = {}
        """By game (its ``table.new`` seq), by seat: what undo took back from that seat."""
        self.hidden: set[int] = set()
        """The entries taken while who acts was a secret (see ``Game.hides_actors``)."""
        self.final: dict[int, str] = {}
        """By entry seq: the entries undo stops at, with why in the table's words."""
        self.private: set[int] = set()
        """The entries that were seats' private moves: never the table's step for undo."""
        self.answered: dict[int, str] = {}
        """By entry seq: the public prompt that entry answered (what undo would take back)."""
        self.marks: dict[int, TableState] = {}
        """By entry seq: the table state right after that entry, every MARK_EVERY-th
        entry of the current game (see MARK_EVERY).  States are never changed once made
        (:meth:`attempt` works on a copy), so a mark is the state itself."""
        self.current_since = 0
        """Where the current game became current: its ``table.new``, or the undo that
        brought it back (seat claims are keyed by it, so an undone new game does not hand
        the old game's seats back to the phones that held them)."""

    @property
    def game(self) -> Game[Any] | None:
        return self.games[self.current.game] if self.current.game else None

    @property
    def game_seq(self) -> int:
        """The log position of the current game's start (0 before any game)."""
        return next((e.seq for e in reversed(self.kept) if e.action.kind == NEW), 0)

    # Changing the table

    def attempt(self, action: Action, seed: int, at: float = 0.0) -> Outcome:
        """What ``action`` would do if accepted at wall time ``at``, without committing it
        (IllegalAction if refused)."""
        if action.kind == UNDO:
            raise IllegalAction(_("undo is not an action of the game: use the undo button"))
        if action.kind == NEW:
            return self._new_game(action, seed, at)
        game = self.game
        if game is None:
            raise IllegalAction(_("no game is being played: start one first"))
        if action.seat is not None and action.seat >= len(self.current.seats):
            raise IllegalAction(_("there is no seat {seat}", seat=action.seat))
        if game.is_over(self.current.state) and action.kind not in getattr(game, "corrections", {}):
            raise IllegalAction(_("the game is over: start a new one"))  # only a declared correction goes on
        after = copy.deepcopy(self.current)
        if action.kind == TIMER:
            after.timers = timing.control(after.timers, action, at)
            return Outcome(after, [], {})
        if action.kind == TIMER_DONE:
            timing.check_done(after.timers, action, at)
            after.timers = timing.finished(after.timers, action)
        turn = Turn.of(action, after.seats, after.seed)
        effects = _guarded(action.kind, lambda: game.apply(after.state, action, turn))
        after.timers = {} if game.is_over(after.state) else timing.started(after.timers, effects, at)
        hidden = game.hides_actors(self.current.state)
        private = _is_private(game, action)
        over = game.is_over(after.state)
        informed = self._informed(self.current, after)
        shown = any(news(self._learned(self.current, seat), self._learned(after, seat)) for seat in informed)
        return Outcome(after, effects, informed, hidden, private, over, shown)

    def _new_game(self, action: Action, seed: int, at: float) -> Outcome:
        if action.seat is not None:
            raise IllegalAction(_("only the host can start a game"))
        name = action.data.get("game")
        game = self.games.get(name) if isinstance(name, str) else None
        if game is None:
            known = ", ".join(sorted(self.games))
            raise IllegalAction(_("unknown game {name!r}; known: {known}", name=str(name)[:40], known=known))
        unknown = set(action.data) - {"game", "seats", "options"}
        if unknown:
            raise IllegalAction(
                _("a new game takes game, seats and options, not {unknown}", unknown=", ".join(sorted(unknown)))
            )
        seats = _seat_names(action.data.get("seats", []), game)
        options = action.data.get("options") or {}
        if not isinstance(options, dict):
            raise IllegalAction(_("options must be an object"))
        options = dict(options)
        language = options.pop("language", None)
        if language is not None and language not in LANGUAGES:
            raise IllegalAction(
                _("the box speaks {known}, not {language!r}", known=", ".join(LANGUAGES), language=str(language)[:20])
            )
        turn = Turn.of(action, seats, seed)
        state, effects = _guarded(NEW, lambda: game.new(options, turn))
        after = TableState(
            game=name,
            seats=seats,
            options=options,
            language=language,
            seed=seed,
            state=state,
            timers=timing.started({}, effects, at),
        )
        said = Say(_("New game: {game}.", game=game.title))
        return Outcome(after, [said, *effects], self._informed(TableState(), after))

    def _informed(self, before: TableState, after: TableState) -> dict[int, list[str]]:
        """The seats whose shown secrets the action changed, with those secrets' names."""
        out: dict[int, list[str]] = {}
        for seat in range(len(after.seats)):
            was, now = self._learned(before, seat), self._learned(after, seat)
            changed = sorted(k for k in now if now[k] != was.get(k))
            if changed:
                out[seat] = changed
        return out

    def _learned(self, table: TableState, seat: int) -> Learned:
        if table.game is None or seat >= len(table.seats):
            return {}
        return self.games[table.game].learned(table.state, seat)

    def commit(self, outcome: Outcome, entry: Entry) -> None:
        """Adopt an outcome of :meth:`attempt` once ``entry`` is durable."""
        asked = self._asked(entry.action)
        if asked is not None:
            self.answered[entry.seq] = asked
        self.current = outcome.state
        self.kept.append(entry)
        if entry.action.kind == NEW:
            self.current_since = entry.seq
            self.marks.clear()  # only the current game is rebuilt from its marks
        if len(self.kept) % MARK_EVERY == 0:
            self.marks[entry.seq] = outcome.state
        if outcome.informed:
            self.informed[entry.seq] = outcome.informed
        if outcome.hidden:
            self.hidden.add(entry.seq)
        if outcome.private:
            self.private.add(entry.seq)
        why = _final(entry.action, outcome)
        if why:
            self.final[entry.seq] = why
        else:  # an entry replayed after an undo may show nothing now
            self.final.pop(entry.seq, None)
        self._forget_reshown()

    def _asked(self, action: Action) -> str | None:
        """The public prompt ``action`` answers in the current state, if any: the host page
        says it on the undo button.  Never a secret prompt (its words are one seat's)."""
        game = self.game
        if game is None or action.kind in (NEW, TIMER, TIMER_DONE):
            return None
        behalf = action.seat if action.seat is not None else action.data.get("seat")
        for expect in game.expects(self.current.state):
            if expect.action == action.kind and not expect.secret and (behalf is None or expect.seat in (behalf, None)):
                return expect.prompt
        return None

    def apply(self, action: Action, seed: int, seq: int | None = None, at: float = 0.0) -> list[Effect]:
        """Attempt and commit in one step (replay and tests); ``seq`` defaults to the next."""
        outcome = self.attempt(action, seed, at)
        self.commit(outcome, Entry(self._next_seq() if seq is None else seq, action, seed, at))
        return outcome.effects

    def _next_seq(self) -> int:
        return (self.kept[-1].seq + 1) if self.kept else 1

    # Undo

    def _table_step(self) -> int | None:
        """Where in ``kept`` the table's last step is: the last entry that is not a seat's
        private move (None: there is none)."""
        return next((i for i in range(len(self.kept) - 1, -1, -1) if self.kept[i].seq not in self.private), None)

    def undo_refusal(self) -> str | None:
        """Why undo is refused now, in the table's words with what can still be corrected,
        or None when undo would take back the table's last step.

        It is derived from public facts only, so the host page may show it and the box's
        button may say it: while who acts is a secret, undo is refused whatever was done
        (a refusal only when a phone had answered would say that its role is awake), and
        a final step is refused in the same words whoever saw what."""
        at = self._table_step()
        if at is None:
            return _("there is nothing to undo")
        game = self.game
        if game is not None and game.hides_actors(self.current.state):
            why: str | None = NIGHT_FINAL
        else:
            why = self.final.get(self.kept[at].seq)
        if why is None:
            return None
        fixes = game.corrections_now(self.current.state) if game is not None else []
        if fixes:
            return _("{why} To correct an entry instead: {fixes}.", why=why, fixes=listing(fixes, "or"))
        return why

    def check_undo(self) -> None:
        """Refuse (:class:`UndoRefused`) when undo may not take back the table's last step."""
        refusal = self.undo_refusal()
        if refusal is not None:
            raise UndoRefused(refusal)

    def undo(self, seq: int | None = None, action: Action | None = None) -> None:
        """Take back the entry that the undo ``action`` (logged as ``seq``) names: the
        table's last step (:data:`UNDO_PASSES`), or for an older log's undo the last
        entry.  The table is rebuilt from its game's start.  Finality is not checked here
        (an older log's undo replays as it was taken): the box checks it first
        (:meth:`check_undo`).  What the entry showed stays with the seats that saw it."""
        at = _undone_at(self.kept, action or Action(UNDO), lambda e: e.seq in self.private)
        if at is None:
            raise IllegalAction(_("there is nothing to undo"))

        game_seq = self.game_seq  # the undone entry's game, even when it is that game's start
        undone = self.kept[at]
        for seat, keys in self.informed.get(undone.seq, {}).items():
            learned = self._learned(self.current, seat)
            shown = {k: learned[k] for k in keys if k in learned}
            remembered = self.seen.setdefault(game_seq, {}).setdefault(seat, [])
            if shown and shown not in remembered:
                remembered.append(shown)
        del self.kept[at]
        for marked in [m for m in self.marks if m >= undone.seq]:  # states that held it
            del self.marks[marked]
        self.final.pop(undone.seq, None)  # an undone entry is no step: undo may pass it
        self.answered.pop(undone.seq, None)
        self.hidden.discard(undone.seq)
        self.private.discard(undone.seq)
        since = self.current_since
        self._rebuild()
        self.current_since = (seq or 0) if undone.action.kind == NEW else since

    def _rebuild(self) -> None:
        """The current game again from its latest mark (see MARK_EVERY), else from its
        ``table.new``: undo replays a few entries of one game, never the log.  The marks
        are made the same way on the running table and on one replayed from the log, so
        both rebuild alike."""
        start = next((i for i in range(len(self.kept) - 1, -1, -1) if self.kept[i].action.kind == NEW), None)
        self.current = TableState()
        if start is None:
            return
        marked = next((i for i in range(len(self.kept) - 1, start - 1, -1) if self.kept[i].seq in self.marks), None)
        if marked is not None:
            self.current, start = self.marks[self.kept[marked].seq], marked + 1
        replayed = self.kept[start:]
        del self.kept[start:]
        for entry in replayed:
            try:
                self.commit(self.attempt(entry.action, entry.seed, entry.at), entry)
            except IllegalAction:
                if entry.seq not in self.private:
                    raise
                self.private.discard(entry.seq)  # a tick on what the undone step made: it goes with it

    def _forget_reshown(self) -> None:
        """A remembered secret the game shows again, the same, is no longer only a memory."""
        memory = self.seen.get(self.game_seq, {})
        for seat, remembered in memory.items():
            now = self._learned(self.current, seat)
            remembered[:] = [m for m in remembered if any(now.get(k) != v for k, v in m.items())]

    def fold(self, entry: Entry) -> None:
        """Apply one logged entry, undo included (replay); ReplayError if it no longer applies."""
        try:
            if entry.action.kind != UNDO:
                self.commit(self.attempt(entry.action, entry.seed, entry.at), entry)
            elif self.kept:
                self.undo(entry.seq, entry.action)  # may run an older game again (see replay)
        except IllegalAction as exc:
            raise ReplayError(entry.seq, f"{type(exc).__name__}: {exc}") from exc

    # Views: the only way anything leaves the table.

    def public_view(self) -> dict[str, Any]:
        """What the host page and the whole table may see."""
        game = self.game
        if game is None:
            return {
                "game": None,
                "title": None,
                "seats": [],
                "view": {},
                "expects": [],
                "tracks": {},
                "over": False,
                "labels": {},
            }
        state = self.current.state
        return {
            "game": game.name,
            "title": game.title,
            "seats": list(self.current.seats),
            "view": game.public_view(state),
            "expects": [e.to_json() for e in game.expects(state) if not e.secret],
            "tracks": {k: vars(t) for k, t in self.tracks().items()},
            "over": game.is_over(state),
            "labels": dict(game.labels),
            "last_by": self._last_by(),
            "undoes": self._undoes(),
            "undo_refused": self.undo_refusal(),
        }

    def _last_by(self) -> str | None:
        """Whose answer undo would take back (a seat's name), or None for the host's or
        the box's own step: the host page asks before undoing what a player chose."""
        at = self._table_step()
        entry = self.kept[at] if at is not None else None
        if entry is None or entry.action.seat is None or entry.action.kind == NEW or entry.seq in self.hidden:
            return None
        return self.current.seats[entry.action.seat]

    def _undoes(self) -> str | None:
        """The prompt the last entry answered, for the undo button; None when it answered
        no public prompt, and all the while who acts is a secret (the night): a button
        that changed when a phone answered would say that someone is awake."""
        at = self._table_step()
        last = self.kept[at].seq if at is not None else None
        game = self.game
        if last is None or last in self.hidden or (game is not None and game.hides_actors(self.current.state)):
            return None
        return self.answered.get(last)

    def seen_by_all(self) -> tuple[Any, ...]:
        """What the whole table sees: the public view and the timers.  A phone's answer
        that changes none of it (a night action, a private tick) must wake no page: the
        live-update signal every page gets would say that someone answered."""
        return (self.public_view(), dict(self.current.timers))

    def private_view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` alone may see, including prompts meant only for it and what it
        saw before an undo took it back."""
        game = self.game
        if game is None or not 0 <= seat < len(self.current.seats):
            return {"seat": seat, "name": None, "view": {}, "expects": [], "seen": []}
        state = self.current.state
        return {
            "seat": seat,
            "name": self.current.seats[seat],
            "view": game.private_view(state, seat),
            "expects": [e.to_json() for e in game.expects(state) if e.seat == seat],
            "seen": copy.deepcopy(self.seen.get(self.game_seq, {}).get(seat, [])),
        }

    def expects(self) -> list[Expect]:
        """Everything the table waits for, secret prompts included (for the box, not pages)."""
        game = self.game
        return game.expects(self.current.state) if game else []

    def tracks(self) -> dict[str, Track]:
        """The board's tracks, read off the redacted state: the lights may show only what
        the whole table may know, so a game's ``tracks`` is never given a secret."""
        game = self.game
        return game.tracks(secrets.redacted(self.current.state)) if game else {}


def _guarded(kind: str, run: Any) -> Any:
    """Run a game's code; anything but a refusal becomes a :class:`GameFault`."""
    try:
        return run()
    except IllegalAction:
        raise
    except Exception:  # a bug in a game must never become a 500 or a changed state
        raise GameFault(kind, traceback.format_exc()) from None


def replay(entries: Sequence[Entry], games: Mapping[str, Game[Any]] | None = None) -> Table:
    """Rebuild the table from its log.  Raises :class:`ReplayError` if a logged action no
    longer applies, because silently dropping history would be worse than a loud failure.

    Start-up must not depend on past games (a log of 232 games with an undo in each took
    110 s, beyond systemd's start timeout), so at most two games are run: the current
    one, and the one an undo of its start brings back if undos were made in it.  They are
    folded entry by entry, undos included, so they come back with what their seats were
    shown (``seen``) exactly as on the table that was running.  Every other game is kept
    as its outcome, its effective entries (:func:`effective`), not run: if undos ever
    bring one back, :meth:`Table.undo` runs it again from its start, without the memory
    of steps undone within it (a game with no undo has none).  Reaching one takes undoing
    two whole games back to their deals, and every step that showed a seat something new,
    and every game's end, is final."""
    table = Table(games)
    kept = effective(entries, table.games)
    if not kept:
        return table
    starts = [e.seq for e in kept if e.action.kind == NEW][-2:]
    undone_in_previous = any(e.action.kind == UNDO and starts[0] <= e.seq < starts[-1] for e in entries)
    run_from = starts[0] if undone_in_previous else starts[-1]
    table.kept.extend(e for e in kept if e.seq < run_from)
    for entry in entries:
        if entry.seq >= run_from:
            table.fold(entry)
    return table


def _final(action: Action, outcome: Outcome) -> str | None:
    """Why an entry is final (see the module docstring), or None: its words depend only on
    what the table knows (a night, a new game, the end), never on who saw what."""
    if action.kind == TIMER or outcome.private:
        return None
    if outcome.hidden:
        return NIGHT_FINAL
    if outcome.over:
        return OVER_FINAL
    if outcome.news and action.kind != NEW:  # a new deal says nothing of the game it replaced
        return SHOWN_FINAL
    return None


def news(was: Any, now: Any) -> bool:
    """Whether ``now`` (what a seat is shown after a step) holds anything ``was`` did not.
    A hand that lost the card its holder played shows nothing new, so that step may be
    undone (the card comes back to a hand that held it); a card drawn, a card shown, a
    role peeked at is news, and the step that brought it is final."""
    if now == was:
        return False
    if isinstance(now, Mapping) and isinstance(was, Mapping):
        return any(key not in was or news(was[key], value) for key, value in now.items())
    if isinstance(now, (list, tuple)) and isinstance(was, (list, tuple)):
        left = list(was)
        for item in now:
            if item not in left:
                return True
            left.remove(item)
        return False
    return True
