"""Use cases: load, call the aggregate, commit, then publish. They orchestrate; they never decide a rule."""

from __future__ import annotations

import asyncio
import hmac
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Protocol, TypeVar

from domain.bots import validate_level
from domain.bots.turns import bot_choice, next_bot_seat
from domain.clocks import ClockSettings, Timing, inactivity_limited
from domain.engine import JSON, Choice, Decision
from domain.errors import (
    Forbidden,
    IdempotencyKeyReused,
    InvalidSeed,
    InviteRequired,
    SeatResigned,
    StaleDecision,
    TooManyBotOnlyGames,
    TooManyListedGames,
    Unauthorized,
    VersionConflict,
)
from domain.idempotency import (
    Remembered,
    check_token_key,
    fingerprint,
    key_hash,
    new_nonce,
    token_for_key,
)
from domain.lobby import Creator, GamePage, LobbyCursor, LobbyFilter, unrated_reasons
from domain.match import Match, MatchStatus, RecordedEvent, SubmitResult
from domain.names import clean_seat_name
from domain.outbox import enqueue_outbox
from domain.ports import BotGame, Clock, EventPublisher, UnitOfWork, UnitOfWorkFactory
from domain.registry import EngineRegistry
from domain.seeding import (
    SEED_MODE_HOST,
    SEED_MODE_SERVER,
    SEED_MODES,
    commitment,
    new_salt,
    new_seed,
)
from domain.tokens import hash_token, new_token
from domain.transactions import OneTransactionEach, QueuedTransactions, Transactions, Work

MAX_RETRIES = 5

T = TypeVar("T")


