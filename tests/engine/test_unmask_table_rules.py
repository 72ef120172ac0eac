"""Unmask the Death Eaters: the rules the box once left to the table, each test quoting
the rulebook sentence it checks (Roles and Locations, Leader abilities, the pool, Curses
revealed after a swap, Expelliarmus, the final vote, and the board set-up)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.actions import IllegalAction
from engine.games.unmask_encounter import legal_groups
from engine.games.unmask_rules import LOCATIONS, parse_config
from support.unmask import Play, at_department, revelio_taken, started

# Play.roles gives seats 0-4: Ann Hogwarts, Bob Ministry, Cat Diagon Alley, Dan Hogsmeade, Eve Hogwarts.


def test_a_role_comes_from_a_stack_with_the_most_cards_left() -> None:
    """Set-up 1: "Players must choose a Role from one of the stacks with the most remaining Cards." """
    play = Play(5)
    roles = [e for e in play.table.expects() if e.action == "role"]
    assert [e.seat for e in roles] == [0, 1, 2, 3, 4] and all(len(e.options) == 4 for e in roles)
    play.act("role", by=0, choice="Hogwarts Alumni")
    with pytest.raises(IllegalAction, match="Ann already has a Role: Hogwarts Alumni"):
        play.act("role", seat=0, choice="ministry")
    with pytest.raises(IllegalAction, match="only Bob, Cat, Dan or Eve"):
        play.act("role", by=0, choice="ministry")
    with pytest.raises(IllegalAction, match="whose Role"):
        play.act("role", choice="ministry")
    with pytest.raises(IllegalAction, match="your own Role"):
        play.act("role", by=1, seat=2, choice="ministry")
    play.act("role", seat=1, choice="Ministry of Magic Employee")  # the host, for Bob
    play.act("role", by=2, choice="Diagon Alley")
    play.act("role", by=3, choice="hogsmeade")
    assert {e.options for e in play.table.expects() if e.action == "role"} == {
        ("Hogwarts Alumni", "Ministry of Magic Employee", "Diagon Alley Shopkeeper", "Hogsmeade Resident")
    }
    play.act("role", by=4, choice="hogwarts")
    assert play.s.roles == {0: "hogwarts", 1: "ministry", 2: "diagon_alley", 3: "hogsmeade", 4: "hogwarts"}
    assert play.table.public_view()["view"]["roles"]["4"] == "hogwarts"  # Role cards lie face up


def test_roles_are_checked_as_dealt_out_not_in_the_order_phones_record_them() -> None:
    """Phones record a Role after it was taken: Bob's second Hogwarts card was legal once
    the other stacks gave theirs, whoever tapped first.  What no order of taking allows
    (two stacks giving two while one gave none, at five players) is still refused."""
    play = Play(5)
    play.act("role", by=0, choice="hogwarts")
    play.act("role", by=1, choice="hogwarts")
    with pytest.raises(
        IllegalAction, match="Cat took Ministry of Magic Employee, Diagon Alley Shopkeeper or Hogsmeade"
    ):
        play.act("role", by=2, choice="hogwarts")
    play.act("role", by=2, choice="ministry")
    with pytest.raises(IllegalAction, match="Dan took Diagon Alley Shopkeeper or Hogsmeade Resident"):
        play.act("role", by=3, choice="ministry")
    assert {e.options for e in play.table.expects() if e.action == "role"} == {
        ("Diagon Alley Shopkeeper", "Hogsmeade Resident")
    }


def dealt_out(players: int, r: random.Random) -> list[str]:
    """The Roles of one legal set-up: each taken from a fullest stack, in taking order."""
    left = dict.fromkeys(LOCATIONS, 2)
    taken = []
    for _ in range(players):
        loc = r.choice([x for x in LOCATIONS if left[x] == max(left.values())])
        left[loc] -= 1
        taken.append(loc)
    return taken


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_every_legal_set_up_is_accepted_whoever_records_first(players: int) -> None:
    r = random.Random(players)
    for _ in range(40):
        seats = r.sample(range(players), players)  # who took the first Role, the second, ...
        holds = dict(zip(seats, dealt_out(players, r), strict=True))
        play = Play(players)
        for seat in r.sample(range(players), players):  # the order the phones tap in
            play.act("role", by=seat, choice=holds[seat])
        assert play.s.roles == holds


def test_the_group_waits_for_every_role() -> None:
    """Gather Your Group: "The Leader must choose players matching these requirements" needs the Roles."""
    play = Play(4)
    for seat in range(4):
        play.act("roll", dice=[6, 6] if seat == 0 else [1, 2])
    play.act("encounter", group=2, check="host")
    assert not [e for e in play.table.expects() if e.action == "group"]
    with pytest.raises(IllegalAction, match="record every Role before the group is gathered: Ann, Bob, Cat and Dan"):
        play.act("group", choices=[0, 1])
    play.roles()
    play.act("group", choices=[0, 1])
    assert play.s.step == "pool"


def test_the_group_meets_the_location_requirements_and_the_legal_groups_are_offered() -> None:
    """2. Gather Your Group: "The Leader must choose players matching these requirements when
    possible. ... Once the initial location requirements are met, the remaining group members
    can be from any Location." """
    play = started()
    play.act("encounter", group=3, check="host", needs=["hogsmeade", "ministry"])
    assert "It needs players from: Hogsmeade and Ministry of Magic." in play.said[-1]
    with pytest.raises(IllegalAction, match="it lacks Hogsmeade Resident"):
        play.act("group", choices=[0, 1, 2])
    prompt = next(e for e in play.table.expects() if e.action == "group")
    assert prompt.options == ("Bob and Dan",)  # Ann leads: only Bob (Ministry) and Dan (Hogsmeade) fit
    play.act("group", choice="Bob and Dan")
    assert play.s.now.group == [0, 1, 3] and not play.s.now.short

    free = started()
    free.act("encounter", group=4, check="host", needs=["ministry"])
    offered = next(e for e in free.table.expects() if e.action == "group").options
    assert sorted(offered) == sorted(["Bob, Cat and Dan", "Bob, Cat and Eve", "Bob, Dan and Eve"])
    assert all(1 in g for g in legal_groups(free.s))


