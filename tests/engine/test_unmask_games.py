"""Whole games of Unmask the Death Eaters for 4 to 8 players, through the table core."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine.actions import IllegalAction
from engine.games.unmask_rules import DEATH_EATER, NAMES_TO_SUBMIT, ORDER
from engine.table import replay
from support.unmask import Play, chart_holds, page_action


def seeded(players: int, wanted: Callable[[Play], bool]) -> Play:
    """The first seed whose Loyalty deal (made when the first Leader is found) is ``wanted``."""
    for seed in range(500):
        play = Play(players, seed)
        play.first_leader(1)
        if wanted(play):
            return play
    raise AssertionError("no seed gives that deal")


def order_turns(play: Play) -> bool:
    s = play.s
    return any(s.loyalty[x] == ORDER and s.phase2_deck[x] == DEATH_EATER for x in range(s.players))


def eaters_after_shift(play: Play) -> int:
    s = play.s
    return sum(DEATH_EATER in (s.loyalty[x], s.phase2_deck[x]) for x in range(s.players))


def play_beginning(play: Play) -> None:
    """Expelliarmus, a failure, a won and a lost Battle, then the Beginning completes."""
    play.token("expelliarmus")
    assert play.s.board.expelliarmus == 1
    play.encounter(False)
    assert play.s.board.snake == 1
    play.battle("dementor", True)
    play.battle("inferius", False)
    assert play.s.board.snake == 2 and "inferius" in play.s.board.pools["beginning"]
    before = [list(d) for d in play.s.dealt]
    play.battle("inferius", True)
    assert play.s.board.phase == "war" and all(len(d) == 2 for d in play.s.dealt)
    assert [d[0] for d in play.s.dealt] == [d[0] for d in before]
    assert chart_holds(play.s)


def play_war(play: Play) -> None:
    """Two failures bring the fourth-space penalty for exactly one Encounter, then every token."""
    play.encounter(False)
    play.encounter(False)
    assert play.s.board.snake == 4 and play.table.tracks()["threat"].attention
    assert any(line.startswith("No one draws back up to five cards") for line in play.said[-5:])
    assert play.said[-1] == "The Snake's fourth-space penalty holds for this Encounter and its Battle."
    play.token("redraw")  # the one Encounter under the penalty
    assert not play.table.tracks()["threat"].attention
    assert any(line.startswith("The penalty is over") for line in play.said[-4:])
    play.token("revelio")
    play.battle("dementor", True)
    play.battle("giant", True)
    play.battle("inferius", True)
    assert play.s.step == "revelio"


def elect(play: Play, wanted: int) -> None:
    """A first nomination voted down, then ``wanted`` nominated by the next seat and elected."""
    s = play.s
    first = next(x for x in range(s.players) if x not in (s.final.nominator, wanted))
    play.final_vote(first, yes=False)
    assert play.s.step == "nominate" and play.s.final.nominator == play.s.left_of(play.s.leader)
    play.final_vote(wanted, yes=True)
    assert play.s.final.final_leader == wanted and play.s.step == "accuse"
    assert all(e.final for e in play.table.expects())  # the names settle the game: asked first


def accuse(play: Play, outcome: str) -> None:
    s = play.s
    eaters = [x for x in range(s.players) if s.loyalty[x] == DEATH_EATER]
    order = [x for x in range(s.players) if s.loyalty[x] == ORDER and x != s.final.final_leader]
    low, _ = NAMES_TO_SUBMIT[s.players]
    names = {"perfect": eaters, "partial": eaters + order[:1], "death_eaters": order[:low]}[outcome]
    play.act("accuse", by=s.final.final_leader, choices=names)
    assert play.s.final.outcome == outcome and play.table.public_view()["over"]
    assert play.table.public_view()["view"]["loyalty"] == s.loyalty


def finish(play: Play, outcome: str) -> None:
    s = play.s
    if s.step == "revelio":
        target = next(x for x in range(s.players) if x != s.board.revelio)
        play.act("peek", by=s.board.revelio, choice=target)
        assert play.table.private_view(s.board.revelio)["view"]["peeks"][0]["loyalty"] == s.loyalty[target]
    order = [x for x in range(s.players) if s.loyalty[x] == ORDER]
    wanted = next(x for x in order if x != s.left_of(s.final.nominator))
    elect(play, wanted)
    accuse(play, outcome)
    assert replay(play.entries, play.table.games).current == play.table.current


@pytest.mark.parametrize(
    ("players", "outcome"),
    [(4, "perfect"), (6, "death_eaters"), (7, "perfect"), (8, "partial"), (8, "death_eaters")],
)
def test_full_game_with_a_turned_order_player(players: int, outcome: str) -> None:
    wants_partial = outcome == "partial"
    play = seeded(
        players,
        lambda p: order_turns(p) and (not wants_partial or eaters_after_shift(p) == NAMES_TO_SUBMIT[players][1] - 1),
    )
    turned = [x for x in range(players) if play.s.loyalty[x] == ORDER and play.s.phase2_deck[x] == DEATH_EATER]
    play_beginning(play)
    assert all(play.s.loyalty[x] == DEATH_EATER for x in turned)
    assert "A Shift in Loyalties!" in " ".join(play.said)
    play_war(play)
    finish(play, outcome)


def test_five_players_end_on_the_track_with_a_partial_victory() -> None:
    play = seeded(5, lambda p: True)
    play.token("expelliarmus")  # Bob (seat 1) holds it
    for _ in range(3):
        play.encounter(False)
    assert play.s.board.snake == 3 and play.s.leader == 0
    play.act("leave_out", by=1, choice="Cat")
    play.encounter(False, group=5)  # snake to 4; Cat sat out, so the group is the other four
    assert (
        "Cat regains their wand but may not exchange a card; the Expelliarmus card goes back in the box." in play.said
    )
    assert play.s.board.snake == 4 and play.s.now.left_out is None and play.s.leader == 1
    assert play.table.tracks()["threat"].attention
    play.encounter(False)  # the penalty Encounter fails too: 5
    play.encounter(False)  # 6: the end of the track
    assert play.s.step == "nominate" and play.s.final.nominator == 2 and play.s.board.phase == "beginning"
    assert "The Snake has reached the end of the Threat Track!" in play.said
    assert chart_holds(play.s)
    finish(play, "partial")


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_a_whole_game_can_be_played_from_the_prompts_alone(players: int) -> None:
    """Tapping only what ``expects`` offers, as the host page and phones do, leads on to the
    Moment of Truth, and every offered option is accepted: a simulated player (the demo)
    can answer any prompt by picking among its options at random."""
    play = Play(players, seed=players)
    r = random.Random(players)
    refused = 0
    for _ in range(1000):
        if play.table.public_view()["over"]:
            break
        expect = r.choice(play.table.expects())
        try:
            play.submit(page_action(expect, r))
        except IllegalAction:
            refused += 1
    assert play.table.public_view()["over"], f"stuck at {play.s.step} after {refused} refusals"
    assert refused == 0
    assert play.s.final.outcome in ("perfect", "partial", "death_eaters", "curse")


def test_undo_after_the_shift_says_the_same_whoever_turned() -> None:
    """The review found the Shift's undo warning naming the one player who turned ("Dan
    (Loyalty cards and Loyalty)").  The Shift shows every phone its second card, so it is
    final at every table, and the refusal's words are the same whether anyone turned."""
    refusals = set()
    for turns in (True, False):
        play = seeded(5, lambda p, turns=turns: order_turns(p) == turns)
        play_beginning(play)
        assert "A Shift in Loyalties!" in " ".join(play.said)
        refusal = play.table.undo_refusal()
        assert refusal is not None and not any(name in refusal for name in play.s.names)
        refusals.add(refusal)
    assert len(refusals) == 1


def test_the_end_story_tells_when_the_second_wizarding_war_began() -> None:
    """Issue 50.10: the end screen's story listed the Encounters but not the Phases."""
    play = seeded(4, lambda p: True)
    play_beginning(play)
    shifted_at = play.s.story[-1]["turn"]  # the Battle that completed the Beginning
    play_war(play)
    finish(play, "perfect")
    story = play.table.public_view()["view"]["reveal"]["story"]
    war = f"Turn {shifted_at}: the Beginning is complete, the Second Wizarding War begins"
    assert story.count(war) == 1
    at = story.index(war)
    assert 0 < at < len(story) - 1  # after the Beginning's Encounters, before the War's
    assert story[at - 1].startswith(f"Turn {shifted_at}, ") and "won" in story[at - 1]