class Offload(Protocol):
    """Runs a blocking call on a thread and awaits its value (the API's thread pool)."""

    def __call__(self, call: Callable[[], T], /) -> Awaitable[T]: ...


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is asking: a seat, the host, or (neither) a spectator."""

    seat: int | None = None
    is_host: bool = False
    quit_seat: int | None = None
    """The token's seat when it resigned or forfeited: it then sees as a spectator (``seat`` is
    None), while a bot plays the seat on."""


@dataclass(frozen=True, slots=True)
class Created:
    match: Match
    host_token: str
    invite_code: str | None = None  # private games only; shown once, stored as a hash


@dataclass(frozen=True, slots=True)
class Joined:
    seat: int
    token: str | None  # None for a bot seat: no token exists for it
    version: int


@dataclass(frozen=True, slots=True)
class PendingChoices:
    version: int
    decision: dict[str, JSON] | None
    choices: list[Choice]
    game_type: str = ""
    seat: int | None = None
    """Whose choices (None: a spectator's or the host's, which are none)."""
    decision_version: int | None = None


SubmitListener = Callable[[str, list[str]], None]
"""Told of every committed submit: its status and the types of the events it produced."""

TokenListener = Callable[[str], None]
"""Told the hash of every bearer token recognised as a seat's or a host's (the API's rate limiter
charges a request to its token only once the token is known to be real)."""

BotHook = Callable[[str, bool], None]
"""Called after each committed change to an in-progress game with bot seats, so they can play:
with the game id, and whether a person plays in it (their game goes first)."""

FinishedHook = Callable[[UnitOfWork, Match], None]
"""Work that belongs in the transaction recording a game's end (e.g. ratings): called by ``save``
with the unit of work of that transaction, so it commits (or fails) with the final move."""


class GameService:
    def __init__(
        self,
        uow: UnitOfWorkFactory,
        registry: EngineRegistry,
        publisher: EventPublisher,
        clock: Clock,
        transactions: Transactions | None = None,
    ) -> None:
        self.uow = uow
        self.transactions: Transactions = transactions or OneTransactionEach(uow)
        """Where submits and bot turns are written (``persistence.group_commit`` batches them)."""
        self.when_finished: list[FinishedHook] = []
        self.registry = registry
        self.publisher = publisher
        self.clock = clock
        self.after_change: list[BotHook] = []
        self.inactivity_days: float | None = None
        """Clock-less games created from now on hand a seat silent this long to a stand-in."""
        self.max_bot_only_games: int | None = None
        """In-progress games of bots only, across instances; None: unbounded."""
        self.max_open_listed_per_player: int | None = None
        self.max_open_listed_per_address: int | None = None
        """Open listed lobbies one player identity, and one client address, may hold (counted
        in the database, so for the whole server); None: unbounded."""
        self.submit_listeners: list[SubmitListener] = []
        self.token_listeners: list[TokenListener] = []
        self.submit_on_loop = True
        """``submit_async`` awaits the group commit's answer on the loop; off: a thread runs
        ``submit`` (for A/B measurements)."""

    # -- catalog & lobby ---------------------------------------------------------------------------

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
    ) -> Created:
        """A new lobby. Giving a seed selects the open ``host`` seed mode; otherwise the server
        draws the seed. Either way a server salt keeps the published commitment unguessable.
        An idempotency key is remembered per ``caller`` (see ``domain.idempotency``).
        A public game created by a player (``creator_id``) is listed in the lobby, within the
        caps on open listed lobbies per player and per client ``address``."""
        engine = self.registry.get(game_type)
        resolved = engine.meta.resolve_options(options)
        clock_settings = ClockSettings.parse(clock)
        mode = seed_mode or (SEED_MODE_HOST if seed is not None else SEED_MODE_SERVER)
        if mode not in SEED_MODES:
            raise InvalidSeed(f"unknown seed_mode '{mode}'; known: {', '.join(SEED_MODES)}")
        if mode == SEED_MODE_HOST and seed is None:
            raise InvalidSeed("seed_mode 'host' needs a seed")
        if mode == SEED_MODE_SERVER and seed is not None:
            raise InvalidSeed("a seed chosen by the host needs seed_mode 'host' (shown to every joiner)")
        key, request = None, ""
        if idempotency_key is not None:
            key = check_token_key(idempotency_key)
            request = fingerprint(
                {"type": game_type, "options": options, "seed": seed, "mode": mode, "private": private}
            )
            earlier = self._created_earlier(key, caller, request)
            if earlier is not None:
                return earlier
        seed = seed if seed is not None else new_seed()
        salt = new_salt()
        nonce = new_nonce()
        host_token = token_for_key(key, nonce, "host") if key else new_token()
        invite_code = None
        if private:
            invite_code = token_for_key(key, nonce, "invite") if key else new_token()
        match = Match(
            id=uuid.uuid4().hex,
            engine=engine,
            options=resolved,
            seed=seed,
            seed_commitment=commitment(seed, salt),
            host_token_hash=hash_token(host_token),
            created_at=self.clock.now(),
            timing=Timing(inactivity_limited(clock_settings, self.inactivity_days)),
            seed_salt=salt,
            seed_mode=mode,
            private=private,
            invite_code_hash=hash_token(invite_code) if invite_code else None,
            creator_id=creator_id,
            creator_address=hash_token(address) if address is not None else None,
        )
        try:
            with self.uow() as uow:
                if match.listed:
                    self._within_listed_caps(uow, match)
                uow.games.add(match)
                if key is not None:
                    result = {"game_id": match.id, "nonce": nonce}
                    uow.games.remember_create(key_hash(key, caller), match.id, result, request)
                uow.commit()
        except VersionConflict:
            assert key is not None  # only a concurrent create with the same key conflicts
            earlier = self._created_earlier(key, caller, request)
            if earlier is None:
                raise
            return earlier
        return Created(match, host_token, invite_code)

    def _within_listed_caps(self, uow: UnitOfWork, match: Match) -> None:
        assert match.creator_id is not None
        by_player, by_address = uow.games.count_open_listed(match.creator_id, match.creator_address)
        for count, cap, whose in (
            (by_player, self.max_open_listed_per_player, "player"),
            (by_address, self.max_open_listed_per_address, "client address"),
        ):
            if cap is not None and count >= cap:
                raise TooManyListedGames(
                    f"this {whose} already has {count} open listed games (at most {cap}): start "
                    "or abort one, or create a private game"
                )

    def _created_earlier(self, key: str, caller: str, request: str) -> Created | None:
        """The game a create with this key made, with its tokens recomputed from the key."""
        with self.uow() as uow:
            earlier = uow.games.created_for_key(key_hash(key, caller))
            if earlier is None:
                return None
            _same_request(earlier, request)
            match = uow.games.get(str(earlier.response["game_id"]))
        nonce = str(earlier.response["nonce"])
        invite = token_for_key(key, nonce, "invite") if match.private else None
        return Created(match, token_for_key(key, nonce, "host"), invite)

    def join(
        self,
        game_id: str,
        name: str,
        bot: str | None = None,
        token: str | None = None,
        invite_code: str | None = None,
        idempotency_key: str | None = None,
        player_id: str | None = None,
        caller: str = "",
        address: str | None = None,
    ) -> Joined:
        """Take the next seat. A bot is seated by the host only and gets no token at all; a
        person joins a private game only with its invite code. A retried key takes no second seat.
        With ``player_id`` the seat is tied to that player (or, in a rematch, the player's held
        seat is taken). The client ``address`` is kept (hashed) with the seat, so that a host
        can block whoever took it.
        """
        if bot is not None:
            validate_level(bot)
        name = clean_seat_name(name)
        key = check_token_key(idempotency_key) if idempotency_key is not None else None
        request = fingerprint({"name": name, "bot": bot, "invite_code": invite_code})
        for attempt in range(MAX_RETRIES):
            try:
                return self._join_once(
                    game_id, name, bot, token, invite_code, key, request, player_id, caller, address
                )
            except VersionConflict:
                if attempt == MAX_RETRIES - 1:
                    raise
        raise AssertionError("unreachable")

    def _join_once(
        self,
        game_id: str,
        name: str,
        bot: str | None,
        token: str | None,
        invite_code: str | None,
        key: str | None,
        request: str,
        player_id: str | None = None,
        caller: str = "",
        address: str | None = None,
    ) -> Joined:
        remembered_as = f"join:{key_hash(key, caller)}" if key is not None else None
        nonce = new_nonce()
        seat_token = None
        if bot is None:
            seat_token = token_for_key(key, nonce, "seat") if key else new_token()
        with self.uow() as uow:
            match = uow.games.get(game_id, for_update=True)
            if key is not None and remembered_as is not None:
                earlier = uow.games.idempotent_result(game_id, remembered_as)
                if earlier is not None:
                    return _joined_earlier(match, earlier, key, request)
            if bot is not None:
                self._require_host(match, token)
            elif match.private:
                self._require_invite(match, invite_code)
            held = [s for s in match.seats if not s.confirmed and s.player_id == player_id]
            if player_id is not None and held:
                # The player's seat in a rematch: taking it confirms it (already linked).
                assert seat_token is not None
                seat = held[0].index
                match.confirm_seat(seat, hash_token(seat_token))
            else:
                joined = match.join(
                    name,
                    hash_token(seat_token) if seat_token else "",
                    bot,
                    player_id=player_id,
                    address_hash=hash_token(address) if address is not None else None,
                )
                seat = joined.index
                if player_id is not None:
                    uow.players.link_seat(player_id, match.id, seat, self.clock.now())
            self.save(uow, match)
            if remembered_as is not None:
                result = {"seat": seat, "nonce": nonce, "version": match.version, "bot": bot is not None}
                uow.games.remember_result(game_id, remembered_as, result, request)
            uow.commit()
        self._committed(match)
        return Joined(seat, seat_token, match.version)

    def remove_seat(
        self, game_id: str, seat: int, token: str | None, block: bool = False
    ) -> Match:
        """Free a lobby seat: the host may remove any seat, a seat only itself. ``block`` (host
        only): whoever took the seat cannot sit down in this game again."""

        def change(match: Match) -> Match:
            if token is None:
                raise Unauthorized("the host's or the seat's token is required")
            viewer = self.viewer(match, token)
            if block and not viewer.is_host:
                raise Forbidden("only the host may block a seat-taker")
            if viewer.seat == seat:
                match.leave(seat, "self")
            elif viewer.is_host:
                match.leave(seat, "host", block=block)
            else:
                raise Forbidden("a seat may only remove itself; the host may remove any seat")
            return match

        match, _ = self.change(game_id, change)
        return match  # type: ignore[no-any-return]

    def start(self, game_id: str, token: str | None) -> Match:
        """Start the game (host). Games of bots only are bounded: anyone may create them, and
        nobody waits on them, so they must not crowd out games where people play."""
        limit = self.max_bot_only_games
        if limit is not None:
            with self.uow() as uow:
                match = uow.games.get(game_id)
                self._require_host(match, token)
                bots_only = bool(match.seats) and all(seat.bot for seat in match.seats)
                if bots_only and uow.games.count_bot_only_in_progress() >= limit:
                    raise TooManyBotOnlyGames(
                        f"{limit} games of bots only are already in progress; seat a person, "
                        "or start this game later"
                    )
        return self._host_change(game_id, token, lambda match: match.start())

    def abort(self, game_id: str, token: str | None) -> Match:
        return self._host_change(game_id, token, lambda match: match.abort())

    # -- quitters ----------------------------------------------------------------------------------

    def resign(self, game_id: str, token: str | None) -> Match:
        """The token's seat resigns; a bot plays it to the end and the result says so."""
        return self._seat_change(game_id, token, lambda match, seat: match.resign(seat))

    def return_to_seat(self, game_id: str, token: str | None) -> Match:
        """A seat whose clock ran out takes it back from the bot that stood in."""
        return self._seat_change(game_id, token, lambda match, seat: match.return_to_seat(seat))

    def _seat_change(
        self, game_id: str, token: str | None, change: Callable[[Match, int], Any]
    ) -> Match:
        def guarded(match: Match) -> Match:
            change(match, self.require_seat(match, token))
            return match

        match, _ = self.change(game_id, guarded)
        return match  # type: ignore[no-any-return]

    # -- play --------------------------------------------------------------------------------------

    def pending(self, game_id: str, token: str | None) -> PendingChoices:
        with self.uow() as uow:
            match = uow.games.get(game_id)
        viewer = self.viewer(match, token)
        decision, choices = match.choices_for(viewer.seat)
        return PendingChoices(
            match.version,
            describe_decision(decision, match, viewer.seat) if decision else None,
            choices,
            match.game_type,
            viewer.seat,
            match.decision_version_for(viewer.seat),
        )

    def submit(
        self,
        game_id: str,
        token: str | None,
        choice: Choice,
        version: int | None = None,
        idempotency_key: str | None = None,
        decision_version: int | None = None,
    ) -> dict[str, JSON]:
        """Seal or apply a seat's choice; a retried key returns the first result unchanged, the
        same key with another choice or version is refused."""
        request, expected = _submit_request(choice, version, decision_version)
        for attempt in range(MAX_RETRIES):
            work = self._submit_work(game_id, token, choice, expected, idempotency_key, request)
            try:
                response, result, match = self.transactions.run(game_id, work)
            except VersionConflict as conflict:
                # Another writer got there first: the guards are simply run again on the fresh
                # state, which answers 409 only if this seat's own decision has moved on.
                if not _gives_up(conflict, attempt):
                    continue
                earlier = None
                if idempotency_key is not None:
                    earlier = self._remembered(game_id, token, idempotency_key)
                return _answer_after_giving_up(conflict, earlier, request)
            if result is not None:
                self._after_submit(result, match)
            return response
        raise AssertionError("unreachable")

    async def submit_async(
        self,
        offload: Offload,
        game_id: str,
        token: str | None,
        choice: Choice,
        version: int | None = None,
        idempotency_key: str | None = None,
        decision_version: int | None = None,
    ) -> dict[str, JSON]:
        """``submit`` for an event loop: the submit is queued to the group commit and its answer
        awaited, so no thread is held while it waits for its commit; ``offload`` runs on a thread
        what blocks (reading an earlier answer, publishing). Same guards, retries and answers."""
        transactions = self.transactions
        if not (self.submit_on_loop and isinstance(transactions, QueuedTransactions)):
            return await offload(
                partial(
                    self.submit, game_id, token, choice, version, idempotency_key, decision_version
                )
            )
        request, expected = _submit_request(choice, version, decision_version)
        for attempt in range(MAX_RETRIES):
            work = self._submit_work(game_id, token, choice, expected, idempotency_key, request)
            try:
                response, result, match = await asyncio.wrap_future(
                    transactions.start(game_id, work)
                )
            except VersionConflict as conflict:
                if not _gives_up(conflict, attempt):
                    continue
                earlier = None
                if idempotency_key is not None:
                    earlier = await offload(
                        partial(self._remembered, game_id, token, idempotency_key)
                    )
                return _answer_after_giving_up(conflict, earlier, request)
            if result is not None:
                await offload(partial(self._after_submit, result, match))
            return response
        raise AssertionError("unreachable")

    def _submit_work(
        self,
        game_id: str,
        token: str | None,
        choice: Choice,
        expected: tuple[int | None, int | None],
        idempotency_key: str | None,
        request: str,
    ) -> Work[tuple[dict[str, JSON], SubmitResult | None, Match]]:
        def work(uow: UnitOfWork) -> tuple[dict[str, JSON], SubmitResult | None, Match]:
            match = uow.games.get(game_id, for_update=True)
            seat = self.require_seat(match, token)
            key = f"{seat}:{idempotency_key}" if idempotency_key is not None else None
            if key is not None:
                earlier = uow.games.idempotent_result(game_id, key)
                if earlier is not None:
                    _same_request(earlier, request)
                    return earlier.response, None, match
            if match.seats[seat].has_quit:
                raise SeatResigned(f"seat {seat} has {match.seats[seat].stand_in}")
            result = match.submit(seat, choice, *expected)
            match.return_to_seat(seat)  # acting again takes the seat back from a stand-in bot
            response: dict[str, JSON] = {
                "game_type": match.game_type,
                "status": result.status,
                "version": match.version,
                "decision_version": match.decision_version_for(seat),
                "events": [event.for_viewer(seat) for event in result.events],
                "next": next_decision(match, seat),
            }
            self.save(uow, match, seat)
            if key is not None:
                uow.games.remember_result(game_id, key, response, request)
            return response, result, match

        return work

    def _after_submit(self, result: SubmitResult, match: Match) -> None:
        self._submitted(result)
        self._committed(match)

    def _remembered(self, game_id: str, token: str | None, key: str) -> Remembered | None:
        with self.uow() as uow:
            match = uow.games.get(game_id)
            seat = self.require_seat(match, token)
            return uow.games.idempotent_result(game_id, f"{seat}:{key}")

    def play_bot_turn(self, game_id: str) -> bool:
        """Play one pending decision of a bot seat, if any; True when one was played.

        The bot decides from what its seat may see, and its choice goes through the same guards
        as a human's. A concurrent change simply makes this a no-op (the caller tries again).
        """

        def work(uow: UnitOfWork) -> tuple[SubmitResult, Match] | None:
            match = uow.games.get(game_id)
            seat = next_bot_seat(match)
            if seat is None:
                return None
            result = match.submit(seat, bot_choice(match, seat), match.version)
            match.decision_played(seat)
            self.save(uow, match, seat)
            return result, match

        played = self.transactions.run(game_id, work)
        if played is None:
            return False
        self._submitted(played[0])
        self._committed(played[1])
        return True

    # -- reading -----------------------------------------------------------------------------------

    def load(self, game_id: str) -> Match:
        with self.uow() as uow:
            return uow.games.get(game_id)

    def list_games(self, where: LobbyFilter, limit: int, cursor: str | None = None) -> GamePage:
        """One page of public games, newest first, with the total and the next page's cursor."""
        if where.game_type is not None:
            self.registry.get(where.game_type)
        after = LobbyCursor.decode(cursor) if cursor is not None else None
        with self.uow() as uow:
            found = uow.games.list(where, limit + 1, after)
            total = uow.games.count(where)
            creator_ids = sorted({s.creator_id for s in found[:limit] if s.creator_id})
            names = uow.ratings.player_names(creator_ids) if creator_ids else {}
            finishing = uow.ratings.finishing(creator_ids) if creator_ids else {}
        items = []
        now = self.clock.now()
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
            engine = self.registry.get(summary.game_type)
            reasons = unrated_reasons(summary, engine)
            age = max(0, int((now - summary.created_at).total_seconds()))
            items.append(
                replace(summary, creator=creator, unrated_reasons=reasons, age_seconds=age)
            )
        more = len(found) > limit
        last = items[-1] if items else None
        next_cursor = LobbyCursor(last.created_at, last.id).encode() if more and last else None
        return GamePage(items, total, next_cursor)

    def events(
        self, game_id: str, token: str | None, after: int, limit: int
    ) -> tuple[Viewer, list[dict[str, JSON]]]:
        viewer, _, events = self.events_of_game(game_id, token, after, limit)
        return viewer, events

    def events_of_game(
        self, game_id: str, token: str | None, after: int, limit: int
    ) -> tuple[Viewer, str, list[dict[str, JSON]]]:
        """``events`` with the game's type (which tells a client how to read each event)."""
        with self.uow() as uow:
            match = uow.games.get(game_id)
            viewer = self.viewer(match, token)
            events = uow.games.events(game_id, after, limit)
        return viewer, match.game_type, [event.for_viewer(viewer.seat) for event in events]

    def games_with_bots_in_progress(self, after: str, limit: int) -> list[BotGame]:
        with self.uow() as uow:
            return uow.games.bot_games_in_progress(after, limit)

    def count_by_status(self) -> dict[str, int]:
        with self.uow() as uow:
            return uow.games.count_by_status()

    def history(self, game_id: str, after: int, limit: int) -> list[RecordedEvent]:
        with self.uow() as uow:
            return uow.games.events(game_id, after, limit)

    # -- tokens ------------------------------------------------------------------------------------

    def viewer(self, match: Match, token: str | None) -> Viewer:
        """No token: a spectator. A token that is neither a seat's nor the host's: refused. A seat
        that resigned or forfeited sees as a spectator: its hand is no longer its player's."""
        if token is None:
            return Viewer()
        token_hash = hash_token(token)
        seat = match.seat_of_token_hash(token_hash)
        if seat is not None:
            self._recognised(token_hash)
            if match.seats[seat].has_quit:
                return Viewer(quit_seat=seat)
            return Viewer(seat=seat)
        if hmac.compare_digest(match.host_token_hash, token_hash):
            self._recognised(token_hash)
            return Viewer(is_host=True)
        raise Unauthorized("the bearer token does not belong to this game")

    def viewer_or_spectator(self, match: Match, token: str | None) -> Viewer:
        """As ``viewer``, but a token that no longer belongs to the game (a seat that just left)
        reads as a spectator."""
        try:
            return self.viewer(match, token)
        except Unauthorized:
            return Viewer()

    def require_seat(self, match: Match, token: str | None) -> int:
        if token is None:
            raise Unauthorized("a seat token is required (Authorization: Bearer <token>)")
        viewer = self.viewer(match, token)
        if viewer.quit_seat is not None:
            seat = viewer.quit_seat
            raise SeatResigned(f"seat {seat} has {match.seats[seat].stand_in}; a bot plays it to the end")
        if viewer.seat is None:
            raise Forbidden("only a seated player may do this; the host token is not a seat")
        return viewer.seat

    # -- internals ---------------------------------------------------------------------------------

    def track(self, match: Match, acted: int | None = None) -> set[int]:
        """Bring the turn clocks up to date with the match's decision, before it is saved;
        returns the seats whose turn has just begun."""
        now = self.clock.now()
        if match.is_over:
            match.timing.stop_all(now)
            return set()
        humans = {s for s in match.awaited_seats() if not match.seats[s].plays_itself}
        return match.timing.track(humans, now, acted)

    def save(self, uow: UnitOfWork, match: Match, acted: int | None = None) -> None:
        """Track the clocks, store the match and its outbox, all in the caller's transaction."""
        turns_started = self.track(match, acted)
        uow.games.save(match)
        enqueue_outbox(uow, match, turns_started, self.clock.now())
        if match.status is MatchStatus.FINISHED and any(
            recorded.event.type == "game_over" for recorded in match.new_events
        ):
            for hook in self.when_finished:
                hook(uow, match)

    def _recognised(self, token_hash: str) -> None:
        for listener in self.token_listeners:
            listener(token_hash)

    def change(
        self,
        game_id: str,
        change: Callable[[Match], Any],
        also: Callable[[UnitOfWork, Match, Any], None] | None = None,
    ) -> tuple[Any, int]:
        """Load, change, save and commit one match, retrying on a concurrent change;
        ``also`` writes whatever else belongs in the same transaction."""
        for attempt in range(MAX_RETRIES):
            try:
                with self.uow() as uow:
                    match = uow.games.get(game_id, for_update=True)
                    value = change(match)
                    self.save(uow, match)
                    if also is not None:
                        also(uow, match, value)
                    uow.commit()
                self._committed(match)
                return value, match.version
            except VersionConflict:
                if attempt == MAX_RETRIES - 1:
                    raise
        raise AssertionError("unreachable")

    def _require_host(self, match: Match, token: str | None) -> None:
        if token is None:
            raise Unauthorized("the host token is required (Authorization: Bearer <token>)")
        if not self.viewer(match, token).is_host:
            raise Forbidden("only the host token may do this")

    @staticmethod
    def _require_invite(match: Match, invite_code: str | None) -> None:
        expected = match.invite_code_hash or ""
        if invite_code is None or not hmac.compare_digest(hash_token(invite_code), expected):
            raise InviteRequired(f"game {match.id} is private: join it with its invite code")

    def _host_change(self, game_id: str, token: str | None, change: Callable[[Match], Any]) -> Match:
        def guarded(match: Match) -> Match:
            self._require_host(match, token)
            change(match)
            return match

        match, _ = self.change(game_id, guarded)
        return match  # type: ignore[no-any-return]

    def _submitted(self, result: SubmitResult) -> None:
        types = [event.event.type for event in result.events]
        for listener in self.submit_listeners:
            listener(result.status, types)

    def next_after(self, game_id: str, seat: int) -> tuple[int, dict[str, JSON] | None]:
        """The game's last ``seq`` and what ``seat`` must decide now (None if nothing): for a live
        stream that caught up from storage, whose stored events carry no ``next``."""
        with self.uow() as uow:
            match = uow.games.get(game_id)
        return match.last_seq, next_decision(match, seat)

    def committed(self, match: Match) -> None:
        """After a commit: publish the new events and let the server's seats play."""
        self._committed(match)

    def _committed(self, match: Match) -> None:
        if match.new_events:
            events = list(match.new_events)
            waiting = {
                seat.index: offer
                for seat in match.seats
                if seat.bot is None and (offer := next_decision(match, seat.index)) is not None
            }
            if waiting:
                last = events[-1]
                events[-1] = RecordedEvent(last.seq, last.event, waiting)
            self.publisher.publish(match.id, events)
            match.new_events.clear()
        if match.status is MatchStatus.IN_PROGRESS and any(s.plays_itself for s in match.seats):
            has_humans = any(not seat.plays_itself for seat in match.seats)
            for hook in self.after_change:
                hook(match.id, has_humans)


