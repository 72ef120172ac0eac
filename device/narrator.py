"""The box's voice: lines are spoken one at a time, in order, on a thread of their own.

``say()`` only queues, so speech never blocks the engine. Each line is synthesised into a
WAV file by ``espeak-ng -w``, then played with ``aplay`` on the configured ALSA device
and/or kept in ``wav_dir``. Playing a finished file (rather than streaming) is what makes
one line end before the next begins, and lets every line also exist as a WAV.

Why not pyttsx3, the design card's package: pyttsx3 2.99's espeak driver was tried first
and measured here. Its ``runAndWait()`` returns before ``save_to_file`` has written the
file (on a fresh engine the WAV appeared about 10 ms *after* the call returned), and
property changes land one utterance late: asking for rates 100, 300, 100, 300, 160, 450,
80 in turn gave WAVs of 10.6, 10.7, 10.7, 10.8, 10.8, 2.3 and 0.0 s for one sentence,
where ``espeak-ng -w`` gives 10.6 s at 100 and 3.3 s at 300. Its ``say()`` plays through
``os.system("aplay FILE")``, which ignores the configured ALSA device and hides errors.
So, as the design allows when pyttsx3 cannot write files reliably, the narrator runs
espeak-ng itself: a subprocess per line is synchronous, has a timeout, cannot wedge the
narrator thread inside a ctypes callback, and reports errors on stderr.

A failure (espeak-ng missing, an unknown voice, a missing speaker) is logged and reported
through ``problems`` and ``on_problem``, never raised to the caller: the game goes on.
"""

from __future__ import annotations

import logging
import os
import re
import subprocess
import tempfile
import threading
import time
import wave
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from device.config import AudioConfig, Config
from engine.messages import _
from web.language import Language

log = logging.getLogger(__name__)

KEPT_WAVS = 500  # newest WAV copies kept in wav_dir; older ones are deleted
KEPT_WAV_BYTES = 20 << 20  # and at most this much of them: a line is 50-300 kB
KEPT_PROBLEMS = 50
KEPT_HISTORY = 100  # lines said, for the board and the host page (they show the last few)
KEPT_RECORD = 200  # lines in the record of when each was heard
MAX_QUEUED = 100  # lines waiting; beyond this the oldest waiting line is dropped
STOP_SECONDS = 2.0  # a stopping box waits this long for the line being said: a stop must take under 5 s
PLAY_MARGIN_SECONDS = 10  # aplay gets the clip's length plus this before it is given up
ALSA_NAMES = {"default", "sysdefault", "null", "pulse", "pipewire", "jack"}

# espeak-ng needs well under a second for a long line; a hung one must cost one line,
# not stall every line behind it
SYNTH_TIMEOUT_SECONDS = 10
DEFAULT_VOICE = "en"  # espeak-ng's English voice, present in every espeak-ng install


class SpeechError(RuntimeError):
    """Text could not be turned into audio."""


@dataclass(frozen=True)
class WavStats:
    """What a WAV file really contains, measured from its samples."""

    sample_rate: int
    seconds: float
    rms: float


def measure_wav(path: Path) -> WavStats:
    """Sample rate, duration and loudness (RMS of 16-bit samples) of a mono/stereo WAV."""
    with wave.open(str(path), "rb") as wav:
        frames = wav.readframes(wav.getnframes())
        rate, count, width = wav.getframerate(), wav.getnframes(), wav.getsampwidth()
    if width != 2:
        raise SpeechError(f"{path}: expected 16-bit samples, got {8 * width}-bit")
    samples = np.frombuffer(frames, dtype="<i2").astype(np.float64)
    rms = float(np.sqrt(np.mean(samples**2))) if samples.size else 0.0
    return WavStats(sample_rate=rate, seconds=count / rate if rate else 0.0, rms=rms)


def synthesize(text: str, path: Path, audio: AudioConfig, voice: str | None = None) -> list[str]:
    """Writes ``text`` as speech to the WAV file ``path`` with ``voice`` (the configured
    English voice by default), rate and volume. Returns warnings (an unknown voice:
    espeak-ng's English voice is used instead); raises :class:`SpeechError` when no audio
    could be written."""
    voice = voice or audio.voice
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.unlink(missing_ok=True)  # so a stale file can never pass for new speech
    except OSError as error:
        raise SpeechError(f"cannot write {path}: {error}") from error
    warnings: list[str] = []
    try:
        _espeak(text, path, voice, audio)
    except _UnknownVoice:
        warnings.append(f"unknown voice {voice!r} (see: espeak-ng --voices); using {DEFAULT_VOICE!r}")
        _espeak(text, path, DEFAULT_VOICE, audio)
    if not path.exists() or path.stat().st_size <= 44:  # 44 bytes = a WAV header, no audio
        raise SpeechError(f"espeak-ng wrote no audio to {path}")
    return warnings


