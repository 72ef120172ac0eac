"""``familiar doctor``: checks each part of the box for real and says how to fix what fails.

Every check really uses the part (grabs a camera frame, claims the pins, opens the sound
card, synthesises speech, writes to the state folder, binds the web port) because a part
that merely *looks* present is the usual way a box fails at the table.
"""
from __future__ import annotations

import grp
import os
import shutil
import socket
import tempfile
import warnings
import wave
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from gpiozero.exc import PinFactoryFallback

from device.buttons import Buttons
from device.config import Config
from device.narrator import SpeechError, find_sound_card, measure_wav, play_wav, synthesize
from device.outputs import HardwareError, Outputs, make_pin_factory

MIN_FREE_BYTES = 200 * 1024 * 1024   # the log, taught dice and cards, a few hundred WAVs
LOW_FREE_BYTES = 1024 * 1024 * 1024
SPEECH_FLOOR_RMS = 300               # espeak-ng speech measures about 2500-3200 at full volume


@dataclass(frozen=True)
class CheckResult:
    """One line of the report: ``status`` is "ok", "warn" (works, degraded) or "fail"."""
    name: str
    status: str
    detail: str
    fix: str = ""


Check = Callable[[Config], CheckResult]


def check_camera(config: Config) -> CheckResult:
    """Opens the configured camera and grabs a frame (via the vision package)."""
    cam = config.camera
    try:
        from vision.camera import CameraTuning, check_camera as grab_frame
    except ImportError as error:
        return CheckResult("camera", "fail", f"the camera code cannot be loaded: {error}",
                           "reinstall familiar (sudo make install) so the vision package is complete")
    try:
        ok, message = grab_frame(cam.source, cam.width, cam.height,
                                 CameraTuning(mains_hz=cam.mains_hz, lens_position=cam.lens_position))
    except Exception as error:  # noqa: BLE001 - a doctor reports, it does not crash
        ok, message = False, f"{type(error).__name__}: {error}"
    if ok:
        return CheckResult("camera", "ok", message)
    return CheckResult("camera", "fail", message, _camera_fix(cam.source))


def _camera_fix(source: str) -> str:
    if source.startswith("replay:"):
        return f"make {source[7:]} a folder of photos or a video file, or set camera.source"
    if source.startswith("usb:"):
        return (f"plug in the webcam and check that /dev/video{source[4:]} exists "
                "(v4l2-ctl --list-devices), or set camera.source")
    return ("for a Pi camera, reseat the ribbon cable (contacts towards the board) and check "
            "rpicam-hello --list-cameras; for a USB webcam set camera.source = \"usb:0\"")


def check_gpio(config: Config) -> CheckResult:
    """Claims every pin of the pin map (LEDs and buttons), then releases them."""
    factory = make_pin_factory(config.box.simulate)
    in_group = _in_group("gpio")
    try:
        with warnings.catch_warnings(record=True) as fallbacks:  # why each pin library failed
            warnings.simplefilter("always", PinFactoryFallback)
            outputs = Outputs.from_config(config.gpio, factory)
        try:
            Buttons(config.gpio, on_confirm=_nothing, on_undo=_nothing, on_undo_hold=_nothing,
                    pin_factory=outputs.pin_factory).close()
        finally:
            outputs.close()
    except HardwareError as error:
        tried = "".join(f"; {w.message}" for w in fallbacks)
        return CheckResult("gpio", "fail", f"{error}{tried}", _gpio_fix(error.__cause__, in_group))
    finally:
        if factory is not None:
            factory.close()
    pins = len(config.gpio.track_pins) + 3
    if config.box.simulate:
        return CheckResult("gpio", "ok", f"{pins} pins claimed on simulated pins (box.simulate = true)")
    return CheckResult("gpio", "ok", f"{pins} pins claimed with {type(outputs.pin_factory).__name__}")


def _gpio_fix(cause: BaseException | None, in_group: bool) -> str:
    """The likeliest fix for why gpiozero could not claim the pins."""
    if not in_group:
        return f"sudo usermod -aG gpio {_user()}, then log out and in again"
    if type(cause).__name__ == "BadPinFactory":
        return ("on a Raspberry Pi: sudo apt install python3-lgpio and export "
                "GPIOZERO_PIN_FACTORY=lgpio; elsewhere set box.simulate = true")
    return ("another program holds a pin (the service? sudo systemctl stop familiar), or the "
            "pin map names a pin twice across devices; see hardware.md for the wiring")


def _nothing() -> None:
    """A button action for a check that never presses anything."""


def _in_group(name: str) -> bool:
    if os.geteuid() == 0:
        return True
    try:
        return grp.getgrnam(name).gr_gid in os.getgroups()
    except KeyError:
        return False


def _user() -> str:
    import pwd
    return pwd.getpwuid(os.geteuid()).pw_name


