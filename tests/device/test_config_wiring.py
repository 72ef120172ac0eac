"""hardware.md's wiring table agrees with the config defaults and gpiozero's header map."""

from __future__ import annotations

import re

from gpiozero.pins.mock import MockFactory

from device.config import SPI0_PINS, Config, GpioConfig
from support import ROOT

HARDWARE = ROOT / "hardware.md"
ROW = re.compile(r"^\| (\d+)\s+\| (\d+)\s+\| ([^|]+)\|", re.MULTILINE)
BUSES = {"i2c", "spi", "uart", "pcm"}  # pcm = I2S, which a MAX98357A amplifier needs


def wiring() -> list[tuple[int, int, str]]:
    return [(int(b), int(p), part.strip()) for b, p, part in ROW.findall(HARDWARE.read_text())]


def header_pin(bcm: int):
    """gpiozero's own data on the 40-pin header (the same on every 40-pin Pi)."""
    [(header, pin)] = MockFactory().board_info.find_pin(f"GPIO{bcm}")
    assert header.name == "J8"
    return pin


def test_every_row_names_the_right_physical_pin() -> None:
    rows = wiring()
    assert len(rows) >= 14
    for bcm, physical, part in rows:
        assert header_pin(bcm).number == physical, part


def test_the_table_wires_the_default_pin_map_in_order() -> None:
    gpio = GpioConfig()
    parts = {bcm: part for bcm, _, part in wiring()}
    for n, pin in enumerate(Config().lights.bars["threat"].pins, start=1):
        assert parts[pin].startswith(f"track LED {n}"), pin
    assert parts[gpio.status_pin].startswith("status LED")
    assert parts[gpio.confirm_pin].startswith("confirm button")
    assert parts[gpio.undo_pin].startswith("undo button")


def test_default_pins_keep_clear_of_the_buses() -> None:
    gpio = GpioConfig()
    bars = [pin for bar in Config().lights.bars.values() for pin in bar.pins]
    for pin in {*bars, gpio.status_pin, gpio.confirm_pin, gpio.undo_pin}:
        assert not header_pin(pin).interfaces & BUSES, pin
    assert "pwm" in header_pin(gpio.status_pin).interfaces


def test_the_strip_pins_are_spi0_with_its_data_on_mosi() -> None:
    assert all("spi" in header_pin(pin).interfaces for pin in SPI0_PINS)
    assert header_pin(10).number == 19  # MOSI: the strip's data line