class _UnknownVoice(SpeechError):
    """espeak-ng has no voice by that name."""


def _espeak(text: str, path: Path, voice: str, audio: AudioConfig) -> None:
    """One ``espeak-ng -w`` run. The text goes in on stdin (``--stdin``), so a line starting
    with "-" can never be taken for an option; amplitude 100 is espeak-ng's default level."""
    command = [
        "espeak-ng",
        "-v",
        voice,
        "-s",
        str(audio.rate),
        "-a",
        str(round(audio.volume * 100)),
        "-b",
        "1",
        "--stdin",
        "-w",
        str(path),
    ]
    try:
        done = subprocess.run(command, input=text, capture_output=True, text=True, timeout=SYNTH_TIMEOUT_SECONDS)
    except FileNotFoundError as error:
        raise SpeechError("espeak-ng is not installed") from error
    except subprocess.TimeoutExpired as error:
        raise SpeechError(f"espeak-ng took over {SYNTH_TIMEOUT_SECONDS} s") from error
    if done.returncode != 0:
        message = done.stderr.strip() or f"exit status {done.returncode}"
        if "voice does not exist" in message:
            raise _UnknownVoice(message)
        raise SpeechError(f"espeak-ng failed: {message}")


def find_sound_card() -> str | None:
    """The ALSA playback card that ``audio.device = ""`` plays on, as ``aplay -l`` lists it
    (e.g. ``card 1: UACDemoV10 ...``; see :func:`default_card`), or None when there is
    none or alsa-utils is missing."""
    card = default_card(_aplay_listing())
    return card[0] if card else None


