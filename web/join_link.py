"""The one short address (and its QR code) that players' phones open to join.

The address carries the current game's join code (``/j/CODE``), so only people who can
see the host's screen can join.  When the host page is opened on the box itself
(``localhost``), that address would mean nothing to a phone, so the box's own LAN
address is used instead, as long as the server listens there: the demo listens on
loopback only, and a join link to the LAN address led nowhere (issue 50).
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit, urlunsplit

import segno

LOCAL_NAMES = {"localhost", "localhost.localdomain"}
EVERYWHERE = {"", "0.0.0.0", "::"}
"""Addresses a server binds to listen on every interface."""


def lan_address() -> str | None:
    """This machine's address on the LAN: the source address of a route outward.

    Connecting a UDP socket sends nothing; it only asks the kernel which interface
    it would use.  None when there is no network at all.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            return probe.getsockname()[0]
        except OSError:
            return None


def _is_loopback(host: str) -> bool:
    if host in LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def join_url(host_url: str, public_url: str | None, code: str, listening: str | None = None) -> str:
    """The join address for ``code``: on the configured public URL, else the address the
    host used, with a loopback host replaced by the LAN address the server listens on."""
    return box_url(host_url, public_url, listening) + f"j/{code}"


def box_url(host_url: str, public_url: str | None = None, listening: str | None = None) -> str:
    """The box's address as a phone on the LAN reaches it.  ``listening`` is the address
    the server is bound to (None: not known, taken as every interface)."""
    if public_url:
        return public_url.rstrip("/") + "/"
    parts = urlsplit(host_url)
    hostname = parts.hostname or ""
    if _is_loopback(hostname):
        lan = _served_lan_address(listening)
        if lan:
            netloc = f"{lan}:{parts.port}" if parts.port else lan
            parts = parts._replace(netloc=netloc)
    return urlunsplit((parts.scheme, parts.netloc, "/", "", ""))


def _served_lan_address(listening: str | None) -> str | None:
    """The LAN address a phone can reach the server at: the machine's when it listens
    everywhere, its own when bound to one, none when it listens on loopback only."""
    if listening is None or listening in EVERYWHERE:
        return lan_address()
    if _is_loopback(listening):
        return None
    return f"[{listening}]" if ":" in listening else listening


def qr_data_uri(url: str) -> str:
    """An SVG QR code as a ``data:`` URI for an ``<img>`` (so the page sets it without
    parsing markup), dark on light with its quiet zone (phones need both)."""
    return segno.make(url, error="m").svg_data_uri(scale=6, dark="#000", light="#fff", border=4, omitsize=True)


def join_link(host_url: str, public_url: str | None, code: str, listening: str | None = None) -> dict[str, str]:
    """The join address and its QR code, for the host's screen only."""
    url = join_url(host_url, public_url, code, listening)
    return {"url": url, "qr": qr_data_uri(url)}
