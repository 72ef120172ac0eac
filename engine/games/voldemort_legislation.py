"""Secret Voldemort, Phase 2: the legislative session, and the veto.

With the digital deck the Minister's phone shows the top three policies, he discards
one; the Headmaster's phone shows the other two, she enacts one.  Only the holder's
phone ever receives a hand (a secret prompt, and ``hands`` in its own view); the
discards are never revealed.  With the physical deck the table plays the cards and
the enacted one is entered: read by the camera in the reveal zone (a taught card, in
English or German; the policies on the board's tracks are not read) or tapped by the host.  The spoken lines are the same whatever the cards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.actions import IllegalAction
from engine.args import Choice, Items, Opt
from engine.effects import Effect, Expect, Say
from engine.game import Turn
from engine.games.voldemort_policies import a_failure_may_win, a_policy_may_win, enact, failed, reshuffle_if_low
from engine.games.voldemort_rules import (
    CARD_NAMES,
    HAND,
    HEADMASTER,
    MINISTER,
    POLICY_NAME,
    REVEAL,
    UNSEEN,
    VETO_FROM,
)
from engine.games.voldemort_state import DISCARD, ENACT, POLICY, VETO, VoldemortState
from engine.messages import Msg, listing, words
from engine.steps import Move, Step

_, _n = words("voldemort")

KINDS: dict[str, str] = {label: kind for kind, label in POLICY_NAME.items()}
LABELS = tuple(KINDS)
AGREE, REFUSE = _("agree"), _("refuse")
ANSWERS = (AGREE, REFUSE)


def begin_session(state: VoldemortState) -> list[Effect]:
    """The elected government legislates: three cards to the Minister's phone, or the
    table's own deck."""
    minister, headmaster = state.names[state.minister], state.names[state.sitting()]
    if state.physical:
        state.step = POLICY
        return [
            Say(
                _(
                    "{minister}, draw the top three policies, discard one face down and pass two to {headmaster}. "
                    "{headmaster}, discard one face down and put the other in the reveal area.",
                    minister=minister,
                    headmaster=headmaster,
                )
            )
        ]
    state.hold(state.minister, state.draw[:HAND])
    del state.draw[:HAND]
    state.step = DISCARD
    return [Say(_("{name}, your phone shows three policies: discard one.", name=minister))]


def _kind(raw: str) -> str:
    return KINDS[raw]


def _hand(state: VoldemortState, seat: int) -> list[str]:
    return state.hands.get(seat, [])


def minister_discards(state: VoldemortState, turn: Turn) -> list[Effect]:
    hand, kind = list(_hand(state, state.minister)), _kind(turn.args["choice"])
    if kind not in hand:
        raise IllegalAction(_("you hold no {policy} policy", policy=POLICY_NAME[kind]))
    hand.remove(kind)
    state.discard.append(kind)
    state.hold(state.sitting(), hand)
    state.step = ENACT
    return [
        Say(
            _(
                "{minister} passes two policies to {headmaster}. {headmaster}, your phone shows them: enact one.",
                minister=state.names[state.minister],
                headmaster=state.names[state.sitting()],
            )
        )
    ]


def headmaster_enacts(state: VoldemortState, turn: Turn) -> list[Effect]:
    hand, kind = list(_hand(state, state.sitting())), _kind(turn.args["choice"])
    if kind not in hand:
        raise IllegalAction(_("you hold no {policy} policy", policy=POLICY_NAME[kind]))
    hand.remove(kind)
    state.discard += hand
    state.hands = {}
    return enact(state, kind, turn)


def _ask_hand(action: str, what: Msg, seat_of: str, enacts: bool = False) -> Callable[[VoldemortState], list[Expect]]:
    """The holder's pick from its hand; the one that ``enacts`` is asked again on the phone
    when one more policy ends the game (whichever is picked, so the hand stays unsaid)."""

    def ask(state: VoldemortState) -> list[Expect]:
        seat = state.minister if seat_of == "minister" else state.sitting()
        hand = _hand(state, seat)
        if not hand:
            return []
        shown = listing(POLICY_NAME[k] for k in hand)
        options = tuple(label for label in LABELS if KINDS[label] in hand)
        prompt = _("Your policies: {policies}. {what}", policies=shown, what=what)
        final = enacts and a_policy_may_win(state)
        return [Expect.choice(action, prompt, options, seat=seat, secret=True, final=final)]

    return ask


# --- The physical deck ------------------------------------------------------------------


def policy_kind(item: Any) -> str:
    """A revealed policy card: a taught card ``{"card": name, "policy"?: kind, "zone"?: zone}``
    or its name typed in, in English or German ("Order", "Dark Arts policy", "Dunkle
    Künste").  A card the camera places in a zone other than the reveal area is refused."""
    if isinstance(item, dict):
        if item.get("zone") not in (None, REVEAL):
            raise IllegalAction(_("the enacted policy is read in the reveal area, not elsewhere on the table"))
        item = item.get("policy") or item.get("card")
    name = _folded(item) if isinstance(item, str) else ""
    for kind, names in CARD_NAMES.items():
        if name in names or name == kind.replace("_", " "):
            return kind
    raise IllegalAction(_("a policy card is Order or Dark Arts"))


def _folded(name: str) -> str:
    """A card's name as ``CARD_NAMES`` lists it: lower case, words split by single spaces
    (taught names may use _ or -), "ue" as the umlaut a keyboard without one types."""
    return " ".join(name.replace("_", " ").replace("-", " ").split()).casefold().replace("ue", "ü")


