"""The durable action log, seat claims and the options kept per board, in one SQLite file.

Every accepted action is committed here (WAL, ``synchronous=FULL``) *before* its
effects run, so a power cut or ``kill -9`` at any moment loses nothing that the
table was told about.  Seat tokens are never stored: only their SHA-256, so the
state file does not hand out working phone links to whoever reads it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from engine.actions import Action, IllegalAction
from engine.messages import _
from engine.table import Entry

SCHEMA = """
CREATE TABLE IF NOT EXISTS log (
    seq    INTEGER PRIMARY KEY,
    action TEXT    NOT NULL,
    seed   INTEGER NOT NULL,
    at     REAL    NOT NULL
);
CREATE TABLE IF NOT EXISTS claims (
    game   INTEGER NOT NULL,
    seat   INTEGER NOT NULL,
    token  TEXT    NOT NULL UNIQUE,
    at     REAL    NOT NULL,
    PRIMARY KEY (game, seat)
);
CREATE TABLE IF NOT EXISTS reset_seats (
    game   INTEGER NOT NULL,
    seat   INTEGER NOT NULL,
    PRIMARY KEY (game, seat)
);
CREATE TABLE IF NOT EXISTS set_aside (
    seq    INTEGER PRIMARY KEY,
    reason TEXT    NOT NULL,
    at     REAL    NOT NULL
);
CREATE TABLE IF NOT EXISTS box_key (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    key    BLOB    NOT NULL
);
CREATE TABLE IF NOT EXISTS host (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    token  TEXT    NOT NULL
);
CREATE TABLE IF NOT EXISTS kept_options (
    game   TEXT    NOT NULL,
    name   TEXT    NOT NULL,
    value  TEXT    NOT NULL,
    at     REAL    NOT NULL,
    PRIMARY KEY (game, name)
);
"""


Kept = tuple[str, Mapping[str, Any]]
"""A game's name and the options to keep for it (see :meth:`Store.append`)."""


class SeatTaken(ValueError):
    """Someone else claimed that seat first."""


class StorageError(OSError):
    """The state directory cannot be written (a full disk, a read-only or missing folder).
    An OSError, so the web side can answer it as "unavailable" without importing device."""


def check_state_dir(path: Path) -> None:
    """Make the state directory if needed and prove it takes a file, so a box that cannot
    save says why at start instead of failing at the first move."""
    try:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".familiar-check-"):
            pass
    except OSError as exc:
        raise StorageError(
            f"the state directory {path} cannot be written ({exc.strerror or exc}): make it writable "
            f"for the box's user (systemd's StateDirectory= does this) or set box.state_dir"
        ) from None