def test_taps_in_the_requirements_one_location_or_several() -> None:
    """Encounter card: "Location Requirements (e.g. 1 Ministry of Magic Employee, 1 Hogwarts Alumni
    and 1 Diagon Alley Shopkeeper)" are tapped in with the rest of the card."""
    play = started()
    play.act("encounter", choice="3")
    play.act("directive", choice="host judges")
    asked = [e for e in play.table.expects() if e.action == "locations"]
    assert [e.count for e in asked] == [1, 1, 2, 3] and asked[0].options == ("none",)
    with pytest.raises(IllegalAction, match="choose a Location"):
        play.act("locations", choice="Gringotts")
    play.act("locations", choices=["Ministry of Magic", "Hogwarts", "Diagon Alley"])
    assert play.s.card().needs == ["ministry", "hogwarts", "diagon_alley"] and play.s.step == "group"


def test_expelliarmus_leaving_a_requirement_unmet_takes_the_swap() -> None:
    """FAQ: "You still must do the Encounter with as many players as possible. The Leader will
    not have the ability to swap cards. You cannot choose to not fulfill a location requirement." """
    play = started()
    play.token("expelliarmus")  # Ann holds it; Bob leads
    play.act("leave_out", by=0, choice="Dan")  # the only Hogsmeade Resident
    play.act("encounter", group=5, check="host", needs=["hogsmeade"])
    assert "gather a group of 4" in play.said[-1]  # as many as possible
    play.act("group", choices=[1, 0, 2, 4])
    assert play.s.now.short
    with pytest.raises(IllegalAction, match="no swap"):
        play.act("swap")

    spare = started()
    spare.token("expelliarmus")
    spare.act("leave_out", by=0, choice="Eve")  # Ann is Hogwarts too: the requirement can still be met
    spare.act("encounter", group=3, check="host", needs=["hogwarts"])
    with pytest.raises(IllegalAction, match="lacks Hogwarts Alumni"):
        spare.act("group", choices=[1, 2, 3])
    spare.act("group", choices=[1, 0, 2])
    assert not spare.s.now.short
    spare.act("swap")


