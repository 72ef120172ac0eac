"""``familiar doctor`` on a simulated box in a temporary state folder: real checks, real fixes."""

from __future__ import annotations

import dataclasses
import os
import shutil
import socket
import sys
from pathlib import Path

import pytest
from gpiozero import Device

from device import doctor
from device.cli import DEMO_PHOTOS
from device.config import AudioConfig, BoxConfig, CameraConfig, Config, GpioConfig, WebConfig
from device.doctor import CheckResult, run_doctor
from device.narrator import measure_wav
from device.outputs import StatusLight, make_pin_factory

PHOTOS = DEMO_PHOTOS


def simulated(tmp_path: Path, **sections) -> Config:
    base = Config(
        box=BoxConfig(simulate=True, state_dir=tmp_path),
        camera=CameraConfig(source=f"replay:{PHOTOS}"),
        web=WebConfig(host="127.0.0.1", port=free_port()),
    )
    return dataclasses.replace(base, **sections)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_simulated_pins_are_claimed_and_released(tmp_path: Path) -> None:
    result = doctor.check_gpio(simulated(tmp_path))
    assert result == CheckResult("gpio", "ok", "11 pins claimed on simulated pins (box.simulate = true)")


def test_the_gpio_check_opens_the_led_strip_too(tmp_path: Path, monkeypatch) -> None:
    config = simulated(tmp_path)
    config = dataclasses.replace(config, lights=dataclasses.replace(config.lights, strip="/dev/spidev0.0"))
    assert doctor.check_gpio(config).detail == (
        "11 pins, the LED strip on /dev/spidev0.0 claimed on simulated pins (box.simulate = true)"
    )
    real = dataclasses.replace(config, box=dataclasses.replace(config.box, simulate=False))
    # real SPI (there is no /dev/spidev0.0 on this machine) over simulated pins
    monkeypatch.setattr(doctor, "make_pin_factory", lambda simulate: make_pin_factory(simulate=True))
    result = doctor.check_gpio(real)
    assert result.status == "fail" and "/dev/spidev0.0" in result.detail
    assert "hardware.md" in result.fix and "spi" in result.fix


