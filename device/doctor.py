"""``familiar doctor``: checks each part of the box for real and says how to fix what fails.

Every check really uses the part (grabs a camera frame, claims the pins, speaks a line
on the sound card, synthesises speech, writes to the state folder, binds the web port)
because a part that merely *looks* present is the usual way a box fails at the table.

It runs beside the service only after ``sudo systemctl stop familiar`` (the service holds
the camera, the pins and the port), as the service user with the installed program:
``sudo -u familiar /opt/familiar/.venv/bin/familiar doctor``.
"""

from __future__ import annotations

import grp
import importlib.util
import os
import re
import shutil
import socket
import subprocess
import tempfile
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from gpiozero.exc import PinFactoryFallback

from device.buttons import Buttons
from device.config import DEFAULT_PATH as DEFAULT_CONFIG
from device.config import Config
from device.narrator import (
    SpeechError,
    alsa_device,
    find_sound_card,
    is_hdmi,
    measure_wav,
    play_wav,
    synthesize,
)
from device.outputs import HardwareError, Outputs, make_pin_factory
from device.strip import StripError
from vision.camera.pi import NUMPY_FIX

MIN_FREE_BYTES = 200 * 1024 * 1024  # the log, taught dice and cards, a few hundred WAVs
LOW_FREE_BYTES = 1024 * 1024 * 1024
SPEECH_FLOOR_RMS = 300  # espeak-ng speech measures about 2500-3200 at full volume
SPOKEN_LINE = "This is Familiar. If you can hear me, my speaker works."
BOOT_CONFIG = Path("/boot/firmware/config.txt")
DEVICE_MODEL = Path("/proc/device-tree/model")
VCGENCMD = "vcgencmd"
SOUND_CARDS = Path("/proc/asound/cards")
DRM_CONNECTORS = Path("/sys/class/drm")
OVERLAY_PINS = {"max98357a": ("sdmode-pin", 4, "no-sdmode"), "w1-gpio": ("gpiopin", 4, None)}
"""Device-tree overlays that take a GPIO by default: overlay -> (the parameter that moves
the pin, its default pin, the parameter that drops it). The MAX98357A overlay drives the
amp's SD_MODE from GPIO 4 unless given ``no-sdmode`` (the breakout's SD pin has its own
pull-up, so it plays without it); see the overlay README in /boot/firmware/overlays."""
LG_GPIO_IS_KERNEL = 1  # lgpio's line flag: the line is held by a kernel driver (lgpio.h)


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
        from vision.camera import CameraTuning
        from vision.camera import check_camera as grab_frame
    except ImportError as error:
        return CheckResult(
            "camera",
            "fail",
            f"the camera code cannot be loaded: {error}",
            "reinstall familiar (sudo make install) so the vision package is complete",
        )
    try:
        ok, message = grab_frame(
            cam.source, cam.width, cam.height, CameraTuning(mains_hz=cam.mains_hz, lens_position=cam.lens_position)
        )
    except Exception as error:  # noqa: BLE001 - a doctor reports, it does not crash
        ok, message = False, f"{type(error).__name__}: {error}"
    if ok:
        return CheckResult("camera", "ok", message)
    return CheckResult("camera", "fail", message, _camera_fix(cam.source, message))


def _camera_fix(source: str, message: str = "") -> str:
    if "cannot load with this numpy" in message:
        return NUMPY_FIX
    if source.startswith("replay:"):
        return f"make {source[7:]} a folder of photos or a video file, or set camera.source"
    if source.startswith("usb:"):
        return (
            f"plug in the webcam and check that /dev/video{source[4:]} exists "
            "(v4l2-ctl --list-devices), or set camera.source"
        )
    return (
        "for a Pi camera, reseat the ribbon cable (contacts towards the board) and check "
        'rpicam-hello --list-cameras; for a USB webcam set camera.source = "usb:0"'
    )


def check_python(config: Config) -> CheckResult:
    """numpy, OpenCV and, where installed, apt's picamera2 load together: the Pi's picamera2
    is built for numpy 1.x and fails under numpy 2 (the numpy mismatch)."""
    import cv2
    import numpy

    versions = f"numpy {numpy.__version__}, OpenCV {cv2.__version__}"
    if importlib.util.find_spec("picamera2") is None:
        return CheckResult("python", "ok", f"{versions}; no picamera2 (USB webcams only)")
    from vision.camera.pi import import_picamera2

    try:
        import_picamera2()
    except Exception as error:  # noqa: BLE001 - CameraError, or anything from a broken install
        fix = NUMPY_FIX if "numpy" in str(error) else "sudo apt install --reinstall python3-picamera2"
        return CheckResult("python", "fail", f"{versions}; {error}", fix)
    return CheckResult("python", "ok", f"{versions}; picamera2 loads")


