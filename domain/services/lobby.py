"""Games as a whole: creating one (with its seed, tokens and idempotency key) and the lobby list."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, replace

from domain.engine import JSON
from domain.errors import InvalidOptions, InvalidSeed, TooManyListedGames, VersionConflict
from domain.model.clocks import ClockSettings, Timing, inactivity_limited, lapse_limited
from domain.model.idempotency import (
    HostTokens,
    check_token_key,
    fingerprint,
    key_hash,
    same_request,
)
from domain.model.lobby import Creator, GamePage, LobbyCursor, LobbyFilter, unrated_reasons
from domain.model.match import Match
from domain.model.seeding import (
    SEED_MODE_HOST,
    SEED_MODE_SERVER,
    SEED_MODES,
    commitment,
    new_salt,
    new_seed,
)
from domain.model.takebacks import TakeBacks, default_allowed
from domain.model.tokens import hash_token
from domain.ports.unit_of_work import UnitOfWork
from domain.services.core import ServiceCore


@dataclass(frozen=True, slots=True)
class Created:
    match: Match
    host_token: str
    invite_code: str | None = None  # private games only; shown once, stored as a hash


class LobbyService:
    def __init__(self, core: ServiceCore) -> None:
        self.core = core
        self.inactivity_days: float | None = None
        self.lapses_before_stand_in: int | None = None
        """Clock-less games created from now on hand a seat silent this long to a stand-in."""
        self.max_open_listed_per_player: int | None = None
        self.max_open_listed_per_address: int | None = None
        """Open listed lobbies one player identity, and one client address, may hold (counted
        in the database, so for the whole server); None: unbounded."""

    def create_game(
        self,
        game_type: str,
        options: Mapping[str, JSON] | None,
        seed: str | None,
        seed_mode: str | None = None,
        private: bool = False,
        idempotency_key: str | None = None,
        clock: Mapping[str, JSON] | None = None,
        caller: str = "",
        creator_id: str | None = None,
        address: str | None = None,
        takebacks: bool | None = None,
    ) -> Created:
        """A new lobby. Giving a seed selects the open ``host`` seed mode; otherwise the server
        draws the seed. Either way a server salt keeps the published commitment unguessable.
        An idempotency key is remembered per ``caller`` (see ``domain.model.idempotency``).
        A public game created by a player (``creator_id``) is listed in the lobby, within the
        caps on open listed lobbies per player and per client ``address``. ``takebacks``: whether
        a seat may take back a decision (None: ``default_allowed``, off for a game that may be
        rated)."""
        hosted = self.core.registry.game(game_type)
        engine = hosted.engine
        resolved = engine.meta.resolve_options(options)
        clock_settings = ClockSettings.parse(clock)
        mode = seed_mode or (SEED_MODE_HOST if seed is not None else SEED_MODE_SERVER)
        if mode not in SEED_MODES:
            raise InvalidSeed(
                "unknown {field} {seed_mode!q}; known: {known}",
                field="seed_mode",
                seed_mode=mode,
                known=SEED_MODES,
            )
        if mode == SEED_MODE_HOST and seed is None:
            raise InvalidSeed("{field} {seed_mode!q} needs a seed", field="seed_mode", seed_mode="host")
        if mode == SEED_MODE_SERVER and seed is not None:
            raise InvalidSeed(
                "a seed chosen by the host needs {field} {seed_mode!q} (shown to every joiner)",
                field="seed_mode",
                seed_mode="host",
            )
        if takebacks and hosted.takebacks is None:
            raise InvalidOptions("{type} has no take-backs", type=game_type)
        allowed = (
            default_allowed(clock_settings.runs and mode == SEED_MODE_SERVER)
            if takebacks is None
            else takebacks
        )
        key, request = None, ""
        if idempotency_key is not None:
            key = check_token_key(idempotency_key)
            request = fingerprint(
                {
                    "type": game_type,
                    "options": options,
                    "seed": seed,
                    "mode": mode,
                    "private": private,
                    **({"takebacks": takebacks} if takebacks is not None else {}),
                }
            )
            earlier = self._created_earlier(key, caller, request)
            if earlier is not None:
                return earlier
        seed = seed if seed is not None else new_seed()
        salt = new_salt()
        tokens = HostTokens.new(key, private)
        match = Match(
            id=uuid.uuid4().hex,
            engine=engine,
            options=resolved,
            seed=seed,
            seed_commitment=commitment(seed, salt),
            host_token_hash=hash_token(tokens.host_token),
            created_at=self.core.clock.now(),
            timing=Timing(
                lapse_limited(
                    inactivity_limited(clock_settings, self.inactivity_days), self.lapses_before_stand_in
                )
            ),
            seed_salt=salt,
            seed_mode=mode,
            private=private,
            invite_code_hash=hash_token(tokens.invite_code) if tokens.invite_code else None,
            creator_id=creator_id,
            creator_address=hash_token(address) if address is not None else None,
            takebacks=TakeBacks(allowed and hosted.takebacks is not None),
            takeback_rules=hosted.takebacks,
        )
        try:
            with self.core.uow() as uow:
                if match.listed:
                    self._within_listed_caps(uow, match)
                uow.games.add(match)
                if key is not None:
                    result = {"game_id": match.id, "nonce": tokens.nonce}
                    uow.games.remember_create(key_hash(key, caller), match.id, result, request)
                uow.commit()
        except VersionConflict:
            assert key is not None  # only a concurrent create with the same key conflicts
            earlier = self._created_earlier(key, caller, request)
            if earlier is None:
                raise
            return earlier
        return Created(match, tokens.host_token, tokens.invite_code)

    def _within_listed_caps(self, uow: UnitOfWork, match: Match) -> None:
        assert match.creator_id is not None
        by_player, by_address = uow.games.count_open_listed(match.creator_id, match.creator_address)
        for count, cap, whose in (
            (by_player, self.max_open_listed_per_player, "player"),
            (by_address, self.max_open_listed_per_address, "client address"),
        ):
            if cap is not None and count >= cap:
                raise TooManyListedGames(
                    "this {whose} already has {count} open listed games (at most {at_most}): start "
                    "or abort one, or create a private game",
                    whose=whose,
                    count=count,
                    at_most=cap,
                )

    def _created_earlier(self, key: str, caller: str, request: str) -> Created | None:
        """The game a create with this key made, with its tokens recomputed from the key."""
        with self.core.uow() as uow:
            earlier = uow.games.created_for_key(key_hash(key, caller))
            if earlier is None:
                return None
            same_request(earlier, request)
            match = uow.games.get(str(earlier.response["game_id"]))
        tokens = HostTokens.again(key, str(earlier.response["nonce"]), match.private)
        return Created(match, tokens.host_token, tokens.invite_code)

    def list_games(self, where: LobbyFilter, limit: int, cursor: str | None = None) -> GamePage:
        """One page of public games, newest first, with the total and the next page's cursor."""
        if where.game_type is not None:
            self.core.registry.get(where.game_type)
        after = LobbyCursor.decode(cursor) if cursor is not None else None
        with self.core.uow() as uow:
            found = uow.games.list(where, limit + 1, after)
            total = uow.games.count(where)
            creator_ids = sorted({s.creator_id for s in found[:limit] if s.creator_id})
            names = uow.ratings.player_names(creator_ids) if creator_ids else {}
            finishing = uow.ratings.finishing(creator_ids) if creator_ids else {}
        items = []
        now = self.core.clock.now()
        for summary in found[:limit]:
            creator = None
            if summary.creator_id is not None and summary.creator_id in names:
                record = finishing.get(summary.creator_id)
                creator = Creator(
                    summary.creator_id,
                    names[summary.creator_id],
                    record.games if record else 0,
                    record.rate if record else None,
                )
            engine = self.core.registry.get(summary.game_type)
            reasons = unrated_reasons(summary, engine)
            age = max(0, int((now - summary.created_at).total_seconds()))
            items.append(replace(summary, creator=creator, unrated_reasons=reasons, age_seconds=age))
        more = len(found) > limit
        last = items[-1] if items else None
        next_cursor = LobbyCursor(last.created_at, last.id).encode() if more and last else None
        return GamePage(items, total, next_cursor)

    def count_by_status(self) -> dict[str, int]:
        with self.core.uow() as uow:
            return uow.games.count_by_status()
