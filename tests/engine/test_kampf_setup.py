"""Kampf gegen die dunklen Mächte, set-up: every scenario's role list at every count as
the rulebook prints it (written out here in full, not as base and "+" lines), free
choice with the rulebook's tips as warnings, the options, and the deal."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.actions import IllegalAction
from engine.effects import Notice
from engine.games.kampf_scenarios import SCENARIOS
from support.kampf import Play

SHORT = {
    "DE": "death_eater",
    "STU": "student",
    "HAR": "harry",
    "HER": "hermione",
    "RON": "ron",
    "SIR": "sirius",
    "NEV": "neville",
    "GIN": "ginny",
    "FRE": "fred",
    "GEO": "george",
    "LUN": "luna",
    "MCG": "mcgonagall",
    "DUM": "dumbledore",
}
PRINTED = {
    "Das erste Schuljahr": {
        3: "DE DE HER SIR NEV STU",
        4: "DE DE HER SIR NEV STU STU",
        5: "DE DE HER SIR NEV STU STU STU",
    },
    "Besenflug": {
        3: "DE DE MCG SIR NEV STU",
        4: "DE DE MCG SIR NEV STU STU",
        5: "DE DE MCG SIR NEV STU STU HER",
        6: "DE DE MCG SIR NEV STU STU STU HER",
    },
    "Zauberkunst": {3: "DE HER SIR NEV STU STU", 4: "DE HER SIR NEV STU STU STU"},
    "Confundus": {
        3: "DE DE RON SIR NEV MCG",
        4: "DE DE RON SIR NEV MCG STU",
        5: "DE DE RON SIR NEV MCG STU HER",
        6: "DE DE RON SIR NEV MCG STU STU HER",
        7: "DE DE RON SIR NEV MCG STU STU STU HER",
        8: "DE DE RON SIR NEV MCG STU STU STU HER HAR",
        9: "DE DE RON SIR NEV MCG STU STU HER HAR FRE GEO",
    },
    "Finite Incantatem": {
        4: "DE DE GIN HER SIR RON MCG",
        5: "DE DE GIN HER SIR RON MCG NEV",
        6: "DE DE GIN HER SIR RON MCG NEV STU",
        7: "DE DE GIN HER SIR RON MCG NEV STU HAR",
    },
    "Unter dem Tarnumhang": {
        6: "DE DE HAR GIN HER DUM NEV FRE GEO",
        7: "DE DE HAR GIN HER DUM NEV FRE GEO STU",
    },
    "Kampf gegen die dunklen Mächte": {
        4: "DE DE DUM HER SIR RON MCG",
        5: "DE DE DUM HER SIR RON MCG NEV",
        6: "DE DE DUM HER SIR RON MCG NEV STU",
        7: "DE DE DUM HER SIR RON MCG NEV FRE GEO",
        8: "DE DE DUM HER SIR RON MCG NEV FRE GEO LUN",
        9: "DE DE DUM HER SIR RON MCG NEV FRE GEO LUN GIN",
        10: "DE DE DUM HER SIR RON MCG NEV FRE GEO LUN GIN STU",
    },
}
EVERY_COUNT = [(name, players) for name, counts in PRINTED.items() for players in counts]


def roles(text: str) -> list[str]:
    return sorted(SHORT[word] for word in text.split())


@pytest.mark.parametrize("scenario, players", EVERY_COUNT)
def test_each_scenario_deals_the_printed_roles_three_more_than_players(scenario, players):
    play = Play(players, 0, scenario=scenario)
    assert play.s.roles == roles(PRINTED[scenario][players])
    assert len(play.s.cards) == players + 3 and sorted(play.s.cards) == play.s.roles
    assert play.s.dealt == play.s.cards[:players]


def test_the_scenarios_are_the_seven_printed_with_their_counts_only():
    assert list(SCENARIOS) == list(PRINTED)
    for name, counts in PRINTED.items():
        assert list(SCENARIOS[name].counts) == sorted(counts)
        for players in {3, 4, 5, 6, 7, 8, 9, 10} - set(counts):
            with pytest.raises(IllegalAction, match="players, not"):
                Play(players, 0, scenario=name)


def test_the_role_markers_are_shown_with_their_difficulty():
    view = Play(5, 0, scenario="Kampf gegen die dunklen Mächte").table.public_view()["view"]
    assert "2 × Death Eater (*)" in view["markers"] and "1 × Ron Weasley (**)" in view["markers"]
    assert view["scenario_name"] == "Fight Against the Dark Forces"


def test_free_choice_takes_any_of_the_sixteen_cards_three_more_than_players():
    play = Play(4, 0, scenario="free", roles="Death Eater, death_eater, Luna Lovegood, ginny, student, student, harry")
    assert Counter(play.s.roles) == Counter({"death_eater": 2, "student": 2, "luna": 1, "ginny": 1, "harry": 1})
    for wrong, why in [
        (["death_eater"] * 3 + ["student"] * 4, "only 2 Death Eater cards"),
        (["student"] * 6, "only 3 Hogwarts student cards"),
        (["death_eater", "student", "student", "harry", "ron", "luna"], "choose 7 role cards"),
        (["fred", "student", "student", "student", "harry", "ron", "luna"], "only together"),
        (["wizard"] * 7, "no role card called 'wizard'"),
    ]:
        with pytest.raises(IllegalAction, match=why):
            Play(4, 0, scenario="free", roles=wrong)


def test_the_rulebooks_tips_are_warnings_never_refusals():
    play = Play(4, 0, scenario="free", roles=["death_eater", "fred", "george", "mcgonagall", "student", "harry", "ron"])
    warned = [e.text for e in play.effects if isinstance(e, Notice)]
    assert any("from 7 players" in w for w in warned)
    assert any("Minerva McGonagall only if Sirius Black and/or Neville Longbottom" in w for w in warned)
    assert any("levels * and **" in w for w in warned)
    calm = Play(4, 0, scenario="free", roles=["death_eater", "sirius", "mcgonagall", "student", "harry", "ron", "luna"])
    assert not [e for e in calm.effects if isinstance(e, Notice)]


def test_options_are_checked_and_the_discussion_takes_custom_minutes():
    assert Play(3, 0).s.discussion == 600
    assert Play(3, 0, discussion="5").s.discussion == 300
    assert Play(3, 0, discussion=7).s.discussion == 420
    for options, why in [
        ({"cards": "paper"}, "cards must be one of"),
        ({"discussion": 0}, "discussion must be a whole number"),
        ({"colour": "red"}, "unknown options"),
        ({"roles": ["student"]}, "only with the scenario free"),
    ]:
        with pytest.raises(IllegalAction, match=why):
            Play(3, 0, **options)


def test_physical_cards_are_named_not_dealt():
    play = Play(3, 0, cards="physical")
    assert play.s.cards == [] and play.s.dealt == []
    assert "Take these role cards: 2 × Death Eater" in play.said[1]
    assert play.table.private_view(0)["view"] == {}


def test_the_deal_is_the_games_own_and_shown_only_to_its_seat():
    one, two = Play(5, 3, scenario="Das erste Schuljahr"), Play(5, 3, scenario="Das erste Schuljahr")
    assert one.s.cards == two.s.cards  # the same seed deals the same (undo never re-deals)
    public = str(one.table.public_view())
    assert "'cards'" not in public and "dealt" not in public
    for seat in range(5):
        assert (
            one.table.private_view(seat)["view"]["role"]
            == {
                "death_eater": "Death Eater",
                "student": "Hogwarts student",
                "hermione": "Hermione Granger",
                "sirius": "Sirius Black",
                "neville": "Neville Longbottom",
            }[one.s.dealt[seat]]
        )


EASIEST = {3: "Das erste Schuljahr", 4: "Das erste Schuljahr", 5: "Das erste Schuljahr", 6: "Besenflug"}
EASIEST |= {7: "Confundus", 8: "Confundus", 9: "Confundus", 10: "Kampf gegen die dunklen Mächte"}


@pytest.mark.parametrize("players", range(3, 14))
def test_the_default_fits_every_table_from_three_to_thirteen(players):
    """The default used to be "Das erste Schuljahr", refused at 6 players or more."""
    play = Play(players, 0)
    assert len(play.s.roles) == players + 3 and sorted(play.s.cards) == play.s.roles
    notices = [str(e.text) for e in play.effects if isinstance(e, Notice)]
    if players in EASIEST:
        assert play.s.scenario == EASIEST[players] and not notices
        assert play.s.roles == roles(PRINTED[EASIEST[players]][players])
        return
    # No printed scenario: the hard one for 10 and then the cards it leaves, students first.
    extra = {11: "STU", 12: "STU STU", 13: "STU STU HAR"}[players]
    assert play.s.roles == roles(PRINTED["Kampf gegen die dunklen Mächte"][10] + " " + extra)
    assert play.s.scenario == "free" and notices == [
        f"No printed scenario is for {players} players: the box proposes these cards as a free choice."
    ]
    assert play.table.public_view()["view"]["scenario_name"] == "free choice"


def test_the_default_is_the_first_scenario_offered_and_takes_no_roles():
    from engine.games.kampf_setup import OPTION_CHOICES

    assert OPTION_CHOICES["scenario"][0] == "suggested"
    assert Play(6, 0, scenario="suggested").s.roles == Play(6, 0).s.roles
    with pytest.raises(IllegalAction, match="only with the scenario free"):
        Play(6, 0, roles=["student"] * 9)
