"""Webhook endpoints: registered by players (all their games) or hosts (one game), listed with
their deliveries and attempts; the retry policy that decides when an endpoint is failing.

Sending is an adapter's job (it signs, bounds and records each attempt).
"""

from __future__ import annotations

import base64
import random
import secrets
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from domain.errors import Forbidden, InvalidRequest, Unauthorized, WebhookNotFound
from domain.model.tokens import hash_token
from domain.model.webhooks import FILTERS, Delivery, Endpoint
from domain.ports.unit_of_work import UnitOfWork
from domain.services.core import ServiceCore

MAX_ENDPOINTS_PER_OWNER = 10


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """Exponential backoff with jitter, capped, for ``give_up_after``; then the endpoint fails."""

    base_seconds: float = 5.0
    max_seconds: float = 3600.0
    give_up_after: timedelta = timedelta(hours=24)

    def next_attempt(
        self, attempts: int, created_at: datetime, now: datetime, rng: random.Random
    ) -> datetime | None:
        """When to try again after ``attempts`` failed tries; None once it is time to give up."""
        delay = min(self.max_seconds, self.base_seconds * 2 ** (attempts - 1))
        moment = now + timedelta(seconds=delay * rng.uniform(0.5, 1.0))
        if moment - created_at > self.give_up_after:
            return None
        return moment


def new_secret() -> str:
    """A Standard Webhooks secret: ``whsec_`` and 32 random bytes in base64."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode("ascii")


TargetCheck = Callable[[str], None]
"""Raises ``WebhookTargetRefused`` for a URL the server must not call (private addresses...)."""


class WebhookService:
    def __init__(self, core: ServiceCore, check_target: TargetCheck) -> None:
        self.core = core
        self.check_target = check_target

    def register(self, token: str | None, url: str, filters: Sequence[str], game_id: str | None) -> Endpoint:
        """A player's endpoint (player token, all its games) or a host's (host token + game)."""
        unknown = sorted(set(filters) - set(FILTERS))
        if not filters or unknown:
            raise InvalidRequest(
                "{field} must be a non-empty list of {allowed}" + ("; unknown: {unknown}" if unknown else ""),
                field="filters",
                allowed=FILTERS,
                unknown=unknown,
            )
        if token is None:
            raise Unauthorized(
                "a player token, or the host token with a {field}, is required", field="game_id"
            )
        with self.core.uow() as uow:
            self._owner(uow, token, game_id)
        # Only an authenticated owner learns anything about the URL's host (resolves, private),
        # and the lookup runs outside any transaction.
        self.check_target(url)
        with self.core.uow() as uow:
            player_id, owned_game = self._owner(uow, token, game_id)
            if len(uow.webhooks.endpoints_of(player_id, owned_game)) >= MAX_ENDPOINTS_PER_OWNER:
                raise InvalidRequest(
                    "at most {at_most} webhook endpoints each", at_most=MAX_ENDPOINTS_PER_OWNER
                )
            endpoint = Endpoint(
                id=uuid.uuid4().hex,
                url=url,
                secret=new_secret(),
                filters=tuple(dict.fromkeys(filters)),
                created_at=self.core.clock.now(),
                player_id=player_id,
                game_id=owned_game,
            )
            uow.webhooks.add_endpoint(endpoint)
            uow.commit()
        return endpoint

    def endpoints(self, token: str | None, game_id: str | None) -> list[Endpoint]:
        with self.core.uow() as uow:
            player_id, owned_game = self._owner(uow, self._required(token), game_id)
            return uow.webhooks.endpoints_of(player_id, owned_game)

    def deliveries(self, token: str | None, endpoint_id: str, limit: int) -> list[Delivery]:
        with self.core.uow() as uow:
            self._owned(uow, self._required(token), endpoint_id)
            return uow.webhooks.deliveries_of(endpoint_id, limit)

    def delete(self, token: str | None, endpoint_id: str) -> Endpoint:
        with self.core.uow() as uow:
            endpoint = self._owned(uow, self._required(token), endpoint_id)
            uow.webhooks.set_status(endpoint_id, "deleted", None)
            uow.commit()
        return replace(endpoint, status="deleted")

    def enable(self, token: str | None, endpoint_id: str) -> Endpoint:
        """Back to active after failing; its failed deliveries are queued again."""
        with self.core.uow() as uow:
            self._owned(uow, self._required(token), endpoint_id)
            uow.webhooks.set_status(endpoint_id, "active", self.core.clock.now())
            endpoint = uow.webhooks.get_endpoint(endpoint_id)
            uow.commit()
        assert endpoint is not None
        return endpoint

    # -- ownership -----------------------------------------------------------------------------

    @staticmethod
    def _required(token: str | None) -> str:
        if token is None:
            raise Unauthorized("a player token, or the host token of the game, is required")
        return token

    def _owner(self, uow: UnitOfWork, token: str, game_id: str | None) -> tuple[str | None, str | None]:
        if game_id is None:
            player = uow.players.by_token_hash(hash_token(token))
            if player is None:
                raise Unauthorized("the bearer token is not a player token")
            return player.id, None
        match = uow.games.get(game_id)
        if not self.core.viewer(match, token).is_host:
            raise Forbidden("only the host token may manage a game's webhooks")
        return None, game_id

    def _owned(self, uow: UnitOfWork, token: str, endpoint_id: str) -> Endpoint:
        endpoint = uow.webhooks.get_endpoint(endpoint_id)
        if endpoint is None or endpoint.status == "deleted":
            raise WebhookNotFound("no webhook endpoint {endpoint!q}", endpoint=endpoint_id)
        if endpoint.player_id is not None:
            player = uow.players.by_token_hash(hash_token(token))
            if player is None or player.id != endpoint.player_id:
                raise Forbidden("this webhook endpoint belongs to another player")
        else:
            assert endpoint.game_id is not None
            self._owner(uow, token, endpoint.game_id)
        return endpoint
