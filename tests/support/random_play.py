"""A random legal player for every registered game, knowing nothing of any game.

It reads only what the box offers a person: the prompts (``Expect``) of the table and of
each seat, and answers each with data shaped as the pages send it (see ``renderPrompt``
in web/static/common.js): a vote, a pick among the prompt's options, a roll of the
prompt's dice count, typed card names, a confirm.  A refused answer is tried with
another candidate, then another prompt; so a new game registered later is played as it
is, through the same prompts its players will use.

Two drivers share the candidates: :func:`table_moves` plays an ``engine.table.Table``
directly (property tests), :class:`HttpTable` plays a box through its JSON API as the
host's page and the phones do (crash, leak and fuzz tests).
"""

from __future__ import annotations

import functools
import http.client
import json
import random
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.cookiejar import CookieJar
from typing import Any

from engine.actions import Action, IllegalAction
from engine.effects import TIMER_DONE
from engine.game import Game
from engine.table import NEW, UNDO, UNDO_PASSES, Entry, Table

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]
MOST_SEATS = 7
"""Games are played with at most this many seats, so a run covers more games."""
CARD_WORDS = ("0", "1", "2", "3", "curse", "Order", "Dark Arts")
"""What a host may type for a revealed card: dice values, a curse, policy names."""


def candidates(expect: dict[str, Any], rng: random.Random, tries: int = 6) -> list[dict[str, Any]]:
    """Answers to one prompt (as its JSON), best guesses first, shaped as a page sends them."""
    kind, count, options = expect["kind"], expect.get("count"), list(expect.get("options") or [])
    if kind == "vote":
        first = rng.random() < 0.6
        return [{"vote": first}, {"vote": not first}]
    if kind == "choice" and options and (count or 1) > 1:
        return [{"choices": rng.sample(options, min(count, len(options)))} for _ in range(tries)]
    if kind == "choice":
        picks = rng.sample(options, len(options))
        return [{"choice": o} for o in picks[:tries]]
    if kind == "dice":
        n = count or rng.randint(1, 3)
        faces: list[Any] = [*range(1, 7), *(options if expect.get("symbols") else [])]  # a symbol die's names too
        return [{"dice": sorted((rng.choice(faces) for _ in range(n)), key=str)} for _ in range(tries)]
    if kind == "cards":
        n = count or rng.randint(1, 4)
        return [{"cards": [rng.choice(CARD_WORDS) for _ in range(n)]} for _ in range(tries)]
    return [{}]


def new_game_action(game: Game[Any], rng: random.Random) -> Action:
    """Start ``game`` with a random number of seats and random declared options that the
    game takes together (a scenario is for some player counts only, a free choice of
    roles needs its roles): combinations it refuses are drawn again."""
    most = max(game.min_seats, min(game.max_seats, MOST_SEATS))
    for _ in range(200):
        players = rng.randint(game.min_seats, most)
        options = {k: rng.choice(list(v)) for k, v in (getattr(game, "option_choices", {}) or {}).items()}
        action = Action(NEW, {"game": game.name, "seats": NAMES[:players], "options": options})
        try:
            Table({game.name: game}).attempt(action, rng.randrange(1 << 32))
        except IllegalAction:
            continue
        return action
    raise AssertionError(f"no random set-up of {game.name} was accepted")


def legal_moves(table: Table, rng: random.Random) -> Iterator[Action]:
    """Candidate actions for the table's prompts, in random order (the caller tries them)."""
    expects = [e.to_json() for e in table.expects()]
    rng.shuffle(expects)
    for expect in expects:
        for data in candidates(expect, rng):
            yield Action(expect["action"], data, expect["seat"])


