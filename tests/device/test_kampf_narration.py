"""Kampf's night as the box says it: the real narrator (espeak-ng, aplay on ALSA's null
device) speaking a whole night, measured by its own record of when each line began and
ended.  A night with Ron's card at a player and one with it in the middle must sound
the same and keep the same time: the same lines, each as long, each pause as long."""

from __future__ import annotations

import pytest

from device.config import AudioConfig
from device.narrator import Narrator, Spoken
from engine.effects import Say
from engine.games.kampf_roles import DEATH_EATER, HERMIONE, RON, STUDENT
from engine.games.kampf_state import NIGHT
from support.kampf import Play
from support.waiting import LATE_S

pytestmark = pytest.mark.slow
SAME_S = LATE_S
"""How close two measured times must be: a thread woken late (``LATE_S``).  What would
tell the table who is awake is a line or a pause of its own, a second or more, which
this still catches."""


def night_lines(cards: list[str]) -> list[Say]:
    """What a physical-cards night says, in order (the phones play no part in it)."""
    play = Play(len(cards) - 3, 0, scenario="free", roles=cards, cards="physical")
    play.deal(*cards)
    start = len(play.effects)
    play.act("start")
    while play.s.step == NIGHT:
        play.timer_runs_out()
    return [e for e in play.effects[start:] if isinstance(e, Say)]


def heard(lines: list[Say], tmp_path) -> list[Spoken]:
    narrator = Narrator(AudioConfig(device="null"), speaker=True, wav_dir=tmp_path)
    try:
        for line in lines:
            narrator.say(line.text, then_wait=line.then_wait)
        assert narrator.wait_idle(120)
        assert narrator.problems == []
        return narrator.record
    finally:
        narrator.close()


def test_the_night_sounds_and_lasts_the_same_with_rons_card_at_a_player_or_in_the_middle(tmp_path):
    rest = [STUDENT, STUDENT, DEATH_EATER, DEATH_EATER, HERMIONE]
    with_player = night_lines([RON, *rest])  # Ann holds Ron
    in_middle = night_lines([*rest[:2], HERMIONE, DEATH_EATER, DEATH_EATER, RON])  # Ron in the middle, Hermione out
    assert [(str(s.text), s.then_wait) for s in with_player] == [(str(s.text), s.then_wait) for s in in_middle]
    assert any("Ron" in str(s.text) for s in with_player)

    first, second = heard(with_player, tmp_path / "a"), heard(in_middle, tmp_path / "b")
    assert [r.text for r in first] == [r.text for r in second]
    for a, b in zip(first, second, strict=True):
        assert abs((a.ended - a.started) - (b.ended - b.started)) < SAME_S, a.text
    for run in (first, second):
        for (before, after), line in zip(zip(run, run[1:], strict=False), with_player, strict=False):
            quiet = after.started - before.ended
            assert line.then_wait <= quiet < line.then_wait + SAME_S, (line.text, quiet)
