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
from engine.games.voldemort_rules import HAND, PARTY, VOLDEMORT
from engine.games.voldemort_state import AVADA_STEP, CRUCIO_STEP, IMPERIO_STEP, ORDER_WINS, STUPOR_STEP, VoldemortState
from engine.steps import Move, Step


def _target(state: VoldemortState, seat: int, spell: str) -> str:
    if seat == state.minister:
        raise IllegalAction(f"{spell} is cast on another player, never yourself")
    if seat in state.dead:
        raise IllegalAction(f"{state.names[seat]} is dead")
    return state.names[seat]


def crucio_targets(state: VoldemortState) -> list[int]:
    # Secret Hitler: no player may be investigated twice in a game.
    return [s for s in state.others_alive() if s not in state.investigated]


def crucio(state: VoldemortState, turn: Turn) -> list[Effect]:
    seat = turn.args["choice"]
    name = _target(state, seat, "Crucio")
    if seat in state.investigated:
        raise IllegalAction(f"{name}'s Party Membership was already shown: choose someone else")
    state.investigated.append(seat)
    results = dict(state.crucio.get(state.minister, {}))
    # Secret Hitler: the investigation shows the Party Membership card, and Hitler's says Fascist.
    results[seat] = PARTY[state.roles[seat]]
    state.crucio = {**state.crucio, state.minister: results}
    minister = state.names[state.minister]
    return [
        Say(f"{minister} casts Crucio on {name}. {minister}, your phone shows {name}'s Party Membership.")
    ] + new_round(state)


def stupor(state: VoldemortState, turn: Turn) -> list[Effect]:
    minister = state.names[state.minister]
    if state.physical:
        said = f"{minister}, look at the top three policies of the draw pile and put them back in the same order."
    else:
        # Secret Hitler: Policy Peek shows the top three and leaves them in their order.
        state.peeks = {**state.peeks, state.minister: state.draw[:HAND]}
        said = f"{minister}, your phone shows the top three policies, in order. They stay where they are."
    return [Say(said)] + new_round(state)


def imperio(state: VoldemortState, turn: Turn) -> list[Effect]:
    """Any other living player, term-limited ones included, is the next Minister; the
    rotation then returns to the left of the caster (see ``new_round``)."""
    seat = turn.args["choice"]
    name = _target(state, seat, "Imperio")
    # Secret Hitler: a Special Election may pick any other player, term-limited or not.
    state.chosen = seat
    return [
        Say(f"{state.names[state.minister]} casts Imperio: {name} will be the next Minister for Magic.")
    ] + new_round(state)


def avada(state: VoldemortState, turn: Turn) -> list[Effect]:
    seat = turn.args["choice"]
    name = _target(state, seat, "Avada Kedavra")
    # Secret Hitler: an executed player's role stays secret unless he was Hitler.
    state.dead.append(seat)
    said: list[Effect] = [Say(f"{state.names[state.minister]} casts Avada Kedavra on {name}.")]
    if state.roles[seat] == VOLDEMORT:
        return said + finish(state, ORDER_WINS, f"{name} was Lord Voldemort")
    said.append(Say(f"{name} is dead: {name}'s role stays secret, and the dead may not speak, vote or be elected."))
    return said + new_round(state)


def _ask_target(
    action: str, what: str, targets: Callable[[VoldemortState], list[int]]
) -> Callable[[VoldemortState], list[Expect]]:
    def ask(state: VoldemortState) -> list[Expect]:
        who = state.minister
        return [
            Expect(
                "choice", action, f"{state.names[who]}: {what}", seat=who, count=1, options=state.named(targets(state))
            )
        ]

    return ask


def _ask_stupor(state: VoldemortState) -> list[Expect]:
    who = state.minister
    return [
        Expect("confirm", "stupor", f"{state.names[who]}: cast Stupor and look at the top three policies", seat=who)
    ]


def _minister(state: VoldemortState) -> list[int | None]:
    return [state.minister]


def _spell(
    name: str,
    doing: str,
    kind: str,
    run: Callable[[VoldemortState, Turn], list[Effect]],
    what: str,
    targets: Callable[[VoldemortState], list[int]],
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
                role="Minister for Magic",
                ask=_ask_target(kind, what, targets),
            ),
        ),
    )


CRUCIO_SPELL = _spell(
    CRUCIO_STEP,
    "the Minister is casting Crucio",
    "crucio",
    crucio,
    "cast Crucio: whose Party Membership will you see?",
    crucio_targets,
)
IMPERIO_SPELL = _spell(
    IMPERIO_STEP,
    "the Minister is casting Imperio",
    "imperio",
    imperio,
    "cast Imperio: who is the next Minister?",
    VoldemortState.others_alive,
)
AVADA_SPELL = _spell(
    AVADA_STEP,
    "the Minister is casting Avada Kedavra",
    "avada_kedavra",
    avada,
    "cast Avada Kedavra: whom will you kill?",
    VoldemortState.others_alive,
)
STUPOR_SPELL = Step[VoldemortState](
    STUPOR_STEP,
    "the Minister is casting Stupor",
    (Move("stupor", stupor, by=_minister, role="Minister for Magic", ask=_ask_stupor),),
)
