"""The exit statuses of ``familiar`` that systemd must tell apart.

``systemd/familiar.service`` names the set-up statuses in ``RestartPreventExitStatus``:
restarting cannot fix a wrong configuration file or a pin the box cannot claim, so
systemd leaves the unit failed and the journal keeps the message with its fix, instead
of restarting every few seconds for ever (``Restart=on-failure`` with ``RestartSec``
far apart never trips the start limit). Any other failure (1, a crash, the watchdog)
is restarted.
"""

from __future__ import annotations

OK = 0
FAILED = 1
"""A problem the box reported that a restart may clear (or a failed ``doctor`` check)."""
CONFIG_ERROR = 2
"""A bad command line or configuration file (argparse also exits 2)."""
SETUP_ERROR = 6
"""The hardware cannot be set up as configured (a GPIO pin cannot be claimed); the
journal names the pin and the fix."""
NO_RESTART = (CONFIG_ERROR, SETUP_ERROR)
"""The statuses the unit's ``RestartPreventExitStatus`` lists."""
