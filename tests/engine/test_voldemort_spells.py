"""Secret Voldemort's spells by table size, the dead, and the immediate wins."""

from __future__ import annotations

import pytest

from engine.actions import IllegalAction
from engine.games.voldemort_rules import DARK_ARTS, ORDER, VOLDEMORT
from support.voldemort import Play, accounted, seats_with, seeded
from web.language import Language

GERMAN = Language("de")
TRACKS = {
    5: [None, None, "stupor", "avada_kedavra", "avada_kedavra"],
    7: [None, "crucio", "imperio", "avada_kedavra", "avada_kedavra"],
    9: ["crucio", "crucio", "imperio", "avada_kedavra", "avada_kedavra"],
}


def spell(players: int, dark_arts_before: int, minister: int = 0, **kw: object) -> Play:
    """A game where the next Dark Arts policy is the ``dark_arts_before + 1``-th, enacted by
    ``minister``'s government; Voldemort sits elsewhere (he is not the caster)."""
    play = seeded(players, lambda s: s.roles[minister] != VOLDEMORT, **kw)
    play.rig(minister=minister, dark_arts=dark_arts_before)
    play.pass_policy(DARK_ARTS)
    return play


@pytest.mark.parametrize("players", [5, 6, 7, 8, 9, 10])
def test_each_dark_arts_policy_brings_its_boards_spell(players: int) -> None:
    track = TRACKS[5 if players <= 6 else 7 if players <= 8 else 9]
    for before, expected in enumerate(track):
        play = spell(players, before)
        assert play.s.step == (expected or "nominate"), (players, before)
        if expected:
            assert play.s.minister == 0  # the caster keeps the title until the spell is cast
            with pytest.raises(IllegalAction, match="casting"):
                play.nominate(1)  # every spell is mandatory


EVERY_SPELL = {"spells": "a spell on every Dark Arts policy"}
EVERY = {
    5: ["crucio", "crucio", "stupor", "avada_kedavra", "avada_kedavra"],
    7: ["crucio", "crucio", "imperio", "avada_kedavra", "avada_kedavra"],
    9: TRACKS[9],
}


@pytest.mark.parametrize("players", [5, 6, 7, 8, 9, 10])
def test_the_option_casts_a_spell_on_every_dark_arts_policy(players: int) -> None:
    # The English rulebook: "Whenever a Dark Arts Policy is enacted, the Minister ... gains
    # the power to cast a spell"; an empty square of the official boards takes Crucio.
    track = EVERY[5 if players <= 6 else 7 if players <= 8 else 9]
    for before, expected in enumerate(track):
        play = spell(players, before, **EVERY_SPELL)
        assert play.s.step == expected, (players, before)
    named = {"crucio": "Crucio", "stupor": "Stupor", "imperio": "Imperio", "avada_kedavra": "Avada Kedavra"}
    assert play.table.public_view()["view"]["spell_track"] == [named[s] for s in track]


@pytest.mark.parametrize(("players", "before"), [(5, 0), (6, 1), (7, 0), (8, 0)])
def test_an_empty_square_is_said_to_have_no_spell(players: int, before: int) -> None:
    play = spell(players, before)
    assert play.s.step == "nominate"
    line = next(line for line in play.said if line == f"No spell on this square at {players} players.")
    assert GERMAN.text(line) == f"Bei {players} Spielern gibt es auf diesem Feld keinen Zauber."
    with_spell = spell(players, 2)
    assert not any(line.startswith("No spell") for line in with_spell.said)


def test_crucio_shows_the_party_to_the_minister_alone_and_voldemort_as_a_death_eater() -> None:
    play = spell(7, 1)
    voldemort = seats_with(play.s, VOLDEMORT)[0]
    with pytest.raises(IllegalAction, match="never yourself"):
        play.act("crucio", by=0, choice=0)
    play.act("crucio", by=0, choice=voldemort)
    assert play.table.private_view(0)["view"]["crucio"] == [{"name": play.s.names[voldemort], "party": "Death Eater"}]
    assert all(play.table.private_view(x)["view"]["crucio"] == [] for x in range(1, 7))
    public = play.table.public_view()["view"]
    assert public["investigated"] == [voldemort] and "crucio" not in public
    refusal = play.table.undo_refusal()
    assert refusal and "cannot be unseen" in refusal and play.s.names[voldemort] not in refusal


def test_crucio_shows_an_order_member_as_order_and_no_one_twice() -> None:
    play = seeded(9, lambda s: VOLDEMORT not in (s.roles[0], s.roles[1]))
    play.rig(minister=0)
    order = [x for x in seats_with(play.s, ORDER) if x not in (0, 1)][0]
    play.pass_policy(DARK_ARTS)
    play.act("crucio", by=0, choice=order)
    assert play.table.private_view(0)["view"]["crucio"][0]["party"] == "Order of the Phoenix"
    assert play.s.minister == 1
    play.pass_policy(DARK_ARTS)
    assert play.s.step == "crucio"
    options = next(e.options for e in play.table.expects() if e.action == "crucio")
    assert play.s.names[order] not in options and play.s.names[1] not in options
    with pytest.raises(IllegalAction, match="already"):
        play.act("crucio", by=1, choice=order)


def test_stupor_shows_the_top_three_to_the_minister_and_keeps_their_order() -> None:
    play = spell(5, 2)
    top = list(play.s.draw)
    play.act("stupor", by=0)
    names = {ORDER: "Order", DARK_ARTS: "Dark Arts"}
    assert play.table.private_view(0)["view"]["stupor"] == [names[k] for k in top[:3]]
    assert play.s.draw == top
    assert all(play.table.private_view(x)["view"]["stupor"] == [] for x in range(1, 5))
    assert play.s.step == "nominate" and play.s.minister == 1