def test_only_the_leader_uses_one_of_two_abilities_a_turn() -> None:
    """Leader Abilities: "The Leader is the only player who may use an ability and they choose
    only one of their two abilities to use per turn." """
    play = started()
    asked = next(e for e in play.table.expects() if e.action == "ability")
    assert asked.options == ("first ability", "second ability") and asked.seat == 0
    assert "Hogwarts Alumni" in asked.prompt
    with pytest.raises(IllegalAction, match="only Ann"):
        play.act("ability", by=1, choice="first ability")
    play.act("ability", by=0, choice="second ability")
    assert play.said[-1] == "Ann uses a Leader ability: the second ability of the Hogwarts Alumni card."
    with pytest.raises(IllegalAction, match="only one of their two abilities"):
        play.act("ability", choice="first ability")
    play.encounter(False)
    assert play.s.leader == 1 and play.s.now.ability is None
    play.act("ability", by=1, choice="first ability")  # a new turn, a new Leader


def test_a_pool_holds_one_card_per_member_plus_what_an_ability_allows() -> None:
    """3. Hand in a Wizarding World Card: "Each player chosen for the Encounter including the
    Leader, hands in one Wizarding World card face down to the Leader, unless a Leader ability
    allows them to turn in an extra card." """
    play = started()
    play.act("encounter", group=3, check="cards_total", target=9)
    play.gather()
    play.act("look", choice="no Curse")
    play.act("swap", choice="no swap")
    assert next(e for e in play.table.expects() if e.action == "reveal").count == 3
    before = play.table.public_view()
    with pytest.raises(IllegalAction, match="the pool holds 3 cards now, not 9"):
        play.act("reveal", cards=["1"] * 9)
    assert play.table.public_view() == before
    play.act("ability", choice="first ability")
    play.act("extra_cards", choice="2")
    assert next(e for e in play.table.expects() if e.action == "reveal").count == 5
    with pytest.raises(IllegalAction, match="the pool holds 5 cards now, not 6"):
        play.act("reveal", cards=["1"] * 6)
    play.act("reveal", cards=["2"] * 5)
    assert play.s.step == "token"


def test_curses_found_leave_fewer_cards_and_the_swapped_card_is_unseen() -> None:
    """4. "Any Curse cards are revealed and resolved immediately. Once a Curse is dealt with,
    discard it. Continue the Encounter with fewer cards in the Encounter Pool." and 5. "The
    Leader draws a new card, places it in the Encounter Pool without looking"."""
    play = started()
    play.act("encounter", group=2, check="cards_total", target=1)
    play.gather()
    play.act("curse", choice="resolved")
    with pytest.raises(IllegalAction, match="the pool holds 1 card now, not 2"):
        play.act("reveal", cards=["1", "1"])
    play.act("swap")
    assert not [e for e in play.table.expects() if e.action == "curse"]
    with pytest.raises(IllegalAction, match="not looked at"):
        play.act("curse", choice="resolved")
    play.act("reveal", cards=["1"])
    assert play.s.step == "token"


def asked(play: Any) -> list[tuple[str, str]]:
    """What the Leader is asked now (the optional ability prompts aside)."""
    return [(e.action, e.prompt) for e in play.table.expects() if not e.optional]


