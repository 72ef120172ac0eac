"""Harry Potter Clue, the mystery: suggestions in the locations, accusations in The Burrow.

The box is the envelope and holds every hand, so it knows who must show a card: starting
with the suggester's left, the first player holding any of the three named cards must
show one (it never asks a player who holds none, and never lets a holder pass); that
player's phone alone chooses which when it holds several, and the card goes to the
suggester's phone alone.  Even a holder of one matching card is asked, so how long the
box waits says nothing about how many they hold.  An accuser's phone alone shows the
envelope; a wrong accuser is out but still shows cards.
"""

from __future__ import annotations

from typing import Any

from engine.actions import IllegalAction
from engine.args import Choice
from engine.effects import Effect, Expect, Say
from engine.game import Turn
from engine.games.clue_flow import PLAYER, end_turn, finish, player
from engine.games.clue_state import ACCUSE, ANSWER, BURROW_STEP, ITEM, PLACE, ROOM, SHOW, SUGGEST, VERDICT, ClueState
from engine.messages import listing, words
from engine.steps import Move, Step

_, _n = words("clue")

NOBODY = _("nobody")
RIGHT, WRONG = _("right"), _("wrong")


def suspect(state: ClueState, turn: Turn) -> list[Effect]:
    """The first name of a suggestion (in a location) or an accusation (in The Burrow)."""
    state.purpose = ACCUSE if state.step == BURROW_STEP else SUGGEST
    state.naming, state.step = [turn.args["choice"]], ITEM
    return []


def item(state: ClueState, turn: Turn) -> list[Effect]:
    state.naming.append(turn.args["choice"])
    if state.purpose == ACCUSE:
        state.step = PLACE
        return []
    return suggest(state)


def place(state: ClueState, turn: Turn) -> list[Effect]:
    state.naming.append(turn.args["choice"])
    return accuse(state)


def end(state: ClueState, turn: Turn) -> list[Effect]:
    """No suggestion or accusation this turn."""
    return end_turn(state)


def suggest(state: ClueState) -> list[Effect]:
    """The suggestion said, the tokens moved, and the first holder to the left found."""
    who, (named_suspect, named_item), where = state.current, state.naming, state.where[state.current]
    named = [named_suspect, named_item, str(where)]
    record: dict[str, Any] = {
        "by": who,
        "suspect": named_suspect,
        "item": named_item,
        "location": where,
        "passed": [],
        "shown_by": None,
    }
    state.suggestions.append(record)
    state.tell("suggestion", len(state.suggestions) - 1)
    if state.physical:
        state.step = ANSWER
    said: list[Effect] = [
        Say(
            _(
                "{name} suggests {suspect} with the {item} in {location}."
                " Move the {suspect} and {item} tokens to {location}.",
                name=state.names[who],
                suspect=named_suspect,
                item=named_item,
                location=str(where),
            )
        )
    ]
    if state.physical:
        return said + [Say(_("Starting on {name}'s left, show a card if you can.", name=state.names[who]))]
    passed: list[int] = []
    for seat in state.left_of(who):
        if set(named) & set(state.hands[seat]):
            record["passed"], state.showing, state.step = passed, seat, SHOW
            return (
                said
                + _passes(state, passed)
                + [
                    Say(
                        _(
                            "{holder} must show {name} a card: {holder}, choose it on your phone.",
                            holder=state.names[seat],
                            name=state.names[who],
                        )
                    )
                ]
            )
        passed.append(seat)
    record["passed"] = passed
    return said + [Say(_("Nobody can show a card."))] + end_turn(state)


def _passes(state: ClueState, passed: list[int]) -> list[Effect]:
    if not passed:
        return []
    names = listing([state.names[s] for s in passed])
    return [Say(_n("{names} has none of them.", "{names} have none of them.", len(passed), names=names))]


def matching(state: ClueState) -> list[str]:
    """The cards of the last suggestion the player who must show holds."""
    if state.showing is None or not state.suggestions:
        return []
    last = state.suggestions[-1]
    named = {last["suspect"], last["item"], last["location"]}
    return [c for c in state.hands[state.showing] if c in named]


def show(state: ClueState, turn: Turn) -> list[Effect]:
    """The holder's phone picks the card: the suggester's phone alone shows it."""
    holder, card, record = state.showing, turn.args["choice"], state.suggestions[-1]
    if holder is None:
        raise IllegalAction(_("nobody has a card to show now"))
    asker = record["by"]
    index = len(state.suggestions) - 1
    state.shown = {
        **state.shown,
        asker: [*state.shown.get(asker, []), {"card": card, "by": holder, "suggestion": index}],
    }
    state.gave = {**state.gave, holder: [*state.gave.get(holder, []), {"card": card, "to": asker, "suggestion": index}]}
    record["shown_by"], state.showing = holder, None
    said = _("{holder} has shown {name} a card.", holder=state.names[holder], name=state.names[asker])
    return [Say(said), *end_turn(state)]


def accuse(state: ClueState) -> list[Effect]:
    """The accuser alone looks in the envelope; right wins, wrong is out."""
    named_suspect, named_item, named_place = state.naming
    said = dict(name=state.names[state.current], suspect=named_suspect, item=named_item, location=named_place)
    if state.physical:
        state.step = VERDICT
        return [
            Say(_("{name} accuses {suspect} with the {item} in {location}: look secretly in the envelope.", **said))
        ]
    state.peeks = {**state.peeks, state.current: list(state.envelope)}
    accused = _(
        "{name} accuses {suspect} with the {item} in {location}, and looks in the envelope on their phone.", **said
    )
    return [Say(accused), *judge(state, sorted(state.naming) == sorted(state.envelope))]


