"""Harry Potter: Unmask the Death Eaters (4-8 players) as the box plays it.

The table keeps the board, the Wizarding World and Encounter cards and the dice; the
box deals the Loyalty cards to phones, keeps the state, reads dice and revealed cards,
shows the Threat Track and narrates.  This module is the ``Game`` the table core
calls: dispatch of actions, the views (the only place secrets leave) and the prompts.

Actions, in the shapes the host page and the phones send (``choice`` for one option,
``choices`` for several, ``vote`` for thumbs, ``dice`` and ``cards`` as read).  ``seat=None``
is the host, who may enter anything for the table (adding ``"seat"`` to a vote it enters
for a player); a seat may only answer its own prompts.  Players may be given by seat
number or by name.

============  ===============================================  ===========================
kind          data                                             who (besides the host)
============  ===============================================  ===========================
roll          {"dice": [1-6, ...]}: a first-Leader roll (2),   the roller / the Leader
              or the Leader's whole tray, kept dice included
encounter     {"choice": group size} then directive, target,   the Leader
              rolls below; or a whole card from a taught deck
              {"group", "check", "target"?, "rolls"?, "name"?}
directive     {"choice": "card total" | "dice of a kind" |     the Leader
              "dice total" | "host judges"}
target        {"choice": n}  (total needed, or dice alike)     the Leader
rolls         {"choice": n}  (rolls the card allows)           the Leader
group         {"choices": [players]}  (the Leader is added)    the Leader
short         {}  (Expelliarmus left a Location unmet: no swap)  the Leader
curse         {"choice": "resolved" | "stops"}                 the Leader
swap          {}  (both: one-option choices on the page)         the Leader
reveal        {"cards": [{"card"?, "dice": 0-9, "curse"?}      the Leader
              | "2" | "curse", ...]}
result        {"choice": "success" | "failure"}  (override)    host only
token         {"choice": "dementor" | "expelliarmus" | ...}    the Leader
skip_turn     {"choice": player}                               the Expelliarmus holder
leave_out     {"choice": player}                               the Expelliarmus holder
peek          {"choices": [players]} | {"choice": p}           the Revelio holder
              | {"choice": "no one"}
nominate      {"choice": player}                               the nominating Leader
vote          {"vote": bool}  (+ "seat" from the host)         each voter
accuse        {"choices": [players]} | {"choice": p}           the final Leader
talk          {"choice": "basics" | "essentials" | "works"}    host only
============  ===============================================  ===========================
"""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict
from typing import Any

from engine.actions import Action, IllegalAction
from engine.effects import Effect, Expect, Say, Track
from engine.games import unmask_final as final
from engine.games import unmask_turn as turn
from engine.games.unmask_rules import (
    BEGINNING,
    LOYALTY_CHART,
    LOYALTY_NAMES,
    NAMES_TO_SUBMIT,
    PHASE_NAMES,
    TALK_MODES,
    WAR,
    parse_config,
)
from engine.games.unmask_state import (
    ACCUSE,
    ENCOUNTER,
    FIRST_ROLL,
    GROUP,
    NOMINATE,
    OVER,
    POOL,
    RESULT,
    REVELIO_STEP,
    ROLL,
    TOKEN,
    VOTE,
    UnmaskState,
)

Handler = Callable[[UnmaskState, Action, random.Random], list[Effect]]


def _roll(state: UnmaskState, action: Action, rng: random.Random) -> list[Effect]:
    if state.step == FIRST_ROLL:
        return turn.first_roll(state, action, rng)
    if state.step == ROLL:
        return turn.roll(state, action)
    raise IllegalAction(f"no roll is expected now: the game is at step {state.step!r}")


def _plain(fn: Callable[[UnmaskState, Action], list[Effect]]) -> Handler:
    return lambda state, action, rng: fn(state, action)


HANDLERS: dict[str, Handler] = {
    "roll": _roll,
    "encounter": _plain(turn.enter_encounter),
    "directive": _plain(turn.encounter_detail),
    "target": _plain(turn.encounter_detail),
    "rolls": _plain(turn.encounter_detail),
    "group": _plain(turn.gather_group),
    "short": _plain(turn.short_handed),
    "curse": _plain(turn.curse),
    "swap": _plain(turn.swap),
    "reveal": _plain(turn.reveal),
    "result": _plain(turn.host_result),
    "token": _plain(turn.choose_token),
    "skip_turn": _plain(turn.cast_expelliarmus),
    "leave_out": _plain(turn.cast_expelliarmus),
    "peek": _plain(final.peek),
    "nominate": _plain(final.nominate),
    "vote": _plain(final.vote),
    "accuse": _plain(final.accuse),
    "talk": _plain(turn.set_talk),
}