def _explain(exc: sqlite3.Error, folder: Path) -> str:
    """What a failed write means for the table, and the fix."""
    code = (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF
    if code == sqlite3.SQLITE_FULL:
        return _(
            "the disk holding {folder} is full: moves cannot be saved. Free some space, then play on",
            folder=str(folder),
        )
    if code == sqlite3.SQLITE_READONLY:
        return _("{folder} has become read-only: moves cannot be saved. Check the SD card", folder=str(folder))
    return _("moves cannot be saved in {folder} ({reason})", folder=str(folder), reason=str(exc))


class BadEntry(ValueError):
    """A logged action that no longer parses (written by an older box, or damaged)."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(reason)
        self.seq = seq


def token_hash(token: str) -> str:
    """What is stored and looked up in place of a token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Store:
    """One SQLite database in the state directory; safe to share between threads."""

    def __init__(self, path: Path) -> None:
        check_state_dir(path.parent)
        self.path = path
        self.on_health: Callable[[str | None], None] = lambda problem: None
        """Told each write's outcome: a problem's text, or None once writes work (again)."""
        try:
            self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=10)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(SCHEMA)
            os.chmod(path, 0o600)
        except (sqlite3.Error, OSError) as exc:
            raise StorageError(f"the game log {path} cannot be opened ({exc})") from None

    @contextmanager
    def _saving(self) -> Iterator[None]:
        """One write transaction (begun here: the connection is in autocommit mode, so
        without it each statement would be its own); a storage failure becomes a
        StorageError that changes nothing (the transaction is rolled back) and is
        reported to ``on_health``."""
        try:
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                yield
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as exc:  # OperationalError: full, read-only, I/O error
            problem = _explain(exc, self.path.parent)
            self.on_health(problem)
            raise StorageError(problem) from None
        self.on_health(None)

    def close(self) -> None:
        self.db.close()

    # The action log

    def append(self, action: Action, seed: int, at: float | None = None, keep: Kept | None = None) -> Entry:
        """Make one action durable, accepted at wall time ``at`` (now if not given: a
        timer's deadline is folded from it); returns it with its sequence number.

        ``keep`` is ``(game, {option: value})``: options to remember for that game's next
        set-up (a value of None forgets one), written in the same transaction, so a game
        never starts without the board it was started with being kept, nor the other way."""
        at = time.time() if at is None else at
        with self._saving():
            cur = self.db.execute("INSERT INTO log (action, seed, at) VALUES (?, ?, ?)", (action.to_json(), seed, at))
            if keep is not None:
                self._keep(*keep, at)
        return Entry(seq=int(cur.lastrowid), action=action, seed=seed, at=at)

    def entries(self) -> list[Entry]:
        """The log in order, for replay, without the entries set aside; BadEntry names the
        first row that does not parse."""
        rows = self.db.execute(
            "SELECT seq, action, seed, at FROM log WHERE seq NOT IN (SELECT seq FROM set_aside) ORDER BY seq"
        ).fetchall()
        entries = []
        for seq, text, seed, at in rows:
            try:
                entries.append(Entry(seq=seq, action=Action.from_json(text), seed=seed, at=at))
            except IllegalAction as exc:
                raise BadEntry(seq, str(exc)) from None
        return entries

    def set_aside(self, first: int, reason: str) -> int:
        """Leave entry ``first`` and every later one out of replay; returns how many.
        The rows stay in the log (for a person to read, and so that no sequence number
        is ever handed out twice: seat claims are keyed by them)."""
        with self._saving():
            cur = self.db.execute(
                "INSERT OR IGNORE INTO set_aside (seq, reason, at) SELECT seq, ?, ? FROM log WHERE seq >= ?",
                (reason, time.time(), first),
            )
        return cur.rowcount

    # Options kept per board

    def _keep(self, game: str, values: Mapping[str, Any], at: float) -> None:
        for name, value in values.items():
            if value is None:
                self.db.execute("DELETE FROM kept_options WHERE game = ? AND name = ?", (game, name))
            else:
                self.db.execute(
                    "INSERT OR REPLACE INTO kept_options (game, name, value, at) VALUES (?, ?, ?, ?)",
                    (game, name, json.dumps(value, sort_keys=True), at),
                )

    def kept(self, game: str) -> dict[str, str]:
        """The options kept for ``game``, each as the JSON text it was saved as: whether
        it still means anything is the game's to say (a box updated since may not take it)."""
        rows = self.db.execute("SELECT name, value FROM kept_options WHERE game = ?", (game,))
        return {str(name): str(value) for name, value in rows}

    # Seat claims: one phone per seat per game

    def claim(self, game: int, seat: int, token: str) -> None:
        """Record that the holder of ``token`` sits in ``seat``; SeatTaken if it is not free."""
        try:
            with self._saving():
                self.db.execute(
                    "INSERT INTO claims (game, seat, token, at) VALUES (?, ?, ?, ?)",
                    (game, seat, token_hash(token), time.time()),
                )
        except sqlite3.IntegrityError:
            raise SeatTaken(f"seat {seat} is already taken") from None

    def seat_of(self, game: int, token: str) -> int | None:
        """The seat this token holds in this game, or None."""
        wanted = token_hash(token)
        row = self.db.execute("SELECT seat, token FROM claims WHERE game = ? AND token = ?", (game, wanted)).fetchone()
        if row is None or not hmac.compare_digest(row[1], wanted):
            return None
        return int(row[0])

    def claimed(self, game: int) -> set[int]:
        return {r[0] for r in self.db.execute("SELECT seat FROM claims WHERE game = ?", (game,))}

    def release(self, game: int, seat: int) -> bool:
        """Free a seat (a lost phone): its old token stops working at once, and the seat
        is remembered as reset (its next phone needs the host's approval, see
        :meth:`was_reset`)."""
        with self._saving():
            cur = self.db.execute("DELETE FROM claims WHERE game = ? AND seat = ?", (game, seat))
            if cur.rowcount > 0:
                self.db.execute("INSERT OR IGNORE INTO reset_seats (game, seat) VALUES (?, ?)", (game, seat))
        return cur.rowcount > 0

    def was_reset(self, game: int, seat: int) -> bool:
        """Whether ``seat`` had a phone in this game that was reset: its secrets were
        dealt to a phone already, so whoever claims it now must be approved by the host."""
        row = self.db.execute("SELECT 1 FROM reset_seats WHERE game = ? AND seat = ?", (game, seat)).fetchone()
        return row is not None

    def box_key(self) -> bytes:
        """This box's own random key (made once, kept with the log): join codes are
        derived from it, so they cannot be guessed and survive restarts."""
        row = self.db.execute("SELECT key FROM box_key WHERE id = 1").fetchone()
        if row is None:
            with self._saving():
                self.db.execute("INSERT OR IGNORE INTO box_key (id, key) VALUES (1, ?)", (os.urandom(32),))
            row = self.db.execute("SELECT key FROM box_key WHERE id = 1").fetchone()
        return bytes(row[0])

    # The host

    def host_matches(self, token: str) -> bool:
        row = self.db.execute("SELECT token FROM host WHERE id = 1").fetchone()
        return row is not None and hmac.compare_digest(row[0], token_hash(token))

    def has_host(self) -> bool:
        return self.db.execute("SELECT 1 FROM host WHERE id = 1").fetchone() is not None

    def set_host(self, token: str) -> None:
        """Make the holder of ``token`` the host, replacing any earlier host device."""
        with self._saving():
            self.db.execute("INSERT OR REPLACE INTO host (id, token) VALUES (1, ?)", (token_hash(token),))
