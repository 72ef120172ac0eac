"""Serving the app with waitress, sized for live pages, and stoppable.

Each open page holds one server-sent-events stream, and waitress serves a streaming
response on one of its worker threads for as long as it lasts.  With waitress's
default 4 threads, four phones would starve everyone else.  A table is at most 8-12
phones, plus the host page, the virtual board, and streams of pages that were just
reloaded (a dead stream is noticed at its next heartbeat, within 15 s): 32 threads
cover that twice over, and an idle thread costs only its stack.

One client must not freeze the box: live streams are capped below the worker count
(``web.events``), each client address but the box's own may hold at most
``MAX_PER_CLIENT`` connections (99 idle sockets of one client once filled waitress's
limit of 100 and every request timed out), and idle keep-alive sockets are closed after ``CHANNEL_TIMEOUT``.

waitress writes no access log (nothing that could hold a cookie), and 3.x sends
each chunk at once (``send_bytes`` defaults to 1), so events are not held back.
"""

from __future__ import annotations

import functools
import threading

from flask import Flask
from waitress import wasyncore
from waitress.channel import HTTPChannel
from waitress.server import create_server

THREADS = 32
MAX_BODY = 1 << 20  # waitress's own cap, far above the app's: anything bigger is not a phone
CHANNEL_TIMEOUT = 15  # idle keep-alive sockets (a channel serving a stream is never idle)
CLEANUP_INTERVAL = 5  # how often waitress looks for idle sockets
MAX_PER_CLIENT = 16  # a browser opens at most 6 per host; a phone and a laptop share NAT rarely
OWN_ADDRESSES = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})
"""The box's own browsers (the kiosk, the demo's host with a tab per phone): not a
stranger, so not held to ``MAX_PER_CLIENT`` (issue 50: one browser's 4th phone tab was
reset); waitress's ``CONNECTION_LIMIT`` still bounds them."""
CONNECTION_LIMIT = 100  # waitress's default, in all


class PerClientChannel(HTTPChannel):
    """waitress's channel, closed at once when its client already holds its share
    (``server.per_client``, set by :class:`WebServer`), unless it is the box's own.

    It is closed through waitress's own ``will_close`` (the server loop closes it at its
    next turn), so no socket is closed under the loop's feet."""

    def __init__(self, server, sock, addr, adj, map=None) -> None:  # noqa: A002 - waitress's names
        held = sum(1 for c in list(server.active_channels.values()) if c.addr[:1] == addr[:1])
        super().__init__(server, sock, addr, adj, map=map)
        if held >= server.per_client and addr[0] not in OWN_ADDRESSES:
            self.will_close = True


class WebServer:
    """A running (or ready) waitress server for the app; ``stop()`` ends it and its streams."""

    def __init__(
        self, app: Flask, host: str, port: int, threads: int = THREADS, per_client: int = MAX_PER_CLIENT
    ) -> None:
        self.app = app
        self.server = create_server(
            app,
            host=host,
            port=port,
            threads=threads,
            max_request_body_size=MAX_BODY,
            channel_timeout=CHANNEL_TIMEOUT,
            cleanup_interval=CLEANUP_INTERVAL,
            connection_limit=CONNECTION_LIMIT,
            channel_request_lookahead=1,  # reads ahead, so a stream learns its client has left
            ident="familiar",
            clear_untrusted_proxy_headers=True,
        )
        self.server.channel_class = PerClientChannel
        app.extensions["familiar"].listening = host  # the join link points where phones reach it
        self.server.per_client = per_client
        self.host = host
        self.port: int = self.server.effective_port
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}/"

    def run(self) -> None:
        """Serve in this thread until :meth:`stop`."""
        self.app.extensions["familiar"].stopping.clear()
        self.server.run()

    def start(self) -> WebServer:
        """Serve in a background thread."""
        self._thread = threading.Thread(target=self.run, name="familiar-web", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """End live streams, close every socket, and wait for the workers to finish.

        Sockets are closed by the server's own loop thread (a trigger thunk), never
        under its feet from this one."""
        self.app.extensions["familiar"].stopping.set()
        close_all = functools.partial(wasyncore.close_all, self.server._map)
        if self._thread is None:
            close_all()
        else:
            try:
                self.server.trigger.pull_trigger(close_all)
            except OSError:
                # The trigger's pipe is already gone (seen once in a full test run,
                # cause not yet found): nothing can wake the loop, so close here.
                close_all()
            self._thread.join(timeout)
        self.server.task_dispatcher.shutdown(timeout=timeout)


def serve(app: Flask, host: str, port: int, *, threads: int = THREADS, per_client: int = MAX_PER_CLIENT) -> WebServer:
    """Start serving ``app`` on ``host:port`` (port 0: any free port) in the background."""
    return WebServer(app, host, port, threads, per_client).start()