def paced_moves(table: Table, rng: random.Random) -> list[tuple[Action, float]]:
    """Candidate actions with the wall time each is taken at: answers to the prompts,
    those the game waits for first (mostly, so a phone's optional switches do not fill
    the game), and a running timer running out at its deadline, as the box's clock
    would say (first now and then, so a night call may also pass unanswered)."""
    at = table.kept[-1].at if table.kept else 0.0
    expects = [e.to_json() for e in table.expects()]
    rng.shuffle(expects)
    if rng.random() < 0.9:
        expects.sort(key=lambda e: bool(e.get("optional")))
    answers = [(Action(e["action"], data, e["seat"]), at) for e in expects for data in candidates(e, rng)]
    timed = [(Action(TIMER_DONE, {"name": n}), t.deadline) for n, t in table.current.timers.items() if t.deadline]
    return [*timed, *answers] if rng.random() < 0.2 else [*answers, *timed]


def paced_step(table: Table, rng: random.Random) -> Entry | None:
    """One accepted action of :func:`paced_moves`, committed, as its log entry; None
    when the game is over or no candidate is taken."""
    game = table.game
    if game is None or game.is_over(table.current.state):
        return None
    for action, at in paced_moves(table, rng):
        seed = rng.randrange(1 << 32)
        try:
            outcome = table.attempt(action, seed, at)
        except IllegalAction:
            continue
        entry = Entry(table._next_seq(), action, seed, at)
        table.commit(outcome, entry)
        return entry
    return None


def table_moves(table: Table, rng: random.Random, steps: int) -> Iterator[tuple[Action, int]]:
    """Play ``steps`` accepted actions on ``table`` (a game must be started), yielding each
    action and its seed *before* it is applied, so a caller may look at the state first.
    Stops early when the game is over or no prompt takes any candidate."""
    for _ in range(steps):
        game = table.game
        if game is None or game.is_over(table.current.state):
            return
        for action in legal_moves(table, rng):
            seed = rng.randrange(1 << 32)
            try:
                outcome = table.attempt(action, seed)
            except IllegalAction:
                continue
            yield action, seed
            table.commit(outcome, Entry(table._next_seq(), action, seed))
            break
        else:
            return


# Through the HTTP API


@dataclass
class Reply:
    status: int
    body: Any
    text: str


class SourceHandler(urllib.request.HTTPHandler):
    """Connects from a chosen loopback address, so each simulated phone is its own client
    (the box limits joins and live-update streams per client address)."""

    def __init__(self, source: str) -> None:
        super().__init__()
        self.source = source

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(functools.partial(http.client.HTTPConnection, source_address=(self.source, 0)), req)


