"""Drivers shared by the Unmask tests: a scripted table, and a random legal-action picker.

Not tests themselves; the test modules import these.  Everything goes through
``engine.table.Table`` exactly as the box does, with an explicit seed per action, so
every game here can be replayed from its log.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engine.actions import Action
from engine.effects import Expect
from engine.games.unmask import Unmask
from engine.games.unmask_encounter import legal_groups
from engine.games.unmask_pool import pool_size, reveals_all
from engine.games.unmask_rules import DEATH_EATER, LOCATIONS, LOYALTY_CHART, NAMES_TO_SUBMIT, ORDER, open_stacks
from engine.games.unmask_state import UnmaskState
from support.table import Scripted


class Play(Scripted):
    """A table playing Unmask, keeping its log (with seeds) and everything said."""

    def __init__(self, players: int, seed: int = 0, options: dict[str, Any] | None = None) -> None:
        super().__init__(Unmask(), players, seed, options or {})

    @property
    def s(self) -> UnmaskState:
        return self.table.current.state

    # --- scripted steps -----------------------------------------------------------------

    def roles(self) -> None:
        """Each seat records its Role on its phone, in seat order: Hogwarts, Ministry,
        Diagon Alley, Hogsmeade, then round again (always a stack with the most left)."""
        for seat in range(self.s.players):
            self.act("role", by=seat, choice=LOCATIONS[seat % len(LOCATIONS)])

    def first_leader(self, leader: int) -> None:
        """Roles, then everyone rolls; ``leader`` and the seat after tie first at 11, then ``leader`` wins."""
        self.roles()
        n = self.s.players
        rival = (leader + 1) % n
        for seat in range(n):
            self.act("roll", dice=[5, 6] if seat in (leader, rival) else [1, 2])
        for seat in self.s.first.contenders:
            self.act("roll", dice=[6, 6] if seat == leader else [2, 3])

    def encounter(self, success: bool, group: int = 2) -> None:
        """A whole Encounter judged on the card total (target 5): every card revealed."""
        self.act("encounter", name="Test", group=group, check="cards_total", target=5)
        self.gather()
        rest = [{"dice": 0}] * (len(self.s.now.group) - 2)
        self.act("reveal", cards=[{"dice": 3}, {"dice": 2 if success else 1}, *rest])

    def gather(self) -> None:
        """The Leader and the next available players, as many as the Encounter needs."""
        s = self.s
        need = min(s.now.card.group, s.players - (s.now.left_out is not None))
        seats = [s.leader] + [x for x in range(s.players) if x not in (s.leader, s.now.left_out)][: need - 1]
        self.act("group", choices=seats)

    def token(self, name: str) -> None:
        self.encounter(True)
        self.act("token", choice=name)

    def battle(self, creature: str, win: bool) -> None:
        """Success, the creature's token, then a Battle with 6 dice, won on the last roll or lost."""
        self.token(creature)
        kind = self.s.cfg.kind_needed(creature)
        self.act("reveal", cards=[{"dice": 4}, {"dice": 5, "card": "Galleon"}])
        assert self.s.now.pool.dice == 6  # 9 dice on the cards, capped at six
        rolls = self.s.cfg.battle_rolls
        for _ in range(rolls - 1):
            self.act("roll", dice=[1, 2, 3, 4, 5, 6])
        last = [6] * kind + [1, 2, 3, 4, 5][: 6 - kind] if win else [1, 2, 3, 4, 5, 6]
        self.act("roll", dice=last)

    def final_vote(self, nominee: int, yes: bool) -> None:
        """Nominate and have every seat vote, each on its own phone."""
        self.act("nominate", by=self.s.final.nominator, choice=nominee)
        for voter in range(self.s.players):
            self.act("vote", by=voter, vote=yes)


def chart_holds(s: UnmaskState) -> bool:
    """Loyalty counts match the rulebook chart, before and after the Shift."""
    if not s.loyalty:
        return True
    order1, de1, order2, de2 = LOYALTY_CHART[s.players]
    first = Counter(d[0] for d in s.dealt)
    if first != Counter({ORDER: order1, DEATH_EATER: de1}):
        return False
    if all(len(d) == 1 for d in s.dealt):
        return s.loyalty == [d[0] for d in s.dealt] and Counter(s.phase2_deck) == Counter(
            {ORDER: order2, DEATH_EATER: de2}
        )
    second = Counter(d[1] for d in s.dealt)
    turned = [DEATH_EATER if DEATH_EATER in d else ORDER for d in s.dealt]
    return second == Counter({ORDER: order2, DEATH_EATER: de2}) and s.loyalty == turned and not s.phase2_deck


