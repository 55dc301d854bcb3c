"""Seeds: drawn securely, committed publicly (SHA-256) at creation, revealed when the game ends."""

from __future__ import annotations

import hashlib
import random
import secrets


def new_seed() -> str:
    return secrets.token_hex(16)


def commitment(seed: str) -> str:
    """The published SHA-256 of the seed; anyone can check it once the seed is revealed."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def rng_for_seed(seed: str) -> random.Random:
    """The game's only source of chance. Derived with a prefix so the commitment says nothing of it."""
    return random.Random(f"tabletop:{seed}")
