"""Notices that reach a player whose page is closed: Web Push to the player's browsers and e-mail.

A notice is decided inside the transaction of the change that causes it (a turn begins, a game
ends, a rematch is offered, a tournament round is ready), one outbox row per channel target, so a
committed change has its notices and a rolled-back one never does. A seat that has an open page
(``domain.model.presence``) at that moment is told by the page itself and gets none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from domain.engine import Document

KINDS = ("your_turn", "game_over", "rematch_offered", "tournament_round")
"""What a notice says: the seat's turn began; the game ended; a rematch of a finished game holds
the seat; a tournament round's game holds the seat."""

CHANNELS = ("push", "email")

MAX_SUBSCRIPTIONS_PER_PLAYER = 10
"""Browsers (devices) of one player that may receive push notices; the oldest goes beyond it."""

MAX_ENDPOINT_LENGTH = 2048
MAX_EMAIL_LENGTH = 254

_EMAIL = re.compile(
    r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$"
)


def valid_email(address: str) -> bool:
    """An address as a mail server takes it: one ``@``, a dotted domain, no spaces or controls
    (the HTML form's rule, WHATWG), at most 254 characters, a local part of at most 64."""
    local, _, _ = address.partition("@")
    return len(address) <= MAX_EMAIL_LENGTH and len(local) <= 64 and _EMAIL.match(address) is not None


@dataclass(frozen=True, slots=True)
class PushSubscription:
    """One browser's push subscription (its ``PushSubscription.toJSON()``), owned by a player."""

    id: str
    player_id: str
    endpoint: str
    p256dh: str
    auth: str
    language: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class EmailContact:
    """A player's address for notices; never shown to anyone but the player."""

    player_id: str
    email: str
    language: str
    enabled: bool
    opt_out_key: str
    """The secret this address's opt-out links are signed with (a new address, a new key: the
    links of an earlier address stop working)."""
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Target:
    """Where one player's notices go on one channel: a push subscription or the e-mail address."""

    player_id: str
    channel: str
    target_id: str  # the subscription id; the player id for e-mail
    language: str


@dataclass(frozen=True, slots=True)
class Notice:
    """One thing to tell one player about one seat of one game."""

    player_id: str
    kind: str
    game_id: str
    seat: int
    game_type: str


@dataclass(frozen=True, slots=True)
class NewNoticeDelivery:
    target: Target
    notice: Notice
    payload: Document


@dataclass(frozen=True, slots=True)
class ClaimedNotice:
    """A notice delivery leased to one sender, with what it needs to send it."""

    id: int
    channel: str
    target_id: str
    player_id: str
    kind: str
    game_id: str
    seat: int
    language: str
    payload: Document
    attempts: int
    created_at: datetime
    subscription: PushSubscription | None = None
    email: EmailContact | None = None