def test_real_gpio_missing_fails_with_the_reason_and_a_fix(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(Device, "pin_factory", None)  # gpiozero picks a factory afresh
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    config = dataclasses.replace(simulated(tmp_path), box=BoxConfig(state_dir=tmp_path))
    result = doctor.check_gpio(config)
    assert result.status == "fail"
    assert result.detail.startswith("cannot use GPIO pins 4, 27, 22")
    assert result.fix


def test_speech_is_synthesised_and_measured(tmp_path: Path) -> None:
    result = doctor.check_tts(simulated(tmp_path))
    assert result.status == "ok", result
    assert "en voice 'en-gb'" in result.detail and "de voice 'de'" in result.detail
    assert result.detail.count("at 22050 Hz") == 2


def test_an_unknown_german_voice_fails_the_speech_check_and_names_its_option(tmp_path: Path) -> None:
    result = doctor.check_tts(simulated(tmp_path, audio=AudioConfig(voice_de="xx-nope")))
    assert result.status == "fail" and "audio.voice_de" in result.fix


def test_an_unknown_voice_fails_the_speech_check(tmp_path: Path) -> None:
    result = doctor.check_tts(simulated(tmp_path, audio=AudioConfig(voice="xx-nope")))
    assert result.status == "fail"
    assert "unknown voice 'xx-nope'" in result.detail and "espeak-ng --voices" in result.fix


def test_disk_ok_in_a_writable_state_folder(tmp_path: Path) -> None:
    result = doctor.check_disk(simulated(tmp_path))
    assert result.status in ("ok", "warn") and "is writable" in result.detail


def test_disk_fails_for_a_missing_or_blocked_state_folder(tmp_path: Path) -> None:
    missing = doctor.check_disk(simulated(tmp_path / "absent"))
    assert missing.status == "fail" and "does not exist" in missing.detail
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder should be")
    assert doctor.check_disk(simulated(blocked)).status == "fail"


def test_a_busy_web_port_fails_and_a_free_one_passes(tmp_path: Path) -> None:
    config = simulated(tmp_path)
    with socket.socket() as squatter:
        squatter.bind((config.web.host, config.web.port))
        squatter.listen()
        busy = doctor.check_web_port(config)
    assert busy.status == "fail" and f":{config.web.port}" in busy.detail
    assert "web.port" in busy.fix
    assert doctor.check_web_port(config).status == "ok"


def test_no_sound_card_is_a_warning_when_simulating_and_a_failure_on_a_box(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(doctor, "find_sound_card", lambda: None)
    result = doctor.check_audio(simulated(tmp_path))
    assert result.status == "warn"
    assert result.fix.endswith('reboot (audio.device = "" finds the first card that is not HDMI)')
    real = dataclasses.replace(simulated(tmp_path), box=BoxConfig(state_dir=tmp_path))
    assert doctor.check_audio(real).status == "fail"


@pytest.mark.skipif(shutil.which("aplay") is None, reason="alsa-utils is not installed")
def test_a_wrong_audio_device_fails_with_aplay_s_message(tmp_path: Path) -> None:
    result = doctor.check_audio(simulated(tmp_path, audio=AudioConfig(device="hw:CARD=NoSuchCard,DEV=0")))
    assert result.status == "fail"
    assert result.detail.startswith("cannot play audio on hw:CARD=NoSuchCard,DEV=0")
    assert "aplay -L" in result.fix


LISTING = """**** List of PLAYBACK Hardware Devices ****
card 1: UACDemoV10 [UACDemoV1.0], device 0: USB Audio [USB Audio]
  Subdevices: 1/1
"""


@pytest.mark.skipif(shutil.which("aplay") is None, reason="alsa-utils is not installed")
def test_a_sound_card_named_in_the_config_is_found_as_the_narrator_finds_it(tmp_path: Path, monkeypatch) -> None:
    """``audio.device = "USB"`` is a card's name: the doctor plays on the device the narrator
    would use, and a name no card has is said to be one."""
    from device import narrator

    monkeypatch.setattr(narrator, "_aplay_listing", lambda: LISTING)
    found = doctor.check_audio(simulated(tmp_path, audio=AudioConfig(device="USB")))
    assert "plughw:CARD=UACDemoV10,DEV=0" in found.detail  # this machine has no such card to play on
    missing = doctor.check_audio(simulated(tmp_path, audio=AudioConfig(device="Bluetooth")))
    assert missing.status == "fail" and "no sound card named 'Bluetooth'" in missing.detail
    assert "aplay -l" in missing.fix


def test_camera_replay_of_the_bundled_photos(tmp_path: Path) -> None:
    result = doctor.check_camera(simulated(tmp_path))
    assert result.status == "ok", result
    assert "640x640" in result.detail


def test_a_missing_camera_folder_fails_with_a_fix(tmp_path: Path) -> None:
    config = simulated(tmp_path, camera=CameraConfig(source=f"replay:{tmp_path / 'none'}"))
    result = doctor.check_camera(config)
    assert result.status == "fail" and "camera.source" in result.fix


def test_camera_code_missing_is_reported_not_raised(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "vision.camera", None)  # makes the import fail
    result = doctor.check_camera(simulated(tmp_path))
    assert result.status == "fail" and "cannot be loaded" in result.detail


def test_report_lists_every_check_and_exits_1_on_a_failure(tmp_path: Path, capsys) -> None:
    config = simulated(tmp_path)
    with socket.socket() as squatter:
        squatter.bind((config.web.host, config.web.port))
        squatter.listen()
        status = run_doctor(config, (doctor.check_gpio, doctor.check_disk, doctor.check_web_port))
    out = capsys.readouterr().out.splitlines()
    assert status == 1
    assert out[0].startswith("[ ok ] gpio: ")
    assert out[1].startswith("[ ok ] disk: ") or out[1].startswith("[warn] disk: ")
    assert any(line.startswith("[FAIL] web: cannot listen on 127.0.0.1") for line in out)
    assert any(line.startswith("       fix: find what uses it") for line in out)
    assert out[-1] == "1 check(s) failed"


def test_report_exits_0_when_nothing_fails(tmp_path: Path, capsys) -> None:
    status = run_doctor(simulated(tmp_path), (doctor.check_gpio, doctor.check_tts))
    assert status == 0
    assert capsys.readouterr().out.splitlines()[-1] == "all checks passed"


def test_full_doctor_on_a_simulated_box(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(doctor, "find_sound_card", lambda: None)  # never play on the host
    status = run_doctor(simulated(tmp_path))
    out = capsys.readouterr().out
    for name in ("camera", "gpio", "audio", "speech", "disk", "power", "web"):
        assert f"] {name}: " in out
    assert status == 0, out  # the missing speaker is only a warning when simulating


def test_doctor_gpio_sees_a_pin_map_conflict_with_a_running_box(tmp_path: Path, monkeypatch) -> None:
    """Two boxes on one factory: the doctor's claim fails like on a Pi whose service runs."""
    from device import outputs as outputs_module

    factory = outputs_module.make_pin_factory(True)
    monkeypatch.setattr(doctor, "make_pin_factory", lambda simulate: factory)
    running = StatusLight(GpioConfig().status_pin, pin_factory=factory)
    try:
        result = doctor.check_gpio(simulated(tmp_path))
    finally:
        running.close()
    assert result.status == "fail" and "cannot use GPIO pins 12" in result.detail
    assert "systemctl stop familiar" in result.fix


@pytest.mark.skipif(shutil.which("aplay") is None, reason="alsa-utils is not installed")
def test_the_spoken_line_is_played_and_what_was_played_is_audible(tmp_path: Path) -> None:
    """ALSA's own ``file`` plugin stands in for the speaker: it writes what aplay played."""
    played = tmp_path / "played.wav"
    config = simulated(tmp_path, audio=AudioConfig(device=f"file:FILE={played},FORMAT=wav"))
    result = doctor.check_audio(config)
    assert result.status == "ok", result
    assert doctor.SPOKEN_LINE in result.detail and "RMS" in result.detail
    stats = measure_wav(played)
    assert stats.rms > doctor.SPEECH_FLOOR_RMS and stats.seconds > 2.0, stats


PI_CARDS = """\
 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0
                      vc4-hdmi-0
 1 [Device         ]: USB-Audio - USB Audio Device
                      GeneralPlus USB Audio Device at usb-0000:01:00.0-1.3, full speed
 2 [MAX98357A      ]: RPi-simple - MAX98357A
                      MAX98357A
"""


PI5_CARDS = """\
 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0
                      vc4-hdmi-0
 1 [vc4hdmi1       ]: vc4-hdmi - vc4-hdmi-1
                      vc4-hdmi-1
"""
PI5_APLAY_L = """**** List of PLAYBACK Hardware Devices ****
card 0: vc4hdmi0 [vc4-hdmi-0], device 0: MAI PCM i2s-hifi-0 [MAI PCM i2s-hifi-0]
  Subdevices: 1/1
card 1: vc4hdmi1 [vc4-hdmi-1], device 0: MAI PCM i2s-hifi-0 [MAI PCM i2s-hifi-0]
  Subdevices: 1/1
"""


@pytest.fixture
def pi5_sound(tmp_path: Path, monkeypatch) -> Path:
    """A Raspberry Pi 5's sound cards (two HDMI ports, nothing else) and its DRM
    connectors, both empty; returns the connectors' folder."""
    from device import narrator

    monkeypatch.setattr(narrator, "_aplay_listing", lambda: PI5_APLAY_L)
    (tmp_path / "cards").write_text(PI5_CARDS)
    monkeypatch.setattr(doctor, "SOUND_CARDS", tmp_path / "cards")
    drm = tmp_path / "drm"
    for port in ("card1-HDMI-A-1", "card1-HDMI-A-2"):
        (drm / port).mkdir(parents=True)
        (drm / port / "status").write_text("disconnected\n")
    monkeypatch.setattr(doctor, "DRM_CONNECTORS", drm)
    monkeypatch.setattr(doctor, "play_wav", lambda path, device, seconds: None)  # never play on the host
    return drm


def test_playing_on_hdmi_with_no_screen_fails(tmp_path: Path, pi5_sound: Path) -> None:
    result = doctor.check_audio(simulated(tmp_path))
    assert result.status == "fail"
    assert result.detail == (
        "the narration would play on plughw:CARD=vc4hdmi0,DEV=0 (card 0 vc4hdmi0: vc4-hdmi - vc4-hdmi-0), "
        "an HDMI output with no screen plugged in"
    )
    assert "USB speaker" in result.fix and "MAX98357A" in result.fix
    named = doctor.check_audio(simulated(tmp_path, audio=AudioConfig(device="vc4hdmi1")))
    assert named.status == "fail" and "card 1 vc4hdmi1" in named.detail


def test_hdmi_with_a_screen_plays(tmp_path: Path, pi5_sound: Path) -> None:
    (pi5_sound / "card1-HDMI-A-2" / "status").write_text("connected\n")
    result = doctor.check_audio(simulated(tmp_path))
    assert result.status == "ok", result
    assert "on plughw:CARD=vc4hdmi0,DEV=0 (card 0 vc4hdmi0" in result.detail


def test_a_usb_speaker_beside_hdmi_is_the_default(tmp_path: Path, pi5_sound: Path, monkeypatch) -> None:
    from device import narrator

    usb = "card 2: Device [USB Audio Device], device 0: USB Audio [USB Audio]\n  Subdevices: 1/1\n"
    monkeypatch.setattr(narrator, "_aplay_listing", lambda: PI5_APLAY_L + usb)
    doctor.SOUND_CARDS.write_text(PI5_CARDS + " 2 [Device         ]: USB-Audio - USB Audio Device\n")
    result = doctor.check_audio(simulated(tmp_path))
    assert result.status == "ok", result
    assert "on plughw:CARD=Device,DEV=0 (card 2 Device: USB-Audio - USB Audio Device)" in result.detail


def test_the_sound_card_is_named_as_the_kernel_lists_it() -> None:
    name = doctor.sound_card_name
    assert name("plughw:CARD=Device,DEV=0", PI_CARDS) == "card 1 Device: USB-Audio - USB Audio Device"
    assert name("plughw:2,0", PI_CARDS) == "card 2 MAX98357A: RPi-simple - MAX98357A"
    assert name("hw:MAX98357A", PI_CARDS).startswith("card 2 ")
    assert name("", PI_CARDS).startswith("card 0 vc4hdmi0")
    assert name("plughw:CARD=Nope,DEV=0", PI_CARDS) is None


def test_the_doctor_sets_lg_wd_to_the_state_folder_as_the_unit_does(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("LG_WD", "placeholder")
    monkeypatch.delenv("LG_WD")  # absent, as in a shell; restored afterwards
    doctor.check_gpio(simulated(tmp_path))
    assert os.environ["LG_WD"] == str(tmp_path)


@pytest.fixture
def real_pins(tmp_path: Path, monkeypatch) -> Config:
    """A box on real pins, where gpiozero's own MockFactory stands in for the Pi's."""
    from device import outputs as outputs_module

    monkeypatch.setattr(doctor, "make_pin_factory", lambda simulate: outputs_module.make_pin_factory(True))
    monkeypatch.setattr(doctor, "BOOT_CONFIG", tmp_path / "config.txt")
    yield dataclasses.replace(simulated(tmp_path), box=BoxConfig(state_dir=tmp_path))
    Device.pin_factory = None


def test_the_i2s_amp_overlay_taking_gpio_4_is_found_with_the_fix(real_pins: Config) -> None:
    doctor.BOOT_CONFIG.write_text("dtparam=audio=off\n[all]\ndtoverlay=max98357a  # the amp\n")
    result = doctor.check_gpio(real_pins)
    assert result.status == "fail"
    assert result.detail.startswith("GPIO 4 (lights.bars.threat.pins) is taken by dtoverlay=max98357a")
    assert "dtoverlay=max98357a,no-sdmode" in result.fix
    doctor.BOOT_CONFIG.write_text("dtoverlay=max98357a,sdmode-pin=13\n")
    assert "GPIO 13 (gpio.undo_pin)" in doctor.check_gpio(real_pins).detail
    doctor.BOOT_CONFIG.write_text("dtoverlay=max98357a,no-sdmode\n")
    assert doctor.check_gpio(real_pins).status == "ok"


def test_overlay_parameters_on_the_next_dtparam_lines_count(real_pins: Config) -> None:
    """The firmware gives a ``dtparam=`` after a ``dtoverlay=`` to that overlay."""
    doctor.BOOT_CONFIG.write_text("dtoverlay=max98357a\ndtparam=no-sdmode\n")
    assert doctor.check_gpio(real_pins).status == "ok"
    doctor.BOOT_CONFIG.write_text("dtoverlay=max98357a\ndtparam=sdmode-pin=13  # moved\n")
    assert "GPIO 13 (gpio.undo_pin)" in doctor.check_gpio(real_pins).detail
    doctor.BOOT_CONFIG.write_text("dtoverlay=max98357a\ndtoverlay=\ndtparam=no-sdmode\n")  # ends its parameters
    assert "GPIO 4 " in doctor.check_gpio(real_pins).detail
    doctor.BOOT_CONFIG.write_text("dtparam=no-sdmode\ndtoverlay=max98357a\n")  # before it: not its parameter
    assert "GPIO 4 " in doctor.check_gpio(real_pins).detail


def test_an_overlay_under_another_model_s_filter_takes_no_pin() -> None:
    text = "[pi4]\ndtoverlay=max98357a\n[all]\ndtparam=audio=off\n"
    assert doctor.overlay_pins(text, "Raspberry Pi 5 Model B Rev 1.0") == {}
    assert doctor.overlay_pins(text, "Raspberry Pi 4 Model B Rev 1.5") == {4: "dtoverlay=max98357a"}
    assert doctor.overlay_pins("[none]\ndtoverlay=w1-gpio\n") == {}
    assert doctor.overlay_pins("[cm5]\ndtoverlay=dwc2\n[all]\ndtoverlay=w1-gpio\n", "Raspberry Pi 5") == {
        4: "dtoverlay=w1-gpio"
    }


def test_the_fix_names_the_section_that_holds_the_pin(real_pins: Config) -> None:
    """GPIO 4 is the first threat LED, under [lights.bars]; [gpio] holds only the buttons
    and the status LED."""
    doctor.BOOT_CONFIG.write_text("dtoverlay=max98357a\n")
    assert doctor.check_gpio(real_pins).fix.endswith(
        "or move threat under [lights.bars] to a free pin in /etc/familiar/familiar.toml"
    )
    doctor.BOOT_CONFIG.write_text("dtoverlay=w1-gpio,gpiopin=26\n")
    assert doctor.check_gpio(real_pins).fix.endswith(
        "or move confirm_pin under [gpio] to a free pin in /etc/familiar/familiar.toml"
    )


def fake_vcgencmd(tmp_path: Path, monkeypatch, answer: str) -> None:
    """A ``vcgencmd`` that answers ``get_throttled`` as a Pi's firmware does."""
    script = tmp_path / "vcgencmd"
    script.write_text(f'#!/bin/sh\n[ "$1" = get_throttled ] && echo "{answer}"\n')
    script.chmod(0o755)
    monkeypatch.setattr(doctor, "VCGENCMD", str(script))


@pytest.mark.parametrize(
    ("answer", "status", "says"),
    [
        ("throttled=0x0", "ok", "no under-voltage or throttling since boot (throttled=0x0)"),
        (
            "throttled=0x50005",
            "fail",
            "under-voltage now, throttled now, under-voltage since boot, throttled since boot",
        ),
        ("throttled=0x50000", "fail", "under-voltage since boot, throttled since boot (throttled=0x50000)"),
        ("throttled=0x80008", "warn", "at the soft temperature limit now, at the soft temperature limit since boot"),
    ],
)
def test_under_voltage_and_throttling_are_read_from_the_firmware(
    tmp_path: Path, monkeypatch, answer: str, status: str, says: str
) -> None:
    fake_vcgencmd(tmp_path, monkeypatch, answer)
    result = doctor.check_power(simulated(tmp_path))
    assert (result.status, result.detail.startswith(says)) == (status, True), result
    if status == "fail":
        assert "official supply" in result.fix


def test_no_vcgencmd_is_said_and_warns_on_a_box(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(doctor, "VCGENCMD", "no-such-vcgencmd")
    assert doctor.check_power(simulated(tmp_path)).status == "ok"
    real = dataclasses.replace(simulated(tmp_path), box=BoxConfig(state_dir=tmp_path))
    assert doctor.check_power(real).status == "warn"


def test_one_wire_on_gpio_4_is_found_too(real_pins: Config) -> None:
    doctor.BOOT_CONFIG.write_text("dtoverlay=w1-gpio\n")
    result = doctor.check_gpio(real_pins)
    assert result.status == "fail" and "dtoverlay=w1-gpio" in result.detail
    assert "remove the overlay" in result.fix


def broken_picamera2(tmp_path: Path, monkeypatch) -> None:
    """A real ``picamera2`` package that fails to import as apt's does under numpy 2."""
    (tmp_path / "picamera2").mkdir()
    (tmp_path / "picamera2" / "__init__.py").write_text(
        'raise ValueError("numpy.dtype size changed, may indicate binary incompatibility. '
        'Expected 96 from C header, got 88 from PyObject")\n'
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)


def test_the_numpy_mismatch_is_recognised_with_its_fix(tmp_path: Path, monkeypatch) -> None:
    assert doctor.check_python(simulated(tmp_path)).status == "ok"  # no picamera2 here
    (tmp_path / "site").mkdir()
    broken_picamera2(tmp_path / "site", monkeypatch)
    result = doctor.check_python(simulated(tmp_path))
    assert result.status == "fail" and "cannot load with this numpy" in result.detail
    assert result.fix == doctor.NUMPY_FIX
    camera = doctor.check_camera(simulated(tmp_path, camera=CameraConfig(source="picamera2")))
    assert camera.status == "fail" and camera.fix == doctor.NUMPY_FIX
