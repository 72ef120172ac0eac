"""Storage is a part like the camera: a full disk or a read-only state directory is said
and shown, answered with a clear 503 that changes nothing, and clears itself when space
comes back; a state directory that cannot be written stops the box at start with a
readable message, never a traceback.

A full disk is a real one where this user may mount a tiny tmpfs (root in a container,
say); elsewhere SQLite's own size limit (``PRAGMA max_page_count``) fails the write with
the same error, ``SQLITE_FULL``, from the same place in SQLite.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device

from device.cli import demo_config
from device.config import Config
from device.daemon import Daemon
from device.exit_status import SETUP_ERROR
from device.store import StorageError, Store, check_state_dir
from device.table_service import TableService
from engine.actions import Action
from support import ROOT
from support.web import games
from web import create_app


def _mount(folder: Path, options: str) -> bool:
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        return False
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], capture_output=True)
    return done.returncode == 0


class Disk:
    """A folder whose disk can be filled up and freed again."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.mounted = _mount(folder, "size=512k,mode=0700")
        self.store: Store | None = None

    def fill(self) -> None:
        assert self.store is not None
        if self.mounted:
            try:
                with open(self.folder / "junk", "wb") as junk:
                    while True:
                        junk.write(b"\0" * 4096)
                        junk.flush()
            except OSError:
                pass
        else:
            pages = self.store.db.execute("PRAGMA page_count").fetchone()[0]
            self.store.db.execute(f"PRAGMA max_page_count = {pages}")

    def free(self) -> None:
        assert self.store is not None
        if self.mounted:
            (self.folder / "junk").unlink()
        else:
            self.store.db.execute("PRAGMA max_page_count = 1073741823")

    def unmount(self) -> None:
        if self.mounted:
            subprocess.run(["umount", "-l", str(self.folder)], check=False)


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Disk]:
    made = Disk(tmp_path / "disk")
    yield made
    if made.store is not None:
        made.store.close()
    made.unmount()


BIG = {"game": "dice", "seats": [f"{'x' * 21}{i:02d}" for i in range(12)]}
"""The largest move the rules take: a new game of twelve long names (about 400 bytes)."""


def fill_log(service: TableService) -> None:
    """Enough moves that the next one needs a page the disk does not have."""
    for _ in range(400):
        service.submit(Action("table.new", BIG))


def test_a_full_disk_is_a_storage_error_that_changes_nothing_and_clears(disk: Disk):
    store = disk.store = Store(disk.folder / "familiar.db")
    health: list[str | None] = []
    store.on_health = health.append
    service = TableService(store)
    service.submit(Action("table.new", {"game": "dice", "seats": ["Ann"]}))
    disk.fill()
    with pytest.raises(StorageError, match="is full"):
        fill_log(service)
    assert isinstance(health[-1], str) and "full" in health[-1]
    logged, before = len(store.entries()), service.public_view()
    with pytest.raises(StorageError):
        service.submit(Action("roll", {"dice": [6]}))
    assert len(store.entries()) == logged and service.public_view()["view"] == before["view"]
    disk.free()
    service.submit(Action("roll", {"dice": [6]}))
    assert service.public_view()["view"]["last"] == [6] and health[-1] is None


def test_a_full_disk_is_answered_503_with_the_reason(disk: Disk):
    store = disk.store = Store(disk.folder / "familiar.db")
    service = TableService(store, games=games())
    app = create_app(service, public_url="http://familiar.test:8080")
    host = app.test_client()
    assert host.get("/host").status_code == 200
    assert (
        host.post("/api/host/act", json={"kind": "table.new", "data": {"game": "dice", "seats": ["Ann"]}}).status_code
        == 200
    )
    disk.fill()
    for _ in range(500):
        reply = host.post("/api/host/act", json={"kind": "table.new", "data": BIG})
        if reply.status_code != 200:
            break
    assert reply.status_code == 503 and "full" in reply.json["error"]
    state = host.get("/api/table").json
    assert host.post("/api/host/act", json={"kind": "table.new", "data": BIG}).status_code == 503
    assert host.get("/api/table").json["view"] == state["view"]
    disk.free()
    assert host.post("/api/host/act", json={"kind": "roll", "data": {"dice": [4]}}).status_code == 200


def test_the_box_says_and_shows_a_full_disk_and_that_it_is_over(tmp_path: Path, disk: Disk):
    config = demo_config(Config(), disk.folder, port=0)
    config = dataclasses.replace(config, camera=dataclasses.replace(config.camera, source="usb:/dev/familiar-none"))
    box = Daemon(config)
    disk.store = box.store
    try:
        box.service.submit(Action("table.new", {"game": "dice", "seats": ["Ann"]}))
        disk.fill()
        with pytest.raises(StorageError):
            fill_log(box.service)
        assert box.parts["storage"] == "failing" and "full" in box.problems["storage"]
        assert box.board()["status"] == "attention"
        assert box.narrator.wait_idle(60)
        assert any(line.startswith("Storage problem") for line in box.narrator.history)
        disk.free()
        box.service.submit(Action("roll", {"dice": [3]}))
        assert box.parts["storage"] == "ok" and "storage" not in box.problems
        assert any("Storage: working again" in n for n in box.service.public_view()["notices"])
    finally:
        disk.store = None
        box.close()
        Device.pin_factory = None


def read_only(folder: Path) -> Path:
    """A read-only folder: a read-only mount for root (who ignores file modes), else mode 0500."""
    if not _mount(folder, "ro,size=64k"):
        folder.chmod(0o500)
    return folder


@pytest.fixture
def locked(tmp_path: Path) -> Iterator[Path]:
    folder = read_only(tmp_path / "locked")
    yield folder
    subprocess.run(["umount", "-l", str(folder)], check=False, capture_output=True)
    folder.chmod(0o700)


def test_check_state_dir_names_the_folder_and_the_fix(tmp_path: Path, locked: Path):
    with pytest.raises(StorageError, match="cannot be written") as refused:
        check_state_dir(locked / "state")
    assert str(locked / "state") in str(refused.value) and "box.state_dir" in str(refused.value)
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(StorageError, match="cannot be written"):
        check_state_dir(blocker / "state")  # a file in the way: the folder cannot be made
    check_state_dir(tmp_path / "fine" / "state")
    assert (tmp_path / "fine" / "state").is_dir()


def test_a_read_only_state_dir_stops_the_box_with_a_readable_message(tmp_path: Path, locked: Path):
    config = tmp_path / "familiar.toml"
    config.write_text(
        f'[box]\nsimulate = true\nstate_dir = "{locked}"\n[camera]\nsource = "usb:99"\n'
        f'[web]\nhost = "127.0.0.1"\nport = 18089\n'
    )
    done = subprocess.run(
        [sys.executable, "-m", "device.cli", "--config", str(config), "run"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == SETUP_ERROR == 6  # named in RestartPreventExitStatus: not restarted every 5 s
    assert "Traceback" not in done.stderr
    assert f"the state directory {locked} cannot be written" in done.stderr
    assert "not restarting (exit status 6)" in done.stderr
