"""Harry Potter: Unmask the Death Eaters (4-8 players) as the box plays it.

The table keeps the board, the Wizarding World and Encounter cards and the dice; the
box deals the Loyalty cards to phones, records each seat's Role (its Location), keeps
the state, reads dice, revealed cards and taught Encounter cards, checks groups against
the Encounter's Location requirements, shows the Threat Track and narrates.  This module declares the game: its steps in
the rulebook's order (each step's moves, handlers and prompts live together in the
module of that part of the turn), and how its views read.

Each move's arguments, who may make it and its prompt are declared with its handler,
in the module of its part of the turn; the host may make any move for the table except
a Revelio peek (it may only skip one) and a vote cast on a phone, a seat only its own.

Final steps (undo stops at them, see engine.table): the roll that deals the Loyalty
cards to the phones, a Revelio peek, the Shift in Loyalties when it changes what a
phone shows, and the end of the game.  Everything else (rolls, Roles, Encounters,
groups, reveals, votes) is public and may be undone.  No correction is declared: a
misread die or card at a step that shows no secret is simply undone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.actions import IllegalAction
from engine.display import card, reveal
from engine.effects import Effect, Say, Track
from engine.game import Turn
from engine.games import unmask_encounter as encounter
from engine.games import unmask_final as final
from engine.games import unmask_outcome as outcome
from engine.games import unmask_pool as pool
from engine.games import unmask_roles as roles
from engine.games import unmask_setup as setup
from engine.games.unmask_rules import (
    BEGINNING,
    DEATH_EATER,
    LOYALTY_CHART,
    LOYALTY_NAMES,
    NAMES_TO_SUBMIT,
    OPTIONS,
    PHASE_NAMES,
    ROLE_NAMES,
    TALK_MODES,
    TALK_NAMES,
    VERDICT_SAY,
    WAR,
    parse_config,
    token_name,
)
from engine.games.unmask_state import FINAL, FIRST_ROLL, OVER, ROLL, Board, FirstRolls, UnmaskState, names_of
from engine.messages import Msg, words
from engine.steps import StepGame

_, _n = words("unmask")


class Unmask(StepGame[UnmaskState]):
    """Harry Potter: Unmask the Death Eaters."""

    name = "unmask"
    title = _("Harry Potter: Unmask the Death Eaters")
    min_seats = 4
    max_seats = 8
    options = OPTIONS
    option_choices = {"talk": tuple(TALK_MODES)}
    option_words = {"talk": TALK_NAMES}
    labels = {
        "status": _("Status"),
        "phase_name": _("Phase"),
        "penalty": _("Fourth-space penalty"),
        "rolls_allowed": _("Rolls allowed"),
        "names_to_submit": _("Names to submit"),
        "role_cards": _("Role cards"),
        "roles": _("Roles"),
        "names": _("Players"),
        "cfg": _("Board settings"),
        "talk": _("Table Talk"),
        "threat": _("Threat track"),
        "step": _("Step"),
        "first": _("First-Leader rolls"),
        "leader": _("Leader"),
        "turn": _("Turn"),
        "board": _("Board"),
        "now": _("This Encounter"),
        "final": _("Before the Department"),
        "loyalty": _("Loyalty"),
        "loyalty_name": _("Your Loyalty"),
        "dealt": _("Loyalty cards dealt to you"),
        "peeks": _("Revelio peeks"),
        "vote": _("Your vote"),
        "story": _("The story of the game"),
    }
    steps = (
        setup.FIRST_ROLL_STEP,
        encounter.ENCOUNTER_STEP,
        encounter.GROUP_STEP,
        pool.POOL_STEP,
        pool.CURSED_STEP,
        pool.ROLL_STEP,
        pool.RESULT_STEP,
        outcome.TOKEN_STEP,
        final.REVELIO_STEP_DECL,
        final.NOMINATE_STEP,
        final.VOTE_STEP,
        final.ACCUSE_STEP,
        final.OVER_STEP,
    )
    anytime = (*roles.ROLE_MOVES, *encounter.ANYTIME)

    def setup(self, options: Mapping[str, Any], turn: Turn) -> tuple[UnmaskState, list[Effect]]:
        seats = turn.seats
        if len(seats) not in LOYALTY_CHART:
            raise IllegalAction(_("Unmask the Death Eaters is for 4 to 8 players"))
        cfg = parse_config(options)
        board = Board(
            pools={phase: list(cfg.phase_tokens(phase)) for phase in (BEGINNING, WAR)}, filled={BEGINNING: [], WAR: []}
        )
        state = UnmaskState(
            names=list(seats), cfg=cfg, talk=cfg.talk, first=FirstRolls(contenders=list(range(len(seats)))), board=board
        )
        return state, [*setup.setup_lines(len(seats), cfg.talk), Say(_("{name}, roll two dice.", name=seats[0]))]

    def tracks(self, state: UnmaskState) -> dict[str, Track]:
        return {"threat": Track(value=state.board.snake, length=state.cfg.track_length, attention=state.penalty())}

    def is_over(self, state: UnmaskState) -> bool:
        return state.step == OVER

    def describe(self, public: UnmaskState) -> dict[str, Any]:
        """What the host page shows beside the state: a status line and the chart's numbers."""
        low, high = NAMES_TO_SUBMIT[public.players]
        return {
            "status": _status(public),
            "phase_name": PHASE_NAMES[public.board.phase],
            "penalty": public.penalty(),
            "rolls_allowed": pool.requirement(public)[2] if public.step == ROLL else None,
            "names_to_submit": [low, high],
            "role_cards": [
                _("{name}: {role}", name=public.names[seat], role=ROLE_NAMES[loc])
                for seat, loc in sorted(public.roles.items())
            ],
            **(_ending(public) or {"story": [_told(public, told) for told in public.story]}),
        }

    def present(self, public: UnmaskState, seat: int, mine: dict[str, Any]) -> dict[str, Any]:
        """One seat's Loyalty (and the cards it was dealt), its Revelio peeks, its vote."""
        side = mine.get("loyalty")
        peeks = sorted(((int(s), v) for s, v in mine.get("peeks", {}).items()))
        return {
            **({"card": _card(side, mine.get("dealt") or [])} if side else {}),
            "loyalty": side,
            "loyalty_name": LOYALTY_NAMES.get(side) if side else None,
            "dealt": mine.get("dealt", []),
            "peeks": [
                {"seat": s, "name": public.names[s], "loyalty": v, "loyalty_name": LOYALTY_NAMES[v]} for s, v in peeks
            ],
            "vote": mine.get("votes"),
        }