def check_gpio(config: Config) -> CheckResult:
    """Claims every pin of the pin map (LEDs and buttons), then releases them.

    First, on real pins: a pin that the kernel holds (a device-tree overlay's driver) can
    never be claimed, and a service that tries exits and is restarted forever, so such a
    pin is named with the overlay that takes it. ``LG_WD`` is set as the unit sets it:
    lgpio changes into that folder and writes its notification pipes there, and the
    doctor's own working folder may not be writable by the service user.
    """
    os.environ.setdefault("LG_WD", str(config.box.state_dir))
    if not config.box.simulate and (held := _held_pins(config)):
        return CheckResult("gpio", "fail", "; ".join(held.values()), _held_fix(held))
    factory = make_pin_factory(config.box.simulate)
    in_group = _in_group("gpio")
    try:
        with warnings.catch_warnings(record=True) as fallbacks:  # why each pin library failed
            warnings.simplefilter("always", PinFactoryFallback)
            outputs = Outputs.from_config(config, factory)
        try:
            Buttons(
                config.gpio,
                on_confirm=_nothing,
                on_undo=_nothing,
                on_undo_hold=_nothing,
                pin_factory=outputs.pin_factory,
            ).close()
        finally:
            outputs.close()
    except HardwareError as error:
        tried = "".join(f"; {w.message}" for w in fallbacks)
        return CheckResult("gpio", "fail", f"{error}{tried}", _gpio_fix(error.__cause__, in_group))
    finally:
        if factory is not None:
            factory.close()
    pins = sum(len(bar.pins) for bar in config.lights.bars.values()) + 3
    strip = f", the LED strip on {config.lights.strip}" if config.lights.strip else ""
    if config.box.simulate:
        return CheckResult("gpio", "ok", f"{pins} pins{strip} claimed on simulated pins (box.simulate = true)")
    return CheckResult("gpio", "ok", f"{pins} pins{strip} claimed with {type(outputs.pin_factory).__name__}")


def gpio_setup_fix(config: Config, error: HardwareError) -> str:
    """What the service says in the journal when it cannot claim its pins: the pin an
    overlay or kernel driver holds, if any, else the doctor's likeliest fix for the cause."""
    held = {} if config.box.simulate else _held_pins(config)
    if held:
        return f"{'; '.join(held.values())}: {_held_fix(held)}"
    return _gpio_fix(error.__cause__, _in_group("gpio"))


def _gpio_fix(cause: BaseException | None, in_group: bool) -> str:
    """The likeliest fix for why gpiozero could not claim the pins (or the strip its SPI)."""
    if isinstance(cause, StripError):
        return "see the LED strip section of hardware.md (dtparam=spi=on, the spi group)"
    if not in_group:
        return f"sudo usermod -aG gpio {_user()}, then log out and in again"
    if type(cause).__name__ == "BadPinFactory":
        return (
            "on a Raspberry Pi: sudo apt install python3-lgpio and export "
            "GPIOZERO_PIN_FACTORY=lgpio; elsewhere set box.simulate = true"
        )
    return (
        "another program holds a pin (the service? sudo systemctl stop familiar), or the "
        "pin map names a pin twice across devices; see hardware.md for the wiring"
    )


def _held_pins(config: Config) -> dict[int, str]:
    """Pins of the map that an overlay in config.txt takes or the kernel reports in use,
    each with a sentence naming its key and its holder."""
    keys = dict((pin, key) for key, pin in reversed(config.pin_claims()))
    try:
        boot = BOOT_CONFIG.read_text(errors="replace")
    except OSError:
        boot = ""
    held = {
        pin: f"GPIO {pin} ({keys[pin]}) is taken by {line} in {BOOT_CONFIG}"
        for pin, line in overlay_pins(boot, _read(DEVICE_MODEL).rstrip("\x00")).items()
        if pin in keys
    }
    for pin, user in kernel_held_pins(sorted(keys)).items():
        held.setdefault(pin, f"GPIO {pin} ({keys[pin]}) is held by the kernel ({user or 'a driver'})")
    return held


