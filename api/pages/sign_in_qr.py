"""The web client's sign-in link as a QR code, drawn here so no third-party service ever sees it.

The link carries a player token, a secret: it is drawn only for the token that authenticated the
request, and the answer is never stored by a cache (the token is in the picture)."""

from __future__ import annotations

import io
from typing import Any
from urllib.parse import quote

import segno

from api.pages.web_client import MOUNT

SVG_MEDIA_TYPE = "image/svg+xml"
QR_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The QR code, an SVG document (`Cache-Control: no-store`).",
        "content": {
            SVG_MEDIA_TYPE: {
                "schema": {"type": "string"},
                "example": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45" class="segno">'
                '<title>Tabletop sign-in</title><path fill="#fff" d="M0 0h45v45h-45z"/>'
                '<path class="qrline" stroke="#000" d="M4 4.5h7m1 0h2…"/></svg>',
            }
        },
    },
}


def sign_in_link(base_url: str, token: str) -> str:
    """The web client's page that takes the identity of ``token`` (its ``#/signin/`` route)."""
    return f"{base_url.rstrip('/')}{MOUNT}/#/signin/{quote(token, safe='')}"


def qr_svg(text: str, title: str) -> bytes:
    """``text`` as a black-on-white QR code (error correction M: a phone still reads it from a
    smudged or glossy screen), sized by its ``viewBox`` so the page decides how large it is."""
    code = segno.make(text, error="m", boost_error=False)
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        xmldecl=False,
        svgns=True,
        omitsize=True,
        border=4,
        title=title,
        dark="#000",
        light="#fff",
    )
    return out.getvalue()
