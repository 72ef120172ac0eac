"""The addressable RGB strip (WS2812B / NeoPixel) on SPI, segmented into board tracks.

Why Adafruit's ``neopixel_spi`` (adafruit-circuitpython-neopixel-spi) drives it:

* it works the same on a Pi 4 and a Pi 5: it needs only the kernel's spidev
  (``dtparam=spi=on``) and synthesises the WS2812 waveform on MOSI, one SPI byte per
  data bit at 6.4 MHz.  rpi_ws281x's PWM/PCM modes poke the BCM283x peripherals
  directly and fail on the Pi 5's RP1 ("Hardware revision is not supported",
  rpi_ws281x issue 528; Blinka issue 747, where Adafruit point Pi 5 users to SPI);
* it is Adafruit's maintained driver (releases into 2026; its issue 37 runs it on a
  Pi 5, asking only about chains past 339 pixels, far beyond this box's 30), with
  brightness and colour order in its pixel buffer (``adafruit_pixelbuf``), which also
  reads back what each pixel shows;
* each frame is wrapped in a reset (MOSI low) before and after, which keeps the first
  pixel right where MOSI idles high (the "first LED green" bug of several smaller SPI
  drivers, e.g. Pi5Neo issue 11).  Pi5Neo also swallows a failed open with a print,
  has no brightness and sleeps 0.1 s per update; rpi5-ws2812 has a leading reset but
  no readback, needs numpy per frame and has had no release since 2024.

``neopixel_spi`` talks to a ``busio.SPI``.  Blinka's own ``board.SPI()`` would pull in
board detection and libgpiod pin drivers only to end at Adafruit_PureIO's spidev
handle, so :class:`SpidevBus` gives the driver that handle directly.  The handle is
the one thing a simulated box (and a test) replaces: :class:`RecordingSpidev` keeps
the bytes that would have gone to ``/dev/spidev0.0``, as gpiozero's ``MockFactory``
keeps pin states.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Mapping
from typing import Any

from device.config import LightsConfig, Segment

log = logging.getLogger("familiar")
BLINK_SECONDS = 0.3
"""Blink half-period of every blinking light (a track's current space on a bar or the
strip, the status light): quick enough to catch the eye, slow enough not to strobe."""
RESET_SECONDS = 300e-6
"""Low time framing each write: WS2812B-V5 latches after 280 us (older parts 50 us)."""


DRIVER_FIX = (
    "run sudo make install again: with lights.strip set it installs the driver (the [strip] extra), "
    "or pip install 'familiar[strip]'"
)
"""The strip's driver is an extra (it pulls in Adafruit-Blinka, which needs a compiler on
the Pi): a box configured without a strip was installed without it."""


class StripError(RuntimeError):
    """The strip's SPI device cannot be used; the message says why and how to fix it."""


class RecordingSpidev:
    """A stand-in for Adafruit_PureIO's spidev handle, used when simulating: it keeps
    every SPI write (the bytes the strip would receive) and the bus settings."""

    def __init__(self) -> None:
        self.max_speed_hz = 0
        self.mode = 0
        self.bits_per_word = 8
        self.writes: list[bytes] = []
        self.closed = False

    def writebytes(self, data: Any) -> None:
        if self.closed:
            raise OSError("the SPI device is closed")
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True


def open_spidev(path: str) -> Any:
    """Opens the kernel's SPI device through Adafruit_PureIO (imported here, so a box
    without a strip never loads it), or raises :class:`StripError` with the fix."""
    try:
        from Adafruit_PureIO.spi import SPI
    except ImportError as cause:
        raise StripError(f"the LED strip's driver is not installed ({cause}); {DRIVER_FIX}") from cause
    try:
        return SPI(path)
    except PermissionError as cause:
        raise StripError(
            f"cannot open the LED strip's {path}: {cause}; add the user to the spi group (sudo usermod -aG spi USER)"
        ) from cause
    except OSError as cause:
        raise StripError(
            f"cannot open the LED strip's {path}: {cause}; enable SPI with "
            "dtparam=spi=on in /boot/firmware/config.txt and reboot, or set "
            'lights.strip = "" (see hardware.md)'
        ) from cause


class SpidevBus:
    """The part of ``busio.SPI`` that ``neopixel_spi`` uses, over one spidev handle."""

    def __init__(self, device: Any) -> None:
        self.device = device
        self._lock = threading.Lock()

    def try_lock(self) -> bool:
        return self._lock.acquire(blocking=False)

    def unlock(self) -> None:
        self._lock.release()

    def configure(self, baudrate: int = 100000, polarity: int = 0, phase: int = 0, bits: int = 8) -> None:
        self.device.max_speed_hz = baudrate
        self.device.mode = (polarity << 1) | phase
        self.device.bits_per_word = bits

    @property
    def frequency(self) -> int:
        return self.device.max_speed_hz

    def write(self, buf: bytes, start: int = 0, end: int | None = None) -> None:
        self.device.writebytes(buf[start:end])

    def close(self) -> None:
        """PureIO's handle has no close(): its public file descriptor is closed instead."""
        closer = getattr(self.device, "close", None)
        if closer is not None:
            closer()
        else:
            os.close(self.device.handle)


