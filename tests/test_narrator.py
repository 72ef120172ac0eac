"""The narrator makes real speech: WAVs from pyttsx3/espeak-ng, measured with ``wave``."""
from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from device import narrator as narrator_module
from device.config import AudioConfig, BoxConfig, Config
from device.narrator import Narrator, SpeechError, measure_wav, synthesize

SHORT = "Three, three, five: eleven."
LONG = ("The Dark Lord's forces advance: move the Threat marker one space, "
        "and every hero loses one heart.")
SILENCE_RMS = 300  # espeak-ng speech at full volume measures about 2500-3200


@pytest.fixture
def quiet(tmp_path: Path) -> Iterator[Narrator]:
    """A narrator writing WAVs only (tests never play through the machine's speaker)."""
    made = Narrator(AudioConfig(), speaker=False, wav_dir=tmp_path / "speech")
    yield made
    made.close()


def spoken_files(narrator: Narrator) -> list[Path]:
    assert narrator.wav_dir is not None
    return sorted(narrator.wav_dir.glob("narration-*.wav"))


def test_lines_become_real_speech_in_order(quiet: Narrator) -> None:
    quiet.say(SHORT)
    quiet.say(LONG)
    assert quiet.wait_idle(60)
    assert quiet.history == [SHORT, LONG]
    files = spoken_files(quiet)
    assert [f.name.split("-")[3] for f in files] == ["00001", "00002"]
    stats = [measure_wav(f) for f in files]
    for text, stat in zip([SHORT, LONG], stats):
        assert stat.sample_rate == 22050
        # 160 words/min is about 0.07 s a character; allow a wide but finite band
        assert 0.03 * len(text) < stat.seconds < 0.2 * len(text) + 1.0, (text, stat)
        assert stat.rms > SILENCE_RMS
    assert stats[1].seconds > 2 * stats[0].seconds
    assert quiet.problems == []


def test_rate_and_volume_apply_to_each_line_at_once(tmp_path: Path) -> None:
    """Alternating settings: each WAV follows its own call (pyttsx3 2.99 lagged one behind)."""
    seconds = []
    for n, rate in enumerate((100, 300, 100, 300)):
        synthesize(LONG, tmp_path / f"{n}.wav", AudioConfig(rate=rate))
        seconds.append(measure_wav(tmp_path / f"{n}.wav").seconds)
    assert seconds[0] > 2 * seconds[1] and seconds[2] > 2 * seconds[3]
    assert abs(seconds[0] - seconds[2]) < 0.1 and abs(seconds[1] - seconds[3]) < 0.1
    synthesize(LONG, tmp_path / "soft.wav", AudioConfig(volume=0.2))
    synthesize(LONG, tmp_path / "loud.wav", AudioConfig(volume=1.0))
    soft, loud = measure_wav(tmp_path / "soft.wav").rms, measure_wav(tmp_path / "loud.wav").rms
    assert SILENCE_RMS / 4 < soft < loud * 0.5


def test_text_is_never_taken_for_an_option(tmp_path: Path) -> None:
    synthesize("-w /tmp/elsewhere.wav --help", tmp_path / "x.wav", AudioConfig())
    assert measure_wav(tmp_path / "x.wav").seconds > 1.0


def test_voice_given_as_language_code_or_identifier(tmp_path: Path) -> None:
    for voice in ("en-gb", "en-us", "gmw/en", "en"):
        assert synthesize(SHORT, tmp_path / "v.wav", AudioConfig(voice=voice)) == [], voice


def test_unknown_voice_is_a_warning_and_speech_still_happens(tmp_path: Path) -> None:
    problems: list[str] = []
    narrator = Narrator(AudioConfig(voice="xx-nope"), speaker=False,
                        wav_dir=tmp_path, on_problem=problems.append)
    narrator.say(SHORT)
    narrator.say(SHORT)
    narrator.close()
    assert len(problems) == 1 and "unknown voice 'xx-nope'" in problems[0]
    assert len(spoken_files(narrator)) == 2
    assert measure_wav(spoken_files(narrator)[0]).rms > SILENCE_RMS


