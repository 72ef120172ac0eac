"""Unmask the Death Eaters: the charts, the checks and every edge case of the rulebook."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.actions import IllegalAction
from engine.games.unmask_rules import (
    DEATH_EATER,
    LOYALTY_CHART,
    ORDER,
    Config,
    dice_to_roll,
    loyalty_decks,
    parse_config,
    roll_meets,
    shifted,
    verdict,
)
from support.unmask import Play, at_department, revelio_taken, started

# --- the charts and the checks ----------------------------------------------------------


@pytest.mark.parametrize("players", sorted(LOYALTY_CHART))
def test_loyalty_decks_follow_the_chart(players: int) -> None:
    first, second = loyalty_decks(players)
    order1, de1, order2, de2 = LOYALTY_CHART[players]
    assert Counter(first) == {ORDER: order1, DEATH_EATER: de1} and len(first) == players
    assert Counter(second) == {ORDER: order2, DEATH_EATER: de2} and len(second) == players


def test_only_an_order_player_dealt_a_death_eater_switches() -> None:
    assert shifted(ORDER, ORDER) == ORDER
    assert shifted(ORDER, DEATH_EATER) == DEATH_EATER
    assert shifted(DEATH_EATER, ORDER) == DEATH_EATER
    assert shifted(DEATH_EATER, DEATH_EATER) == DEATH_EATER


def test_victory_chart() -> None:
    sides = [ORDER, DEATH_EATER, ORDER, DEATH_EATER, ORDER, ORDER, ORDER]
    assert verdict(sides, [1, 3]) == "perfect"
    assert verdict(sides, [3, 1, 0]) == "partial"
    assert verdict(sides, [1, 0, 2]) == "death_eaters"
    assert verdict([ORDER, DEATH_EATER, ORDER, ORDER], [1, 2]) == "partial"


def test_dice_checks_and_the_six_dice_cap() -> None:
    assert roll_meets([2, 2, 5, 2], kind=3, total=None)
    assert not roll_meets([2, 2, 5, 2, 5, 5], kind=4, total=None)
    assert roll_meets([4, 4, 4, 4, 1, 1], kind=4, total=None)
    assert roll_meets([6, 5, 4], kind=None, total=15) and not roll_meets([6, 5, 3], kind=None, total=15)
    assert [dice_to_roll(n) for n in (0, 3, 6, 9)] == [0, 3, 6, 6]


def test_options_are_validated() -> None:
    assert parse_config({}).revelio_peeks == (2, 2, 2, 1, 1, 0, 0)
    assert len(parse_config({"track_length": 8}).revelio_peeks) == 9
    typed = parse_config(
        {
            "creatures": "giant:4, dementor:3, inferius:4, troll:3",
            "beginning_tokens": "Troll, expelliarmus, dementor, redraw, redraw",
            "beginning_spaces": "troll, dementor",
            "revelio_peeks": "2,1,1,1,0,0,0",
        }
    )
    assert typed.kind_needed("troll") == 3 and typed.phase_tokens("beginning")[:2] == ("troll", "expelliarmus")
    assert typed.revelio_peeks == (2, 1, 1, 1, 0, 0, 0) and typed.phase_spaces("war") == Config().phase_spaces("war")
    for bad in (
        {"track_length": 4},
        {"revelio_peeks": [2, 1]},
        {"talk": "shouting"},
        {"beginning_tokens": "troll, dementor, expelliarmus, redraw, redraw"},
        {"beginning_spaces": "giant, dementor"},
        {"war_spaces": "redraw", "war_tokens": "redraw"},
        {"creatures": "giant=4"},
        {"revelio_peeks": "2, 2, 1, x, 0, 0, 0"},
        {"creatures": {"dementor": 5}},
    ):
        with pytest.raises(IllegalAction):
            parse_config(bad)
    with pytest.raises(IllegalAction, match="unknown options: colour; known: battle_rolls"):
        Play(5, options={"colour": "red"})  # the core refuses an option no game declares


# --- set-up -----------------------------------------------------------------------------


def test_setup_narration_removes_6_plus_encounters_for_4_or_5_players() -> None:
    assert any("remove every Encounter card marked 6+" in line for line in Play(5).said)
    assert any("use all the Encounter cards" in line for line in Play(6).said)


def test_ties_for_first_leader_reroll_among_the_tied_only() -> None:
    play = Play(5)
    for dice in ([6, 5], [2, 2], [5, 6], [1, 1], [6, 5]):
        play.act("roll", dice=dice)
    assert play.s.first.contenders == [0, 2, 4] and play.s.step == "first_roll"  # no Leader yet
    assert not play.s.loyalty  # nothing dealt before the Leader deals
    with pytest.raises(IllegalAction, match="only Ann"):
        play.act("roll", by=2, dice=[3, 3])
    play.act("roll", by=0, dice=[3, 3])
    play.act("roll", dice=[1, 2])
    play.act("roll", dice=[4, 2])
    assert play.s.first.contenders == [0, 4]
    play.act("roll", dice=[1, 1])
    play.act("roll", dice=[1, 2])
    assert play.s.leader == 4 and play.s.step == "encounter" and len(play.s.loyalty) == 5
    with pytest.raises(IllegalAction, match="expected 2 dice"):
        Play(4).act("roll", dice=[3])


# --- a turn -----------------------------------------------------------------------------


def test_group_must_include_the_leader_and_match_the_card() -> None:
    play = started()
    play.act("encounter", group=3, check="host")
    assert play.table.expects()[0].count == 2 and "Ann" not in play.table.expects()[0].options
    for seats, message in (
        ([1, 2, 3], "exactly 3"),
        ([0, 1], "exactly 3"),
        ([0, 1, 1], "twice"),
        ([0, 1, 9], "seat number"),
    ):
        with pytest.raises(IllegalAction, match=message):
            play.act("group", choices=seats)
    with pytest.raises(IllegalAction, match="Ann"):
        play.act("group", by=1, choices=[0, 1, 2])
    play.act("group", by=0, choices=["bob", 2])
    assert play.s.now.group == [0, 1, 2]


def test_card_total_encounters_are_not_capped_but_rolls_are() -> None:
    play = started()
    play.act("encounter", group=2, check="cards_total", target=9)
    play.gather()
    play.act("reveal", cards=[{"dice": 5}, {"dice": 4}])
    assert play.s.step == "token" and play.s.board.snake == 0
    play.act("token", choice="dementor")
    play.act("reveal", cards=[{"dice": 5}, {"dice": 4}])
    assert play.s.now.pool.dice == 6 and play.table.expects()[0].count == 6
    with pytest.raises(IllegalAction, match="expected 6 dice"):
        play.act("roll", dice=[1, 1, 1])


def test_kept_dice_and_rolls_allowed_by_the_encounter_card() -> None:
    play = started()
    play.act("encounter", group=2, check="of_a_kind", target=4, rolls=2)
    play.gather()
    play.act("reveal", cards=[{"dice": 2}, {"dice": 3}])
    play.act("roll", dice=[5, 5, 1, 2, 3])
    assert play.said[-1].startswith("Not yet. You have 2 alike. 1 roll left")
    play.act("roll", dice=[5, 5, 5, 2, 3])  # kept the fives, re-rolled the rest
    assert play.s.board.snake == 1 and play.s.leader == 1
    play.act("encounter", group=2, check="dice_total", target=10, rolls=1)
    play.gather()
    play.act("reveal", cards=[{"dice": 2}, {"dice": 0}])
    play.act("roll", dice=[6, 4])
    assert play.s.step == "token"


def test_curses_and_the_single_swap() -> None:
    play = started()
    play.act("encounter", group=3, check="host")
    play.gather()
    play.act("curse", choice="resolved")
    play.act("swap")
    with pytest.raises(IllegalAction, match="at most one"):
        play.act("swap")
    play.act("reveal", cards=[{"dice": 3, "curse": True}, {"dice": 1}])
    assert play.s.now.pool.card_dice == 1 and play.s.step == "cursed"
    play.act("resolve", choice="resolved")
    assert play.s.step == "result"
    with pytest.raises(IllegalAction, match="host"):
        play.act("result", by=0, choice="success")
    play.act("result", choice="failure")
    assert play.s.board.snake == 1
    play.act("encounter", group=2, check="cards_total", target=1)
    play.gather()
    play.act("curse", choice="stops")  # an Avada Kedavra: the Encounter fails at once
    assert play.s.board.snake == 2 and play.s.leader == 2


def test_expelliarmus_leave_out_forbids_the_swap_and_skip_skips_a_turn() -> None:
    play = started()
    play.token("expelliarmus")
    assert play.s.board.expelliarmus == 0 and play.s.leader == 1
    assert {e["action"] for e in play.table.private_view(0)["expects"]} == {"skip_turn", "leave_out"}
    with pytest.raises(IllegalAction, match="only Ann"):
        play.act("skip_turn", by=2, choice=3)
    with pytest.raises(IllegalAction, match="another player"):
        play.act("skip_turn", by=0, choice="Ann")
    with pytest.raises(IllegalAction, match="Leader's turn"):
        play.act("skip_turn", choice=1)
    play.act("leave_out", by=0, choice="Dan")
    assert play.s.board.expelliarmus is None and play.s.now.left_out == 3
    with pytest.raises(IllegalAction, match="no one holds"):
        play.act("skip_turn", choice=4)
    play.act("encounter", group=5, check="host", needs=["hogsmeade", "ministry"])  # Dan is the only Hogsmeade Resident
    with pytest.raises(IllegalAction, match="left out"):
        play.act("group", choices=[1, 0, 2, 3])
    play.act("group", choices=[1, 0, 2, 4])
    assert play.s.now.short and play.said[-1].startswith("A Location requirement cannot be met because of Expelliarmus")
    with pytest.raises(IllegalAction, match="no swap"):
        play.act("swap")
    play.act("result", choice="failure")
    assert play.s.now.left_out is None and play.s.leader == 2

    skip = started(seed=5)
    skip.token("expelliarmus")
    skip.act("skip_turn", choice="Cat")
    skip.encounter(True)
    skip.act("token", choice="redraw")
    assert skip.s.leader == 3 and "Expelliarmus: Cat's turn is skipped." in skip.said


def test_the_host_taps_an_encounter_in_and_types_the_cards() -> None:
    play = started()
    assert play.table.expects()[0].options == ("2", "3", "4", "5")
    play.act("encounter", by=0, choice="3")
    with pytest.raises(IllegalAction, match="directive now"):
        play.act("target", choice="4")
    play.act("directive", choice="dice of a kind")
    assert play.table.expects()[0].action == "target" and play.s.step == "encounter"
    play.act("target", choice="3")
    play.act("rolls", choice="2")
    assert play.table.expects()[0].action == "locations" and play.s.step == "encounter"
    play.act("locations", choice="none")
    assert play.s.step == "group" and play.said[-1].startswith("Roll 3 of a kind, in up to 2 rolls.")  # unnamed
    play.act("group", choices=["Ann", "Bob", "Cat"])
    with pytest.raises(IllegalAction, match="dice value or 'curse'"):
        play.act("reveal", cards=["two"])
    with pytest.raises(IllegalAction, match="only a swapped-in card is unseen"):
        play.act("reveal", cards=["2", "curse", "3"])
    play.act("reveal", cards=["2", "0", "3"])
    assert play.s.now.pool.card_dice == 5 and play.s.now.pool.dice == 5
    assert play.table.expects()[0].count == 5


def test_fourth_space_penalty_lasts_one_encounter_and_its_battle() -> None:
    play = started()
    for _ in range(4):
        play.encounter(False)
    threat = play.table.tracks
    assert play.s.board.snake == 4 and threat()["threat"].attention
    play.token("dementor")  # the next Encounter succeeds: its Battle is still under the penalty
    assert play.s.now.context == "battle" and threat()["threat"].attention
    play.act("reveal", cards=[{"dice": 3}, {"dice": 0}])
    play.act("roll", dice=[2, 2, 2])
    assert not threat()["threat"].attention and play.s.board.snake == 4
    assert any(line.startswith("The penalty is over") for line in play.said[-4:])


def test_tokens_a_lost_creature_returns_and_a_filled_space_discards() -> None:
    options = {
        "beginning_tokens": "dementor, dementor, inferius, expelliarmus, redraw",
        "beginning_spaces": ["dementor", "inferius"],
    }
    play = started(options=options)
    with pytest.raises(IllegalAction, match="token"):
        play.act("token", choice="dementor")
    play.battle("dementor", False)
    assert play.s.board.pools["beginning"].count("dementor") == 2 and play.s.board.snake == 1
    play.battle("dementor", True)
    play.battle("dementor", True)
    assert play.s.board.filled["beginning"] == ["dementor"] and "dementor" not in play.s.board.pools["beginning"]
    assert "has no empty space left and is discarded" in " ".join(play.said)
    with pytest.raises(
        IllegalAction, match="face-down tokens of The Beginning are: Expelliarmus, Inferius and Discard and Redraw"
    ):
        play.encounter(True)
        play.act("token", choice="giant")


def test_talk_mode_is_the_hosts_and_is_said_at_the_start_and_when_changed_not_every_turn() -> None:
    play = started(options={"talk": "works"})
    assert sum(line.startswith("Table Talk: The Works") for line in play.said) == 1
    with pytest.raises(IllegalAction, match="host"):
        play.act("talk", by=1, choice="basics")
    play.act("talk", choice="essentials")
    assert play.said[-1].startswith("Table Talk: The Essentials")
    play.encounter(False)
    play.encounter(False)
    assert sum(line.startswith("Table Talk:") for line in play.said) == 2  # a reminder said once


def test_out_of_step_and_unknown_actions_are_refused() -> None:
    play = started()
    refused = (
        ("token", {"choice": "redraw"}),
        ("vote", {"vote": True}),
        ("peek", {}),
        ("directive", {"choice": "dice total"}),
        ("fly", {}),
    )
    for kind, data in refused:
        with pytest.raises(IllegalAction):
            play.act(kind, **data)


# --- before the Department of Magical Law Enforcement -----------------------------------


def test_revelio_peeks_only_the_holder_sees() -> None:
    short = revelio_taken(options={"revelio_peeks": [2, 2, 2, 2, 2, 2]})
    for _ in range(5):
        short.encounter(False)
    s = short.s
    assert s.step == "revelio" and s.final.peeks_allowed == 2
    secret = [e for e in short.table.expects() if e.action == "peek" and e.secret]
    assert secret and secret[0].seat == 2
    assert all(e.glanceable for e in secret)  # the holder and the names are public: shown openly on the phone
    assert all(e["action"] != "peek" or not e["secret"] for e in short.table.public_view()["expects"])
    for bad, message in (([1, 3, 4], "at most 2"), ([2], "yourself")):
        with pytest.raises(IllegalAction, match=message):
            short.act("peek", by=2, choices=bad)
    with pytest.raises(IllegalAction, match="only Cat"):
        short.act("peek", by=1, choice=3)
    short.act("peek", by=2, choices=["Bob", 3])
    assert [p["seat"] for p in short.table.private_view(2)["view"]["peeks"]] == [1, 3]
    assert all(not short.table.private_view(x)["view"]["peeks"] for x in (0, 1, 3, 4))
    assert short.s.step == "nominate" and short.said[-2] == "Revelio has been cast."


def test_nomination_vote_succession_and_names() -> None:
    play = at_department()
    s = play.s
    if s.step == "revelio":
        play.act("peek")
    first = play.s.final.nominator
    with pytest.raises(IllegalAction, match="yourself"):
        play.act("nominate", choice=first)
    play.act("nominate", choice=(first + 2) % 5)
    with pytest.raises(IllegalAction, match="own vote"):
        play.act("vote", by=1, seat=2, vote=True)
    for voter in range(5):
        play.act("vote", by=voter, vote=voter < 2)  # 2 yes, 3 no
    assert play.s.step == "nominate" and play.s.final.nominator == (first + 1) % 5
    with pytest.raises(IllegalAction, match="already nominated"):
        play.act("nominate", choice=(first + 2) % 5)
    play.act("nominate", choice=first)
    for voter in range(4):
        play.act("vote", seat=voter, vote=True)
    assert play.s.step == "vote" and play.table.public_view()["view"]["final"]["voted"] == [0, 1, 2, 3]
    play.act("vote", seat=4, vote=False)
    assert play.s.final.final_leader == first and play.s.final.last_vote["no"] == [4]
    with pytest.raises(IllegalAction, match="cannot choose themselves"):
        play.act("accuse", choices=[first])
    with pytest.raises(IllegalAction, match="1 or 2 names"):
        play.act("accuse", choices=[(first + 1) % 5, (first + 2) % 5, (first + 3) % 5])
    assert "loyalty" not in play.table.public_view()["view"]
    play.act("accuse", choices=[(first + 1) % 5])
    assert play.table.public_view()["over"] and play.table.public_view()["view"]["loyalty"] == play.s.loyalty


def test_a_tied_vote_fails_and_exhausted_nominations_start_over() -> None:
    play = at_department(players=4)
    if play.s.step == "revelio":
        play.act("peek")
    n0 = play.s.final.nominator
    for nominee in (n0 + 1, n0 + 2, n0):  # each nominator in turn, to their left
        play.act("nominate", choice=nominee % 4)
        for voter in range(4):
            play.act("vote", seat=voter, vote=voter % 2 == 0)  # 2 to 2: a tie fails
        assert play.s.step == "nominate"
    # Only the fourth nominator was never nominated: rather than deadlock, the list starts over.
    assert play.s.final.nominator == (n0 + 3) % 4 and play.s.final.nominated == []
    assert sorted(play.table.expects()[0].options) == sorted(
        n for x, n in enumerate(play.s.names) if x != play.s.final.nominator
    )


def test_a_resolved_swapped_in_curse_leaves_the_other_cards_to_count() -> None:
    play = started()
    play.act("encounter", group=2, check="cards_total", target=3)
    play.gather()
    play.act("swap")
    play.act("reveal", cards=[{"card": "Galleon", "dice": 4}, {"card": "Crucio", "curse": True, "dice": 2}])
    assert play.s.step == "cursed" and play.s.now.pool.card_dice == 4 and play.s.board.snake == 0
    play.act("resolve", choice="resolved")
    assert play.s.step == "token" and play.s.board.snake == 0


def test_the_host_never_replaces_a_vote_cast_on_a_phone() -> None:
    """The review's reproduction: Bob voted on his phone, then the host sent a vote "for"
    Bob; it must be refused and Bob's own vote stand."""
    play = at_department()
    if play.s.step == "revelio":
        play.act("peek", choice="no one")
    nominee = next(x for x in range(play.s.players) if x != play.s.final.nominator)
    play.act("nominate", choice=nominee)
    play.act("vote", by=1, vote=True)
    with pytest.raises(IllegalAction, match="Bob voted on their phone"):
        play.act("vote", seat=1, vote=False)
    assert play.s.final.votes == {1: True}
