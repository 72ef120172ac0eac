"""The narrator makes real speech: WAVs from pyttsx3/espeak-ng, measured with ``wave``."""

from __future__ import annotations

import dataclasses
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from device import narrator as narrator_module
from device.config import AudioConfig, BoxConfig, Config
from device.narrator import Narrator, SpeechError, measure_wav, synthesize

SHORT = "Three, three, five: eleven."
LONG = "The Dark Lord's forces advance: move the Threat marker one space, and every hero loses one heart."
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
    for text, stat in zip([SHORT, LONG], stats, strict=True):
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
    narrator = Narrator(AudioConfig(voice="xx-nope"), speaker=False, wav_dir=tmp_path, on_problem=problems.append)
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

    def held(text: str, path: Path, audio: AudioConfig, voice: str | None = None) -> list[str]:
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
    narrator = Narrator(
        AudioConfig(device="hw:no_such_card"), speaker=True, wav_dir=tmp_path, on_problem=problems.append
    )
    for n in range(3):
        narrator.say(f"line {n}")
    narrator.close()
    assert narrator.history == []  # written, never heard: the board must not list them as said
    assert len(problems) == 1 and problems[0].startswith("cannot play audio on hw:no_such_card")
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
    assert narrator.history == ["second"]
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


def test_from_config_without_a_sound_card_writes_wavs_outside_the_state_dir(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(narrator_module, "find_sound_card", lambda: None)
    config = dataclasses.replace(Config(), box=BoxConfig(state_dir=tmp_path))
    narrator = Narrator.from_config(config)
    narrator.say(SHORT)
    narrator.close()
    assert narrator.speaker is False
    assert narrator.wav_dir is not None and tmp_path not in narrator.wav_dir.parents
    assert narrator.problems[0].startswith("no sound card found")
    assert len(spoken_files(narrator)) == 1


def test_from_config_keeps_wavs_where_configured(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(narrator_module, "find_sound_card", lambda: "card 0: Fake [Fake]")
    config = dataclasses.replace(Config(), box=BoxConfig(state_dir=tmp_path), audio=AudioConfig(wav_dir="copies"))
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


def fake_espeak(folder: Path, script: str) -> Path:
    """A stand-in espeak-ng on PATH (a fault injected where the real program runs)."""
    folder.mkdir(parents=True, exist_ok=True)
    program = folder / "espeak-ng"
    program.write_text("#!/bin/sh\n" + script + "\n")
    program.chmod(0o755)
    return folder


def test_lines_never_said_are_not_in_the_history(tmp_path: Path, monkeypatch) -> None:
    """espeak-ng missing: /api/board listed lines as spoken that nobody heard."""
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    narrator = Narrator(AudioConfig(), speaker=False, wav_dir=tmp_path / "speech")
    narrator.say("The dark lord advances.")
    narrator.close()
    assert narrator.history == [] and narrator.problems == ["espeak-ng is not installed"]


@pytest.mark.slow
def test_a_hung_espeak_costs_one_line_is_reported_and_clears_itself(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(narrator_module, "SYNTH_TIMEOUT_SECONDS", 1)
    real_path = os.environ["PATH"]
    monkeypatch.setenv("PATH", f"{fake_espeak(tmp_path / 'bin', 'exec sleep 60')}:{real_path}")
    problems: list[str] = []
    recovered: list[bool] = []
    narrator = Narrator(
        AudioConfig(),
        speaker=False,
        wav_dir=tmp_path / "speech",
        on_problem=problems.append,
        on_recovered=lambda: recovered.append(True),
    )
    for n in range(3):
        narrator.say(f"line {n}")
    assert narrator.wait_idle(30)  # three lines of at most a second each, not a stall
    assert problems == ["espeak-ng took over 1 s"] and narrator.history == []
    monkeypatch.setenv("PATH", real_path)  # the speech engine works again
    narrator.say("back")
    narrator.close()
    assert narrator.history == ["back"] and recovered == [True] and narrator.problems == []


def test_a_speaker_problem_clears_when_a_line_plays_again(tmp_path: Path) -> None:
    """ALSA's null device plays (into nothing) on any machine, sound card or not."""
    problems: list[str] = []
    recovered: list[bool] = []
    narrator = Narrator(
        AudioConfig(device="hw:no_such_card"),
        speaker=True,
        on_problem=problems.append,
        on_recovered=lambda: recovered.append(True),
    )
    narrator.say("one")
    assert narrator.wait_idle(30) and len(problems) == 1 and narrator.problems == problems
    narrator.audio = AudioConfig(device="null")  # the speaker is back
    narrator.say("two")
    assert narrator.wait_idle(30) and recovered == [True] and narrator.problems == []
    narrator.audio = AudioConfig(device="hw:no_such_card")  # and gone again: said again
    narrator.say("three")
    narrator.close()
    assert len(problems) == 2 and narrator.history == ["two"]


def held_speech(monkeypatch, narrator: Narrator) -> threading.Event:
    """Says "line 0" and holds speech inside it until the returned gate is opened."""
    gate, inside = threading.Event(), threading.Event()
    real = narrator_module.synthesize

    def held(text: str, path: Path, audio: AudioConfig, voice: str | None = None) -> list[str]:
        inside.set()
        gate.wait(30)
        return real(text, path, audio)

    monkeypatch.setattr(narrator_module, "synthesize", held)
    narrator.say("line 0")
    assert inside.wait(30)
    return gate


def test_a_flood_of_lines_is_logged_once_per_burst(quiet: Narrator, monkeypatch, caplog) -> None:
    """A full queue logged one warning per dropped line (37,683 lines in a minute)."""
    caplog.set_level("WARNING", logger="device.narrator")
    for burst in range(2):
        gate = held_speech(monkeypatch, quiet)  # line 0 is being said
        for n in range(1, narrator_module.MAX_QUEUED + 301):  # 100 waiting, 300 dropped
            quiet.say(f"burst {burst} line {n}")
        gate.set()
        assert quiet.wait_idle(120)
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert warnings == [
        "narration is 100 lines behind: dropping the oldest waiting lines, from 'burst 0 line 1'",
        "narration caught up; 300 lines were dropped unsaid",
        "narration is 100 lines behind: dropping the oldest waiting lines, from 'burst 1 line 1'",
        "narration caught up; 300 lines were dropped unsaid",
    ]
    assert quiet.history[-1] == "burst 1 line 400"


def test_stop_drops_the_waiting_lines_and_says_how_many(quiet: Narrator, monkeypatch, caplog) -> None:
    gate = held_speech(monkeypatch, quiet)
    for n in range(1, 20):
        quiet.say(f"line {n}")
    quiet.stop(timeout=0.2)  # line 0 is stuck: the stop does not wait for it
    assert any(r.getMessage() == "stopping: 19 waiting lines of narration not said" for r in caplog.records)
    gate.set()
    assert quiet.wait_idle(30)
    assert quiet.history == ["line 0"]


def test_a_first_line_goes_before_every_waiting_line(quiet: Narrator, monkeypatch) -> None:
    """A seat reset was announced only behind 300 queued lines: it must be heard at once."""
    gate = held_speech(monkeypatch, quiet)
    for n in range(1, 4):
        quiet.say(f"line {n}")
    quiet.say("Bob's seat was reset.", first=True)
    gate.set()
    assert quiet.wait_idle(60)
    assert quiet.history == ["line 0", "Bob's seat was reset.", "line 1", "line 2", "line 3"]


def test_the_queue_and_the_history_are_bounded(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(narrator_module, "MAX_QUEUED", 3)
    monkeypatch.setattr(narrator_module, "KEPT_HISTORY", 2)
    narrator = Narrator(AudioConfig(), speaker=False, wav_dir=tmp_path)
    gate = held_speech(monkeypatch, narrator)
    for n in range(1, 7):
        narrator.say(f"line {n}")
    gate.set()
    narrator.close()
    assert [f.name.rsplit("-", 1)[1] for f in spoken_files(narrator)] == ["0.wav", "4.wav", "5.wav", "6.wav"]
    assert narrator.history == ["line 5", "line 6"]


def test_wav_copies_are_capped_in_bytes(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(narrator_module, "KEPT_WAV_BYTES", 1)  # less than one line: only the newest stays
    narrator = Narrator(AudioConfig(), speaker=False, wav_dir=tmp_path)
    for word in ("one", "two"):
        narrator.say(word)
    narrator.close()
    assert spoken_files(narrator) == []


APLAY_L = """**** List of PLAYBACK Hardware Devices ****
card 0: Headphones [bcm2835 Headphones], device 0: bcm2835 Headphones [bcm2835 Headphones]
  Subdevices: 8/8
card 1: UACDemoV10 [UACDemoV1.0], device 0: USB Audio [USB Audio]
  Subdevices: 1/1
"""


def test_a_sound_card_is_found_by_its_name() -> None:
    assert narrator_module.card_device("UACDemo", APLAY_L) == "plughw:CARD=UACDemoV10,DEV=0"
    assert narrator_module.card_device("headphones", APLAY_L) == "plughw:CARD=Headphones,DEV=0"
    assert narrator_module.card_device("USB", APLAY_L) == "plughw:CARD=UACDemoV10,DEV=0"  # its device's name
    assert narrator_module.card_device("HDMI", APLAY_L) is None
    for name in ("default", "null", "plughw:1,0", "hw:CARD=x,DEV=0"):
        assert narrator_module.alsa_device(name) == name  # ALSA's own names pass as they are


PI5_APLAY_L = """**** List of PLAYBACK Hardware Devices ****
card 0: vc4hdmi0 [vc4-hdmi-0], device 0: MAI PCM i2s-hifi-0 [MAI PCM i2s-hifi-0]
  Subdevices: 1/1
  Subdevice #0: subdevice #0
card 1: vc4hdmi1 [vc4-hdmi-1], device 0: MAI PCM i2s-hifi-0 [MAI PCM i2s-hifi-0]
  Subdevices: 1/1
  Subdevice #0: subdevice #0
"""
"""``aplay -l`` on a Raspberry Pi 5: no headphone jack, card 0 is the first HDMI port."""
PI5_USB_SPEAKER = (
    PI5_APLAY_L
    + """card 2: Device [USB Audio Device], device 0: USB Audio [USB Audio]
  Subdevices: 1/1
  Subdevice #0: subdevice #0
"""
)
PI4_APLAY_L = """**** List of PLAYBACK Hardware Devices ****
card 0: Headphones [bcm2835 Headphones], device 0: bcm2835 Headphones [bcm2835 Headphones]
  Subdevices: 8/8
card 1: vc4hdmi0 [vc4-hdmi-0], device 0: MAI PCM i2s-hifi-0 [MAI PCM i2s-hifi-0]
  Subdevices: 1/1
card 2: MAX98357A [MAX98357A], device 0: bcm2835-i2s-HiFi HiFi-0 [bcm2835-i2s-HiFi HiFi-0]
  Subdevices: 1/1
"""


@pytest.mark.parametrize(
    ("listing", "device"),
    [
        (PI5_USB_SPEAKER, "plughw:CARD=Device,DEV=0"),  # not ALSA's card 0, the HDMI port
        (PI5_APLAY_L, "plughw:CARD=vc4hdmi0,DEV=0"),  # only HDMI: the first one, as ALSA would
        (PI4_APLAY_L, "plughw:CARD=Headphones,DEV=0"),  # the first card that is not HDMI
        (APLAY_L, "plughw:CARD=Headphones,DEV=0"),
        ("aplay: device_list:274: no soundcards found...\n", ""),  # ALSA's default
    ],
)
def test_the_default_device_is_the_first_card_that_is_not_hdmi(monkeypatch, listing: str, device: str) -> None:
    monkeypatch.setattr(narrator_module, "_aplay_listing", lambda: listing)
    assert narrator_module.alsa_device("") == device


def test_the_default_card_line_names_the_card_played_on(monkeypatch) -> None:
    monkeypatch.setattr(narrator_module, "_aplay_listing", lambda: PI5_USB_SPEAKER)
    assert narrator_module.find_sound_card() == "card 2: Device [USB Audio Device], device 0: USB Audio [USB Audio]"
    monkeypatch.setattr(narrator_module, "_aplay_listing", lambda: "")
    assert narrator_module.find_sound_card() is None


def test_a_named_card_that_is_not_plugged_in_is_a_problem_naming_it(tmp_path: Path) -> None:
    problems: list[str] = []
    narrator = Narrator(AudioConfig(device="NoSuchCard"), speaker=True, on_problem=problems.append)
    narrator.say("hello")
    narrator.close()
    assert len(problems) == 1 and "no sound card named 'NoSuchCard'" in problems[0]


def _samples(path: Path) -> bytes:
    import wave

    with wave.open(str(path), "rb") as wav:
        return wav.readframes(wav.getnframes())


def test_a_german_table_hears_german_in_the_german_voice(tmp_path: Path) -> None:
    """The line is translated when queued and said with ``audio.voice_de``: its WAV is the
    German voice's, sample for sample, and not what the English voice makes of it."""
    from engine.messages import _

    language = ["de"]
    narrator = Narrator(AudioConfig(), speaker=False, wav_dir=tmp_path / "speech", language=lambda: language[0])
    narrator.say(_("Familiar is ready."))
    language[0] = "en"
    narrator.say(_("Familiar is ready."))
    assert narrator.wait_idle(60)
    narrator.close()
    assert narrator.history == ["Familiar ist bereit.", "Familiar is ready."]
    assert [(s.language, s.voice) for s in narrator.record] == [("de", "de"), ("en", "en-gb")]
    german, english = spoken_files(narrator)
    assert measure_wav(german).rms > SILENCE_RMS
    synthesize("Familiar ist bereit.", tmp_path / "de.wav", AudioConfig(), "de")
    synthesize("Familiar ist bereit.", tmp_path / "en.wav", AudioConfig(), "en-gb")
    assert _samples(german) == _samples(tmp_path / "de.wav")
    assert _samples(german) != _samples(tmp_path / "en.wav")
