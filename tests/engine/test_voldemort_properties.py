"""Property tests over random legal games of Secret Voldemort, played through the game's
own prompts as the pages answer them: every policy is accounted for, every offered
option is accepted, every game ends, and no secret of one seat reaches another seat's
view or any spoken line (the twin-state technique: change one secret in a copy of the
table, do the same action in both, and everything the secret's holders do not see must
come out the same)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Action
from engine.games.voldemort_rules import DECK, PARTY, UNSEEN
from engine.games.voldemort_setup import _known
from engine.games.voldemort_state import NOMINATE, VOTE, VoldemortState
from engine.table import Table, replay
from support.table import outcome, twin_of
from support.table import walk as table_walk
from support.voldemort import Play, accounted, page_action, random_prompt

STEPS = 700
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def swap_roles(r: random.Random) -> Callable[[VoldemortState], set[int]]:
    """Two seats of different roles swap them; whom the Opening showed follows, and so do
    Crucio results already given.  Every seat that knows either role holds the secret."""

    def change(s: VoldemortState) -> set[int]:
        a, b = r.sample(range(s.players), 2)
        if s.roles[a] == s.roles[b]:
            return set(range(s.players))  # nothing changed: nothing to compare
        before = [dict(k) for k in s.known]
        s.roles[a], s.roles[b] = s.roles[b], s.roles[a]
        s.known = [_known(s.roles, seat, s.voldemort_knows) for seat in range(s.players)]
        s.crucio = {c: {t: PARTY[s.roles[t]] for t in shown} for c, shown in s.crucio.items()}
        knowers = {x for x in range(s.players) if s.known[x] != before[x] or {a, b} & set(s.known[x])}
        casters = {c for c, shown in s.crucio.items() if {a, b} & set(shown)}
        return {a, b} | knowers | casters

    return change


def shuffle_draw(r: random.Random) -> Callable[[VoldemortState], set[int]]:
    """The draw pile in another order: only the seats shown policies may differ."""

    def change(s: VoldemortState) -> set[int]:
        r.shuffle(s.draw)
        return set()

    return change


def flip_vote(r: random.Random) -> Callable[[VoldemortState], set[int]]:
    """A vote already sent, the other way: only its voter knows it until all are in."""

    def change(s: VoldemortState) -> set[int]:
        if s.step != VOTE or not s.votes:
            return set(range(s.players))
        voter = r.choice(sorted(s.votes))
        s.votes[voter] = not s.votes[voter]
        return {voter}

    return change


def shown_to(table: Table) -> set[int]:
    """Seats holding or shown policies or a peek now (the deck is theirs to know)."""
    s: VoldemortState = table.current.state
    return set(s.hands) | set(s.peeks) | set(s.seen)


def check_twin(play: Play, action: Action, seed: int, r: random.Random) -> None:
    """Apply ``action`` to the real table and a twin with one secret changed; compare."""
    s = play.s
    kinds = [swap_roles(r), flip_vote(r)] + ([] if s.physical else [shuffle_draw(r)])
    twin, holders = twin_of(play.table, r.choice(kinds))
    enacted = len(s.enacted)
    real = outcome(play.table, action, seed)
    assert real[0] == "ok", f"the offered action {action} was refused: {real[1]}"
    mirror = outcome(twin, action, seed)
    a, b = play.s, twin.current.state
    if len(holders) == a.players or a.step == "over" or b.step == "over":
        return  # nothing was changed, or a role-based win ended one of the games
    if len(a.enacted) != enacted or len(b.enacted) != enacted or (s.step == VOTE and a.step != VOTE):
        return  # a policy or the votes were revealed: they differ in public by the rules
    if action.seat is not None and action.seat in holders | shown_to(play.table) | shown_to(twin):
        return  # a holder acting on what it knows
    assert mirror == real, "what the box says or refuses depends on a secret"
    assert play.table.public_view() == twin.public_view(), "the public view depends on a secret"
    allowed = holders | shown_to(play.table) | shown_to(twin)
    # A Minister this action showed a swapped seat's party (the host may enter the Crucio
    # for them) knows the secret now, like a caster before it.
    allowed |= {c for c in set(a.crucio) | set(b.crucio) if a.crucio.get(c) != b.crucio.get(c)}
    for seat in range(a.players):
        if seat not in allowed:
            assert play.table.private_view(seat) == twin.private_view(seat), f"a secret reaches seat {seat}'s view"


def check_board(s: VoldemortState) -> None:
    """17 policies, each somewhere; the draw pile can always serve the next session."""
    assert accounted(s) == 17
    cards = s.draw + s.discard + [c for h in s.hands.values() for c in h] + s.enacted
    if s.physical:
        assert Counter(c for c in cards if c != UNSEEN) == Counter(s.enacted)
    else:
        assert Counter(cards) == Counter(DECK)
    if s.step in (NOMINATE, VOTE):
        assert len(s.draw) >= 3 and not s.hands
    assert 0 <= s.election < 3 and s.order <= 5 and s.dark_arts <= 6


def walk(players: int, seed: int, physical: bool, secrets: bool, **options: str) -> Play:
    play = Play(players, seed, deck="physical" if physical else "digital", **options)
    r = random.Random(seed)
    twin = (lambda action, seed_for: check_twin(play, action, seed_for, r)) if secrets else None
    table_walk(play, r, STEPS, lambda: page_action(random_prompt(play.table, r), r), lambda: check_board(play.s), twin)
    return play


@pytest.mark.slow
@SETTINGS
@given(players=st.integers(5, 10), seed=st.integers(0, 2**32 - 1), physical=st.booleans())
def test_random_games_account_for_every_policy_and_end(players: int, seed: int, physical: bool) -> None:
    play = walk(players, seed, physical, secrets=False)
    assert play.table.public_view()["over"], f"stuck at {play.s.step}"
    assert play.table.public_view()["view"]["roles"] == play.s.roles
    assert replay(play.entries, play.table.games).current == play.table.current


@pytest.mark.slow
@SETTINGS
@given(players=st.integers(5, 10), seed=st.integers(0, 2**32 - 1), physical=st.booleans())
def test_no_secret_reaches_another_seat_or_the_speaker(players: int, seed: int, physical: bool) -> None:
    walk(players, seed, physical, secrets=True)


@pytest.mark.slow
def test_the_walks_reach_every_ending() -> None:
    """The properties mean something only if the walks get through whole games, all ways."""
    reasons = Counter()
    for seed in range(40):
        play = walk(5 + seed % 6, seed, physical=seed % 3 == 0, secrets=False)
        reasons[play.s.reason.split(" was ")[-1]] += 1
    assert set(reasons) >= {
        "Lord Voldemort",
        "five Order policies are enacted",
        "six Dark Arts policies are enacted",
        "Lord Voldemort is elected Headmaster of Hogwarts",
    }, reasons


OPTIONS = {"term_limits": "original game's rule (5 or fewer alive)", "spells": "a spell on every Dark Arts policy"}
"""Each set-up option away from its default (the walks above play the defaults)."""


@pytest.mark.slow
@pytest.mark.parametrize("option", sorted(OPTIONS))
def test_random_games_with_each_option_end_and_keep_every_secret(option: str) -> None:
    for seed in range(6):
        play = walk(5 + seed, seed, physical=seed % 2 == 1, secrets=True, **{option: OPTIONS[option]})
        assert play.table.public_view()["over"], f"stuck at {play.s.step} with {option}"
