"""Secret Voldemort, Phase 3: the spells a Dark Arts policy brings (each one mandatory).

Crucio shows another player's Party Membership to the Minister's phone alone (never
the same player twice, never himself); Stupor shows the Minister the top three
policies, left in their order; Imperio makes another player the next Minister;
Avada Kedavra kills another player, whose role stays hidden unless he was Voldemort.
Whom a spell is cast on is public; what Crucio and Stupor show is the Minister's.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import IllegalAction
from engine.args import Seat
from engine.effects import Effect, Expect, Say
from engine.game import Turn
from engine.games.voldemort_policies import finish, new_round
from engine.games.voldemort_rules import AVADA, CRUCIO, HAND, IMPERIO, MINISTER, PARTY, SPELL_NAME, VOLDEMORT
from engine.games.voldemort_state import AVADA_STEP, CRUCIO_STEP, IMPERIO_STEP, ORDER_WINS, STUPOR_STEP, VoldemortState
from engine.messages import Msg, words
from engine.steps import Move, Step

_, _n = words("voldemort")


def _target(state: VoldemortState, seat: int, spell: str) -> str:
    if seat == state.minister:
        raise IllegalAction(_("{spell} is cast on another player, never yourself", spell=SPELL_NAME[spell]))
    if seat in state.dead:
        raise IllegalAction(_("{name} is dead", name=state.names[seat]))
    return state.names[seat]


def crucio_targets(state: VoldemortState) -> list[int]:
    # Secret Hitler: no player may be investigated twice in a game.
    return [s for s in state.others_alive() if s not in state.investigated]


def crucio(state: VoldemortState, turn: Turn) -> list[Effect]:
    seat = turn.args["choice"]
    name = _target(state, seat, CRUCIO)
    if seat in state.investigated:
        raise IllegalAction(_("{name}'s Party Membership was already shown: choose someone else", name=name))
    state.investigated.append(seat)
    results = dict(state.crucio.get(state.minister, {}))
    # Secret Hitler: the investigation shows the Party Membership card, and Hitler's says Fascist.
    results[seat] = PARTY[state.roles[seat]]
    state.crucio = {**state.crucio, state.minister: results}
    minister = state.names[state.minister]
    state.story.append(_("{minister} casts Crucio on {name}.", minister=minister, name=name))  # not what it showed
    return [
        Say(
            _(
                "{minister} casts Crucio on {name}. {minister}, your phone shows {name}'s Party Membership.",
                minister=minister,
                name=name,
            )
        )
    ] + new_round(state)


def stupor(state: VoldemortState, turn: Turn) -> list[Effect]:
    minister = state.names[state.minister]
    state.story.append(_("{minister} casts Stupor on the top three policies.", minister=minister))
    if state.physical:
        said = _(
            "{name}, look at the top three policies of the draw pile and put them back in the same order.",
            name=minister,
        )
    else:
        # Secret Hitler: Policy Peek shows the top three and leaves them in their order.
        state.peeks = {**state.peeks, state.minister: state.draw[:HAND]}
        said = _("{name}, your phone shows the top three policies, in order. They stay where they are.", name=minister)
    return [Say(said)] + new_round(state)


def imperio(state: VoldemortState, turn: Turn) -> list[Effect]:
    """Any other living player, term-limited ones included, is the next Minister; the
    rotation then returns to the left of the caster (see ``new_round``)."""
    seat = turn.args["choice"]
    name = _target(state, seat, IMPERIO)
    # Secret Hitler: a Special Election may pick any other player, term-limited or not.
    state.chosen = seat
    cast = _(
        "{minister} casts Imperio: {name} will be the next Minister for Magic.",
        minister=state.names[state.minister],
        name=name,
    )
    state.story.append(cast)
    return [Say(cast)] + new_round(state)


def avada(state: VoldemortState, turn: Turn) -> list[Effect]:
    seat = turn.args["choice"]
    name = _target(state, seat, AVADA)
    # Secret Hitler: an executed player's role stays secret unless he was Hitler.
    state.dead.append(seat)
    cast = _("{minister} casts Avada Kedavra on {name}.", minister=state.names[state.minister], name=name)
    state.story.append(cast)
    said: list[Effect] = [Say(cast)]
    if state.roles[seat] == VOLDEMORT:
        return said + finish(state, ORDER_WINS, _("{name} was Lord Voldemort", name=name))
    said.append(
        Say(_("{name} is dead: {name}'s role stays secret, and the dead may not speak, vote or be elected.", name=name))
    )
    return said + new_round(state)


def _ask_target(
    action: str, what: Callable[[str], Msg], targets: Callable[[VoldemortState], list[int]], final: bool
) -> Callable[[VoldemortState], list[Expect]]:
    """The Minister's pick; a ``final`` one (Avada Kedavra: the victim may be Voldemort,
    and the game over with every role shown) is asked again on the phone before it is sent."""

    def ask(state: VoldemortState) -> list[Expect]:
        who = state.minister
        options = state.named(targets(state))
        return [Expect.choice(action, what(state.names[who]), options, seat=who, final=final)]

    return ask


def _ask_stupor(state: VoldemortState) -> list[Expect]:
    who = state.minister
    return [
        Expect(
            "confirm",
            "stupor",
            _("{name}: cast Stupor and look at the top three policies", name=state.names[who]),
            seat=who,
        )
    ]


def _minister(state: VoldemortState) -> list[int | None]:
    return [state.minister]


def _spell(
    name: str,
    doing: Msg,
    kind: str,
    run: Callable[[VoldemortState, Turn], list[Effect]],
    what: Callable[[str], Msg],
    targets: Callable[[VoldemortState], list[int]],
    final: bool = False,
) -> Step[VoldemortState]:
    return Step(
        name,
        doing,
        (
            Move(
                kind,
                run,
                args={"choice": Seat()},
                by=_minister,
                role=MINISTER,
                ask=_ask_target(kind, what, targets, final),
            ),
        ),
    )


CRUCIO_SPELL = _spell(
    CRUCIO_STEP,
    _("the Minister is casting Crucio"),
    "crucio",
    crucio,
    lambda name: _("{name}: cast Crucio: whose Party Membership will you see?", name=name),
    crucio_targets,
)
IMPERIO_SPELL = _spell(
    IMPERIO_STEP,
    _("the Minister is casting Imperio"),
    "imperio",
    imperio,
    lambda name: _("{name}: cast Imperio: who is the next Minister?", name=name),
    VoldemortState.others_alive,
)
AVADA_SPELL = _spell(
    AVADA_STEP,
    _("the Minister is casting Avada Kedavra"),
    "avada_kedavra",
    avada,
    lambda name: _("{name}: cast Avada Kedavra: whom will you kill?", name=name),
    VoldemortState.others_alive,
    final=True,
)
STUPOR_SPELL = Step[VoldemortState](
    STUPOR_STEP,
    _("the Minister is casting Stupor"),
    (Move("stupor", stupor, by=_minister, role=MINISTER, ask=_ask_stupor),),
)