def _held_fix(held: dict[int, str]) -> str:
    move = f"or move {_pin_option(next(iter(held.values())))} to a free pin in {DEFAULT_CONFIG}"
    if any("max98357a" in text or "sdmode" in text for text in held.values()):
        return f"use dtoverlay=max98357a,no-sdmode in {BOOT_CONFIG} and reboot (the amp plays without SD_MODE), {move}"
    return f"remove the overlay that takes the pin from {BOOT_CONFIG} and reboot, {move}"


def _pin_option(held: str) -> str:
    """The option of familiar.toml that names a held pin, by its section: "GPIO 4
    (lights.bars.threat.pins) ..." is ``threat`` under ``[lights.bars]``."""
    key = held[held.index("(") + 1 : held.index(")")]
    if key.startswith("lights.bars."):
        return f"{key.split('.')[2]} under [lights.bars]"
    section, _, option = key.partition(".")
    return f"{option} under [{section}]"


def overlay_pins(boot_config: str, model: str = "") -> dict[int, str]:
    """BCM pins that the overlays of a config.txt give to a kernel driver (see
    OVERLAY_PINS), with the line that loads the overlay.

    As the firmware reads it: ``dtparam=`` lines after a ``dtoverlay=`` line are that
    overlay's parameters (``dtparam=no-sdmode`` on the next line drops the amp's pin), an
    empty ``dtoverlay=`` ends them, and a line under a ``[pi4]``-style filter that does
    not match ``model`` (/proc/device-tree/model) is skipped."""
    loaded: list[tuple[str, list[str], str]] = []  # overlay, its parameters, its line
    applies = True
    for raw in boot_config.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.startswith("[") and line.endswith("]"):
            applies = _section_applies(line[1:-1].strip().lower(), model)
            continue
        option, _, value = line.partition("=")
        if not applies or option not in ("dtoverlay", "dtparam"):
            continue
        parts = [part.strip() for part in value.split(",") if part.strip()]
        if option == "dtoverlay":
            loaded.append((parts[0], parts[1:], line) if parts else ("", [], line))
        elif loaded and loaded[-1][0]:
            loaded[-1][1].extend(parts)
    taken = {}
    for name, params, line in loaded:
        if name not in OVERLAY_PINS:
            continue
        key, pin, off = OVERLAY_PINS[name]
        if off in params:
            continue
        for param in params:
            option, _, value = param.partition("=")
            if option == key and value.isdigit():
                pin = int(value)
        taken[pin] = line
    return taken


MODEL_FILTERS = {
    "pi5": ("Raspberry Pi 5", "Raspberry Pi 500", "Compute Module 5"),
    "pi4": ("Raspberry Pi 4", "Raspberry Pi 400", "Compute Module 4"),
    "pi400": ("Raspberry Pi 400",),
    "pi500": ("Raspberry Pi 500",),
    "cm4": ("Compute Module 4",),
    "cm5": ("Compute Module 5",),
    "pi3": ("Raspberry Pi 3", "Zero 2"),
    "pi02": ("Zero 2",),
}
"""config.txt's model filters and the models (as /proc/device-tree/model names them) they
select; any other filter (``[all]``, ``[HDMI:0]``, ``[edid=...]``) is taken to apply."""


def _section_applies(section: str, model: str) -> bool:
    if section == "none":
        return False
    if section not in MODEL_FILTERS or not model:
        return True
    return any(name in model for name in MODEL_FILTERS[section])