class Client:
    """One browser: its own cookies and its own client address, talking JSON to the box."""

    def __init__(self, base: str, source: str = "127.0.0.1", timeout: float = 10.0) -> None:
        self.base, self.timeout = base, timeout
        self.opener = urllib.request.build_opener(
            SourceHandler(source), urllib.request.HTTPCookieProcessor(CookieJar())
        )

    def request(self, path: str, body: Any = None, method: str | None = None) -> Reply:
        """One request; an HTTP error is a Reply too (connection errors raise OSError)."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(
            self.base + path, data=data, headers={"Content-Type": "application/json"}, method=method
        )
        try:
            try:
                with self.opener.open(req, timeout=self.timeout) as resp:
                    status, raw = resp.status, resp.read()
            except urllib.error.HTTPError as err:
                status, raw = err.code, err.read()
        except http.client.HTTPException as exc:  # the box died mid-answer: a cut connection
            raise ConnectionError(str(exc)) from exc
        text = raw.decode("utf-8", "replace")
        try:
            parsed = json.loads(text) if text else {}
        except ValueError:
            parsed = None
        return Reply(status, parsed, text)


@dataclass
class Acked:
    """An action the box answered 2xx: it must be in the log and in effect."""

    action: Action


@dataclass
class HttpTable:
    """A host and one phone per seat, playing random legal games through the JSON API.

    ``make_client(source)`` builds a browser (urllib against a daemon, or a Flask test
    client); ``acked`` keeps every action answered 2xx, in order, undos included."""

    make_client: Callable[[str], Any]
    games: list[str]
    rng: random.Random
    undo_rate: float = 0.05
    host: Any = None
    phones: list[Any] = field(default_factory=list)
    acked: list[Action] = field(default_factory=list)
    seen: list[Reply] = field(default_factory=list)
    """Every reply, for audits (kept only while ``keep`` is set)."""
    keep: bool = False
    joins: int = 0

    def __post_init__(self) -> None:
        self.host = self.make_client("127.0.0.1")
        self.phones = [self.make_client(f"127.0.1.{i + 1}") for i in range(MOST_SEATS)]

    def _note(self, reply: Reply) -> Reply:
        if self.keep:
            self.seen.append(reply)
        return reply

    def become_host(self) -> None:
        reply = self.host.request("/host")
        assert reply.status == 200, reply.text[:200]

    def new_game(self, name: str, game: Game[Any]) -> None:
        """Start ``name`` from the host and seat a phone at every seat."""
        action = new_game_action(game, self.rng)
        self.post_host("/api/host/act", {"kind": NEW, "data": dict(action.data)}, action)
        self.join_all()

    def join_all(self) -> None:
        """Every seat's phone joins the current game (a phone already seated is left)."""
        table = self._note(self.host.request("/api/table")).body
        link = self._note(self.host.request("/api/host/join")).body
        code = link["url"].rstrip("/").rsplit("/", 1)[-1]
        for seat in range(len(table["seats"])):
            phone = self.phones[seat]
            if self._note(phone.request("/api/me")).status == 200:
                continue
            phone.request(f"/j/{code}")
            if self._note(phone.request("/api/join", {"seat": seat})).status == 200:
                self.joins += 1

    def post_host(self, path: str, body: dict[str, Any], action: Action | None) -> Reply:
        reply = self._note(self.host.request(path, body))
        if 200 <= reply.status < 300 and action is not None:
            self.acked.append(action)
        return reply

    def step(self) -> bool:
        """One accepted action (or undo); False if no prompt took any answer."""
        if self.rng.random() < self.undo_rate:
            if 200 <= self.post_host("/api/host/undo", {}, Action(UNDO, {UNDO_PASSES: "private"})).status < 300:
                return True
        table = self._note(self.host.request("/api/table")).body
        prompts: list[tuple[Any, dict[str, Any]]] = [(self.host, e) for e in table["expects"] if e["seat"] is None]
        for seat in range(len(table["seats"])):
            me = self._note(self.phones[seat].request("/api/me"))
            if me.status == 200:
                prompts += [(self.phones[seat], e) for e in me.body["expects"]]
        self.rng.shuffle(prompts)
        for client, expect in prompts:
            for data in candidates(expect, self.rng):
                if self._answer(client, expect, data):
                    return True
        return False

    def _answer(self, client: Any, expect: dict[str, Any], data: dict[str, Any]) -> bool:
        body = {"kind": expect["action"], "data": data}
        if client is self.host:
            return 200 <= self.post_host("/api/host/act", body, Action(expect["action"], data)).status < 300
        reply = self._note(client.request("/api/me/act", body))
        if 200 <= reply.status < 300:
            self.acked.append(Action(expect["action"], data, expect["seat"]))
            return True
        return False

    def over(self) -> bool:
        table = self.host.request("/api/table").body
        return table["game"] is None or table["over"]


class FlaskClient:
    """The same browser as :class:`Client`, on a Flask test client (in-process app)."""

    def __init__(self, app: Any, source: str = "127.0.0.1") -> None:
        self.client, self.source = app.test_client(), source

    def request(self, path: str, body: Any = None, method: str | None = None) -> Reply:
        resp = self.client.open(
            path,
            method=method or ("POST" if body is not None else "GET"),
            json=body,
            environ_base={"REMOTE_ADDR": self.source},
        )
        text = resp.get_data(as_text=True)
        return Reply(resp.status_code, resp.get_json(silent=True), text)
