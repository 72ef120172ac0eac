"""Unmask the Death Eaters, set-up: the lines said, the first-Leader roll and the deal.

The Loyalty deal is drawn from the game's own randomness under one name, so undoing
the roll that decided the first Leader and rolling again deals the same cards.
"""

from __future__ import annotations

from engine.args import Dice
from engine.dice import say_roll
from engine.effects import Effect, Expect, Say
from engine.game import Turn
from engine.games.unmask_encounter import begin_turn
from engine.games.unmask_rules import TALK_MODES, loyalty_decks
from engine.games.unmask_state import FIRST_ROLL, FirstRolls, UnmaskState, names_of
from engine.messages import words
from engine.steps import Move, Step

_, _n = words("unmask")


def setup_lines(players: int, talk: str) -> list[Effect]:
    """The set-up steps, said in the rulebook's order."""
    encounters = (
        _("Encounter deck: use all the Encounter cards. Shuffle it and place it face down.")
        if players >= 6
        else _(
            "Encounter deck: remove every Encounter card marked 6+ and return it to the box. "
            "Shuffle it and place it face down."
        )
    )
    return [
        Say(
            _(
                "Set-up for {count} players. Sort the Role cards by Location into four stacks of two; "
                "each player takes a Role from one of the stacks with the most cards left.",
                count=players,
            )
        ),
        Say(_("Place the board and put the Snake on the Start space of the Threat Track.")),
        Say(encounters),
        Say(_("Each player chooses a wand and puts it face down in front of them.")),
        Say(_("Shuffle the Wizarding World cards and deal five to each player. Keep your hand secret.")),
        Say(
            _(
                "Shuffle the Beginning tokens face down, and the Second Wizarding War tokens face down. "
                "Set the Expelliarmus and Revelio cards nearby."
            )
        ),
        Say(_("Table Talk: {mode}", mode=TALK_MODES[talk])),
        Say(_("To find the first Leader, each player rolls two dice.")),
    ]


def _rolls(state: UnmaskState) -> FirstRolls:
    if state.first is None:
        raise ValueError("the first Leader is already found")
    return state.first


def first_roller(state: UnmaskState) -> int:
    """The next contender who has not rolled in this round."""
    first = _rolls(state)
    return next(s for s in first.contenders if s not in first.totals)


def first_roll(state: UnmaskState, turn: Turn) -> list[Effect]:
    """Two dice each; the highest becomes Leader; players tied for highest roll again."""
    first, roller = _rolls(state), first_roller(state)
    values: list[int] = turn.args["dice"]
    first.totals[roller] = sum(values)
    effects: list[Effect] = [Say(_("{name}: {roll}.", name=state.names[roller], roll=say_roll(values)))]
    if len(first.totals) < len(first.contenders):
        return effects + [Say(_("{name}, roll two dice.", name=state.names[first_roller(state)]))]
    best = max(first.totals.values())
    top = [s for s in first.contenders if first.totals[s] == best]
    if len(top) > 1:
        state.first = FirstRolls(contenders=top)
        return effects + [
            Say(
                _(
                    "A tie at {total} between {names}: roll again. {name} first.",
                    total=best,
                    names=names_of(state.names, top),
                    name=state.names[top[0]],
                )
            )
        ]
    state.leader, state.first = top[0], None
    return effects + deal_loyalty(state, turn) + begin_turn(state)


def deal_loyalty(state: UnmaskState, turn: Turn) -> list[Effect]:
    """Both Loyalty decks from the chart; Phase 1 dealt now, Phase 2 shuffled and set aside."""
    phase1, phase2 = loyalty_decks(state.players)
    deal = turn.random("loyalty")
    deal.shuffle(phase1)
    deal.shuffle(phase2)
    state.loyalty = list(phase1)
    state.dealt = [[card] for card in phase1]
    state.phase2_deck = phase2
    leader = state.names[state.leader]
    return [
        Say(
            _(
                "{name} rolled highest and is the first Leader. The Loyalty cards are dealt: "
                "look at your phone, privately, and never show it to anyone.",
                name=leader,
            )
        )
    ]


def _ask_first_roll(state: UnmaskState) -> list[Expect]:
    """The roll is asked of a player once their Role is taken: set-up step 1 comes
    before step 7 (a roll sent first is still accepted)."""
    roller = first_roller(state)
    if roller not in state.roles:
        return []
    prompt = _("{name}: roll two dice for first Leader", name=state.names[roller])
    return [Expect("dice", "roll", prompt, seat=roller, count=2)]


FIRST_ROLL_STEP = Step[UnmaskState](
    FIRST_ROLL,
    _("the players are rolling for the first Leader"),
    (
        Move(
            "roll",
            first_roll,
            args={"dice": Dice(count=2)},
            by=lambda s: [first_roller(s)],
            role=_("rolling for first Leader"),
            ask=_ask_first_roll,
        ),
    ),
)