def kernel_held_pins(pins: Sequence[int]) -> dict[int, str]:
    """Header pins a kernel driver holds, with the driver's consumer name, as the GPIO
    character device reports them through lgpio (Raspberry Pi only; elsewhere nothing)."""
    try:
        import lgpio
    except ImportError:
        return {}
    for chip in range(16):  # the header's chip: pinctrl-bcm2711 (Pi 4), pinctrl-rp1 (Pi 5)
        try:
            handle = lgpio.gpiochip_open(chip)
        except Exception:  # noqa: BLE001 - lgpio.error: no such chip
            continue
        try:
            info = lgpio.gpio_get_chip_info(handle)
            if info[0] < 0 or not str(info[3]).startswith("pinctrl-"):
                continue
            held = {}
            for pin in pins:
                status, _, flags, _, user = lgpio.gpio_get_line_info(handle, pin)
                if status >= 0 and flags & LG_GPIO_IS_KERNEL:
                    held[pin] = user
            return held
        finally:
            lgpio.gpiochip_close(handle)
    return {}


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
    """Says a line on the configured device, loud enough to hear, and names the card, so
    the person at the box knows what they should have heard and from where."""
    card = find_sound_card()
    try:
        device = alsa_device(config.audio.device)  # a card's name ("USB") as the narrator finds it
    except SpeechError as error:
        return CheckResult(
            "audio", "fail", str(error), "set audio.device to a name from aplay -l, or to an ALSA device from aplay -L"
        )
    if card is None and not device:
        status = "warn" if config.box.simulate else "fail"
        return CheckResult(
            "audio",
            status,
            "no sound card found (aplay -l): narration only goes to WAV files",
            "plug in a USB speaker, or for a MAX98357A amplifier add dtoverlay=max98357a,no-sdmode "
            f'to {BOOT_CONFIG} and reboot (audio.device = "" finds the first card that is not HDMI)',
        )
    card_name = sound_card_name(device, _read(SOUND_CARDS)) or card or "no card listed"
    where = f"{device or 'the default device'} ({card_name})"
    if is_hdmi(card_name) and not hdmi_screen_connected():
        return CheckResult(
            "audio",
            "fail",
            f"the narration would play on {where}, an HDMI output with no screen plugged in",
            "plug in a USB speaker or wire the MAX98357A amplifier (hardware.md), keeping "
            'audio.device = "" (the first card that is not HDMI); or plug in a screen with speakers',
        )
    with tempfile.TemporaryDirectory(prefix="familiar-doctor-") as folder:
        line = Path(folder) / "line.wav"
        try:
            synthesize(SPOKEN_LINE, line, config.audio)
            stats = measure_wav(line)
            if stats.rms < SPEECH_FLOOR_RMS:
                return CheckResult(
                    "audio",
                    "fail",
                    f"the line for {where} is almost silent (RMS {stats.rms:.0f})",
                    "raise audio.volume (0-1)",
                )
            play_wav(line, device, stats.seconds)
        except SpeechError as error:
            return CheckResult(
                "audio",
                "fail",
                str(error),
                "list the devices with aplay -L and set audio.device, e.g. "
                '"plughw:CARD=Device,DEV=0"; the service user must be in the audio group',
            )
    return CheckResult(
        "audio",
        "ok",
        f'said "{SPOKEN_LINE}" ({stats.seconds:.1f} s, RMS {stats.rms:.0f}) '
        f"on {where}: if you heard nothing, check the volume and the cable",
    )


def hdmi_screen_connected() -> bool:
    """Whether an HDMI port has a screen, as the kernel's DRM connectors say
    (``/sys/class/drm/card*-HDMI-A-*/status``); True when none are listed (no KMS
    driver: nothing to tell), so only a port known to be empty fails the check."""
    statuses = [_read(port / "status").strip() for port in DRM_CONNECTORS.glob("card*-HDMI-A-*")]
    return not statuses or "connected" in statuses


def sound_card_name(device: str, cards: str) -> str | None:
    """The ALSA card an ALSA device name plays on, as ``/proc/asound/cards`` lists it:
    ``CARD=Device`` or ``hw:1``/``plughw:1,0`` (and "" = the default, card 0)."""
    listed = {}
    for number, card_id, description in re.findall(r"^\s*(\d+) \[(\S+)\s*\]: (.+)$", cards, re.M):
        listed[number] = listed[card_id] = f"card {number} {card_id}: {description.strip()}"
    match = re.search(r"CARD=([^,]+)", device) or re.search(r"^(?:plug)?hw:([^,]+)", device)
    return listed.get(match.group(1) if match else "0" if not device or device == "default" else "")


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


VOICE_CHECK = {"en": ("Familiar is checking its voice.", "voice"), "de": ("Familiar prüft seine Stimme.", "voice_de")}
"""A line in each language the box speaks, and the option naming that language's voice."""


