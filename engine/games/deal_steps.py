"""Monopoly Deal Wizarding World: the steps of the game, each move beside its prompt.

Every prompt names whose it is.  With the digital deck the prompts that show a hand
(what to play, what to discard, a Protego to cast) are secret, shown on that phone
alone; the rest are public, like the cards laid face up on the table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.args import Choice, Items, Opt, Seat, Text
from engine.effects import Expect
from engine.games import deal_bank as bank
from engine.games import deal_corrections as corrections
from engine.games import deal_laid as laid
from engine.games import deal_setup as setup
from engine.games import deal_spells as spells
from engine.games import deal_turns as turns
from engine.games.deal_state import (
    ACCIO,
    CHARACTER,
    COLOUR,
    DISCARD,
    FIRST,
    GIVE,
    HOW,
    OVER,
    PAY,
    PLAY,
    RESPOND,
    TAKE,
    TARGET,
    DealState,
)
from engine.messages import words
from engine.steps import Move, Step

_, _n = words("deal")

MOST_CARDS = 60
OFFER_LONGEST = 2000
"""A proposed payment or release as its option's text: every card named, so it may be long."""


def _current(state: DealState) -> list[int | None]:
    return [state.turn]


def _caster(state: DealState) -> list[int | None]:
    return [state.pending.caster if state.pending else None]


def _answering(state: DealState) -> list[int | None]:
    return [spells.answering(state)] if state.step == RESPOND and state.pending else []


def _payer(state: DealState) -> list[int | None]:
    return [state.debts[0].payer] if state.debts else []


def _who(state: DealState, seat: int | None, what: str) -> str:
    return _("{name}: {what}", name=state.names[seat] if seat is not None else "", what=what)


def _choice(
    action: str,
    what: str,
    options: Callable[[DealState], Mapping[str, Any] | list[str]],
    who: Callable[[DealState], list[int | None]],
    secret: bool = False,
) -> Callable[[DealState], list[Expect]]:
    def ask(state: DealState) -> list[Expect]:
        offered = tuple(options(state))
        seat = who(state)[0] if who(state) else None
        if not offered:
            return []
        return [Expect.choice(action, _who(state, seat, what), offered, seat=seat, secret=secret and state.digital)]

    return ask


def _hand_options(state: DealState) -> list[str]:
    return sorted(set(state.hands[state.turn]))


def _ask_play(state: DealState) -> list[Expect]:
    if state.plays >= turns.plays_allowed(state) or not state.hands[state.turn]:
        return []
    left = turns.plays_allowed(state) - state.plays
    what = _n("play a card (one left), or end your turn", "play a card ({count} left), or end your turn", left)
    if state.digital:
        return _choice("play", what, _hand_options, _current, secret=True)(state)
    return [Expect("cards", "play", _who(state, state.turn, what), seat=state.turn, laid=laid.on_table(state))]


def _ask_end(state: DealState) -> list[Expect]:
    return [Expect("confirm", "end", _who(state, state.turn, _("end your turn")), seat=state.turn)]


def _how_options(state: DealState) -> list[str]:
    castable = state.card is not None and spells.castable(state, state.card)
    return [turns.CAST, turns.TO_BANK] if castable else [turns.TO_BANK]


def _release_options(state: DealState) -> list[str]:
    return [bank.described(turns.release_offer(state))] if turns.can_release(state) else []


def _pay_options(state: DealState) -> list[str]:
    return [bank.described(spells.proposal(state))] if state.debts else []


def _target_options(state: DealState) -> list[str]:
    return [state.names[s] for s in spells.targets(state, state.pending.card)] if state.pending else []


def _ask_discard(state: DealState) -> list[Expect]:
    if state.digital:
        return _choice("discard", _("discard a card"), _hand_options, _current, secret=True)(state)
    what = _("discard down to the hand limit, then confirm")
    return [Expect("confirm", "discard", _who(state, state.turn, what), seat=state.turn)]


def _ask_protego(state: DealState) -> list[Expect]:
    """The physical deck: the box cannot know who holds a Protego, so anyone answering
    is offered it openly (the digital deck asks :func:`_ask_answer` instead)."""
    if state.digital:
        return []
    seat = spells.answering(state)
    said, button = _who(state, seat, _("cast Protego")), (_("Cast Protego"),)  # the button's own words
    return [Expect("confirm", "protego", said, seat=seat, labels=button)]


def _ask_let(state: DealState) -> list[Expect]:
    if state.digital:
        return []
    seat = spells.answering(state)
    return [
        Expect("confirm", "let", _who(state, seat, _("cast no Protego")), seat=seat, labels=(_("Cast no Protego"),))
    ]


def _ask_answer(state: DealState) -> list[Expect]:
    """The digital deck: whoever answers a Spell is asked the same secret question,
    holding a Protego or not, so that no phone lights up only for a Protego in hand (issue
    50); only the options behind the tap tell the seat what it can do."""
    if not state.digital:
        return []
    seat = spells.answering(state)
    what = _("cast Protego, or let {card} happen?", card=str(state.pending.card if state.pending else ""))
    return [Expect.choice("answer", _who(state, seat, what), spells.answers(state), seat=seat, secret=True)]


LAID = Items(laid.seen_arg, 1)
CARDS = Items(turns.card_arg, MOST_CARDS)
WHOSE_TURN = _("whose turn it is")
CASTER = _("the caster")
ANSWERING = _("the one answering")