def _aplay_listing() -> str:
    try:
        return subprocess.run(["aplay", "-l"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""


_CARD_LINE = re.compile(r"^card (\d+): (\S+) \[(.*?)\], device (\d+): ([^\n]*)$", re.MULTILINE)


def _playback_devices(listing: str) -> list[tuple[str, str]]:
    """Each playback device of an ``aplay -l`` listing: its line and its ALSA device, by
    the card's id, not its number (numbers change when cards are plugged in another order)."""
    return [
        (match.group(0), f"plughw:CARD={match.group(2)},DEV={match.group(4)}") for match in _CARD_LINE.finditer(listing)
    ]


def is_hdmi(card: str) -> bool:
    """An HDMI output (``vc4hdmi0 [vc4-hdmi-0]`` on a Pi 4 or 5, ``bcm2835 HDMI 1`` on
    older kernels): silent unless a screen with speakers is plugged in."""
    return "hdmi" in card.casefold()


def default_card(listing: str) -> tuple[str, str] | None:
    """The card ``audio.device = ""`` plays on: the first playback device that is not HDMI,
    else the first one. ALSA's own default is card 0, which on a Pi 5 (no headphone
    jack) is HDMI, so a box with a USB speaker or an I2S amp would be silent."""
    devices = _playback_devices(listing)
    speakers = [device for device in devices if not is_hdmi(device[0])]
    return (speakers or devices or [None])[0]


def card_device(name: str, listing: str) -> str | None:
    """The ALSA device of the first playback card whose short id, long name or device name
    contains ``name`` (any case) in an ``aplay -l`` listing, e.g. "USB" finds
    ``card 1: UACDemoV10 [UACDemoV1.0], device 0: USB Audio`` as ``plughw:CARD=UACDemoV10,DEV=0``."""
    wanted = name.casefold()
    for _number, card_id, long_name, device, device_name in _CARD_LINE.findall(listing):
        if wanted in f"{card_id} {long_name} {device_name}".casefold():
            return f"plughw:CARD={card_id},DEV={device}"
    return None


def alsa_device(configured: str) -> str:
    """The ALSA device to play on for ``audio.device``: "" is the first card that is not
    HDMI (:func:`default_card`; ALSA's default when there is no card to list), ALSA names
    (``plughw:1,0``, ``default``, ``null``...) are kept as they are; any other word is a
    sound card's name. Cards are looked up now, so a card plugged in later is found at
    the next line."""
    if configured and (":" in configured or configured in ALSA_NAMES):
        return configured
    listing = _aplay_listing()
    if not configured:
        card = default_card(listing)
        return card[1] if card else ""
    found = card_device(configured, listing)
    if found is None:
        cards = ", ".join(f"{i} [{n}]" for _, i, n, _, _ in _CARD_LINE.findall(listing)) or "none"
        raise SpeechError(f"no sound card named {configured!r} (cards found: {cards})")
    return found


def play_wav(path: Path, device: str, seconds: float) -> None:
    """Plays a WAV on the ALSA ``device`` ("" = default) and waits until it has finished,
    so that lines never overlap; raises :class:`SpeechError` with aplay's own message."""
    command = ["aplay", "-q"] + (["-D", device] if device else []) + [str(path)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + PLAY_MARGIN_SECONDS)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise SpeechError(f"cannot play audio: {error}") from error
    if done.returncode != 0:
        message = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"
        raise SpeechError(f"cannot play audio on {device or 'the default device'}: {message}")


@dataclass(frozen=True)
class Spoken:
    """When a line was heard (``time.monotonic()``): from the start of its playing to its
    end; without a speaker, the moment its WAV was ready (start and end are one).
    ``synthesised`` is when its synthesis began and ended: it runs during the quiet
    before the line, and a line that took longer to synthesise than that quiet starts
    late, which the record shows."""

    text: str
    started: float
    ended: float
    voice: str = ""
    language: str = ""
    synthesised: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class _Line:
    """A line waiting to be said: its words in the table's language, the voice for them,
    and the quiet after it."""

    text: str
    language: str
    voice: str
    then_wait: float = 0.0


class Narrator:
    """Speaks lines in order on its own thread; keeps the history and the problems.

    A line said with ``first=True`` (a seat reset, host pairing: things the whole table
    must hear now) goes before every line still waiting.  The queue and the history
    are bounded, so a long evening cannot grow them without end.  A line said with
    ``then_wait`` is followed by exactly that much quiet, from its end to the next line's
    start: the next line is synthesised during the quiet, then played when it is over."""

    def __init__(
        self,
        audio: AudioConfig,
        *,
        speaker: bool,
        wav_dir: Path | None = None,
        on_problem: Callable[[str], None] | None = None,
        on_recovered: Callable[[], None] | None = None,
        language: Callable[[], str] = lambda: "en",
        on_said: Callable[[], None] | None = None,
    ) -> None:
        self.audio = audio
        self._language = language
        self._on_said = on_said
        self.speaker = speaker
        self.wav_dir = wav_dir
        self._on_problem = on_problem
        self._on_recovered = on_recovered
        self._history: deque[str] = deque(maxlen=KEPT_HISTORY)
        self._warnings: list[str] = []
        self._failures: list[str] = []
        self._last_queued: _Line | None = None
        self._number = 0
        self._finished = 0
        self._dropped = 0  # lines dropped in the current burst (the queue full since)
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._first: deque[_Line] = deque()
        self._lines: deque[_Line] = deque()
        self._record: deque[Spoken] = deque(maxlen=KEPT_RECORD)
        self._quiet_until = 0.0
        self._speaking = False
        self._closed = False
        if wav_dir is not None:
            wav_dir.mkdir(parents=True, exist_ok=True)
        self._thread = threading.Thread(target=self._run, name="narrator", daemon=True)
        self._thread.start()

    @classmethod
    def from_config(
        cls,
        config: Config,
        on_problem: Callable[[str], None] | None = None,
        on_recovered: Callable[[], None] | None = None,
        language: Callable[[], str] | None = None,
        on_said: Callable[[], None] | None = None,
    ) -> Narrator:
        """Speaker if a sound card (or an explicit ALSA device) exists; WAV copies when
        ``audio.wav_dir`` is set, when simulating, or when there is no speaker at all.
        Default copies go to a temporary folder, never the state directory: they would
        share its disk space with the log, which must always have room."""
        card = find_sound_card()
        speaker = card is not None or bool(config.audio.device)
        wav_dir = config.state_path(config.audio.wav_dir) if config.audio.wav_dir else None
        if wav_dir is None and (config.box.simulate or not speaker):
            wav_dir = Path(tempfile.mkdtemp(prefix="familiar-speech-"))
        narrator = cls(
            config.audio,
            speaker=speaker,
            wav_dir=wav_dir,
            on_problem=on_problem,
            on_recovered=on_recovered,
            language=language or (lambda: config.box.language),
            on_said=on_said,
        )
        if not speaker:
            # a message, so the host page shows it in the table's language
            notice = _(
                "no sound card found (aplay -l): narration is only written as WAV files to {folder}",
                folder=str(wav_dir),
            )
            narrator._report(notice, failure=False)
        else:
            log.info("narrating on %s", config.audio.device or card)
        return narrator

    @property
    def history(self) -> list[str]:
        """Lines really said (played, or written as WAV when there is no speaker), oldest
        first (a copy of the last KEPT_HISTORY)."""
        with self._lock:
            return list(self._history)

    @property
    def finished(self) -> int:
        """How many lines the thread has finished with, said or failed: the watchdog's sign
        of work done.  A count, not the history's length, which stops at KEPT_HISTORY."""
        with self._lock:
            return self._finished

    @property
    def record(self) -> list[Spoken]:
        """When each recent line was heard, oldest first (a copy)."""
        with self._lock:
            return list(self._record)

    @property
    def problems(self) -> list[str]:
        """Distinct problems in force (a copy), for the host's page: set-up warnings, and
        failures until a line is said again."""
        with self._lock:
            return self._warnings + self._failures

    def say(self, text: str, first: bool = False, then_wait: float = 0.0) -> None:
        """Queues a line (to be followed by ``then_wait`` seconds of quiet) and returns at
        once; blank text is ignored.  A message is said in the table's language now, with
        that language's voice (the language is read when the line is queued, so a line
        is never said half in one language)."""
        language = self._language()
        words = " ".join(Language(language).text(text).split())
        if words:
            self._queue(_Line(words, language, self.audio.voice_for(language), then_wait), first)

    def _queue(self, line: _Line, first: bool) -> None:
        with self._wake:
            if self._closed:
                log.warning("narrator closed, not saying: %s", line.text)
                return
            self._last_queued = line
            if first:
                self._first.append(line)
            else:
                if len(self._lines) >= MAX_QUEUED:
                    self._drop(self._lines.popleft())
                self._lines.append(line)
            self._wake.notify_all()

    def _drop(self, line: _Line) -> None:
        """The queue is full: its oldest line goes.  Logged once per burst (a flood of
        lines logged one warning per dropped line, 37,683 in a minute); the burst's count
        is logged when the narrator has caught up.  Called holding the lock."""
        if not self._dropped:
            log.warning(
                "narration is %d lines behind: dropping the oldest waiting lines, from %r", MAX_QUEUED, line.text
            )
        self._dropped += 1

    def _caught_up(self) -> None:
        """Nothing waits any more: a burst of dropped lines is over.  Called holding the lock."""
        if self._dropped:
            log.warning("narration caught up; %d lines were dropped unsaid", self._dropped)
            self._dropped = 0

    def repeat(self) -> None:
        """Says the last line again (the held undo button); nothing said yet: nothing."""
        with self._lock:
            last = self._last_queued
        if last is not None:
            self._queue(_Line(last.text, last.language, last.voice), first=False)

    def _busy(self) -> bool:
        return bool(self._first or self._lines or self._speaking)

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Blocks until every queued line has been spoken; False on timeout."""
        with self._wake:
            return self._wake.wait_for(lambda: not self._busy(), timeout)

    def close(self, timeout: float = 30.0) -> None:
        """Finishes the queued lines, then stops the thread."""
        self._close(timeout, drop_waiting=False)

    def stop(self, timeout: float = STOP_SECONDS) -> None:
        """The box is stopping: the lines still waiting are dropped (logged with their
        count), and the line being said gets at most ``timeout`` to finish.  Finishing a
        full queue took 30-40 s, beyond systemd's stop timeout; the thread is a daemon
        thread, so one still busy after ``timeout`` ends with the process."""
        self._close(timeout, drop_waiting=True)
        if self._thread.is_alive():
            log.warning("narrator still busy with a line after %.0f s: stopping without it", timeout)

    def _close(self, timeout: float, drop_waiting: bool) -> None:
        with self._wake:
            if self._closed:
                return
            self._closed = True
            waiting = len(self._first) + len(self._lines)
            if drop_waiting and waiting:
                log.warning("stopping: %d waiting lines of narration not said", waiting)
                self._first.clear()
                self._lines.clear()
            self._wake.notify_all()
        self._thread.join(timeout)

    def _next(self) -> _Line | None:
        """The next line to say (first-in-line ones before the rest); None: closed and done."""
        with self._wake:
            self._speaking = False
            self._wake.notify_all()
            if not (self._first or self._lines):
                self._caught_up()
            self._wake.wait_for(lambda: self._first or self._lines or self._closed)
            if not (self._first or self._lines):
                return None
            self._speaking = True
            return (self._first or self._lines).popleft()

    def _run(self) -> None:
        while (line := self._next()) is not None:
            try:
                self._speak(line)
            except Exception as error:  # noqa: BLE001 - the thread must outlive any failure
                log.warning("could not narrate %r", line.text)
                self._report(str(error))
            else:
                self._said(line.text)
            finally:
                self._quiet_until = time.monotonic() + line.then_wait  # kept even if the line failed
                with self._lock:
                    self._finished += 1

    def _speak(self, line: _Line) -> None:
        text = line.text
        log.info("say: %s", text)
        with self._lock:
            self._number += 1
            number = self._number
        path, temporary = self._wav_path(text, number)
        try:
            began = time.monotonic()
            for warning in synthesize(text, path, self.audio, line.voice):
                self._report(f"text-to-speech: {warning}", failure=False)
            ready = time.monotonic()
            time.sleep(max(0.0, self._quiet_until - ready))
            started = time.monotonic()
            if self.speaker:
                play_wav(path, alsa_device(self.audio.device), measure_wav(path).seconds)
            with self._lock:
                self._record.append(Spoken(text, started, time.monotonic(), line.voice, line.language, (began, ready)))
        finally:
            if temporary:
                path.unlink(missing_ok=True)
        if self.wav_dir is not None:
            log.info("wrote %s", path)
            self._prune()

    def _said(self, text: str) -> None:
        """A line reached the table: it joins the history, and any failure is over."""
        with self._lock:
            self._history.append(text)
            recovered, self._failures = bool(self._failures), []
        if self._on_said is not None:
            try:
                self._on_said()
            except Exception:  # noqa: BLE001
                log.exception("the narrator's said callback failed")
        if recovered and self._on_recovered is not None:
            try:
                self._on_recovered()
            except Exception:  # noqa: BLE001
                log.exception("the narrator's recovery callback failed")

    def _wav_path(self, text: str, number: int) -> tuple[Path, bool]:
        """Where to synthesise: a kept file in wav_dir, else a temporary one (True)."""
        if self.wav_dir is None:
            handle, name = tempfile.mkstemp(prefix="familiar-", suffix=".wav")
            os.close(handle)
            return Path(name), True
        slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "line"
        stamp = time.strftime("%Y%m%d-%H%M%S")
        return self.wav_dir / f"narration-{stamp}-{number:05d}-{slug}.wav", False

    def _prune(self) -> None:
        """Keeps the newest KEPT_WAVS copies, at most KEPT_WAV_BYTES of them, so a long
        season cannot fill the SD card."""
        assert self.wav_dir is not None
        total = 0
        for kept, old in enumerate(sorted(self.wav_dir.glob("narration-*.wav"), reverse=True)):
            try:
                total += old.stat().st_size
                if kept >= KEPT_WAVS or total > KEPT_WAV_BYTES:
                    old.unlink()
            except OSError:
                continue

    def _report(self, problem: str, failure: bool = True) -> None:
        """Logs every problem; keeps and announces each distinct one once.  A failure
        (nothing could be said) lasts until a line is said again; a warning (a voice
        replaced) lasts."""
        log.warning("%s", problem)
        with self._lock:
            if problem in self._warnings or problem in self._failures:
                return
            if failure:
                self._failures = (self._failures + [problem])[-KEPT_PROBLEMS:]
            else:
                self._warnings = (self._warnings + [problem])[-KEPT_PROBLEMS:]
        if self._on_problem is not None:
            try:
                self._on_problem(problem)
            except Exception:  # noqa: BLE001
                log.exception("the narrator's problem callback failed")