def check_tts(config: Config) -> CheckResult:
    """Synthesises a line in each language with its configured voice and measures the WAV."""
    fix = "sudo apt install espeak-ng"
    if shutil.which("espeak-ng") is None:
        return CheckResult("speech", "fail", "espeak-ng is not installed", fix)
    details = []
    for language, (line, option) in VOICE_CHECK.items():
        voice = config.audio.voice_for(language)
        with tempfile.TemporaryDirectory(prefix="familiar-doctor-") as folder:
            path = Path(folder) / "line.wav"
            try:
                warnings = synthesize(line, path, config.audio, voice)
                stats = measure_wav(path)
            except SpeechError as error:
                return CheckResult("speech", "fail", str(error), fix)
        detail = f"{language} voice {voice!r}: {stats.seconds:.1f} s of speech at {stats.sample_rate} Hz, RMS {stats.rms:.0f}"
        if warnings:
            return CheckResult(
                "speech",
                "fail",
                f"{detail}; {'; '.join(warnings)}",
                f"pick a voice from espeak-ng --voices={language} for audio.{option}",
            )
        if stats.rms < SPEECH_FLOOR_RMS or stats.seconds < 0.5:
            return CheckResult("speech", "fail", f"{detail}: almost silent", "raise audio.volume (0-1)")
        details.append(detail)
    return CheckResult("speech", "ok", "; ".join(details))


def check_disk(config: Config) -> CheckResult:
    """The state folder exists, is writable, and has room for the log and the catalogues."""
    state = config.box.state_dir
    fix = (
        f"sudo make install creates it for the service; otherwise mkdir -p {state} and make "
        f"it writable by {_user()}, or set box.state_dir"
    )
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


THROTTLED_BITS = {
    0: "under-voltage now",
    1: "the CPU clock capped now",
    2: "throttled now",
    3: "at the soft temperature limit now",
    16: "under-voltage since boot",
    17: "the CPU clock capped since boot",
    18: "throttled since boot",
    19: "at the soft temperature limit since boot",
}
"""The bits of ``vcgencmd get_throttled`` (Raspberry Pi documentation, "vcgencmd")."""
UNDERVOLTAGE_BITS = (0, 16)


def check_power(config: Config) -> CheckResult:
    """The firmware's record of under-voltage and throttling since boot: a weak supply or
    a thin cable browns the Pi out under load (the reader on every core, the strip and the
    amp on the 5 V pins), which shows as a camera or USB speaker dropping out mid-game."""
    name = "power"
    if shutil.which(VCGENCMD) is None:
        status = "ok" if config.box.simulate else "warn"
        return CheckResult(name, status, f"{VCGENCMD} not found: not a Raspberry Pi, power not checked")
    try:
        done = subprocess.run([VCGENCMD, "get_throttled"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as error:
        return CheckResult(name, "warn", f"{VCGENCMD} get_throttled failed: {error}")
    match = re.search(r"throttled=(0x[0-9a-fA-F]+)", done.stdout)
    if match is None:
        problem = (done.stderr or done.stdout).strip() or f"exit status {done.returncode}"
        return CheckResult(
            name, "warn", f"{VCGENCMD} get_throttled: {problem}", "the service user needs the video group"
        )
    flags = int(match.group(1), 16)
    seen = [text for bit, text in THROTTLED_BITS.items() if flags >> bit & 1]
    if not seen:
        return CheckResult(name, "ok", f"no under-voltage or throttling since boot ({match.group(0)})")
    detail = f"{', '.join(seen)} ({match.group(0)})"
    if any(flags >> bit & 1 for bit in UNDERVOLTAGE_BITS):
        return CheckResult(
            name,
            "fail",
            detail,
            "use the official supply (Pi 4: 5.1 V 3 A, Pi 5: 5.1 V 5 A) on a short cable, and power the "
            "strip from its own 5 V supply (hardware.md, power budget)",
        )
    return CheckResult(name, "warn", detail, "give the Pi a heatsink or the Active Cooler and air in the box")


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
                "web",
                "fail",
                f"cannot listen on {host}:{port}: {error.strerror or error}",
                f"find what uses it with: sudo ss -ltnp 'sport = :{port}' (the familiar service "
                "itself? sudo systemctl stop familiar); or set web.port / web.host",
            )
    return CheckResult("web", "ok", f"{host}:{port} is free")


CHECKS: tuple[Check, ...] = (
    check_python,
    check_camera,
    check_gpio,
    check_audio,
    check_tts,
    check_disk,
    check_power,
    check_web_port,
)


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