PLAY_STEP = Step[DealState](
    PLAY,
    _("a player is taking their turn"),
    (
        Move("play", laid.play, {"choice": Opt(Text()), "cards": Opt(LAID)}, _current, role=WHOSE_TURN, ask=_ask_play),
        Move(
            "recolour",
            turns.recolour,
            {"choice": Choice(lambda s: list(turns.recolour_options(s)))},
            _current,
            role=WHOSE_TURN,
            ask=_choice("recolour", _("recolour a wild item (free)"), turns.recolour_options, _current),
        ),
        Move(
            "release",
            turns.release,
            {"choice": Opt(Text(OFFER_LONGEST)), "cards": Opt(CARDS)},
            _current,
            role=WHOSE_TURN,
            ask=_choice("release", _("discard 10 points to end Petrificus Totalus (free)"), _release_options, _current),
        ),
        Move("end", turns.end_turn, by=_current, role=WHOSE_TURN, ask=_ask_end),
    ),
)


def _step(name: str, doing: str, kind: str, run: Any, options: Any, by: Any, what: str, role: str) -> Step[DealState]:
    """A step that asks one player to pick one of the options offered."""
    return Step(
        name,
        doing,
        (
            Move(
                kind,
                run,
                {"choice": Choice(lambda s: list(options(s)))},
                by,
                role=role,
                ask=_choice(kind, what, options, by),
            ),
        ),
    )


STEPS: tuple[Step[DealState], ...] = (
    Step(
        FIRST,
        _("the host names the youngest player"),
        (
            Move(
                "youngest",
                setup.youngest,
                {"choice": Seat()},
                ask=lambda s: [Expect.choice("youngest", _("Who is the youngest player?"), tuple(s.names))],
            ),
        ),
    ),
    _step(
        CHARACTER,
        _("the players are choosing their characters"),
        "character",
        setup.choose_character,
        setup.free_characters,
        _current,
        _("choose your character"),
        _("the player choosing"),
    ),
    PLAY_STEP,
    _step(
        HOW,
        _("a Spell card is being played"),
        "how",
        spells.cast_or_bank,
        _how_options,
        _current,
        _("cast the Spell, or bank it"),
        WHOSE_TURN,
    ),
    _step(
        COLOUR,
        _("a wild item is being laid"),
        "colour",
        turns.lay_wild,
        lambda s: turns.colour_options(s, str(s.card)),
        _current,
        _("which colour does the wild represent?"),
        WHOSE_TURN,
    ),
    _step(
        ACCIO,
        _("an Accio is being cast"),
        "accio",
        spells.choose_colour,
        lambda s: spells.accio_colours(s, s.pending.card),
        _caster,
        _("which colour does Accio collect for?"),
        CASTER,
    ),
    Step(
        TARGET,
        _("a Spell is being cast"),
        (
            Move(
                "target",
                spells.choose_target,
                {"choice": Seat()},
                _caster,
                role=CASTER,
                ask=_choice("target", _("cast it on whom?"), _target_options, _caster),
            ),
        ),
    ),
    _step(
        TAKE,
        _("a Spell is being cast"),
        "take",
        spells.choose_take,
        spells.take_options,
        _caster,
        _("what does the Spell take?"),
        CASTER,
    ),
    _step(
        GIVE,
        _("a Spell is being cast"),
        "give",
        spells.choose_give,
        spells.give_options,
        _caster,
        _("which of your items do you give?"),
        CASTER,
    ),
    Step(
        RESPOND,
        _("a Spell waits for its answer"),
        (
            Move(
                "answer",
                spells.answer,
                {"choice": Choice(lambda s: list(spells.answers(s)))},
                _answering,
                role=ANSWERING,
                ask=_ask_answer,
            ),
            Move("let", spells.let_it, by=_answering, role=ANSWERING, ask=_ask_let),
        ),
    ),
    Step(
        PAY,
        _("a debt is being paid"),
        (
            Move(
                "pay",
                spells.pay,
                {"choice": Opt(Choice(_pay_options)), "cards": Opt(CARDS)},
                _payer,
                role=_("the payer"),
                ask=_choice("pay", _("pay with the cheapest cards, or name others"), _pay_options, _payer),
            ),
        ),
    ),
    Step(
        DISCARD,
        _("a player is discarding down to the hand limit"),
        (
            Move(
                "discard",
                turns.discard,
                {"choice": Opt(Text()), "cards": Opt(CARDS)},
                _current,
                role=WHOSE_TURN,
                ask=_ask_discard,
            ),
        ),
    ),
    Step(OVER, _("the game is over"), ()),
)

PROTEGO = Move[DealState](
    "protego",
    spells.protego,
    by=_answering,
    role=ANSWERING,
    ask=_ask_protego,
    when=lambda s: s.step == RESPOND,
    not_now=_("Protego blocks a Spell cast against you, and none is waiting for an answer"),
)


CORRECT = Move[DealState](
    "correct",
    corrections.correct,
    {"card": Text(), "owner": Seat(), "to": Seat(), "area": Choice(corrections.AREAS), "colour": Opt(Text())},
    when=lambda s: s.step not in (FIRST, CHARACTER, OVER),  # the win stands: it was checked at each correction
    not_now=lambda s: _("the game is over: start a new one") if s.step == OVER else _("nothing is laid yet"),
)