def random_action(s: UnmaskState, r: random.Random) -> Action:
    """A legal action for the current step, chosen at random (and who acts, host or seat)."""
    step, n = s.step, s.players

    def by(seat: int | None) -> int | None:
        return seat if r.random() < 0.5 else None

    missing = [x for x in range(n) if x not in s.roles]
    if missing and step in ("first_roll", "encounter", "group") and (step == "group" or r.random() < 0.5):
        seat = r.choice(missing)
        role = r.choice(open_stacks(list(s.roles.values()), n))
        return (
            Action("role", {"choice": role}, seat)
            if r.random() < 0.5
            else Action("role", {"choice": role, "seat": seat})
        )
    if s.leader in s.roles and s.now.ability is None and step in ("group", "pool") and r.random() < 0.1:
        if step != "pool" or s.now.pool.card_dice is None:
            return Action("ability", {"choice": r.choice(["first ability", "second ability"])}, by(s.leader))
    if s.board.expelliarmus is not None and step in ("encounter", "group") and r.random() < 0.2:
        targets = [x for x in range(n) if x not in (s.board.expelliarmus, s.leader)]
        return Action(r.choice(["skip_turn", "leave_out"]), {"choice": r.choice(targets)}, by(s.board.expelliarmus))
    if step == "first_roll":
        return Action("roll", {"dice": [r.randint(1, 6), r.randint(1, 6)]})
    if step == "encounter":
        return _encounter_action(s, r, by(s.leader))
    if step == "group":
        return Action("group", {"choices": r.choice(legal_groups(s))}, by(s.leader))
    if step == "pool":
        pick, size = r.random(), pool_size(s)
        if pick < 0.05 and not s.now.pool.swapped and size > 0:
            return Action("curse", {"choice": r.choice(["resolved", "stops"])}, by(s.leader))
        if pick < 0.15 and not s.now.pool.swapped and not s.now.short:
            return Action("swap", {}, by(s.leader))
        count = size if reveals_all(s) else r.randint(min(1, size), size)
        cards = [_random_card(r) for _ in range(count)]
        if s.now.pool.swapped and cards and r.random() < 0.1:
            cards[0] = "curse" if r.random() < 0.5 else {"card": "Avada Kedavra", "curse": True}
        return Action("reveal", {"cards": cards}, by(s.leader))
    if step == "cursed":
        return Action(
            "resolve", {"choice": r.choice(["resolved", "resolved", "stops the group", "not resolved"])}, by(s.leader)
        )
    if step == "roll":
        if r.random() < 0.05:
            return Action("result", {"choice": r.choice(["success", "failure"])})
        lucky = r.random() < 0.4  # sixes all round: walks then get through Battles and Phases
        return Action("roll", {"dice": [6 if lucky else r.randint(1, 6) for _ in range(s.now.pool.dice)]}, by(s.leader))
    if step == "result":
        return Action("result", {"choice": "success" if r.random() < 0.6 else "failure"})
    if step == "token":
        return Action("token", {"choice": r.choice(sorted(set(s.board.pools[s.board.phase])))}, by(s.leader))
    if step == "revelio":
        others = [x for x in range(n) if x != s.board.revelio]
        chosen = r.sample(others, r.randint(0, s.final.peeks_allowed))
        return Action("peek", {"choices": chosen}, s.board.revelio if chosen else by(s.board.revelio))
    if step == "nominate":
        options = [x for x in range(n) if x != s.final.nominator and x not in s.final.nominated]
        return Action("nominate", {"choice": s.names[r.choice(options)]}, by(s.final.nominator))
    if step == "vote":
        if s.final.on_phone and r.random() < 0.2:  # a voter changes their mind on their phone
            return Action("vote", {"vote": r.random() < 0.5}, r.choice(s.final.on_phone))
        voter = r.choice([x for x in range(n) if x not in s.final.votes])
        vote = r.random() < 0.4
        return (
            Action("vote", {"vote": vote}, voter) if r.random() < 0.5 else Action("vote", {"seat": voter, "vote": vote})
        )
    if step == "accuse":
        low, high = NAMES_TO_SUBMIT[n]
        others = [x for x in range(n) if x != s.final.final_leader]
        return Action("accuse", {"choices": r.sample(others, r.randint(low, high))}, by(s.final.final_leader))
    raise AssertionError(f"no action for step {step}")