def setup_lines(players: int, talk: str) -> list[Say]:
    """The set-up steps, said in the rulebook's order."""
    encounters = "use all the Encounter cards" if players >= 6 else "remove every Encounter card marked 6+ and return it to the box"
    return [
        Say(f"Set-up for {players} players. Sort the Role cards by Location into four stacks of two; "
            "each player takes a Role from one of the stacks with the most cards left."),
        Say("Place the board and put the Snake on the Start space of the Threat Track."),
        Say(f"Encounter deck: {encounters}. Shuffle it and place it face down."),
        Say("Each player chooses a wand and puts it face down in front of them."),
        Say("Shuffle the Wizarding World cards and deal five to each player. Keep your hand secret."),
        Say("Shuffle the Beginning tokens face down, and the Second Wizarding War tokens face down. "
            "Set the Expelliarmus and Revelio cards nearby."),
        Say(f"Table Talk: {TALK_MODES[talk]}"),
        Say("To find the first Leader, each player rolls two dice."),
    ]


class Unmask:
    """Harry Potter: Unmask the Death Eaters."""

    name = "unmask"
    title = "Harry Potter: Unmask the Death Eaters"
    min_seats = 4
    max_seats = 8
    option_choices = {"talk": list(TALK_MODES)}

    def new(self, seats: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> tuple[UnmaskState, list[Effect]]:
        if len(seats) not in LOYALTY_CHART:
            raise IllegalAction("Unmask the Death Eaters is for 4 to 8 players")
        cfg = parse_config(options)
        state = UnmaskState(names=list(seats), cfg=cfg, talk=cfg.talk, contenders=list(range(len(seats))))
        state.pools = {phase: list(cfg.phase_tokens(phase)) for phase in (BEGINNING, WAR)}
        state.filled = {BEGINNING: [], WAR: []}
        lines = setup_lines(len(seats), cfg.talk)
        return state, [*lines, Say(f"{seats[0]}, roll two dice.")]

    def apply(self, state: UnmaskState, action: Action, rng: random.Random) -> list[Effect]:
        handler = HANDLERS.get(action.kind)
        if handler is None:
            raise IllegalAction(f"unknown action {action.kind!r}; this game takes: {', '.join(HANDLERS)}")
        return handler(state, action, rng)

    # --- what leaves the box ------------------------------------------------------------

    def public_view(self, state: UnmaskState) -> dict[str, Any]:
        """The whole table's view: no Loyalty, no peek, until the Moment of Truth."""
        cfg = state.cfg
        low, high = NAMES_TO_SUBMIT[state.players]
        view: dict[str, Any] = {
            "status": _status(state),
            "step": state.step,
            "players": list(state.names),
            "talk": state.talk,
            "first_rolls": {str(s): v for s, v in state.first_rolls.items()},
            "contenders": list(state.contenders),
            "leader": state.leader,
            "turn": state.turn,
            "phase": state.phase,
            "phase_name": PHASE_NAMES[state.phase],
            "snake": state.snake,
            "track_length": cfg.track_length,
            "penalty": state.penalty(),
            "tokens_face_down": {p: sorted(state.pools[p]) for p in state.pools},
            "spaces": {p: list(cfg.phase_spaces(p)) for p in (BEGINNING, WAR)},
            "filled": {p: list(v) for p, v in state.filled.items()},
            "creatures": dict(cfg.creatures),
            "expelliarmus": state.expelliarmus,
            "revelio": state.revelio,
            "left_out": state.left_out,
            "skip": state.skip,
            "encounter": asdict(state.encounter) if state.encounter else None,
            "context": state.context,
            "creature": state.creature,
            "group": list(state.group),
            "short": state.short,
            "swapped": state.swapped,
            "curses": state.curses,
            "card_dice": state.card_dice,
            "dice": state.dice,
            "rolls": [list(r) for r in state.rolls],
            "rolls_allowed": turn.requirement(state)[2] if state.step == ROLL else None,
            "peeks_allowed": state.peeks_allowed,
            "nominator": state.nominator,
            "nominee": state.nominee,
            "nominated": list(state.nominated),
            "voted": sorted(state.votes),
            "last_vote": state.last_vote,
            "final_leader": state.final_leader,
            "names_to_submit": [low, high],
            "accused": list(state.accused),
            "outcome": state.outcome,
            "loyalties": list(state.loyalty) if state.step == OVER else None,
        }
        return view

    def private_view(self, state: UnmaskState, seat: int) -> dict[str, Any]:
        """One seat's secrets: its Loyalty (and the cards it was dealt), its Revelio peeks."""
        if not 0 <= seat < state.players or not state.loyalty:
            return {"loyalty": None, "loyalty_name": None, "dealt": [], "peeks": []}
        side = state.loyalty[seat]
        peeks = [{"seat": s, "name": state.names[s], "loyalty": v, "loyalty_name": LOYALTY_NAMES[v]}
                 for s, v in sorted(state.peeks.items())] if seat == state.revelio else []
        return {"loyalty": side, "loyalty_name": LOYALTY_NAMES[side], "dealt": list(state.dealt[seat]), "peeks": peeks}

    def expects(self, state: UnmaskState) -> list[Expect]:
        """What the table waits for now; optional Expelliarmus listed after the step's prompt.

        The Leader's prompts carry the Leader's seat, so their phone can answer them too
        (the host page shows every non-secret prompt and may answer any of them)."""
        prompts = _PROMPTS.get(state.step)
        out = prompts(state) if prompts else []
        if state.expelliarmus is not None and state.step in (ENCOUNTER, GROUP):
            holder = state.expelliarmus
            others = _others(state, holder, state.leader)
            out.append(Expect("choice", "skip_turn", f"{state.names[holder]}: Expelliarmus, skip a player's next turn (optional)",
                              seat=holder, count=1, options=others))
            out.append(Expect("choice", "leave_out",
                              f"{state.names[holder]}: Expelliarmus, leave a player out of this Encounter (optional)",
                              seat=holder, count=1, options=others))
        return out

    def tracks(self, state: UnmaskState) -> dict[str, Track]:
        return {"threat": Track(value=state.snake, length=state.cfg.track_length, attention=state.penalty())}

    def is_over(self, state: UnmaskState) -> bool:
        return state.step == OVER


def _status(state: UnmaskState) -> str:
    """One line for the host page: whose turn, which Phase, where the Snake is."""
    track = f"Snake {state.snake} of {state.cfg.track_length}" + (" (fourth-space penalty)" if state.penalty() else "")
    if state.step == FIRST_ROLL:
        return "Set-up: rolling for the first Leader"
    if state.step == OVER:
        return f"Game over: {state.outcome.replace('_', ' ')}"
    if state.step in (REVELIO_STEP, NOMINATE, VOTE, ACCUSE):
        return f"Before the Department of Magical Law Enforcement; {track}"
    return f"Turn {state.turn}, Leader {state.names[state.leader]}; {PHASE_NAMES[state.phase]}; {track}"


def _others(state: UnmaskState, *excluded: int | None) -> tuple[str, ...]:
    return tuple(n for s, n in enumerate(state.names) if s not in excluded)


def _expect_first_roll(state: UnmaskState) -> list[Expect]:
    roller = turn.first_roller(state)
    return [Expect("dice", "roll", f"{state.names[roller]}: roll two dice for first Leader", seat=roller, count=2)]


def _expect_encounter(state: UnmaskState) -> list[Expect]:
    """The Encounter card, tapped in a detail at a time (a taught deck sends it whole)."""
    missing = turn.encounter_missing(state)
    leader = state.names[state.leader]
    if missing == "encounter":
        sizes = tuple(str(n) for n in range(2, state.players + 1))
        return [Expect("choice", "encounter", f"{leader}: reveal an Encounter. How many players in its group, Leader included?",
                       seat=state.leader, count=1, options=sizes)]
    if missing == "directive":
        return [Expect("choice", "directive", "How is this Encounter won?", seat=state.leader, count=1, options=tuple(turn.DIRECTIVES))]
    if missing == "target":
        check = state.encounter.check
        low, high = turn.TARGET_OPTIONS[check]
        asked = {"cards_total": "What card total is needed?", "of_a_kind": "How many dice alike?",
                 "dice_total": "What dice total is needed?"}
        return [Expect("choice", "target", asked[check], seat=state.leader, count=1, options=tuple(str(n) for n in range(low, high + 1)))]
    return [Expect("choice", "rolls", "How many rolls does the card allow?", seat=state.leader, count=1,
                   options=tuple(str(n) for n in range(1, 6)))]


def _expect_group(state: UnmaskState) -> list[Expect]:
    """The Leader picks the others; a group of one (the Leader alone) is just confirmed."""
    others = turn.group_size(state) - 1
    leader = state.names[state.leader]
    if others == 0:
        return [Expect("confirm", "group", f"{leader} faces this Encounter alone", seat=state.leader)]
    options = tuple(state.names[s] for s in turn.eligible_for_group(state))
    return [Expect("choice", "group", f"{leader}: choose {others} {'player' if others == 1 else 'players'} to join you",
                   seat=state.leader, count=others, options=options)]


def _expect_pool(state: UnmaskState) -> list[Expect]:
    what = "Battle" if state.context == "battle" else "Encounter"
    leader = state.leader
    out = [Expect("cards", "reveal", f"Reveal the {what} cards: each card's dice value, or 'curse'", seat=leader),
           Expect("choice", "curse", "A Curse in the pool: resolved, or it stops the group?", seat=leader, count=1,
                  options=turn.CURSE_OPTIONS)]
    # Optional steps are one-option choices, not confirmations: the box's Next button
    # answers confirmations, and must never make a swap nobody asked for.
    if not state.swapped and not state.short:
        out.append(Expect("choice", "swap", "Leader: swap one card? (optional)", seat=leader, count=1, options=("swap one card",)))
        if state.left_out is not None:
            out.append(Expect("choice", "short", "Did Expelliarmus leave a Location requirement unmet? (then no swap)",
                              seat=leader, count=1, options=("requirement unmet",)))
    return out


def _expect_roll(state: UnmaskState) -> list[Expect]:
    _, _, allowed = turn.requirement(state)
    number = len(state.rolls) + 1
    prompt = f"{state.names[state.leader]}: roll {state.dice} dice (roll {number} of {allowed}); keep any, roll the rest"
    return [Expect("dice", "roll", prompt, seat=state.leader, count=state.dice)]


def _expect_result(state: UnmaskState) -> list[Expect]:
    return [Expect("choice", "result", "Did the group meet the directive?", count=1, options=turn.RESULT_OPTIONS)]


def _expect_token(state: UnmaskState) -> list[Expect]:
    options = tuple(sorted(set(state.pools[state.phase])))
    return [Expect("choice", "token", f"Flip a token of {PHASE_NAMES[state.phase]}: which is it?", seat=state.leader, count=1,
                   options=options)]


def _expect_revelio(state: UnmaskState) -> list[Expect]:
    """The holder's secret choice (one or two players, or no one); the host may only skip it."""
    holder, others = state.revelio, _others(state, state.revelio)
    out = [Expect("choice", "peek", f"Revelio: look at the Loyalty of {n} {'player' if n == 1 else 'players'}",
                  seat=holder, count=n, options=others, secret=True) for n in range(1, state.peeks_allowed + 1)]
    out.append(Expect("choice", "peek", "Revelio: or look at no one", seat=holder, count=1, options=(final.NO_PEEK,), secret=True))
    out.append(Expect("choice", "peek", f"Waiting for {state.names[holder]} to cast Revelio on their phone (host: only to skip the peek)",
                      count=1, options=(final.NO_PEEK,)))
    return out


def _expect_nominate(state: UnmaskState) -> list[Expect]:
    who = state.nominator
    options = tuple(state.names[s] for s in range(state.players) if s != who and s not in state.nominated)
    return [Expect("choice", "nominate", f"{state.names[who]}: nominate the final Leader", seat=who, count=1, options=options)]


def _expect_vote(state: UnmaskState) -> list[Expect]:
    nominee = state.names[state.nominee]
    return [Expect("vote", "vote", f"{state.names[s]}: vote on {nominee} as final Leader", seat=s)
            for s in range(state.players) if s not in state.votes]


def _expect_accuse(state: UnmaskState) -> list[Expect]:
    """One prompt per number of names the chart allows (the final Leader picks one)."""
    who = state.final_leader
    return [Expect("choice", "accuse", f"{state.names[who]}: submit {n} names to the Department", seat=who, count=n,
                   options=_others(state, who)) for n in NAMES_TO_SUBMIT[state.players]]


_PROMPTS: dict[str, Callable[[UnmaskState], list[Expect]]] = {
    FIRST_ROLL: _expect_first_roll,
    ENCOUNTER: _expect_encounter,
    GROUP: _expect_group,
    POOL: _expect_pool,
    ROLL: _expect_roll,
    RESULT: _expect_result,
    TOKEN: _expect_token,
    REVELIO_STEP: _expect_revelio,
    NOMINATE: _expect_nominate,
    VOTE: _expect_vote,
    ACCUSE: _expect_accuse,
}