def judge(state: ClueState, right: bool) -> list[Effect]:
    """A right accuser wins; a wrong one is out (and the last wrong one ends the game)."""
    who, (named_suspect, named_item, named_place) = state.current, state.naming
    state.accusations.append(
        {"by": who, "suspect": named_suspect, "item": named_item, "location": named_place, "right": right}
    )
    state.tell("accusation", len(state.accusations) - 1)
    if right:
        return finish(state, who)
    state.eliminated.append(who)
    out = _(
        "{name} is wrong, and out of the game: no more moves, but {name} still shows cards when asked.",
        name=state.names[who],
    )
    return [Say(out), *end_turn(state)]


def answer(state: ClueState, turn: Turn) -> list[Effect]:
    """Physical cards: who showed the suggester a card (everyone before them passed)."""
    record, choice = state.suggestions[-1], turn.args["choice"]
    order = state.left_of(record["by"])
    asker = state.names[record["by"]]
    if choice == NOBODY:
        record["passed"] = order
        return [Say(_("Nobody can show a card."))] + end_turn(state)
    holder = state.names.index(choice)
    record["passed"], record["shown_by"] = order[: order.index(holder)], holder
    return [Say(_("{holder} has shown {name} a card.", holder=choice, name=asker)), *end_turn(state)]


def verdict(state: ClueState, turn: Turn) -> list[Effect]:
    """Physical cards: the accuser has looked in the real envelope."""
    return judge(state, turn.args["choice"] == RIGHT)


def _answers(state: ClueState) -> list[str]:
    """Who can have shown the card, in the order they are asked, or nobody."""
    return [*(state.names[s] for s in state.left_of(state.current)), NOBODY]


def _ask_suspect(state: ClueState) -> list[Expect]:
    name = state.names[state.current]
    prompt = (
        _("{name}: accuse which suspect?", name=name)
        if state.step == BURROW_STEP
        else _("{name}: suggest which suspect?", name=name)
    )
    end_prompt = _("{name}: or end your turn", name=name)
    return [
        Expect.choice("suspect", prompt, tuple(state.suspects), seat=state.current),
        Expect("confirm", "end_turn", end_prompt, seat=state.current),
    ]


def _ask_item(state: ClueState) -> list[Expect]:
    name = state.names[state.current]
    prompt = _("{name}: with which item?", name=name)
    return [Expect.choice("item", prompt, tuple(state.items), seat=state.current)]


def _ask_place(state: ClueState) -> list[Expect]:
    name = state.names[state.current]
    prompt = _("{name}: in which location?", name=name)
    accusing = state.purpose == ACCUSE  # an accusation's last pick: the accuser wins or is out
    return [Expect.choice("place", prompt, tuple(state.locations), seat=state.current, final=accusing)]


def _ask_show(state: ClueState) -> list[Expect]:
    holder, record = state.showing, state.suggestions[-1]
    if holder is None:
        return []
    prompt = _("{holder}: choose a card to show {name}", holder=state.names[holder], name=state.names[record["by"]])
    return [Expect.choice("show", prompt, tuple(matching(state)), seat=holder, secret=True)]


def _opening(step: str, doing: str) -> Step[ClueState]:
    """In a location or in The Burrow: name a suspect to begin, or end the turn."""
    return Step[ClueState](
        step,
        doing,
        (
            Move(
                "suspect",
                suspect,
                args={"choice": Choice(lambda s: s.suspects)},
                by=player,
                role=PLAYER,
                ask=_ask_suspect,
            ),
            Move("end_turn", end, by=player, role=PLAYER),
        ),
    )


ROOM_STEP = _opening(ROOM, _("the player may make a suggestion"))
BURROW_OPEN_STEP = _opening(BURROW_STEP, _("the player may make an accusation"))
ITEM_STEP = Step[ClueState](
    ITEM,
    _("the player is naming an item"),
    (Move("item", item, args={"choice": Choice(lambda s: s.items)}, by=player, role=PLAYER, ask=_ask_item),),
)
PLACE_STEP = Step[ClueState](
    PLACE,
    _("the player is naming a location"),
    (Move("place", place, args={"choice": Choice(lambda s: s.locations)}, by=player, role=PLAYER, ask=_ask_place),),
)
SHOW_STEP = Step[ClueState](
    SHOW,
    _("a player is choosing a card to show"),
    (
        Move(
            "show",
            show,
            args={"choice": Choice(matching)},
            by=lambda s: [s.showing],
            host=False,
            role=_("showing a card"),
            ask=_ask_show,
        ),
    ),
)

ANSWER_STEP = Step[ClueState](
    ANSWER,
    _("the players are answering the suggestion with their cards"),
    (
        Move(
            "answer",
            answer,
            args={"choice": Choice(_answers)},
            ask=lambda s: [Expect.choice("answer", _("Who showed a card?"), tuple(_answers(s)))],
        ),
    ),
)
VERDICT_STEP = Step[ClueState](
    VERDICT,
    _("the accuser is looking in the envelope"),
    (
        Move(
            "verdict",
            verdict,
            args={"choice": Choice((RIGHT, WRONG))},
            by=player,
            role=PLAYER,
            ask=lambda s: [
                Expect.choice(
                    "verdict",
                    _("{name}: was your accusation right?", name=s.names[s.current]),
                    (RIGHT, WRONG),
                    seat=s.current,
                )
            ],
        ),
    ),
)