def test_stupor_with_the_physical_deck_is_said_aloud() -> None:
    play = Play(5, deck="physical")
    play.rig(minister=0)
    play.s.dark_arts = 2
    play.elect()
    play.act("policy", choice="Dark Arts")
    play.act("stupor")
    assert "Ann, look at the top three policies of the draw pile and put them back in the same order." in play.said


def test_imperio_may_choose_a_term_limited_player_then_the_rotation_returns_left_of_the_caster() -> None:
    play = spell(7, 2)
    headmaster = play.s.last_headmaster
    assert play.s.step == "imperio"
    play.act("imperio", by=0, choice=headmaster)
    assert play.s.minister == headmaster
    play.fail()
    assert play.s.minister == 1


def test_the_left_neighbour_chosen_by_imperio_serves_twice() -> None:
    play = spell(7, 2)
    play.act("imperio", by=0, choice=1)
    assert play.s.minister == 1
    play.fail()
    assert play.s.minister == 1
    play.fail()
    assert play.s.minister == 2


def test_avada_kedavra_kills_keeping_the_role_secret() -> None:
    play = seeded(5, lambda s: VOLDEMORT not in (s.roles[0], s.roles[2]))
    play.rig(minister=0, dark_arts=3)
    play.pass_policy(DARK_ARTS)
    play.act("avada_kedavra", by=0, choice=2)
    public = play.table.public_view()
    assert public["view"]["dead"] == [2] and public["view"]["dead_names"] == ["Cat"]
    assert "roles" not in public["view"] and not public["over"]
    assert "Cat is dead: Cat's role stays secret, and the dead may not speak, vote or be elected." in play.said
    assert play.table.private_view(2)["view"]["dead"] is True
    assert 2 not in play.s.eligible()
    play.fail()  # Minister Bob
    assert play.s.minister == 3  # Cat, dead, is skipped
    with pytest.raises(IllegalAction, match="dead"):
        play.nominate(2)


def test_killing_voldemort_wins_for_the_order_and_reveals_every_role() -> None:
    play = seeded(5, lambda s: s.roles[0] != VOLDEMORT)
    play.rig(minister=0, dark_arts=3)
    play.pass_policy(DARK_ARTS)
    voldemort = seats_with(play.s, VOLDEMORT)[0]
    play.act("avada_kedavra", by=0, choice=voldemort)
    public = play.table.public_view()
    assert public["over"] and play.s.winner == "order" and public["view"]["roles"] == play.s.roles
    with pytest.raises(IllegalAction, match="over"):
        play.nominate(1)


def test_five_order_policies_win_for_the_order() -> None:
    play = Play(5)
    play.rig(order=4, top=[ORDER, DARK_ARTS, ORDER])
    play.elect()
    play.legislate(DARK_ARTS, ORDER)
    assert play.s.winner == "order" and play.table.public_view()["over"]
    assert play.table.public_view()["view"]["roles"] == play.s.roles
    assert play.table.tracks()["order"].value == 5 and accounted(play.s) == 17


def test_six_dark_arts_policies_win_for_the_death_eaters() -> None:
    play = Play(5)
    play.rig(dark_arts=5)
    play.pass_policy(DARK_ARTS)
    assert play.s.winner == "death_eaters" and play.s.step == "over"
    assert play.table.tracks()["dark_arts"].value == 6


@pytest.mark.parametrize(("dark_arts", "wins"), [(2, False), (3, True), (4, True)])
def test_voldemort_elected_headmaster_after_three_dark_arts_wins(dark_arts: int, wins: bool) -> None:
    play = seeded(7, lambda s: s.roles[0] != VOLDEMORT)
    play.rig(minister=0, dark_arts=dark_arts)
    voldemort = seats_with(play.s, VOLDEMORT)[0]
    play.elect(voldemort)
    assert (play.s.winner == "death_eaters") == wins
    assert play.s.step == ("over" if wins else "discard")


def test_a_headmaster_elected_after_three_dark_arts_is_known_not_to_be_voldemort() -> None:
    play = seeded(7, lambda s: s.roles[0] != VOLDEMORT)
    play.rig(minister=0, dark_arts=3)
    headmaster = play.elect()
    assert play.said[-2] == f"{play.s.names[headmaster]} is not Lord Voldemort."


def test_after_imperio_the_title_returns_left_of_the_caster_also_when_a_policy_passes() -> None:
    """Secret Hitler: after a Special Election the President placard returns to the left
    of the President who called it, whatever the chosen government does."""
    play = seeded(7, lambda s: VOLDEMORT not in (s.roles[0], s.roles[4]))
    play.rig(minister=0, dark_arts=2)
    play.pass_policy(DARK_ARTS)
    play.act("imperio", by=0, choice=4)
    play.pass_policy(ORDER)
    assert play.s.minister == 1 and play.s.step == "nominate"


def test_a_chaos_policy_counts_towards_voldemorts_election_win() -> None:
    """The rulebook: Voldemort wins if elected Headmaster "after at least three Dark Arts
    Policies have been enacted", however they were enacted (a chaos policy too)."""
    play = seeded(7, lambda s: s.roles[3] != VOLDEMORT)
    play.rig(minister=0, dark_arts=2, top=[DARK_ARTS])
    for _ in range(3):
        play.fail()
    assert (play.s.dark_arts, play.s.minister, play.s.step) == (3, 3, "nominate")
    play.elect(seats_with(play.s, VOLDEMORT)[0])
    assert play.s.winner == "death_eaters" and play.s.step == "over"
