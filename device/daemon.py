"""The box's daemon: camera -> vision -> table -> lights, speaker and web pages.

Everything the table sees flows one way.  A camera thread turns frames into one
settled frame per roll and hands it to the reading desk; the table service makes
each accepted action durable and then tells its listeners; the listeners drive the
LEDs and the narrator; the web pages read views.  The main thread pings the systemd
watchdog only while the camera and narrator threads report in (``device.heartbeats``),
so a wedged main loop, or a dead or hung camera or narrator thread, is restarted by
systemd.

A missing camera or speaker is never fatal: the box says and shows a warning and
the table plays by hand.  GPIO is different: on real hardware a wrong pin map or
no access to the pins is a set-up error and ``familiar run`` stops with the fix.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from device.buttons import Buttons
from device.config import Config
from device.heartbeats import Heartbeats
from device.narrator import Narrator
from device.notify import Notifier
from device.outputs import BLINK_SECONDS, Outputs, make_pin_factory
from device.readings import ReadingDesk
from device.recap import recap
from device.store import Store
from device.table_service import Announce, TableService
from device.timers import TimerKeeper
from engine import timers as timing
from engine.actions import Action, IllegalAction
from engine.effects import Effect, Say
from engine.messages import _, _n, said
from vision.camera import CameraError, CameraTuning, open_camera
from vision.camera.base import NO_CAMERA_HINT
from vision.dice import TaughtDice, forget_die, read_dice, taught_dice
from vision.settle import SettleDetector

log = logging.getLogger("familiar")
CAMERA_RETRY_S = 15.0
CAMERA_STALL_S = 30.0
"""The camera thread beats on every frame and every second of a wait; opening a Pi camera
(listing its sensor modes, metering, focusing) takes a few seconds, a frame at most
picamera2's 2 s timeout, a reading of a settled frame under a second on a Pi 4. Silence
for this long means the thread is dead or hangs in a driver call."""
NARRATOR_STALL_S = 120.0
"""One line may take espeak-ng's timeout (device.narrator.SYNTH_TIMEOUT_SECONDS) plus its playing time
and aplay's margin; a long line of a game plays for about a minute."""
CAMERA_STEADY_S = 30.0
"""A camera that failed is declared working again only after this long without failing:
reopening one that fails at a corrupt photo works for a few seconds each time, and the
warning was said at every trip round the folder."""
LATEST_FRAME_S = 1.0
"""How often a camera that watches motion on a low-resolution stream also hands over a
full frame for the host page's camera view and for teaching (and at every settle)."""
TIMERS_STALL_S = 30.0
"""The timer thread beats five times a second; a look at the timers waits at most for the
table's lock (one log append)."""
LIGHTS_STEADY_S = 30.0
"""Failed lights are declared working again only after a redraw this long after the last
failure: blinking and breathing write from gpiozero's own threads, where a failure is
not seen, so one redraw that happened to write nothing proves little."""
TEACHING_QUIET_S = 30.0
"""After the host captures a die or a deck to teach, still trays are not read for this
long: the die put in the tray to be taught is not a roll."""


PARTS = {
    "camera": _("Camera"),
    "speaker": _("Speaker"),
    "gpio": _("Lights and buttons"),
    "storage": _("Storage"),
    "vision": _("Reading"),
    "timers": _("Timer"),
    "narrator": _("Narrator"),
    "web": _("Web pages"),
}
"""The box's parts as the table hears them named."""


def _camera_words(text: str) -> str:
    """A camera's 'no camera' error with its advice in the table's language (the driver's
    own words, a device path, stay as they are in brackets); any other as it is."""
    if NO_CAMERA_HINT not in text:
        return text
    parts = (part.strip(" :;,").removesuffix(" or").strip(" :;,") for part in text.split(NO_CAMERA_HINT))
    detail = "; ".join(part for part in parts if part)
    return _(
        "The camera does not work ({detail}): connect the camera ribbon or a USB webcam,"
        " or set camera.source in /etc/familiar/familiar.toml.",
        detail=detail,
    )


def _failure(exc: Exception) -> str:
    """A camera failure in words: a CameraError already says what to do; anything else is
    unexpected, so its type is kept and its traceback logged."""
    if isinstance(exc, CameraError):
        return _camera_words(str(exc))
    log.error("camera thread", exc_info=exc)
    return f"{type(exc).__name__}: {exc}."