def test_repeat_says_the_last_line_again(quiet: Narrator) -> None:
    quiet.repeat()  # nothing said yet: nothing to repeat
    quiet.say("one")
    quiet.say("two")
    quiet.repeat()
    assert quiet.wait_idle(60)
    assert quiet.history == ["one", "two", "two"]
    assert len(spoken_files(quiet)) == 3


def test_say_returns_while_speech_is_busy(quiet: Narrator, monkeypatch) -> None:
    gate = threading.Event()
    real = narrator_module.synthesize

    def held(text: str, path: Path, audio: AudioConfig) -> list[str]:
        gate.wait(30)  # speech is stuck until the test opens the gate
        return real(text, path, audio)

    monkeypatch.setattr(narrator_module, "synthesize", held)
    for n in range(5):
        quiet.say(f"line {n}")  # returns although nothing can be spoken yet
    assert not quiet.wait_idle(0.2)
    gate.set()
    assert quiet.wait_idle(60)
    assert quiet.history == [f"line {n}" for n in range(5)]
    assert len(spoken_files(quiet)) == 5


def test_blank_lines_are_ignored_and_whitespace_is_folded(quiet: Narrator) -> None:
    quiet.say("   ")
    quiet.say("  two\n  words ")
    assert quiet.wait_idle(60)
    assert quiet.history == ["two words"]


def test_a_broken_speaker_is_reported_once_and_never_stops_narration(tmp_path: Path) -> None:
    problems: list[str] = []
    narrator = Narrator(AudioConfig(device="no_such_alsa_device"), speaker=True,
                        wav_dir=tmp_path, on_problem=problems.append)
    for n in range(3):
        narrator.say(f"line {n}")
    narrator.close()
    assert narrator.history == ["line 0", "line 1", "line 2"]
    assert len(problems) == 1 and problems[0].startswith("cannot play audio on no_such_alsa_device")
    assert narrator.problems == problems
    assert len(spoken_files(narrator)) == 3


def test_an_unwritable_wav_dir_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    narrator = Narrator(AudioConfig(), speaker=False, wav_dir=tmp_path)
    narrator.wav_dir = blocker / "speech"  # the folder cannot be made: a file is in the way
    narrator.say("first")
    assert narrator.wait_idle(60)
    assert any("cannot write" in p for p in narrator.problems)
    narrator.wav_dir = tmp_path
    narrator.say("second")
    narrator.close()
    assert narrator.history == ["first", "second"]
    assert len(spoken_files(narrator)) == 1


def test_synthesize_raises_speech_error_for_an_impossible_path(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(SpeechError):
        synthesize(SHORT, blocker / "x.wav", AudioConfig())


def test_close_finishes_queued_lines_then_ignores_new_ones(quiet: Narrator) -> None:
    quiet.say("before")
    quiet.close()
    quiet.say("after")
    assert quiet.history == ["before"]


def test_from_config_without_a_sound_card_writes_wavs_to_the_state_dir(
        tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(narrator_module, "find_sound_card", lambda: None)
    config = dataclasses.replace(Config(), box=BoxConfig(state_dir=tmp_path))
    narrator = Narrator.from_config(config)
    narrator.say(SHORT)
    narrator.close()
    assert narrator.speaker is False
    assert narrator.wav_dir == tmp_path / "speech"
    assert narrator.problems[0].startswith("no sound card found")
    assert len(spoken_files(narrator)) == 1


def test_from_config_keeps_wavs_where_configured(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(narrator_module, "find_sound_card", lambda: "card 0: Fake [Fake]")
    config = dataclasses.replace(Config(), box=BoxConfig(state_dir=tmp_path),
                                 audio=AudioConfig(wav_dir="copies"))
    narrator = Narrator.from_config(config)
    narrator.close()
    assert narrator.speaker is True and narrator.wav_dir == tmp_path / "copies"
    assert narrator.problems == []


def test_old_wavs_are_pruned(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(narrator_module, "KEPT_WAVS", 2)
    narrator = Narrator(AudioConfig(), speaker=False, wav_dir=tmp_path)
    for word in ("one", "two", "three"):
        narrator.say(word)
    narrator.close()
    assert [f.name.rsplit("-", 1)[1] for f in spoken_files(narrator)] == ["two.wav", "three.wav"]
