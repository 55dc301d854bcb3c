"""HTTP bits every kind of test client shares."""

from __future__ import annotations


def auth(token: str) -> dict[str, str]:
    """The headers that present ``token`` (a seat's, a host's or a player's)."""
    return {"Authorization": f"Bearer {token}"}
