"""Secret Voldemort's rules, one test each: the roles and the Opening, the election,
the legislative session with either deck, the veto, the tracker and chaos."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from engine.actions import IllegalAction
from engine.games.voldemort_legislation import policy_kind
from engine.games.voldemort_rules import DARK_ARTS, DEATH_EATER, ORDER, VOLDEMORT
from engine.games.voldemort_state import VoldemortState
from support.voldemort import Play, accounted, page_action, random_prompt, seats_with

ROLE_COUNTS = {5: (3, 1), 6: (4, 1), 7: (4, 2), 8: (5, 2), 9: (5, 3), 10: (6, 3)}


# --- Roles and the Opening -------------------------------------------------------------


@pytest.mark.parametrize("players", range(5, 11))
def test_roles_follow_secret_hitlers_distribution(players: int) -> None:
    play = Play(players, seed=players)
    order, eaters = ROLE_COUNTS[players]
    assert Counter(play.s.roles) == Counter({ORDER: order, DEATH_EATER: eaters, VOLDEMORT: 1})
    for seat in range(players):
        view = play.table.private_view(seat)["view"]
        role = play.s.roles[seat]
        assert view["role"] == role
        assert view["party"] == (ORDER if role == ORDER else DEATH_EATER)
    voldemort = play.table.private_view(seats_with(play.s, VOLDEMORT)[0])["view"]
    assert (voldemort["role_name"], voldemort["party_name"]) == ("Lord Voldemort", "Death Eater")
    auror = play.table.private_view(seats_with(play.s, ORDER)[0])["view"]
    assert (auror["role_name"], auror["party_name"]) == ("Order of the Phoenix", "Order of the Phoenix")
    assert "roles" not in play.table.public_view()["view"]


@pytest.mark.parametrize("players", [5, 7, 10])
def test_death_eaters_know_each_other_and_voldemort_who_knows_no_one(players: int) -> None:
    play = Play(players, seed=1)
    s = play.s
    voldemort, eaters = seats_with(s, VOLDEMORT)[0], seats_with(s, DEATH_EATER)
    for seat in eaters:
        known = {k["name"] for k in play.table.private_view(seat)["view"]["you_know"]}
        assert known == {s.names[x] for x in [*eaters, voldemort] if x != seat}
    assert play.table.private_view(voldemort)["view"]["you_know"] == []
    for seat in seats_with(s, ORDER):
        assert play.table.private_view(seat)["view"]["you_know"] == []


def test_the_original_rule_lets_voldemort_know_his_death_eater_at_five_or_six() -> None:
    play = Play(6, seed=2, voldemort_knows="original game's rule (5-6 players)")
    s = play.s
    eater = seats_with(s, DEATH_EATER)[0]
    known = play.table.private_view(seats_with(s, VOLDEMORT)[0])["view"]["you_know"]
    assert known == [{"name": s.names[eater], "role": "Death Eater"}]
    assert "Lord Voldemort, open your eyes too, and see your Death Eater." in play.said
    with pytest.raises(IllegalAction, match="5 or 6 players"):
        Play(7, voldemort_knows=True)
    assert Play(5).s.voldemort_knows is False


def test_the_original_rule_has_voldemort_close_his_eyes_again() -> None:
    """Secret Hitler's 5-6 player script has Hitler open his eyes with the Fascist and close
    them with the Fascist, before everyone opens theirs: Voldemort, told to open his eyes,
    must be told to close them again."""
    said = Play(5, voldemort_knows=True).said
    opened = said.index("Lord Voldemort, open your eyes too, and see your Death Eater.")
    closed = next(i for i, line in enumerate(said) if "Lord Voldemort" in line and "close your eyes" in line)
    assert opened < closed < said.index("Everyone, open your eyes.")


def test_the_opening_is_said_in_order_and_in_the_same_words_for_every_deal() -> None:
    openings, deals = set(), set()
    for seed in range(12):
        play = Play(7, seed=seed)
        deals.add(tuple(play.s.roles))
        openings.add(tuple(line for line in play.said if "Minister" not in line and "nominate" not in line))
    assert len(deals) > 1 and len(openings) == 1
    lines = list(openings.pop())
    order = [
        "close your eyes",
        "Death Eaters, open your eyes",
        "raise your thumb",
        "Death Eaters, close",
        "Everyone, open",
    ]
    positions = [next(i for i, line in enumerate(lines) if cue in line) for cue in order]
    assert positions == sorted(positions)


def test_the_first_minister_is_chosen_at_random() -> None:
    firsts = {Play(5, seed=seed).s.minister for seed in range(20)}
    assert len(firsts) > 2


def test_options_are_checked() -> None:
    with pytest.raises(IllegalAction, match="unknown options"):
        Play(5, decks="digital")
    with pytest.raises(IllegalAction, match="deck must be one of"):
        Play(5, deck="cardboard")
    with pytest.raises(IllegalAction, match="term_limits must be one of"):
        Play(5, term_limits="none")


# --- Elections ---------------------------------------------------------------------------


def test_the_minister_nominates_another_living_player() -> None:
    play = Play(5)
    play.rig(minister=0)
    with pytest.raises(IllegalAction, match="never himself"):
        play.nominate(0)
    with pytest.raises(IllegalAction, match="only Ann"):
        play.act("nominate", by=1, choice=2)
    play.nominate(2)
    assert play.s.nominee == 2 and play.s.step == "vote"


def test_term_limits_bar_the_last_elected_minister_and_headmaster() -> None:
    play = Play(7)
    play.rig(minister=0, top=[ORDER] * 3)
    play.elect(3)
    play.legislate(ORDER, ORDER)
    assert play.s.minister == 1
    assert play.s.eligible() == [2, 4, 5, 6]
    assert play.table.public_view()["view"]["eligible"] == ["Cat", "Eve", "Fay", "Gus"]
    for limited in (0, 3):
        with pytest.raises(IllegalAction, match="term-limited"):
            play.nominate(limited)


def test_the_rulebooks_term_limits_bar_the_last_minister_at_five_players_too() -> None:
    # The rulebook: "You cannot nominate the immediate past Minister or Headmaster".
    play = Play(5)
    play.rig(minister=0, top=[ORDER] * 3)
    play.elect(2)
    play.legislate(ORDER, ORDER)
    assert play.s.minister == 1 and play.s.eligible() == [3, 4]
    with pytest.raises(IllegalAction, match="term-limited"):
        play.nominate(0)
    assert play.table.public_view()["view"]["few_alive_limits"] is False


def test_with_three_alive_and_no_one_the_rulebook_allows_the_last_minister_may_serve() -> None:
    play = Play(5)
    play.s.dead = [3, 4]
    play.s.minister, play.s.last_minister, play.s.last_headmaster = 0, 1, 2
    assert play.s.eligible() == [1]
    play.s.last_minister = 0
    assert play.s.eligible() == [1]


def test_a_failed_election_sets_no_term_limits_and_passes_the_title_on() -> None:
    play = Play(7)
    play.rig(minister=0)
    play.elect(3, yes=False)
    assert (play.s.minister, play.s.election, play.s.last_headmaster) == (1, 1, None)
    assert 3 in play.s.eligible() and 0 in play.s.eligible()
    assert play.table.tracks()["election"].value == 1


def test_votes_stay_secret_until_all_are_in() -> None:
    play = Play(5)
    play.rig(minister=0)
    play.nominate(1)
    play.act("vote", by=2, vote=False)
    public = play.table.public_view()["view"]
    assert public["voted"] == [2] and "votes" not in public
    assert play.table.private_view(2)["view"]["vote"] is False
    assert all(play.table.private_view(x)["view"]["vote"] is None for x in (0, 1, 3, 4))
    with pytest.raises(IllegalAction):
        play.act("vote", by=2, vote=True)
    for seat in (0, 1, 3, 4):
        play.act("vote", by=seat, vote=True)
    assert play.s.last_vote == {"minister": 0, "nominee": 1, "yes": 4, "no": 1, "yes_seats": [0, 1, 3, 4]}


def test_a_tie_fails() -> None:
    play = Play(6)
    play.rig(minister=0)
    play.nominate(1)
    play.votes([True, True, True, False, False, False])
    assert play.s.step == "nominate" and play.s.election == 1 and play.s.headmaster is None


def test_the_host_may_enter_a_show_of_hands() -> None:
    play = Play(5)
    play.rig(minister=0)
    play.nominate(1)
    play.act("vote", by=3, vote=False)
    with pytest.raises(IllegalAction):
        play.act("hands", by=2, choice=3)
    with pytest.raises(IllegalAction, match="only 5"):
        play.act("hands", choice=6)
    play.act("hands", choice=3)
    assert play.s.headmaster == 1 and play.s.last_vote["yes"] == 3 and play.s.votes == {}


def test_the_host_enters_a_vote_for_a_seat_but_a_phone_only_its_own() -> None:
    play = Play(5)
    play.rig(minister=0)
    play.nominate(1)
    play.act("vote", vote=True, seat=4)
    assert play.s.votes == {4: True}
    with pytest.raises(IllegalAction, match="your own"):
        play.act("vote", by=2, vote=True, seat=3)


def test_any_enacted_policy_resets_the_election_tracker() -> None:
    play = Play(7)
    play.fail()
    play.fail()
    assert play.s.election == 2 and play.table.tracks()["election"].attention
    play.pass_policy(ORDER)
    assert play.s.election == 0 and not play.table.tracks()["election"].attention


def test_three_failed_elections_enact_the_top_policy_ignore_its_spell_and_clear_term_limits() -> None:
    play = Play(7)  # the second Dark Arts policy brings Crucio at 7 players
    play.rig(dark_arts=1)
    play.pass_policy(ORDER)
    assert play.s.last_minister is not None
    play.rig(top=[DARK_ARTS, ORDER, ORDER])
    minister = play.s.minister
    for _ in range(3):
        play.fail()
    s = play.s
    assert (s.dark_arts, s.election, s.step) == (2, 0, "nominate")
    assert s.last_minister is None and s.last_headmaster is None
    assert s.minister == (minister + 3) % 7 and s.enacted[-1] == DARK_ARTS
    assert "Its spell, if any, is ignored, and the term limits are cleared." in play.said
    assert accounted(s) == 17


# --- The legislative session -------------------------------------------------------------


def test_the_digital_deck_shows_three_then_two_policies_to_their_holders_only() -> None:
    play = Play(5)
    play.rig(minister=0, top=[ORDER, DARK_ARTS, DARK_ARTS])
    play.elect(2)
    views = [play.table.private_view(x) for x in range(5)]
    assert views[0]["view"]["policies"] == ["Order", "Dark Arts", "Dark Arts"]
    assert [e["action"] for e in views[0]["expects"] if e["secret"]] == ["discard"]
    assert all(v["view"]["policies"] == [] and not v["expects"] for v in views[1:])
    public = play.table.public_view()
    assert public["view"]["draw_pile"] == 14 and public["view"]["holding"] == [0] and not public["expects"]
    with pytest.raises(IllegalAction, match="only a player"):
        play.act("discard", choice="Order")
    play.act("discard", by=0, choice="Dark Arts")
    assert play.table.private_view(0)["view"]["policies"] == []
    assert play.table.private_view(2)["view"]["policies"] == ["Order", "Dark Arts"]
    assert play.table.public_view()["view"]["discard_pile"] == 1
    with pytest.raises(IllegalAction, match="only a player"):
        play.act("enact", choice="Order")
    play.act("enact", by=2, choice="Order")
    assert (play.s.order, play.s.dark_arts, len(play.s.discard)) == (1, 0, 2)
    assert play.table.tracks()["order"].value == 1 and accounted(play.s) == 17


def test_a_policy_not_in_hand_is_refused() -> None:
    play = Play(5)
    play.rig(minister=0, top=[DARK_ARTS] * 3)
    play.elect(2)
    with pytest.raises(IllegalAction, match="no Order policy"):
        play.act("discard", by=0, choice="Order")


def test_fewer_than_three_left_after_a_session_are_shuffled_with_the_discards() -> None:
    play = Play(5)
    s = play.s
    play.rig(top=[ORDER, ORDER, ORDER, DARK_ARTS, DARK_ARTS])
    s.discard, s.draw = s.draw[5:], s.draw[:5]
    play.elect()
    play.legislate(ORDER, ORDER)
    assert len(play.s.draw) == 17 - 1 and not play.s.discard and play.s.shuffles == 1
    assert "the box shuffles the discard pile into the draw pile" in play.said[-2]
    assert accounted(play.s) == 17


def test_the_physical_deck_takes_the_enacted_policy_from_the_host_or_the_camera() -> None:
    play = Play(5, deck="physical")
    play.rig(minister=0)
    play.elect(1)
    assert play.s.step == "policy" and play.table.private_view(0)["view"]["policies"] == []
    kinds = {e["kind"] for e in play.table.public_view()["expects"]}
    assert kinds == {"cards", "choice"}
    with pytest.raises(IllegalAction):
        play.act("policy", cards=[{"card": "Chocolate Frog"}])
    play.act("policy", cards=[{"card": "Dark Arts Policy"}])
    assert play.s.dark_arts == 1 and (len(play.s.draw), len(play.s.discard)) == (14, 2)
    play.elect()
    play.act("policy", choice="Order")
    assert play.s.order == 1 and accounted(play.s) == 17


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("Order Policy", ORDER),
        ("Orden", ORDER),
        ("orden-gesetz", ORDER),
        ("Gesetz des Ordens", ORDER),
        ("Dark_Arts_Policy", DARK_ARTS),
        ("Dunkle Künste", DARK_ARTS),
        ("Dunkle Kuenste", DARK_ARTS),
        ("Gesetz der Dunklen Künste", DARK_ARTS),
    ],
)
def test_a_policy_card_is_taught_under_its_english_or_german_name(name: str, kind: str) -> None:
    assert policy_kind({"card": name}) == kind and policy_kind(name) == kind


def test_the_camera_reads_the_policy_in_the_reveal_area_only() -> None:
    play = Play(5, deck="physical")
    play.elect()
    cards = next(e for e in play.table.expects() if e.kind == "cards")
    assert cards.zone == "reveal"
    with pytest.raises(IllegalAction, match="reveal area"):
        play.act("policy", cards=[{"card": "Orden", "seat": 0, "zone": "bank"}])
    play.act("policy", cards=[{"card": "Orden", "seat": 0, "zone": "reveal"}])
    assert play.s.order == 1
    assert play.said[play.said.index("Move the policy from the reveal area onto its track.") - 1].startswith(
        "The Headmaster enacts an Order policy."
    )


def test_the_physical_deck_is_reshuffled_aloud() -> None:
    play = Play(5, deck="physical")
    for _ in range(5):
        play.elect()
        play.act("policy", choice="Order" if play.s.order < 3 else "Dark Arts")
    assert "Fewer than three policies are left: shuffle the discard pile into the draw pile." in play.said
    assert len(play.s.draw) == 12 and accounted(play.s) == 17


# --- The veto ----------------------------------------------------------------------------


def vetoable(players: int = 7) -> Play:
    play = Play(players)
    play.rig(dark_arts=5, top=[ORDER, DARK_ARTS, DARK_ARTS])
    play.elect()
    play.act("discard", by=play.s.minister, choice="Dark Arts")
    return play


def test_no_veto_before_five_dark_arts_policies() -> None:
    play = Play(5)
    play.rig(dark_arts=4, top=[ORDER] * 3)
    play.elect()
    play.act("discard", by=play.s.minister, choice="Order")
    with pytest.raises(IllegalAction, match="five Dark Arts"):
        play.act("veto", by=play.s.headmaster)


def test_an_agreed_veto_discards_both_and_moves_the_tracker() -> None:
    play = vetoable()
    minister, headmaster = play.s.minister, play.s.headmaster
    play.act("veto", by=headmaster)
    assert play.s.step == "veto"
    play.act("answer", by=minister, choice="agree")
    s = play.s
    assert (s.election, s.step, s.minister, s.hands) == (1, "nominate", (minister + 1) % 7, {})
    assert len(s.discard) == 3 and s.dark_arts == 5 and accounted(s) == 17


def test_a_refused_veto_must_be_enacted_and_cannot_be_asked_again() -> None:
    play = vetoable()
    play.act("veto", by=play.s.headmaster)
    play.act("answer", by=play.s.minister, choice="refuse")
    assert play.s.step == "enact"
    assert "veto" not in {e.action for e in play.table.expects()}
    with pytest.raises(IllegalAction, match="once per session"):
        play.act("veto", by=play.s.headmaster)
    play.act("enact", by=play.s.headmaster, choice="Order")
    assert play.s.order == 1


def test_a_veto_that_is_the_third_failure_brings_chaos() -> None:
    play = Play(7)
    play.fail()
    play.fail()
    play.rig(dark_arts=5, top=[ORDER, DARK_ARTS, DARK_ARTS, ORDER])
    play.elect()
    play.act("discard", by=play.s.minister, choice="Dark Arts")
    play.act("veto", by=play.s.headmaster)
    play.act("answer", by=play.s.minister, choice="agree")
    assert play.s.order == 1 and play.s.election == 0 and play.s.step == "nominate"
    assert accounted(play.s) == 17


def test_a_chaos_policy_with_the_physical_deck_is_the_top_card_entered() -> None:
    play = Play(5, deck="physical")
    for _ in range(3):
        play.fail()
    assert play.s.step == "policy" and play.s.chaos
    assert "veto" not in {e.action for e in play.table.expects()}
    with pytest.raises(IllegalAction, match="only the host"):
        play.act("policy", by=play.s.minister, choice="Order")
    play.act("policy", choice="Dark Arts")
    assert (play.s.dark_arts, len(play.s.draw), play.s.step, play.s.chaos) == (1, 16, "nominate", False)
    assert accounted(play.s) == 17


def played_until(seed: int, wanted: Callable[[VoldemortState], bool]) -> Play | None:
    """A game answered from its own prompts, stopped as soon as ``wanted`` holds."""
    play, r = Play(5, seed), random.Random(seed)
    while not play.table.public_view()["over"]:
        play.submit(page_action(random_prompt(play.table, r), r))
        if wanted(play.s):
            return play
    return None


def test_undo_never_shuffles_or_deals_differently() -> None:
    """The hand an election deals and the reshuffle after a session come from the game's
    own randomness: undone and done again (with another seed), they are the same.  The
    box refuses to undo a deal (it is final), but an older box's log may hold one."""
    play = next(p for seed in range(50) if (p := played_until(seed, lambda s: s.shuffles == 1)))
    shuffled = list(play.s.draw)
    play.table.undo()
    assert play.s.shuffles == 0
    play.table.apply(play.entries[-1].action, 12345)
    assert play.s.draw == shuffled
    play = next(p for seed in range(50) if (p := played_until(seed, lambda s: s.step == "discard")))
    hand = dict(play.s.hands)
    assert "cannot be unseen" in (play.table.undo_refusal() or "")
    play.table.undo()
    play.table.apply(play.entries[-1].action, 777)
    assert play.s.hands == hand


def test_the_opening_keeps_the_same_fixed_pauses_for_every_deal() -> None:
    """The rulebook's Opening has the table close its eyes, the Death Eaters look, and all
    close again; the quiet between those lines is fixed, whoever holds which role, so
    neither the words nor the timing tell anyone anything."""
    from engine.effects import Say
    from engine.games.voldemort_setup import EYES_CLOSING_S, EYES_SHUT_S, RECOGNISING_S

    timings = set()
    for seed in range(12):
        play = Play(7, seed=seed)
        lines = [e for e in play.table.games["voldemort"].new({}, _turn(play, seed))[1] if isinstance(e, Say)]
        timings.add(
            tuple((e.text, e.then_wait) for e in lines if "Minister" not in e.text and "nominate" not in e.text)
        )
    assert len(timings) == 1
    waits = [wait for _, wait in timings.pop() if wait]
    assert waits == [EYES_CLOSING_S, RECOGNISING_S, EYES_SHUT_S] and min(waits) >= 2


def _turn(play: Play, seed: int):
    from engine.game import Turn

    return Turn("table.new", None, tuple(play.s.names), seed)
