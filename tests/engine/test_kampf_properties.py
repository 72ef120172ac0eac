"""Property tests over random scenarios (and free choices) and random nights, played
through the game's own prompts as the phones answer them: three cards in the middle and
one per player always, none lost or made; no seat's night result reaches another seat's
view, the host page or any spoken line; and a night answered sounds and shows the same
as the night nobody answered (the twin-game technique)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.games.kampf_outcome import winners
from engine.games.kampf_roles import CARDS, FRED, GEORGE, GERMAN_NAME, PARTY, PARTY_NAME, ROLE_NAME
from engine.games.kampf_scenarios import SCENARIOS
from engine.games.kampf_state import DAY_TIMER, NIGHT, OVER, REVEAL
from support.kampf import Play, page_action

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DECK = [role for role, count in CARDS.items() for _ in range(count)]


@st.composite
def tables(draw: st.DrawFn) -> dict[str, object]:
    """A scenario at one of its counts, or a free choice of cards (the twins together)."""
    if draw(st.booleans()):
        name = draw(st.sampled_from(sorted(SCENARIOS)))
        players = draw(st.sampled_from(list(SCENARIOS[name].counts)))
        return {"players": players, "scenario": name}
    players = draw(st.integers(3, 10))
    pool = [r for r in DECK if r not in (FRED, GEORGE)]
    twins = draw(st.booleans()) and players + 3 >= 2
    chosen = draw(st.permutations(pool))[: players + 3 - (2 if twins else 0)]
    return {"players": players, "scenario": "free", "roles": [*chosen, *([FRED, GEORGE] if twins else [])]}


def start(setup: dict[str, object], seed: int) -> Play:
    options = {k: v for k, v in setup.items() if k != "players"}
    return Play(int(str(setup["players"])), seed, **options)  # type: ignore[arg-type]


def play_night(play: Play, r: random.Random, answering: float) -> list[dict[str, object]]:
    """The night with each prompt answered with probability ``answering``; the host page
    at each call's start, for the twin comparison."""
    play.act("start")
    views = [play.table.public_view()]
    while play.s.step == NIGHT:
        for _twice in range(2):
            for expect in play.table.expects():
                if r.random() < answering:
                    play.submit(page_action(expect, r))
            assert len(play.s.cards) == play.s.players + 3
        play.timer_runs_out()
        views.append(play.table.public_view())
    return views


@SETTINGS
@given(tables(), st.integers(0, 10_000))
def test_three_in_the_middle_and_one_per_player_always(setup, seed):
    play = start(setup, seed)
    dealt = sorted(play.s.cards)
    assert len(play.s.cards) == play.s.players + 3 == len(play.s.roles)
    play_night(play, random.Random(seed), 0.8)
    assert sorted(play.s.cards) == dealt == sorted(play.s.roles)
    assert len(play.s.cards[: play.s.players]) == play.s.players


@SETTINGS
@given(tables(), st.integers(0, 10_000))
def test_no_night_result_reaches_another_seat_the_host_or_the_speaker(setup, seed):
    play = start(setup, seed)
    r = random.Random(seed)
    play_night(play, r, 0.9)
    play.timer_runs_out("discussion")
    seen = {seat: set(play.seen(seat)) for seat in range(play.s.players)}
    public = json.dumps(play.table.public_view(), ensure_ascii=False)
    spoken = " ".join(play.said)
    for lines in seen.values():
        for line in lines:
            assert line not in public and line not in spoken, line
            for other in range(play.s.players):
                if line not in seen[other]:
                    assert line not in json.dumps(play.table.private_view(other), ensure_ascii=False), line
    for other in range(play.s.players):
        play.act("vote", by=other, choice=play.s.names[(other + 1) % play.s.players])
    if play.s.step == OVER and play.s.digital:
        # the record is shown at the end (empty when every waking card lay in the middle)
        acted = any(play.s.notes[seat] for seat in range(play.s.players))
        assert bool(play.table.public_view()["view"]["night"]) == acted


@SETTINGS
@given(tables(), st.integers(0, 10_000))
def test_a_night_answered_sounds_and_shows_as_one_nobody_answered(setup, seed):
    answered, silent = start(setup, seed), start(setup, seed)
    shown = play_night(answered, random.Random(seed), 1.0)
    quiet = play_night(silent, random.Random(seed), 0.0)
    assert answered.said == silent.said
    night = [v for v in shown if v["view"]["step"] == NIGHT]
    assert night == [v for v in quiet if v["view"]["step"] == NIGHT]


@SETTINGS
@given(tables(), st.booleans(), st.integers(0, 10_000))
def test_every_phone_ends_with_the_card_that_counts_as_the_reveal_shows_it(setup, physical, seed):
    """Issue 44 item 1: the phone showed the card dealt at the end, not the card that
    last lay in front of the player, so a swapped seat read the wrong party."""
    play = start({**setup, **({"cards": "physical"} if physical else {})}, seed)
    r = random.Random(seed)
    if physical:
        play.dawn()  # nothing is answered on the phones
    else:
        play_night(play, r, 0.9)
    play.timer_runs_out(DAY_TIMER)
    for seat in range(play.s.players):
        play.act("vote", by=seat, choice=r.choice(play.s.others(seat)))
    if play.s.step == REVEAL:  # the host types the cards turned over, by their names
        play.act("cards", cards=[str(ROLE_NAME[role]) for role in r.sample(play.s.roles, play.s.players)])
    assert play.s.step == OVER
    shown = play.table.public_view()["view"]["reveal"]["cards"]
    won = set(winners(play.s.final, play.s.winner or ""))
    for seat, final in enumerate(play.s.final):
        phone = play.table.private_view(seat)["view"]
        assert phone["card"] == shown[seat]["card"] and phone["role"] == ROLE_NAME[final]
        assert phone["party"] == PARTY_NAME[PARTY[final]]
        assert (PARTY_NAME.get(play.s.winner or "") == phone["party"]) == (seat in won)
        assert phone.get("start_card") == (None if physical else ROLE_NAME[play.s.dealt[seat]])


EVERY_TABLE = [(name, n) for name, s in SCENARIOS.items() for n in s.counts] + [("suggested", n) for n in range(3, 14)]


@pytest.mark.parametrize("cards", ["digital", "physical"])
@pytest.mark.parametrize("scenario, players", EVERY_TABLE)
def test_every_scenario_at_every_count_plays_to_the_end(scenario, players, cards):
    """Through the prompts alone; physical cards typed by their English or German names."""
    play, r = Play(players, players, scenario=scenario, cards=cards), random.Random(players)
    play.act("start")
    while play.s.step == NIGHT:
        for expect in play.table.expects():
            play.submit(page_action(expect, r))
        play.timer_runs_out()
    play.timer_runs_out(DAY_TIMER)
    for seat in range(players):
        play.act("vote", by=seat, choice=r.choice(play.s.others(seat)))
    if play.s.step == REVEAL:
        names = GERMAN_NAME if players % 2 else {role: str(name) for role, name in ROLE_NAME.items()}
        play.act("cards", cards=[names[role] for role in r.sample(play.s.roles, players)])
    assert play.s.step == OVER and play.s.winner and len(play.s.final) == players