def _encounter_action(s: UnmaskState, r: random.Random, who: int | None) -> Action:
    """The Encounter as a whole card (a taught deck) or tapped in one detail at a time."""
    targets = {"cards_total": (1, 8), "of_a_kind": (2, 3), "dice_total": (4, 16)}
    if s.now.card is None:
        if r.random() < 0.5:
            return Action("encounter", {"choice": str(r.randint(2, s.players))}, who)
        check = r.choice(["cards_total", "of_a_kind", "dice_total", "host"])
        group = r.randint(2, s.players)
        needs = r.sample([*LOCATIONS, *LOCATIONS], r.randint(0, min(3, group)))
        data: dict[str, Any] = {"group": group, "check": check, "rolls": r.randint(1, 3), "needs": needs}
        if check in targets:
            data["target"] = r.randint(*targets[check])
        return Action("encounter", data, who)
    if s.now.card.check is None:
        return Action(
            "directive", {"choice": r.choice(["card total", "dice of a kind", "dice total", "host judges"])}, who
        )
    if s.now.card.check in targets and s.now.card.target is None:
        return Action("target", {"choice": str(r.randint(*targets[s.now.card.check]))}, who)
    if s.now.card.check in ("of_a_kind", "dice_total") and s.now.card.rolls is None:
        return Action("rolls", {"choice": r.randint(1, 3)}, who)
    if r.random() < 0.5:
        return Action("locations", {"choice": "none"}, who)
    return Action(
        "locations", {"choices": r.sample([*LOCATIONS, *LOCATIONS], r.randint(1, min(3, s.now.card.group)))}, who
    )


def _random_card(r: random.Random) -> Any:
    """A revealed card (not a Curse) as a taught deck reports it, or as the host types it."""
    dice = r.randint(0, 3)
    return str(dice) if r.random() < 0.5 else {"card": f"card {dice}", "dice": dice}


def page_action(expect: Expect, r: random.Random) -> Action:
    """What the host page or a phone sends for a prompt, built only from the prompt itself
    (web/static/common.js): a phone answers for its seat, the host adds ``seat``."""
    if expect.kind == "dice":
        data: dict[str, Any] = {"dice": [r.randint(1, 6) for _ in range(expect.count or r.randint(1, 6))]}
    elif expect.kind == "choice" and (expect.count or 1) > 1:
        data = {"choices": r.sample(list(expect.options), expect.count)}
    elif expect.kind == "choice":
        data = {"choice": r.choice(expect.options)}
    elif expect.kind == "vote":
        data = {"vote": r.random() < 0.6}
    elif expect.kind == "cards" and expect.action == "encounter":  # answered by the camera, with a taught card's data
        data = {
            "cards": [{"card": "Taught Encounter", "group": r.randint(2, 4), "check": "host", "needs": ["ministry"]}]
        }
    elif expect.kind == "cards":  # the prompt's count, a Curse only where the prompt speaks of one
        cards = [r.choice(["0", "1", "2", "3"]) for _ in range(expect.count or r.randint(1, 4))]
        if cards and "'curse'" in expect.prompt and r.random() < 0.2:
            cards[0] = "curse"
        data = {"cards": cards}
    else:
        data = {}
    if expect.seat is not None and (expect.secret or r.random() < 0.5):
        return Action(expect.action, data, expect.seat)
    return Action(expect.action, {**data, **({"seat": expect.seat} if expect.seat is not None else {})})


# The shortest track the rules allow, so a short game reaches the Department.
QUICK = {"track_length": 5, "revelio_peeks": [2, 2, 1, 1, 1, 0]}


def started(players: int = 5, options: dict | None = None, seed: int = 3) -> Play:
    play = Play(players, seed, options)
    play.first_leader(0)
    return play


def revelio_taken(players: int = 5, options: dict | None = None) -> Play:
    """The Beginning won in two Battles (seats 0 and 1 lead), then Cat (seat 2) takes Revelio."""
    play = started(players, {**QUICK, **(options or {})})
    play.battle("dementor", True)
    play.battle("inferius", True)
    play.token("revelio")
    assert play.s.board.revelio == 2 and play.s.board.phase == "war"
    return play


def at_department(players: int = 5, fails: int = 5) -> Play:
    """Revelio taken by Cat in the War, then failures up the (5-space) track to the Department."""
    play = revelio_taken(players)
    for _ in range(fails):
        play.encounter(False)
    return play
