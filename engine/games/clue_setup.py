"""Harry Potter Clue, set-up: the options, the deal into the envelope, the hands and The
Burrow, the narrated set-up, the Identity cards chosen on phones and the first player.

Everything random comes from ``turn.random`` under its own name (the envelope, the
deal, the missing student), so undo never deals again differently.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.actions import IllegalAction
from engine.args import Choice, Opt, Seat
from engine.effects import Effect, Expect, Say
from engine.game import Turn
from engine.games.clue_flow import begin_turn
from engine.games.clue_physical import BURROW_MOVE, ENTER_HAND, burrow_size
from engine.games.clue_rules import BURROW, COUNTS, FLOO, IDENTITIES, ITEMS, LOCATIONS, SUSPECTS
from engine.games.clue_state import FIRST, IDENTITY, ClueState
from engine.games.clue_wheels import parse_wheels
from engine.messages import listing, words
from engine.steps import Move, Step

_, _n = words("clue")

CARDS = ("digital", "physical")
OPTION_CHOICES: dict[str, tuple[str, ...]] = {"cards": CARDS}
OPTION_NAMES = {"cards": _("Cards")}
"""The new-game form's names for the options, and (below) for their values."""
OPTION_WORDS = {"cards": {"digital": _("dealt by the box"), "physical": _("the table's own cards")}}
OPTIONS = ("cards", "suspects", "items", "locations", "wheels")
LONGEST_NAME = 40


def new_state(options: Mapping[str, Any], turn: Turn) -> tuple[ClueState, list[Effect]]:
    """The envelope filled, the rest dealt evenly, the extras to The Burrow, the missing
    student drawn; the narrated set-up."""
    players = len(turn.seats)
    if players not in FLOO:
        raise IllegalAction(_("Harry Potter Clue is for 3 to 5 players"))
    suspects = _names(options, "suspects", SUSPECTS)
    items = _names(options, "items", ITEMS)
    locations = _names(options, "locations", LOCATIONS)
    if len({n.casefold() for n in [*suspects, *items, *locations]}) != len(suspects) + len(items) + len(locations):
        raise IllegalAction(_("two Mystery cards have the same name"))
    cards = options.get("cards", CARDS[0])
    if cards not in CARDS:
        raise IllegalAction(_("cards must be one of: {choices}", choices=listing(CARDS, "or")))
    identities = list(IDENTITIES)
    missing = identities.pop(turn.random("missing").randrange(len(identities)))
    state = ClueState(
        names=list(turn.seats),
        suspects=suspects,
        items=items,
        locations=locations,
        wheels=parse_wheels(options.get("wheels")),
        floo=[FLOO[players]] * players,
        help=[1] * players,
        missing=missing,
        where=[None] * players,
        physical=cards == "physical",
    )
    if not state.physical:
        _deal(state, turn)
    return state, _narration(state)


def _names(options: Mapping[str, Any], key: str, default: tuple[str, ...]) -> list[str]:
    """The host's names for one kind of Mystery card, as printed on the cards."""
    raw = options.get(key)
    if raw is None:
        return list(default)
    kind = key[:-1]
    if not isinstance(raw, list) or len(raw) != COUNTS[kind]:
        raise IllegalAction(_("{key} must be a list of {count} names", key=key, count=COUNTS[kind]))
    names = []
    for name in raw:
        text = " ".join(name.split()) if isinstance(name, str) else ""
        if not text or len(text) > LONGEST_NAME or not text.isprintable():
            raise IllegalAction(_("each card's name must be 1 to {most} printable characters", most=LONGEST_NAME))
        if text.casefold() == BURROW.casefold():
            raise IllegalAction(_("The Burrow is not a Mystery card"))
        names.append(text)
    return names


def _deal(state: ClueState, turn: Turn) -> None:
    """One of each kind into the envelope, the rest shuffled and dealt so each player has
    the same number; the extra cards go face up to The Burrow."""
    piles = [list(state.suspects), list(state.items), list(state.locations)]
    for index, pile in enumerate(piles):
        turn.random("pile", index).shuffle(pile)
    state.envelope = [pile.pop() for pile in piles]
    rest = [card for pile in piles for card in pile]
    turn.random("deal").shuffle(rest)
    each = len(rest) // state.players
    state.hands = [sorted(rest[s * each : (s + 1) * each]) for s in range(state.players)]
    state.burrow = sorted(rest[each * state.players :])


