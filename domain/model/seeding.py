"""Seeds: secret while a game can be played, committed publicly at creation, revealed at its end.

Every game has a seed (drives all chance in the rules) and a salt (server entropy, never chosen by
anyone). The published commitment is ``sha256(salt + ":" + seed)``: without the salt even a short
seed cannot be found by hashing guesses. In ``server`` mode (the default) the seed itself is server
entropy; in ``host`` mode the host chose it (tests, tournaments, reproducible demos), which every
joiner sees in the lobby listing and the game view. Bots draw from the seed *and* the salt, so not
even a host who chose the seed can foresee a bot's pick. Games stored before salts existed have no
salt and an unsalted commitment ``sha256(seed)``.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets

SEED_MODE_SERVER = "server"
SEED_MODE_HOST = "host"
SEED_MODES = (SEED_MODE_SERVER, SEED_MODE_HOST)


def new_seed() -> str:
    return secrets.token_hex(16)


def new_salt() -> str:
    return secrets.token_hex(16)


def commitment(seed: str, salt: str | None = None) -> str:
    """The published SHA-256 of ``salt:seed`` (of the seed alone for games stored without a salt)."""
    message = seed if salt is None else f"{salt}:{seed}"
    return hashlib.sha256(message.encode("utf-8")).hexdigest()


def verify_commitment(seed: str, salt: str | None, published: str) -> bool:
    """What anyone can check once the seed and salt are revealed."""
    return hmac.compare_digest(commitment(seed, salt), published)


def rng_for_seed(seed: str) -> random.Random:
    """The game's only source of chance. Derived with a prefix so the commitment says nothing of it."""
    return random.Random(f"tabletop:{seed}")


def rng_for_bot(seed: str, salt: str | None, version: int, seat: int) -> random.Random:
    """A bot's generator for one decision: secret until the game ends (the salt is server entropy
    and the seed secret too), reproducible by anyone from the revealed seed and salt afterwards."""
    return random.Random(f"tabletop-bot:{salt or ''}:{seed}:{version}:{seat}")
