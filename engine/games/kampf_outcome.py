"""Kampf gegen die dunklen Mächte: who is captured and who wins, from the votes and the
cards in front of the players at dawn.

Pure functions of the votes (seat -> the seat it pointed at) and the final cards, so
every case of the rulebook is a plain test.  Luna's and Ginny's powers go by the card
in front of a player at dawn, like every party.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.games.kampf_roles import DARK, DEATH_EATER, GINNY, HOGWARTS, LUNA, PARTY
from engine.games.kampf_state import RULEBOOK
from engine.messages import words

_, _n = words("kampf")

NOBODY = "nobody"
ALL_ONE = "all one vote"


@dataclass(frozen=True)
class Result:
    captured: list[int]
    winner: str
    """``hogwarts``, ``death_eaters`` or ``nobody``."""
    reason: str


def _most(counts: Mapping[int, int], excluded: set[int]) -> list[int]:
    """The seats with the most votes (at least one) among those not ``excluded``."""
    left = {seat: n for seat, n in counts.items() if seat not in excluded and n > 0}
    if not left:
        return []
    best = max(left.values())
    return sorted(seat for seat, n in left.items() if n == best)


def captured(votes: Mapping[int, int], final: Sequence[str], ginny_luna: str = RULEBOOK) -> tuple[list[int], str]:
    """Who is captured, and why in one word (for the record)."""
    counts = Counter(votes.values())
    if all(counts[seat] == 1 for seat in range(len(final))):
        return [], ALL_ONE
    luna = {s for s, role in enumerate(final) if role == LUNA}
    top = _most(counts, set())
    taken = [s for s in top if s not in luna]
    reason = "most votes"
    if top and not taken:
        # Luna alone has the most: the next most are captured instead (ties together).
        taken, reason = _most(counts, luna), "Luna"
    # ONUW: the Hunter's target is taken even when the Hunter was taken in Luna's place.
    ginny = next((s for s in taken if final[s] == GINNY), None)
    if ginny is not None and ginny in votes:
        target = votes[ginny]
        if target in luna:
            # The rulebook: Luna is not captured, "instead the person with the second most
            # votes is captured": the most-voted not yet captured, Luna aside, ties together.
            if ginny_luna == RULEBOOK:
                taken = sorted(set(taken) | set(_most(counts, set(taken) | luna)))
            reason = "Ginny and Luna"
        elif target not in taken:
            taken, reason = sorted([*taken, target]), "Ginny"
    return taken, reason


def result(votes: Mapping[int, int], final: Sequence[str], ginny_luna: str = RULEBOOK) -> Result:
    """The winning party: the Death Eaters if none of them is captured, Hogwarts if one
    is; with no Death Eater among the players, Hogwarts only if nobody is captured, and
    nobody if anyone is."""
    taken, reason = captured(votes, final, ginny_luna)
    dark = [s for s, role in enumerate(final) if PARTY[role] == DARK]
    if not dark:
        return Result(taken, NOBODY if taken else HOGWARTS, reason)
    caught = any(final[s] == DEATH_EATER for s in taken)
    return Result(taken, HOGWARTS if caught else DARK, reason)


def winners(final: Sequence[str], winner: str) -> list[int]:
    """Every member of the winning party: all win or none."""
    return [s for s, role in enumerate(final) if PARTY[role] == winner]