def next_decision(match: Match, seat: int) -> dict[str, JSON] | None:
    """What ``seat`` must decide now, as ``GET …/choices`` would answer it; None when it has nothing
    to decide (not asked, already sealed, or the game is over)."""
    if match.status is not MatchStatus.IN_PROGRESS:
        return None
    decision, choices = match.choices_for(seat)
    if decision is None or not choices or seat in match.sealed:
        return None
    return {
        "game_type": match.game_type,
        "version": match.version,
        "decision_version": match.decision_version_for(seat),
        "decision": describe_decision(decision, match, seat),
        "choices": choices,
    }


def _submit_request(
    choice: Choice, version: int | None, decision_version: int | None
) -> tuple[str, tuple[int | None, int | None]]:
    """A submit's fingerprint (for its idempotency key) and the versions it expects."""
    named: dict[str, JSON] = {"choice": choice, "version": version}
    if decision_version is not None:
        named["decision_version"] = decision_version
    return fingerprint(named), (version, decision_version)


def _gives_up(conflict: VersionConflict, attempt: int) -> bool:
    """Whether a conflicted submit stops retrying: its own decision moved on, or no tries left."""
    return isinstance(conflict, StaleDecision) or attempt == MAX_RETRIES - 1


def _answer_after_giving_up(
    conflict: VersionConflict, earlier: Remembered | None, request: str
) -> dict[str, JSON]:
    """After the last conflict: the first answer to the same idempotent submit (a retry whose first
    try committed), else the conflict itself."""
    if earlier is None:
        raise conflict
    _same_request(earlier, request)
    return earlier.response


