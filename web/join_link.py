"""The one short address (and its QR code) that players' phones open to join.

The address carries the current game's join code (``/j/CODE``), so only people who can
see the host's screen can join.  When the host page is opened on the box itself
(``localhost``), that address would mean nothing to a phone, so the box's own LAN
address is used instead.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit, urlunsplit

import segno

LOCAL_NAMES = {"localhost", "localhost.localdomain"}


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


def join_url(host_url: str, public_url: str | None, code: str) -> str:
    """The join address for ``code``: on the configured public URL, else the address the
    host used, with a loopback host replaced by the LAN address."""
    return box_url(host_url, public_url) + f"j/{code}"


def box_url(host_url: str, public_url: str | None = None) -> str:
    """The box's address as a phone on the LAN reaches it."""
    if public_url:
        return public_url.rstrip("/") + "/"
    parts = urlsplit(host_url)
    hostname = parts.hostname or ""
    if _is_loopback(hostname):
        lan = lan_address()
        if lan:
            netloc = f"{lan}:{parts.port}" if parts.port else lan
            parts = parts._replace(netloc=netloc)
    return urlunsplit((parts.scheme, parts.netloc, "/", "", ""))


def qr_data_uri(url: str) -> str:
    """An SVG QR code as a ``data:`` URI for an ``<img>`` (so the page sets it without
    parsing markup), dark on light with its quiet zone (phones need both)."""
    return segno.make(url, error="m").svg_data_uri(scale=6, dark="#000", light="#fff", border=4, omitsize=True)


def join_link(host_url: str, public_url: str | None, code: str) -> dict[str, str]:
    """The join address and its QR code, for the host's screen only."""
    url = join_url(host_url, public_url, code)
    return {"url": url, "qr": qr_data_uri(url)}