def _card(side: str, dealt: list[str]) -> dict[str, Any]:
    """A Loyalty as a card: the Order blue with the phoenix, the Death Eaters green with
    the skull; under it the Loyalty of each Phase so far (the second is the Shift's)."""
    phases = [BEGINNING, WAR][: len(dealt)]
    history = [
        _("{phase}: {loyalty}", phase=PHASE_NAMES[phase], loyalty=LOYALTY_NAMES[side if phase == WAR else dealt[0]])
        for phase in phases
    ]
    death_eater = side == DEATH_EATER
    return card(
        LOYALTY_NAMES[side],
        "green" if death_eater else "blue",
        icon="skull" if death_eater else "phoenix",
        history=history,
        covers=("loyalty", "loyalty_name", "dealt"),
    )


def _told(state: UnmaskState, told: dict[str, Any]) -> Msg:
    """One Encounter's end (or the start of the Second Wizarding War) as the story tells it."""
    if "phase" in told:
        return _("Turn {turn}: the Beginning is complete, the Second Wizarding War begins", turn=told["turn"])
    said = dict(
        turn=told["turn"],
        name=state.names[told["leader"]],
        card=told["card"] or _("an Encounter"),
        group=names_of(state.names, told["group"]),
    )
    if told["battle"]:
        said["card"] = token_name(told["battle"])
        if told["won"]:
            return _("Turn {turn}, {name}: the Battle with the {card} is won by {group}", **said)
        return _("Turn {turn}, {name}: the Battle with the {card} is lost by {group}", **said)
    if told["won"]:
        return _("Turn {turn}, {name}: {card} succeeds with {group}", **said)
    return _("Turn {turn}, {name}: {card} fails with {group}", **said)


def _ending(state: UnmaskState) -> dict[str, Any]:
    """At the end, every Loyalty as a card, the names submitted, the chart's row, the story."""
    if state.step != OVER or not state.loyalty:
        return {}
    dept = state.final
    outcome = dept.outcome if dept else None
    cards = [_card(side, dealt) for side, dealt in zip(state.loyalty, state.dealt or [[]] * state.players, strict=True)]
    return {
        "reveal": reveal(
            zip(state.names, cards, strict=True),
            outcome=VERDICT_SAY.get(outcome or "", ""),
            accused=[state.names[s] for s in dept.accused] if dept else [],
            story=[_told(state, told) for told in state.story],
        )
    }


OUTCOME_NAMES = {
    "perfect": _("perfect victory for the Order"),
    "partial": _("partial victory for the Order"),
    "death_eaters": _("the Death Eaters win"),
    "curse": _("the Death Eaters win: a Curse was not resolved"),
}


def _status(state: UnmaskState) -> Msg:
    """One line for the host page: whose turn, which Phase, where the Snake is."""
    length, snake = state.cfg.track_length, state.board.snake
    track = (
        _("Snake {space} of {length} (fourth-space penalty)", space=snake, length=length)
        if state.penalty()
        else _("Snake {space} of {length}", space=snake, length=length)
    )
    if state.step == FIRST_ROLL:
        return _("Set-up: rolling for the first Leader")
    if state.step == OVER:
        outcome = state.final.outcome if state.final else None
        return _("Game over: {outcome}", outcome=OUTCOME_NAMES.get(outcome or "", ""))
    if state.step in FINAL:
        return _("Before the Department of Magical Law Enforcement; {track}", track=track)
    said = dict(turn=state.turn, name=state.names[state.leader], phase=PHASE_NAMES[state.board.phase], track=track)
    card = state.now.card
    if card is not None and state.now.battle:
        return _(
            "Turn {turn}, Leader {name}: Battle with the {creature}; {phase}; {track}",
            creature=token_name(state.now.battle),
            **said,
        )
    if card is not None and state.now.group:
        group = names_of(state.names, state.now.group)
        return _(
            "Turn {turn}, Leader {name}: {card}, the group {group}; {phase}; {track}",
            card=card.name,
            group=group,
            **said,
        )
    if card is not None:
        return _("Turn {turn}, Leader {name}: {card}; {phase}; {track}", card=card.name, **said)
    return _("Turn {turn}, Leader {name}; {phase}; {track}", **said)