def test_the_pool_asks_one_thing_at_a_time_in_the_rulebooks_order() -> None:
    """4. "After shuffling the cards, the Leader looks at them. Any Curse cards are revealed
    and resolved immediately." 5. "Once all curses have been resolved, the Leader may swap"
    6. "Reveal". Each is asked alone, the next once it is answered; a Curse's effect is its
    own question."""
    play = started()
    play.act("encounter", group=3, check="cards_total", target=2)
    play.gather()
    assert [a for a, _ in asked(play)] == ["look"]
    play.act("look", choice="a Curse")
    assert asked(play) == [
        ("curse", "Resolve the Curse: does it stop the group, or is it resolved and the group carries on?")
    ]
    curse = next(e for e in play.table.expects() if e.action == "curse")
    assert curse.to_json()["option_labels"] == ["resolved: carry on", "it stops the group"]
    for premature in (("swap", {"choice": "no swap"}), ("reveal", {"cards": ["1"]}), ("look", {"choice": "no Curse"})):
        with pytest.raises(IllegalAction, match="resolve the Curse first"):
            play.act(premature[0], **premature[1])
    play.act("curse", choice="resolved")
    assert asked(play) == [("look", "Ann: look at the cards again. Is there another Curse among them?")]
    play.act("look", choice="no Curse")
    assert [a for a, _ in asked(play)] == ["swap"]
    play.act("swap", choice="no swap")
    assert [(a, "curse" in p) for a, p in asked(play)] == [("reveal", False)]
    play.act("reveal", cards=["1", "1"])
    assert play.s.step == "token"


def test_a_swapped_in_curse_is_resolved_at_once_or_the_death_eaters_win() -> None:
    """6. Reveal: "If a Curse card is revealed (added because the Leader swapped a Wizarding
    World card), it must be resolved immediately, or the Death Eaters win." """
    play = started()
    play.act("encounter", group=2, check="cards_total", target=1)
    play.gather()
    play.act("swap")
    prompt = next(e for e in play.table.expects() if e.action == "reveal").prompt
    assert "'curse' for a swapped-in Curse" in prompt
    with pytest.raises(IllegalAction, match="at most one Curse"):
        play.act("reveal", cards=["curse", "curse"])
    play.act("reveal", cards=["curse", "3"])
    assert play.s.step == "cursed" and not play.table.public_view()["over"]
    assert play.said[-1] == "A Curse is revealed: it must be resolved now, or the Death Eaters win."
    play.act("resolve", choice="not resolved")
    view = play.table.public_view()
    assert view["over"] and play.s.final.outcome == "curse" and view["view"]["loyalty"] == play.s.loyalty
    assert play.said[-1] == "The swapped-in Curse was not resolved: the Death Eaters win!"

    stopped = started()
    stopped.act("encounter", group=2, check="cards_total", target=1)
    stopped.gather()
    stopped.act("swap")
    stopped.act("reveal", cards=["curse", "3"])
    stopped.act("resolve", choice="stops the group")
    assert stopped.s.board.snake == 1 and stopped.s.leader == 1 and not stopped.table.public_view()["over"]


def test_a_skipped_player_regains_their_wand_without_an_exchange() -> None:
    """11B: "Anyone who had Expelliarmus cast on them regains their wand. They may not exchange
    a card but they do discard the Expelliarmus card, returning it to the box." """
    play = started(seed=5)
    play.token("expelliarmus")  # Ann holds it; Bob leads
    play.act("skip_turn", by=0, choice="Cat")
    play.encounter(False)  # Bob's turn ends: Cat's turn comes and passes her by
    said = play.said[-6:]
    line = "Cat regains their wand but may not exchange a card; the Expelliarmus card goes back in the box."
    assert line in said and "Expelliarmus: Cat's turn is skipped." in said
    assert said.index(line) < said.index("Expelliarmus: Cat's turn is skipped.") and play.s.leader == 3


def test_the_rolls_prompt_offers_every_number_the_card_may_print() -> None:
    """6. Reveal: "If additional rolls are allowed, the Leader chooses which (if any) of the dice
    they want to keep after each roll": the card's number of rolls is tapped in as 1 to 6."""
    play = started()
    play.act("encounter", choice="2")
    play.act("directive", choice="dice total")
    play.act("target", choice="10")
    assert play.table.expects()[0].options == ("1", "2", "3", "4", "5", "6")
    play.act("rolls", choice="6")
    assert play.s.card().rolls == 6