def policy_entered(state: VoldemortState, turn: Turn) -> list[Effect]:
    """The physical deck: the policy in the reveal area (or, in chaos, the top card)."""
    choice, cards = turn.args["choice"], turn.args["cards"] or []
    read = [_kind(choice)] if choice is not None else []
    if len(read + cards) != 1:
        raise IllegalAction(_("enter one policy: Order or Dark Arts"))
    kind = (read + cards)[0]
    if state.chaos:
        state.draw.pop(0)
        return enact(state, kind, turn, chaos=True)
    del state.draw[:HAND]
    state.discard += [UNSEEN] * (HAND - 1)
    return enact(state, kind, turn)


def _ask_policy(state: VoldemortState) -> list[Expect]:
    if state.chaos:
        reveal = _("Reveal the top policy of the draw pile in the reveal area")
        enter = _("Or enter the top policy of the draw pile")
    else:
        reveal = _("Reveal the policy the Headmaster enacts in the reveal area")
        enter = _("Or enter the policy the Headmaster enacts")
    final = a_policy_may_win(state)
    return [
        Expect("cards", "policy", reveal, count=1, final=final, zone=REVEAL),
        Expect.choice("policy", enter, LABELS, final=final),
    ]


# --- The veto ---------------------------------------------------------------------------


def can_veto(state: VoldemortState) -> bool:
    """From the fifth Dark Arts policy, once per session, never for a chaos policy."""
    # Secret Hitler: the veto power, and one request per legislative session.
    return state.dark_arts >= VETO_FROM and not state.veto_asked and not state.chaos


def ask_veto(state: VoldemortState, turn: Turn) -> list[Effect]:
    if not can_veto(state):
        raise IllegalAction(_("a veto needs five Dark Arts policies, and is asked once per session"))
    state.veto_asked = True
    state.step = VETO
    return [
        Say(
            _(
                "{headmaster} wishes to veto this agenda. {minister}, do you agree?",
                headmaster=state.names[state.sitting()],
                minister=state.names[state.minister],
            )
        )
    ]


def answer_veto(state: VoldemortState, turn: Turn) -> list[Effect]:
    """Agreed: every policy of the session is discarded and the tracker moves.  Refused:
    the Headmaster must enact one (no second request)."""
    # Secret Hitler: an agreed veto discards both policies and moves the election tracker.
    if turn.args["choice"] == REFUSE:
        state.step = POLICY if state.physical else ENACT
        return [
            Say(
                _(
                    "{minister} refuses the veto: {headmaster} must enact a policy.",
                    minister=state.names[state.minister],
                    headmaster=state.names[state.sitting()],
                )
            )
        ]
    if state.physical:
        del state.draw[:HAND]
        state.discard += [UNSEEN] * HAND
    else:
        state.discard += _hand(state, state.sitting())
        state.hands = {}
    agreed = _("{name} agrees: the agenda is vetoed and its policies discarded.", name=state.names[state.minister])
    state.story.append(agreed)
    effects: list[Effect] = [Say(agreed)]
    return effects + reshuffle_if_low(state, turn) + failed(state, turn)


def _ask_veto(state: VoldemortState) -> list[Expect]:
    if not can_veto(state):
        return []
    who = state.sitting()
    return [
        Expect(
            "confirm",
            "veto",
            _("{name}: ask the Minister to veto this agenda", name=state.names[who]),
            seat=who,
            labels=(_("Ask for a veto"),),  # the button's own words, not "Next"
        )
    ]


def _ask_answer(state: VoldemortState) -> list[Expect]:
    who = state.minister
    prompt = _("{name}: agree to the veto?", name=state.names[who])
    # An agreed veto may be the third failure, and chaos's top policy may end the game.
    return [Expect.choice("answer", prompt, ANSWERS, seat=who, final=a_failure_may_win(state))]


def _headmaster(state: VoldemortState) -> list[int | None]:
    return [state.headmaster]


def _minister(state: VoldemortState) -> list[int | None]:
    return [state.minister]


_VETO = Move[VoldemortState]("veto", ask_veto, by=_headmaster, role=HEADMASTER, ask=_ask_veto)

DISCARD_STEP = Step[VoldemortState](
    DISCARD,
    _("the Minister is discarding a policy"),
    (
        Move(
            "discard",
            minister_discards,
            args={"choice": Choice(LABELS)},
            by=_minister,
            host=False,
            role=MINISTER,
            ask=_ask_hand("discard", _("Discard one."), "minister"),
        ),
    ),
)

ENACT_STEP = Step[VoldemortState](
    ENACT,
    _("the Headmaster is enacting a policy"),
    (
        Move(
            "enact",
            headmaster_enacts,
            args={"choice": Choice(LABELS)},
            by=_headmaster,
            host=False,
            role=HEADMASTER,
            ask=_ask_hand("enact", _("Enact one."), "headmaster", enacts=True),
        ),
        _VETO,
    ),
)

POLICY_STEP = Step[VoldemortState](
    POLICY,
    _("the table is revealing a policy"),
    (
        Move(
            "policy",
            policy_entered,
            args={"choice": Opt(Choice(LABELS)), "cards": Opt(Items(policy_kind, 1))},
            by=_headmaster,
            role=HEADMASTER,
            ask=_ask_policy,
        ),
        _VETO,
    ),
)

VETO_STEP = Step[VoldemortState](
    VETO,
    _("the Minister is answering a veto request"),
    (
        Move(
            "answer",
            answer_veto,
            args={"choice": Choice(ANSWERS)},
            by=_minister,
            role=MINISTER,
            ask=_ask_answer,
        ),
    ),
)
