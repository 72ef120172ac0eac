"""Every call of Kampf's night leaves time to act after its words, in English and in German:
the words are synthesised with espeak-ng as the box says them (its default voices and
rate) and the WAVs measured.  A call's timer starts with the words said before the call's
own (the last call's "close your eyes" and its quiet, or "night falls" before the first
call), so each call is measured after every line that can come before it.  Dumbledore's
German call used to take 21.8 s of its 20 s (issue 44, item 5)."""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

import pytest

from device.config import AudioConfig
from device.narrator import measure_wav, synthesize
from engine.effects import Effect, Say, StartTimer
from engine.games import kampf_calls as calls
from engine.games.kampf_roles import CARDS, ROLES, WAKE_ORDER
from engine.games.kampf_state import NIGHT, NIGHT_TIMER
from support.kampf import Play
from web.language import Language

AUDIO = AudioConfig()
"""The box's defaults: rate 160, voices en-gb and de."""
CALLS = [call for call, _roles in WAKE_ORDER]
WAV_DIR = Path(tempfile.mkdtemp(prefix="kampf-slots-"))


@functools.cache
def seconds(text: str, language: str) -> float:
    """How long espeak-ng takes to say ``text`` (already in ``language``)."""
    path = WAV_DIR / f"{abs(hash((text, language)))}.wav"
    assert synthesize(text, path, AUDIO, AUDIO.voice_for(language)) == []
    return measure_wav(path).seconds


def spoken(lines: list[Say], language: str) -> float:
    """The lines as the narrator says them: each line, then its quiet."""
    words = Language(language)
    return sum(seconds(words.text(line.text), language) + line.then_wait for line in lines)


def said(effects: list[Effect]) -> list[Say]:
    return [e for e in effects if isinstance(e, Say)]


def before(call: str) -> list[list[Say]]:
    """What can be said in ``call``'s time before its own words: "night falls" when it is
    the first call of the chosen cards, else an earlier call closing its eyes."""
    return [calls.falls(), *(calls.sleep(earlier) for earlier in CALLS[: CALLS.index(call)])]


def test_a_calls_time_holds_the_words_before_it_and_its_own():
    """What the measuring below assumes, read off a whole night of every card."""
    deck = [role for role in ROLES for _ in range(CARDS[role])]
    play = Play(len(deck) - 3, 0, scenario="free", roles=deck)
    start = len(play.effects)
    play.act("start")
    while play.s.step == NIGHT:
        play.timer_runs_out()
    times, heard = [], []
    for effect in play.effects[start:]:
        if isinstance(effect, StartTimer) and effect.name == NIGHT_TIMER:
            times.append((heard, effect.seconds))
            heard = []
        elif isinstance(effect, Say):
            heard.append(effect)
    openers = [calls.falls(), *(calls.sleep(call) for call in CALLS[:-1])]
    assert times == [
        (opener + said(calls.wake(call, True)), calls.TURN_S) for opener, call in zip(openers, CALLS, strict=True)
    ]


@pytest.mark.parametrize("digital", [True, False], ids=["digital", "physical"])
@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("call", CALLS)
def test_every_call_leaves_time_to_act_after_its_words(call, language, digital):
    own = spoken(said(calls.wake(call, digital)), language)
    longest = max(spoken(lines, language) for lines in before(call)) + own
    assert longest + calls.ACT_S <= calls.TURN_S, f"{call} in {language}: {longest:.1f} s of words"


def test_the_time_is_sized_to_the_longest_call_with_a_second_to_spare():
    """Not far too long either: the night is as many times this as there are calls."""
    longest = max(
        max(spoken(lines, language) for lines in before(call)) + spoken(said(calls.wake(call, True)), language)
        for call in CALLS
        for language in ("en", "de")
    )
    assert 1.0 <= calls.TURN_S - calls.ACT_S - longest < 3.0, longest