def _same_request(earlier: Remembered, request: str) -> None:
    if earlier.fingerprint is not None and earlier.fingerprint != request:
        raise IdempotencyKeyReused(
            "this Idempotency-Key was used for a different request; use a new key per request"
        )


def _joined_earlier(match: Match, earlier: Remembered, key: str, request: str) -> Joined:
    """The first answer to a retried join: the same token, and the seat where it sits now (a seat
    before it may have left since)."""
    _same_request(earlier, request)
    response = earlier.response
    seat = int(response["seat"])
    if response.get("bot"):
        return Joined(seat, None, int(response["version"]))
    seat_token = token_for_key(key, str(response["nonce"]), "seat")
    now = match.seat_of_token_hash(hash_token(seat_token))
    return Joined(seat if now is None else now, seat_token, int(response["version"]))


def describe_decision(decision: Decision, match: Match, seat: int | None) -> dict[str, JSON]:
    """The public description of a decision: who decides, and (only) who has already sealed."""
    return {
        "kind": decision.kind,
        "prompt": decision.prompt,
        "seats": list(decision.seats),
        "simultaneous": decision.simultaneous,
        "sealed": sorted(match.sealed) if decision.simultaneous else [],
        "your_sealed_choice": match.sealed.get(seat) if seat is not None else None,
        "decision_version": match.decision_version_for(seat),
        "data": dict(decision.data),
    }