def _rgb(colour: str) -> tuple[int, int, int]:
    """``"#rrggbb"`` (validated by the config) as a pixel colour."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


class StripLights:
    """One strip whose segments each show a track: ``show(name, k)`` lights the segment's
    first k pixels in its colour; ``attention`` blinks pixel k (the current space)."""

    def __init__(self, device: Any, lights: LightsConfig) -> None:
        try:
            from neopixel_spi import NeoPixel_SPI  # imported only when a strip is configured
        except ImportError as cause:
            raise StripError(f"the LED strip's driver is not installed ({cause}); {DRIVER_FIX}") from cause

        self._bus = SpidevBus(device)
        self._pixels = NeoPixel_SPI(
            self._bus,
            lights.strip_pixels,
            brightness=lights.strip_brightness,
            auto_write=False,
            pixel_order=lights.strip_order,
            reset_time=RESET_SECONDS,
        )
        self.segments: Mapping[str, Segment] = lights.segments
        self._shown: dict[str, tuple[int, bool]] = {name: (0, False) for name in self.segments}
        self._lock = threading.Lock()
        self._blink_on = True
        self._stopping = threading.Event()
        self._blinker: threading.Thread | None = None
        self.problem: str | None = None
        self._pixels.fill(0)
        self._write()

    @classmethod
    def from_config(cls, lights: LightsConfig, simulate: bool) -> StripLights | None:
        """The configured strip (``None`` without one); simulated, its bytes are recorded."""
        if not lights.strip:
            return None
        return cls(RecordingSpidev() if simulate else open_spidev(lights.strip), lights)

    @property
    def device(self) -> Any:
        """The spidev handle the frames go to (a :class:`RecordingSpidev` when simulated)."""
        return self._bus.device

    def length(self, name: str) -> int:
        return self.segments[name].pixels

    def show(self, name: str, count: int, attention: bool = False) -> None:
        """Lights pixels 1..count of the segment; ``attention`` blinks pixel ``count``."""
        seg = self.segments[name]
        if not 0 <= count <= seg.pixels:
            raise ValueError(f"segment {name} has {seg.pixels} pixels, cannot light {count}")
        with self._lock:
            if self._shown[name] == (count, attention and count > 0):
                return
            self._shown[name] = (count, attention and count > 0)
            self._paint(name)
            self._write()
        if attention and count:
            self._start_blinking()

    def _paint(self, name: str) -> None:
        """Sets the segment's pixels in the buffer (the blinking one as the blink phase has it)."""
        seg, (count, blinking) = self.segments[name], self._shown[name]
        colour = _rgb(seg.colour)
        for i in range(seg.pixels):
            lit = i < count and not (blinking and i == count - 1 and not self._blink_on)
            self._pixels[seg.first + i] = colour if lit else (0, 0, 0)

    def _start_blinking(self) -> None:
        if self._blinker is None:
            self._blinker = threading.Thread(target=self._blink, name="strip-blink", daemon=True)
            self._blinker.start()

    def _blink(self) -> None:
        """Toggles every blinking pixel each half-period; writes only while one blinks."""
        while not self._stopping.wait(BLINK_SECONDS):
            with self._lock:
                blinking = [name for name, (_, attention) in self._shown.items() if attention]
                if not blinking:
                    continue
                self._blink_on = not self._blink_on
                for name in blinking:
                    self._paint(name)
                self._write()

    def _write(self) -> None:
        """Sends the buffer; a failing write is logged once and kept in ``problem`` (the
        board page still shows the tracks), never raised into the table or the blinker."""
        try:
            self._pixels.show()
        except OSError as error:
            if self.problem is None:
                log.warning("LED strip: %s", error)
            self.problem = f"the LED strip cannot be written: {error}"
        else:
            self.problem = None

    def snapshot(self, name: str) -> dict[str, Any]:
        """What the segment shows, read back from the library's pixel buffer (before
        brightness), the blinking pixel counted as lit."""
        seg = self.segments[name]
        with self._lock:
            count, blinking = self._shown[name]
            lit = [any(self._pixels[seg.first + i]) or (blinking and i == count - 1) for i in range(seg.pixels)]
        return {
            "lit": lit,
            "value": count,
            "attention": blinking,
            "colour": seg.colour,
            "blinking": count - 1 if blinking else None,
        }

    def close(self) -> None:
        """Stops blinking, darkens the strip and releases the SPI device."""
        self._stopping.set()
        if self._blinker is not None:
            self._blinker.join(timeout=2 * BLINK_SECONDS)
        with self._lock:
            self._pixels.fill(0)
            self._write()
            self._bus.close()