def _narration(state: ClueState) -> list[Effect]:
    """The rulebook's set-up, in its order, said to the table."""
    return [
        Say(_("Turn every wheel so that it shows START.")),
        Say(_("Shuffle the Dark cards and the Help cards and place them face down near the board.")),
        Say(
            _n(
                "Each player takes one Help card, face up, and {count} pinch of Floo powder.",
                "Each player takes one Help card, face up, and {count} pinches of Floo powder.",
                state.floo[0],
            )
        ),
        Say(_("{name} has fallen prey to Dark Magic and is missing.", name=state.missing)),
        *(_physical_deal(state) if state.physical else _digital_deal(state)),
        Say(_("Choose your character on your phone, and place your mover on its start space.")),
        Say(
            _(
                "Place {name}, the missing student, and any spare Identity cards and movers out of the game.",
                name=state.missing,
            )
        ),
        Say(_("Place the item and suspect tokens in piles where everyone can reach them.")),
    ]


def _physical_deal(state: ClueState) -> list[Effect]:
    """Real cards: the table deals; with nothing over for The Burrow, each phone may take
    its hand at once (else after the host has entered The Burrow)."""
    enter = [] if burrow_size(state) else [Say(ENTER_HAND)]
    return [
        Say(
            _(
                "Sort the Mystery cards into suspects, items and locations, shuffle each pile, and put one"
                " of each in the envelope without looking."
            )
        ),
        Say(
            _(
                "Shuffle the rest together and deal them so each player has the same number; place any extra cards face up in The Burrow."
            )
        ),
        *enter,
    ]


def _digital_deal(state: ClueState) -> list[Effect]:
    burrow = (
        _("Place {cards} face up in The Burrow.", cards=listing(state.burrow))
        if state.burrow
        else _("No cards are left over for The Burrow.")
    )
    return [
        Say(_("The box has put three Mystery cards in the envelope and dealt the rest to your phones.")),
        Say(burrow),
    ]


def _free(state: ClueState) -> list[str]:
    taken = set(state.identities.values())
    return [i for i in IDENTITIES if i != state.missing and i not in taken]


def _choosing(state: ClueState) -> list[int]:
    return [s for s in range(state.players) if s not in state.identities]


def identity(state: ClueState, turn: Turn) -> list[Effect]:
    """One player's character (its own phone, or the host with ``seat``)."""
    seat = turn.own_seat(_("you can only choose your own character"), _("say whose character this is: seat"))
    if seat in state.identities:
        raise IllegalAction(_("{name} has already chosen a character", name=state.names[seat]))
    state.identities[seat] = turn.args["choice"]
    said: list[Effect] = [Say(_("{name} plays {character}.", name=state.names[seat], character=turn.args["choice"]))]
    if not _choosing(state):
        state.step = FIRST
        said.append(Say(_("Whose birthday is next? That player takes the first turn.")))
    return said


def _ask_identity(state: ClueState) -> list[Expect]:
    options = tuple(_free(state))
    return [
        Expect.choice("identity", _("{name}: choose your character", name=state.names[s]), options, seat=s)
        for s in _choosing(state)
    ]


def first(state: ClueState, turn: Turn) -> list[Effect]:
    """The host names the player whose birthday is next: play goes left from them."""
    state.current = turn.args["choice"]
    return begin_turn(state)


IDENTITY_STEP = Step[ClueState](
    IDENTITY,
    _("the players are choosing their characters"),
    (
        BURROW_MOVE,  # real cards: The Burrow is entered first (asked in order)
        Move(
            "identity",
            identity,
            args={"choice": Choice(_free), "seat": Opt(Seat())},
            by=_choosing,
            role=_("choosing a character"),
            ask=_ask_identity,
        ),
    ),
    in_order=True,
)

FIRST_STEP = Step[ClueState](
    FIRST,
    _("the host is picking the first player"),
    (
        Move(
            "first",
            first,
            args={"choice": Seat()},
            ask=lambda s: [
                Expect.choice("first", _("Whose birthday is next? They take the first turn."), tuple(s.names))
            ],
        ),
    ),
)