def test_the_host_may_only_skip_revelio() -> None:
    """Revelio!: "they may choose 0, 1, or 2 player's Loyalty cards to peek at. This is not
    public knowledge." """
    play = revelio_taken(options={"revelio_peeks": [2] * 6})
    for _ in range(5):
        play.encounter(False)
    host = [e for e in play.table.expects() if e.action == "peek" and e.seat is None]
    assert len(host) == 1 and host[0].options == ("no one",) and "the host may skip the peek" in host[0].prompt
    with pytest.raises(IllegalAction, match="the host may only skip it"):
        play.act("peek", choices=[1])
    with pytest.raises(IllegalAction, match="the host may only skip it"):
        play.act("peek", choice="Bob", seat=2)
    play.act("peek", choice="no one")
    assert play.s.step == "nominate" and play.s.final.peeks == {}


def test_a_vote_may_change_on_the_phone_until_all_are_in() -> None:
    """13: "All players must vote on whether or not to elect the nominated player as the final
    Leader" with thumbs held in fists until "3, 2, 1": a voter may change their mind until
    then; the host never overrides a phone."""
    play = at_department()
    assert play.s.step == "nominate"  # no Revelio peek with the Snake at the end
    nominee = next(x for x in range(5) if x != play.s.final.nominator)
    play.act("nominate", choice=nominee)
    play.act("vote", by=1, vote=True)
    mine = [e for e in play.table.expects() if e.action == "vote" and e.seat == 1]
    assert len(mine) == 1 and mine[0].secret and mine[0].optional and "you voted yes" in mine[0].prompt
    assert all("you voted" not in e["prompt"] for e in play.table.public_view()["expects"])
    play.act("vote", by=1, vote=False)
    assert play.table.private_view(1)["view"]["vote"] is False
    with pytest.raises(IllegalAction, match="Bob voted on their phone"):
        play.act("vote", seat=1, vote=True)
    play.act("vote", seat=2, vote=True)
    play.act("vote", seat=2, vote=False)  # the host corrects its own entry
    play.act("vote", by=2, vote=True)  # and Cat's own phone wins over it
    assert play.s.final.votes == {1: False, 2: True}
    for voter in (0, 3, 4):
        play.act("vote", by=voter, vote=False)
    assert play.s.final.last_vote["yes"] == [2] and play.s.step == "nominate"


def test_after_everyone_was_nominated_the_line_says_anyone() -> None:
    """13: "must nominate a player who has not previously been nominated" — once no one is
    left, the box lets anyone be nominated again, and says so."""
    play = at_department(players=4)
    n0 = play.s.final.nominator
    for nominee in (n0 + 1, n0 + 2, n0):
        play.act("nominate", choice=nominee % 4)
        for voter in range(4):
            play.act("vote", seat=voter, vote=voter % 2 == 0)
    assert play.said[-1].endswith("nominate the final Leader: any other player.")
    assert "not been nominated" not in play.said[-1]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"beginning_spaces": "dementor"}, "exactly two spaces"),
        ({"beginning_spaces": "dementor, inferius, expelliarmus"}, "exactly two spaces"),
        ({"beginning_tokens": "dementor, inferius, expelliarmus, redraw"}, "5 tokens in the box, not 4"),
        ({"war_tokens": "dementor, inferius, giant, revelio, redraw, redraw, redraw"}, "6 tokens in the box, not 7"),
        ({"beginning_tokens": "dementor, inferius, revelio, redraw, redraw"}, "one Expelliarmus token"),
        (
            {
                "beginning_tokens": "dementor, inferius, revelio, redraw, expelliarmus",
                "war_tokens": "dementor, inferius, giant, giant, redraw, redraw",
                "war_spaces": "dementor, inferius, giant",
            },
            "Second Wizarding War",
        ),
    ],
)
def test_board_options_that_break_printed_rules_are_refused(options: dict[str, str], message: str) -> None:
    """12: "As soon as the second token is added to The Beginning, loyalties may shift";
    Components: "5 Beginning Tokens", "6 Second Wizarding War Tokens", "1 Expelliarmus! Card",
    "1 Revelio! Card"; 8A: "Revelio fulfills an objective in the Second Wizarding War"."""
    with pytest.raises(IllegalAction, match=message):
        parse_config(options)
    with pytest.raises(IllegalAction, match=message):
        Play(5, options=options)
