"""``familiar demo`` whose narrator has 60 long lines queued as soon as the box is up,
each followed by a pause as a night phase's lines are (at least 12 s of narration), so a
test can stop a real box (SIGTERM) while narration waits."""

from __future__ import annotations

import sys

QUEUED = 60
LINE = "The dark lord's followers gather at the edge of the forest, and every seat must decide what to do next."


def main(argv: list[str]) -> int:
    from device.cli import main as familiar
    from device.daemon import Daemon

    start = Daemon.start

    def chatty_start(self: Daemon) -> None:
        start(self)
        for number in range(QUEUED):
            self.narrator.say(f"{number}: {LINE}", then_wait=0.2)

    Daemon.start = chatty_start  # type: ignore[method-assign]
    return familiar(["demo", "--no-bots", *argv])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