def check_audio(config: Config) -> CheckResult:
    """Finds a sound card and opens the configured device by playing a short silence."""
    card = find_sound_card()
    device = config.audio.device
    if card is None and not device:
        status = "warn" if config.box.simulate else "fail"
        return CheckResult(
            "audio", status, "no sound card found (aplay -l): narration only goes to WAV files",
            "plug in a USB speaker, or for a MAX98357A amplifier add dtoverlay=max98357a to "
            "/boot/firmware/config.txt and reboot; then set audio.device (see aplay -L)")
    with tempfile.TemporaryDirectory(prefix="familiar-doctor-") as folder:
        silence = Path(folder) / "silence.wav"
        _write_silence(silence, seconds=0.2)
        try:
            play_wav(silence, device, 0.2)
        except SpeechError as error:
            return CheckResult("audio", "fail", str(error),
                               "list the devices with aplay -L and set audio.device, e.g. "
                               "\"plughw:CARD=Device,DEV=0\"; the service user must be in the audio group")
    return CheckResult("audio", "ok", f"played on {device or 'the default device'} ({card or 'no card listed'})")


def _write_silence(path: Path, seconds: float) -> None:
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(22050)
        wav.writeframes(b"\0\0" * int(22050 * seconds))


def check_tts(config: Config) -> CheckResult:
    """Synthesises a line with the configured voice and measures the WAV it produced."""
    fix = "sudo apt install espeak-ng"
    if shutil.which("espeak-ng") is None:
        return CheckResult("speech", "fail", "espeak-ng is not installed", fix)
    with tempfile.TemporaryDirectory(prefix="familiar-doctor-") as folder:
        path = Path(folder) / "line.wav"
        try:
            warnings = synthesize("Familiar is checking its voice.", path, config.audio)
            stats = measure_wav(path)
        except SpeechError as error:
            return CheckResult("speech", "fail", str(error), fix)
    detail = (f"voice {config.audio.voice!r}: {stats.seconds:.1f} s of speech at "
              f"{stats.sample_rate} Hz, RMS {stats.rms:.0f}")
    if warnings:
        return CheckResult("speech", "fail", f"{detail}; {'; '.join(warnings)}",
                           "pick a voice from espeak-ng --voices (e.g. \"en-gb\") for audio.voice")
    if stats.rms < SPEECH_FLOOR_RMS or stats.seconds < 0.5:
        return CheckResult("speech", "fail", f"{detail}: almost silent",
                           "raise audio.volume (0-1)")
    return CheckResult("speech", "ok", detail)


def check_disk(config: Config) -> CheckResult:
    """The state folder exists, is writable, and has room for the log and the catalogues."""
    state = config.box.state_dir
    fix = (f"sudo make install creates it for the service; otherwise mkdir -p {state} and make "
           f"it writable by {_user()}, or set box.state_dir")
    if not state.is_dir():
        return CheckResult("disk", "fail", f"state folder {state} does not exist", fix)
    try:
        with tempfile.NamedTemporaryFile(dir=state, prefix=".doctor-") as probe:
            probe.write(b"ok")
            probe.flush()
            os.fsync(probe.fileno())
    except OSError as error:
        return CheckResult("disk", "fail", f"cannot write in {state}: {error}", fix)
    free = shutil.disk_usage(state).free
    detail = f"{state} is writable, {free / 2**30:.1f} GiB free"
    if free < MIN_FREE_BYTES:
        return CheckResult("disk", "fail", detail, "free some space on the SD card")
    if free < LOW_FREE_BYTES:
        return CheckResult("disk", "warn", detail, "free some space on the SD card soon")
    return CheckResult("disk", "ok", detail)


def check_web_port(config: Config) -> CheckResult:
    """The web page's address can be bound (nothing else listens there)."""
    host, port = config.web.host, config.web.port
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            return CheckResult(
                "web", "fail", f"cannot listen on {host}:{port}: {error.strerror or error}",
                f"find what uses it with: sudo ss -ltnp 'sport = :{port}' (the familiar service "
                "itself? sudo systemctl stop familiar); or set web.port / web.host")
    return CheckResult("web", "ok", f"{host}:{port} is free")


CHECKS: tuple[Check, ...] = (check_camera, check_gpio, check_audio, check_tts, check_disk,
                             check_web_port)


def run_doctor(config: Config, checks: Sequence[Check] = CHECKS) -> int:
    """Runs every check, prints each result with its fix; 0 when nothing failed, else 1."""
    failed = 0
    for check in checks:
        result = check(config)
        label = {"ok": " ok ", "warn": "warn", "fail": "FAIL"}[result.status]
        print(f"[{label}] {result.name}: {result.detail}", flush=True)
        if result.fix and result.status != "ok":
            print(f"       fix: {result.fix}", flush=True)
        failed += result.status == "fail"
    print("all checks passed" if not failed else f"{failed} check(s) failed", flush=True)
    return 1 if failed else 0
