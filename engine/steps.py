"""Declaring a game as steps, in the spirit of boardgame.io's phases, stages and moves.

A game is a list of :class:`Step`.  Each step names what the table is doing (for
refusals: players never see internal step names), and the moves it accepts; each
:class:`Move` names its action kind, the arguments it takes (:mod:`engine.args`), who
may make it, its handler and the prompt that asks for it, side by side.  Moves allowed
at any time (Expelliarmus, a Protego, a host correction) are declared once in
``anytime`` with a ``when`` of their own.  The core checks the step, the actor and the
arguments before a handler runs, so handlers hold only the rules.

The state's ``step`` field names the current step.  The views come from the secret
marks (:mod:`engine.secrets`); a game adds presentation with ``describe`` (public) and
``present`` (one seat's), which are given a redacted state and cannot leak.

A minimal game::

    @dataclass
    class Coin:
        step: str = "flip"
        flips: list[str] = field(default_factory=list)

    def flip(state: Coin, turn: Turn) -> list[Effect]:
        state.flips.append(turn.random("flip", len(state.flips)).choice(["heads", "tails"]))
        return [Say(state.flips[-1])]

    class Coins(StepGame[Coin]):
        name, title, min_seats, max_seats = "coins", "Coins", 1, 4
        steps = (Step("flip", "flipping", (Move("flip", flip, ask=lambda s: [
            Expect("confirm", "flip", "Flip the coin")]),)),)

        def setup(self, options, turn):
            return Coin(), []
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from engine import secrets
from engine.actions import Action, IllegalAction
from engine.args import ArgSpec, Seat, Where, parse_args
from engine.effects import Effect, Expect, Track
from engine.game import Turn
from engine.messages import _, listing


class HasStep(Protocol):
    step: str


S = TypeVar("S", bound=HasStep)
Handler = Callable[[S, Turn], list[Effect]]
Asker = Callable[[S], list[Expect]]
Seats = Callable[[S], Iterable[int | None]]


@dataclass(frozen=True)
class Move(Generic[S]):
    """One kind of action and everything about it.

    ``by`` gives the seats that may make it now (``None`` entries are ignored, so
    ``lambda s: [s.leader]`` works before there is a Leader); with no ``by``, only the
    host may.  ``host`` says whether the host may make it for the table.  ``role`` names
    who may, in refusals ("only Ann (the Leader) or the host can do that").  ``ask``
    gives the prompts for it, and ``when`` (for ``anytime`` moves) says whether it is
    possible now, with ``not_now`` as the refusal when it is not.

    A ``private`` move is a seat's own, rules-free action (a tick on its own notepad):
    only its seat may make it, it is never the table's step for undo (the host's undo
    passes over it), and neither the host page nor any other phone learns that it was
    made."""

    kind: str
    run: Handler[S]
    args: Mapping[str, ArgSpec] = field(default_factory=dict)
    by: Seats[S] | None = None
    host: bool = True
    role: str = ""
    ask: Asker[S] | None = None
    when: Callable[[S], bool] | None = None
    not_now: str | Callable[[S], str] = ""
    private: bool = False

    def seats(self, state: S) -> list[int]:
        """The seats that may make this move now (none: the host's alone)."""
        return [s for s in (self.by(state) if self.by else ()) if s is not None]


@dataclass(frozen=True)
class Step(Generic[S]):
    """A stage of the game: what the table is doing, and the moves it takes then.

    With ``in_order`` the step's moves are asked one at a time, in the order declared:
    only the first move that has prompts now is asked (its ``ask`` returns none once it
    is done or does not apply), so a person answers one question and then sees the
    next, as a rulebook's numbered steps go.  The moves are still *accepted* as the
    rules allow (a reveal without a "no Curse" first is a Leader who saw none), which
    keeps the logs of tables played before a step was ordered replayable."""

    name: str
    doing: str
    moves: tuple[Move[S], ...]
    in_order: bool = False

    def asked(self, state: S) -> list[Expect]:
        """The prompts of this step's moves now: all of them, or the first move's."""
        asked: list[Expect] = []
        for move in self.moves:
            prompts = move.ask(state) if move.ask else []
            if prompts and self.in_order:
                return prompts
            asked += prompts
        return asked


class StepGame(Generic[S]):
    """A game declared as steps; implements :class:`engine.game.Game` from them."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    options: ClassVar[Sequence[str]] = ()
    """The names of the set-up options the game takes besides its ``option_choices`` and
    ``kept_options``: any other is refused here, so a mistyped option is never silently
    ignored."""
    option_choices: ClassVar[Mapping[str, Sequence[str]]] = {}
    kept_options: ClassVar[Mapping[str, Any]] = {}
    labels: ClassVar[Mapping[str, str]] = {}
    steps: ClassVar[Sequence[Step[Any]]]
    anytime: ClassVar[Sequence[Move[Any]]] = ()
    corrections: ClassVar[Mapping[str, str]] = {}
    """The moves that correct an entry without undoing a step that showed a secret (a
    card typed wrong, a die misread), by kind, each with what it does in the table's
    words ("correct a card typed wrong"): a refused undo names those possible now."""

    # What a game writes besides its steps.

    def setup(self, options: Mapping[str, Any], turn: Turn) -> tuple[S, list[Effect]]:
        """The state of a new game for ``turn.seats`` and its opening effects."""
        raise NotImplementedError

    def is_over(self, state: S) -> bool:
        return False

    def hides_actors(self, state: S) -> bool:
        return False

    def tracks(self, state: S) -> dict[str, Track]:
        return {}

    def describe(self, public: S) -> dict[str, Any]:
        """Extra public facts derived from the redacted state (a status line)."""
        return {}

    def present(self, public: S, seat: int, mine: dict[str, Any]) -> dict[str, Any]:
        """A seat's view from its own secrets ``mine`` and the redacted state."""
        return mine

    # The Game protocol, derived.

    def new(self, options: Mapping[str, Any], turn: Turn) -> tuple[S, list[Effect]]:
        known = sorted({*self.options, *self.option_choices, *self.kept_options})
        unknown = ", ".join(sorted(set(options) - set(known)))
        if unknown and not known:
            raise IllegalAction(_("this game takes no options, not {unknown}", unknown=unknown))
        if unknown:
            raise IllegalAction(
                _("unknown options: {unknown}; known: {known}", unknown=unknown, known=", ".join(known))
            )
        return self.setup(options, turn)

    def step(self, state: S) -> Step[S]:
        return self._by_name[state.step]

    @cached_property
    def _by_name(self) -> dict[str, Step[S]]:
        return {step.name: step for step in self.steps}

    def moves_now(self, state: S) -> list[Move[S]]:
        """The moves possible now: the step's own, then the ``anytime`` ones that apply."""
        now = list(self.step(state).moves)
        return now + [m for m in self.anytime if m.when is None or m.when(state)]

    def apply(self, state: S, action: Action, turn: Turn) -> list[Effect]:
        move = self._move(state, action.kind)
        self._check_actor(state, move, action.seat, turn.seats)
        data, where = dict(action.data), Where(state, turn.seats)
        if "seat" in data and "seat" not in move.args:
            self._check_behalf(state, move, action.seat, Seat().parse(data.pop("seat"), where, "seat"), turn.seats)
        args = parse_args(move.args, data, where)
        return move.run(state, Turn(turn.kind, turn.seat, turn.seats, turn.game_seed, args))

    def _check_behalf(self, state: S, move: Move[S], seat: int | None, behalf: int, names: Sequence[str]) -> None:
        """The host page answers a player's prompt with that player's ``seat`` added: it
        must be a player who may make the move (a phone may only name itself)."""
        if seat is not None and behalf != seat:
            raise IllegalAction(_("you can only answer for yourself"))
        allowed = move.seats(state)
        if behalf not in allowed:
            raise IllegalAction(_("that is not {name}'s to answer now", name=names[behalf]))

    def _move(self, state: S, kind: str) -> Move[S]:
        for move in self.moves_now(state):
            if move.kind == kind:
                return move
        for move in self.anytime:
            if move.kind == kind:
                said = move.not_now(state) if callable(move.not_now) else move.not_now
                raise IllegalAction(said or self._not_now(state, kind))
        if any(m.kind == kind for s in self.steps for m in s.moves):
            raise IllegalAction(self._not_now(state, kind))
        raise IllegalAction(_("{game} has no move called {kind!r}", game=self.title, kind=kind[:40]))

    def _not_now(self, state: S, kind: str) -> str:
        doing = self.step(state).doing
        return _("{kind!r} is not possible now: {doing}", kind=kind.replace("_", " "), doing=doing)

    def _check_actor(self, state: S, move: Move[S], seat: int | None, names: Sequence[str]) -> None:
        allowed = move.seats(state)
        if seat is None:
            if not move.host or move.private:
                raise IllegalAction(_("only a player can do that, on their own phone"))
            return
        if seat not in allowed:
            raise IllegalAction(self._only(move, [names[s] for s in allowed]))

    @staticmethod
    def _only(move: Move[S], who: list[str]) -> str:
        """Who may make a move, for the refusal of anyone else."""
        if not who:
            return _("only the host can do that")
        players = listing(who, "or")
        if move.role:
            players = _("{players} ({role})", players=players, role=move.role)
        if move.host:
            return _("only {players} or the host can do that", players=players)
        return _("only {players} can do that", players=players)

    def expects(self, state: S) -> list[Expect]:
        anytime = [e for m in self.anytime if m.ask and (m.when is None or m.when(state)) for e in m.ask(state)]
        return self.step(state).asked(state) + anytime

    def public_view(self, state: S) -> dict[str, Any]:
        shown = secrets.redacted(state)
        return {**secrets.public(state), **self.describe(shown)}

    def private_view(self, state: S, seat: int) -> dict[str, Any]:
        return self.present(secrets.redacted(state), seat, secrets.of_seat(state, seat))

    def learned(self, state: S, seat: int) -> dict[str, Any]:
        return secrets.of_seat(state, seat, learned_only=True)

    def corrections_now(self, state: S) -> list[str]:
        """What the table may correct now instead of undoing (see ``corrections``)."""
        kinds = {m.kind for m in self.moves_now(state)}
        return [words for kind, words in self.corrections.items() if kind in kinds]

    def is_private(self, kind: str) -> bool:
        """Whether ``kind`` is a seat's private move (see ``Move.private``)."""
        return any(m.kind == kind and m.private for m in (*self.anytime, *(m for s in self.steps for m in s.moves)))

    def secret_labels(self, state: S) -> dict[str, str]:
        return secrets.labels(state)