class Daemon:
    """One box: owns the hardware, the table service and the web server."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.simulated = config.box.simulate
        self.stopping = threading.Event()
        self.problems: dict[str, str] = {}
        self.parts: dict[str, str] = {"camera": "starting", "speaker": "starting", "gpio": "starting", "storage": "ok"}
        self.store = Store(config.box.state_dir / "familiar.db")  # StorageError: the CLI says why
        self.service = TableService(self.store, language=config.box.language)
        self.outputs = Outputs.from_config(config, make_pin_factory(self.simulated))
        self.pin_factory = self.outputs.pin_factory
        self.parts["gpio"] = "simulated" if self.simulated else "ok"
        self.narrator = Narrator.from_config(
            config,
            on_problem=self._speaker_problem,
            on_recovered=self._speaker_recovered,
            language=lambda: self.service.language,
            on_said=self.service.touch,  # the pages' captions follow the speaker
        )
        if not self.narrator.speaker:
            self.parts["speaker"] = "missing: WAV files only"
        elif self.parts["speaker"] == "starting":
            self.parts["speaker"] = "ok"
        self.buttons = Buttons(
            config.gpio,
            pin_factory=self.pin_factory,
            on_confirm=self.confirm,
            on_confirm_hold=self.service.open_host_pairing,
            on_undo=self.undo,
            on_undo_hold=self.narrator.repeat,
        )
        self.desk = ReadingDesk(self.service.submit, config.vision.confirm_below, config.vision.areas)
        self._teaching = threading.Lock()
        self._taught_at = -TEACHING_QUIET_S
        self.taught = self._taught_dice()
        self.notify = Notifier()
        self.heartbeats = Heartbeats()
        self._narrated = 0
        self._remeter = threading.Event()
        self._metered_game = self.service.game_seq
        self._latest_frame = None
        self._camera: Any = None
        self._dice_rng = random.Random()
        self._drawing = threading.Lock()
        self._lights_failed_at = 0.0
        self.service.add_listener(self._on_effects)
        self.timers = TimerKeeper(
            self.service, say=self.narrator.say, redraw=self._show_board, beat=lambda: self.heartbeats.beat("timers")
        )
        self.store.on_health = self._storage_health
        for text in self.service.replay_problems:
            self.narrator.say(text)
        self._show_board()

    def _taught_dice(self) -> TaughtDice | None:
        """Every symbol die taught on this box (host page or ``familiar vision teach-die``),
        read together with pipped dice.  The host page's teaching reloads it; a die taught
        from the shell while the box runs is used after a restart."""
        root = self._dice_root()
        names = sorted(p.name for p in root.glob("*") if (p / "die.json").is_file())
        if not names:
            return None
        try:
            return TaughtDice.load(root, names)
        except (OSError, ValueError) as exc:
            self._problem(
                "vision",
                _("taught dice in {root} cannot be loaded: {reason}", root=str(root), reason=str(exc)),
                "failing",
            )
            return None

    def _dice_root(self) -> Path:
        return self.config.state_path(self.config.vision.dice_dir)

    # Outputs follow the table

    def _on_effects(self, effects: list[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, Say):
                self.narrator.say(effect.text, first=isinstance(effect, Announce), then_wait=effect.then_wait)
        self._drop_stale_readings()
        if self.service.game_seq != self._metered_game:  # a new game: the lights may be new too
            self._metered_game = self.service.game_seq
            self.remeter_camera()
        self._show_board()

    def _drop_stale_readings(self) -> None:
        """After each change of the table, readings parked for the host that no longer
        answer what it waits for go (with one notice saying how many)."""
        answering = {e.action for e in self.service.public_prompts() if e.kind in ("dice", "cards")}
        dropped = self.desk.keep_only(answering)
        if dropped:
            self.service.note(
                _n(
                    "{count} camera reading was dropped: the table no longer waits for it.",
                    "{count} camera readings were dropped: the table no longer waits for them.",
                    dropped,
                )
            )

    def _show_board(self) -> None:
        """Set the LEDs from state (not from effects), so undo and restarts restore them;
        the table's timers drain on tracks of their own (redrawn by the timer thread too).
        The lights are the whole table's, so they are drawn from the public state alone:
        the public view's tracks, and the status light breathes only for a public prompt
        (a phone's secret prompt, such as a night call, would say which role is awake).

        The listeners (web threads) and the camera thread both redraw; gpiozero's blink
        and pulse threads are not safe to start and stop from two threads at once (one
        raised "cannot join thread before it is started"), so one redraw at a time.  The
        table is held still first: the listeners redraw holding it, so a thread that took
        the drawing lock before the table's would deadlock with them (the timer thread did)."""
        try:
            with self.service.held(), self._drawing:
                if self.stopping.is_set():  # closing: the outputs are going, nothing to light
                    return
                self.outputs.show(
                    {**self.service.public_tracks(), **timing.tracks(self.service.timers(), self.service.clock())}
                )
                if self.problems or self.desk.pending():
                    self.outputs.status.attention()
                elif self.service.public_prompts():
                    self.outputs.status.waiting()
                else:
                    self.outputs.status.ready()
        except Exception as exc:  # noqa: BLE001 - a failing pin: the board is on the pages, play goes on
            log.error("the lights failed", exc_info=exc)
            self._lights_failed_at = time.monotonic()
            self._problem(
                "gpio", _("the lights failed ({reason}): the board is on the host page", reason=str(exc)), "failing"
            )
            return
        if "gpio" in self.problems and time.monotonic() - self._lights_failed_at >= LIGHTS_STEADY_S:
            self._solved("gpio", "simulated" if self.simulated else "ok")

    def _problem(self, part: str, message: str, state: str) -> None:
        """A part is missing or failing: show it, say it once, keep playing by hand.  The
        part's state is set after the notice, so whoever sees the state finds the notice."""
        if self.problems.get(part) != message:
            self.problems[part] = message
            log.warning("%s: %s", part, message)
            self.service.note(
                _("{part} problem: {message}", part=PARTS.get(part, part), message=message), speak=part != "speaker"
            )
        self.parts[part] = state

    def _solved(self, part: str, state: str = "ok") -> None:
        if self.problems.pop(part, None) is not None:
            self.service.note(_("{part}: working again.", part=PARTS.get(part, part)))
        self.parts[part] = state

    def _storage_health(self, problem: str | None) -> None:
        """Each write's outcome: a full or read-only disk is said and shown like any part."""
        if problem is None:
            if "storage" in self.problems:
                self._solved("storage")
        else:
            self._problem("storage", problem, "failing")

    def _speaker_problem(self, message: str) -> None:
        self._problem("speaker", message, "failing")

    def _speaker_recovered(self) -> None:
        """A line was said after a failure: the speaker (or the WAV copies) works again."""
        self._solved("speaker", "ok" if self.narrator.speaker else "missing: WAV files only")

    # Buttons

    def confirm(self) -> None:
        """Confirm/next: answers a host confirmation the game waits for, if any."""
        for expect in self.service.public_prompts():
            if expect.kind == "confirm" and expect.seat is None:
                try:
                    self.service.submit(Action(expect.action, {}))
                except IllegalAction as exc:
                    self.service.note(said(exc))
                return

    def undo(self) -> None:
        """The box's undo button: it says what the host page shows, the refusal's public
        words when the last step showed a secret (see ``Table.undo_refusal``)."""
        try:
            self.service.undo()
        except IllegalAction as exc:
            self.narrator.say(said(exc))

    # The camera

    def _camera_loop(self) -> None:
        """Opens the camera and watches the tray until the box stops. No failure ends the
        thread: any exception (a missing camera, a driver that cannot even be imported, a
        bug) is shown as a problem and the camera is tried again, and the host plays by
        hand meanwhile."""
        cam = self.config.camera
        tuning = CameraTuning(mains_hz=cam.mains_hz, lens_position=cam.lens_position)
        while not self.stopping.is_set():
            self.heartbeats.beat("camera")
            try:
                camera = open_camera(cam.source, cam.width, cam.height, cam.fps, tuning)
            except Exception as exc:  # noqa: BLE001 - e.g. picamera2 failing to import
                self._problem(
                    "camera",
                    _("{failure} Play on by hand: enter dice on the host page.", failure=_failure(exc)),
                    "missing",
                )
                self._rest(CAMERA_RETRY_S)
                continue
            if "camera" not in self.problems:
                self._solved("camera")
            log.info("camera: %s", camera.description)
            try:
                self._camera = camera
                with camera:
                    self._watch(camera, SettleDetector(fps=cam.fps))
            except Exception as exc:  # noqa: BLE001
                self._problem("camera", _("the camera stopped: {failure}", failure=_failure(exc)), "failing")
                self._rest(1.0)

    def _rest(self, seconds: float) -> None:
        """Waits before the camera is tried again, beating every second meanwhile."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0 and not self.stopping.wait(min(1.0, left)):
            self.heartbeats.beat("camera")

    def _watch(self, camera: Any, settle: SettleDetector) -> None:
        """Watches the camera's motion frames (its low-resolution stream where it has one)
        with the settle detector, and hands the full frame of each settled scene on."""
        opened = latest_at = time.monotonic()
        while not self.stopping.is_set():
            if self._remeter.is_set():
                self._remeter.clear()
                camera.remeter()
            seen = camera.read_motion()
            self.heartbeats.beat("camera")
            now = time.monotonic()
            if camera.motion_is_full or now - latest_at >= LATEST_FRAME_S:
                self._latest_frame, latest_at = camera.still(seen), now  # for the host page and teaching
            if "camera" in self.problems and now - opened >= CAMERA_STEADY_S:
                self._solved("camera")
            settled = settle.feed(seen)
            if settled is None:
                continue
            try:
                self._latest_frame = frame = camera.still(settled)  # the readers read the full frame
                self._on_settled(frame)
            except Exception:  # noqa: BLE001 - a reader bug must not blind the box
                log.exception("reading a settled frame failed")
                self._problem("vision", _("a photo could not be read: enter it by hand on the host page"), "failing")

    def _on_settled(self, frame: Any) -> None:
        """A still tray: read what the table waits for (dice or cards), nothing else."""
        if self.service.table.game is None or time.monotonic() - self._taught_at < TEACHING_QUIET_S:
            return
        expects = self.service.public_prompts()
        wanted = next((e for e in expects if e.kind in ("dice", "cards")), None)
        if wanted is None and expects:
            return  # the table waits for a choice or a vote: a still tray is not an answer
        if wanted is not None and wanted.kind == "cards":
            outcome = self._read_cards(frame, wanted)
        else:
            # Taught symbol dice only where the roll may hold them: the matcher costs 3-4x
            # the reading, and without it an unsure pipped die gets a second look.
            taught = self.taught if wanted is None or wanted.symbols else None
            outcome = self.desk.dice(frame, read_dice(frame, taught), wanted)
        log.info("reading: %s", outcome)
        self.service.touch()  # a reading parked for the host shows on its page at once
        self._show_board()

    def _read_cards(self, frame: Any, expect: Any) -> str:
        """Read the cards in view against every taught deck, each card named by the deck
        that knows it (two decks may lie side by side).  The desk answers the prompt with
        them, or (cards read where they lie) with those newly laid.  Without a taught deck
        the host enters the cards by hand."""
        from vision.cards import Catalog, read_decks  # ~25 MB of the box's memory: only once cards are read

        indexes = sorted(self.config.state_path(self.config.vision.card_catalog).glob("*/catalog.json"))
        catalogs = [c for c in (Catalog(index.parent) for index in indexes) if c.names]
        if not catalogs:
            return "no taught deck: cards are entered by hand"
        read = read_decks(frame, catalogs)
        data = {card.name: deck.card_data(card.name) for card, deck in read if deck is not None and card.name}
        return self.desk.cards(frame, [card for card, _ in read], lambda name: data.get(name, {}), expect)

    def remeter_camera(self) -> None:
        """Exposure and white balance are measured afresh on the camera thread's next
        frame (a new game, or the host asks after changing the lights)."""
        self._remeter.set()

    # The Box protocol, for the web pages

    def board(self) -> dict[str, Any]:
        snap = self.outputs.snapshot()
        return {
            "tracks": snap["tracks"],
            "blink_seconds": BLINK_SECONDS,
            "status": snap["status"]["mode"],
            "brightness": snap["status"]["brightness"],
            "simulated": self.simulated,
            "parts": dict(self.parts),
            "problems": [*self.problems.values(), *filter(None, [self.outputs.problem])],
            "spoken": self.narrator.history[-8:],
        }

    def press(self, button: str) -> None:
        if not self.simulated:
            raise PermissionError("buttons can be pressed on the page only on simulated hardware")
        if button == "roll":
            self.throw_dice()
        else:
            self.buttons.simulate(button)

    def throw_dice(self, count: int | None = None) -> bool:
        """The demo's roll: as many dice as the table waits for (``count``, else its dice
        prompt's, else a handful) land in a tray that shows none until then; only while a
        roll is awaited, so the tray never answers a roll nobody made."""
        camera = self._camera
        if not callable(getattr(camera, "throw", None)):
            self.service.note(_("this camera shows a real tray: roll the dice into it"))
            return False
        wanted = next((e for e in self.service.public_prompts() if e.kind == "dice"), None)
        if wanted is None:
            self.service.note(_("the table is not waiting for a roll"))
            return False
        counts = camera.counts()
        count = count or wanted.count or self._dice_rng.choice(counts)
        return bool(camera.throw(min(count, max(counts))))

    def camera_jpeg(self) -> bytes | None:
        """The latest frame, with the card areas outlined when the config has them."""
        import cv2

        from device.areas import outlined

        frame = self._latest_frame
        if frame is None:
            return None
        if self.config.vision.areas:
            frame = outlined(frame, self.config.vision.areas)
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 75])
        return data.tobytes() if ok else None

    def pending(self) -> list[dict[str, Any]]:
        return self.desk.pending()

    def pending_jpeg(self, reading_id: str) -> bytes | None:
        return self.desk.photo(reading_id)

    def resolve(self, reading_id: str, values: list[Any] | None) -> None:
        self.desk.resolve(reading_id, values)
        self.service.touch()
        self._show_board()

    def teach_cards(self, catalog: str, rows: int, cols: int, names: list[str], commit: bool) -> list[bytes]:
        from device.teach import teach_cards

        self._taught_at = time.monotonic()
        return teach_cards(
            self._latest_frame,
            self.config.state_path(self.config.vision.card_catalog) / catalog,
            rows,
            cols,
            names,
            commit,
        )

    def teach_die(self, die: str, face: str) -> dict[str, Any]:
        """One photo of a face from the latest frame; the next roll already reads it.
        The lock keeps two taps from interleaving their files; the reading thread only
        ever sees a whole ``TaughtDice``, swapped in by one assignment."""
        from device.teach import teach_die_face

        self._taught_at = time.monotonic()
        with self._teaching:
            result = teach_die_face(self._latest_frame, self._dice_root(), die, face)
            self.taught = self._taught_dice()
        return result

    def forget_die(self, die: str) -> None:
        with self._teaching:
            forget_die(self._dice_root(), die)
            self.taught = self._taught_dice()

    def taught_dice(self) -> dict[str, dict[str, int]]:
        return taught_dice(self._dice_root())

    # Life cycle

    def start(self) -> None:
        from web import create_app
        from web.serve import serve

        app = create_app(self.service, self, public_url=self.config.web.public_url or None, simulated=self.simulated)
        self.server = serve(app, self.config.web.host, self.config.web.port)
        self.heartbeats.expect("camera", CAMERA_STALL_S)
        self.heartbeats.expect("narrator", NARRATOR_STALL_S)
        self.heartbeats.expect("timers", TIMERS_STALL_S)
        self.timers.start()
        threading.Thread(target=self._camera_loop, name="camera", daemon=True).start()
        self.narrator.say(_("Familiar is ready."))
        for line in recap(self.service.public_view()):  # a restart: where the table is
            self.narrator.say(line)

    def run(self, after_start: Callable[[], None] | None = None) -> int:
        """Start everything, tell systemd, and ping its watchdog until asked to stop, but
        only while every watched thread reports in."""
        self.start()
        if after_start is not None:
            after_start()
        self.notify.ready()
        self.notify.status(f"serving on port {self.config.web.port}")
        period = self.notify.watchdog_period() or 10.0
        silent: set[str] = set()
        while not self.stopping.wait(period / 2):
            self._narrator_reports_in()
            stalled = self.heartbeats.stalled()
            for name in silent - stalled.keys():  # reported in again before systemd acted
                self._solved(name)
            silent = set(stalled)
            if stalled:
                self._stalled(stalled)
                continue
            self.notify.watchdog_ping()
        self.close()
        return 0

    def _narrator_reports_in(self) -> None:
        """The narrator's thread is alive while nothing waits to be said or it finished a
        line (said or failed) since the last look; a dead or hung thread leaves queued
        lines unsaid.  Work done is counted, not the capped history's length: past 100
        lines that length stops changing while the narrator talks on."""
        finished = self.narrator.finished
        if finished != self._narrated or self.narrator.wait_idle(0):
            self.heartbeats.beat("narrator")
        self._narrated = finished

    def _stalled(self, stalled: dict[str, float]) -> None:
        """No ping: systemd restarts the box after WatchdogSec; until then, say why."""
        names = ", ".join(f"{name} ({silent:.0f} s)" for name, silent in sorted(stalled.items()))
        log.error("watchdog: not pinging, silent threads: %s", names)
        self.notify.status(f"stalled: {names}; systemd restarts the box")
        for name in stalled:
            self._problem(name, _("the {name} thread stopped responding: the box restarts", name=name), "stalled")

    def close(self) -> None:
        self.notify.stopping()
        self.stopping.set()
        server = getattr(self, "server", None)
        if server is not None:
            server.stop()
        self.timers.close()
        self.narrator.stop()  # waiting lines are dropped: a stop must not wait for them
        self.buttons.close()
        with self.service.held(), self._drawing:  # not while a thread still redraws (a blink starting)
            self.outputs.close()
        self.store.close()
