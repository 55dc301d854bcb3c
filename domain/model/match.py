"""The match aggregate: a game's lifecycle, seats, sealed simultaneous choices, version and events.

It owns the generic invariants and runs the central guards before any engine code; the engine owns
the rules. Every change bumps ``version`` (optimistic concurrency) and records events with
consecutive sequence numbers; the repository persists ``new_events`` with the match.
"""

from __future__ import annotations

import copy
import hmac
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, TypedDict

from domain.engine import (
    JSON,
    Choice,
    Decision,
    Event,
    GameEngine,
    TakeBackRules,
    event_for,
    find_listed_choice,
    same_json,
)
from domain.errors import (
    Detail,
    GameFull,
    GameNotFinished,
    GameNotInLobby,
    GameNotInProgress,
    GameOver,
    IllegalChoice,
    NoTakeBackRequest,
    NotEnoughPlayers,
    NothingToTakeBack,
    NotYourDecision,
    RematchExists,
    SeatBlocked,
    SeatNotFound,
    SeatResigned,
    StaleDecision,
    TakeBackPending,
    TakeBacksOff,
)
from domain.model.clocks import Timing
from domain.model.seeding import SEED_MODE_SERVER, rng_for_seed
from domain.model.takebacks import (
    MAX_POINTS,
    TAKEBACK_EVENT_TYPES,
    ClockReading,
    TakeBackPoint,
    TakeBackRequest,
    TakeBacks,
)

RESERVED_EVENT_TYPES = frozenset(
    {
        "seat_joined",
        "seat_left",
        "game_started",
        "choice_sealed",
        "choice_applied",
        "game_over",
        "game_aborted",
        "seat_resigned",
        "clock_expired",
        "seat_returned",
        *TAKEBACK_EVENT_TYPES,
    }
)
QUIT_REASONS = ("resigned", "forfeited")
"""Event types the platform itself records; engines use their own names."""


class MatchStatus(StrEnum):
    LOBBY = "lobby"
    IN_PROGRESS = "in_progress"
    FINISHED = "finished"
    ABORTED = "aborted"


@dataclass(slots=True)
class Seat:
    """A place at the table. A bot seat has no token (``token_hash`` is empty): nobody outside the
    server can act for it or read what it sees."""

    index: int
    name: str
    token_hash: str
    bot: str | None = None
    player_id: str | None = None
    confirmed: bool = True
    """False for a rematch seat its player has not yet taken (by joining with the old token)."""
    stand_in: str | None = None
    """Why a bot plays this human seat for now: "resigned", "forfeited" or "timeout"."""
    address_hash: str | None = None
    """SHA-256 of the client address the seat was taken from: what a host's block names when
    the seat has no player identity. Never shown."""
    decisions: int | None = 0
    """Decisions its person made with the seat's token (not a bot's or a stand-in's): whether it
    took part, for ratings. None: a seat stored before they were counted."""

    def identities(self) -> list[str]:
        """What blocking this seat's taker blocks: its player identity and its client address."""
        found = [f"player:{self.player_id}"] if self.player_id else []
        return found + ([f"address:{self.address_hash}"] if self.address_hash else [])

    @property
    def plays_itself(self) -> bool:
        """A bot seat, or a human seat a bot stands in for: the server plays it."""
        return self.bot is not None or self.stand_in is not None

    @property
    def has_quit(self) -> bool:
        return self.stand_in in QUIT_REASONS


class DescribedDecision(TypedDict):
    """A decision as one seat (or a spectator) may see it."""

    kind: str
    prompt: str
    seats: list[int]
    simultaneous: bool
    sealed: list[int]
    your_sealed_choice: Choice | None
    decision_version: int | None
    data: dict[str, JSON]


class Offer(TypedDict):
    """What a seat must decide now, with every legal choice and the versions to send back."""

    game_type: str
    version: int
    decision_version: int | None
    decision: DescribedDecision
    choices: list[Choice]


class ShownEvent(TypedDict):
    """An event as one viewer may see it (every API's event object)."""

    seq: int
    type: str
    data: dict[str, JSON]


@dataclass(frozen=True, slots=True)
class RecordedEvent:
    """An event with its place in the game's history."""

    seq: int
    event: Event
    next_for: Mapping[int, Offer] = field(default_factory=dict, compare=False)
    """What each seat must decide right after this event (its decision, legal choices and the
    version to send), set only on the last event of a commit as it is published live, so that a
    client can answer an event without asking for its choices. Never stored: history has none."""

    def for_viewer(self, viewer: int | None) -> ShownEvent:
        kind, data = event_for(self.event, viewer)
        return {"seq": self.seq, "type": kind, "data": data}


@dataclass(frozen=True, slots=True)
class AppliedChoices:
    """The choices one decision applied, the version it made and the last event sequence number
    by then (a decision may produce no event of its own)."""

    version: int
    seq: int
    choices: dict[int, Choice]
    undoes: tuple[int, ...] = ()
    """A take-back's entry (its ``choices`` empty): the versions of the decisions it took back."""


def effective_choices(log: Sequence[AppliedChoices], up_to_seq: int | None = None) -> list[AppliedChoices]:
    """The decisions that still count after every take-back recorded up to event ``up_to_seq``
    (all, when None), in order: what a replay from the seed applies."""
    kept: list[AppliedChoices] = []
    undone: set[int] = set()
    for entry in log:
        if up_to_seq is not None and entry.seq > up_to_seq:
            break
        if entry.undoes:
            undone.update(entry.undoes)
        else:
            kept.append(entry)
    return [entry for entry in kept if entry.version not in undone]


@dataclass(frozen=True, slots=True)
class SubmitResult:
    status: str  # "sealed" or "applied"
    version: int
    events: tuple[RecordedEvent, ...]


@dataclass(slots=True)
class Match:
    """One game on the service, from lobby to finished (or aborted)."""

    id: str
    engine: GameEngine[Any]
    options: dict[str, JSON]
    seed: str
    seed_commitment: str
    host_token_hash: str
    created_at: datetime
    seed_salt: str | None = None
    seed_mode: str = SEED_MODE_SERVER
    private: bool = False
    invite_code_hash: str | None = None
    status: MatchStatus = MatchStatus.LOBBY
    seats: list[Seat] = field(default_factory=list)
    version: int = 0
    state: Any = None
    sealed: dict[int, Choice] = field(default_factory=dict)
    last_seq: int = 0
    result: dict[str, JSON] | None = None
    timing: Timing = field(default_factory=Timing)
    rematch_of: str | None = None
    rematch_id: str | None = None
    creator_id: str | None = None
    """The player identity that created the game: only such games are listed in the lobby."""
    creator_address: str | None = None
    """SHA-256 of the creating client's address (bounds its open listed games). Never shown."""
    blocked: list[str] = field(default_factory=list)
    """Identities the host removed and blocked: ``player:<id>`` and ``address:<hash>``."""
    decision_version: int = 0
    """The version at which the engine last put a new decision (start, or a decision applied)."""
    sealed_versions: dict[int, int] = field(default_factory=dict)
    """The version at which each seat sealed its choice in the open simultaneous decision."""
    loaded_version: int = 0
    new_events: list[RecordedEvent] = field(default_factory=list)
    new_choices: list[AppliedChoices] = field(default_factory=list)
    """Choices applied since loading, stored with the events: what a replay re-applies."""
    takebacks: TakeBacks = field(default_factory=TakeBacks)
    """Whether take-backs are allowed, what may be taken back, the open request."""
    takeback_rules: TakeBackRules | None = None
    """The game's own rules of what a decision revealed (its ``HostedGame.takebacks``)."""

    @property
    def game_type(self) -> str:
        return self.engine.meta.slug

    @property
    def max_players(self) -> int:
        return self.engine.meta.max_players_for(self.options)

    @property
    def listed(self) -> bool:
        """Shown in the public lobby: public, and created by a player identity (anonymous
        creates cost a script nothing, so they are reachable by their link only)."""
        return not self.private and self.creator_id is not None

    @property
    def is_over(self) -> bool:
        """Finished or aborted: nothing more can happen to it."""
        return self.status in (MatchStatus.FINISHED, MatchStatus.ABORTED)

    def seed_revealed(self) -> str | None:
        """The seed is secret while the game can still be played."""
        return self.seed if self.is_over else None

    def salt_revealed(self) -> str | None:
        """Revealed with the seed, so anyone can check the commitment."""
        return self.seed_salt if self.is_over else None

    def _revealed(self) -> dict[str, JSON]:
        return {"seed": self.seed, "seed_salt": self.seed_salt}

    # -- lifecycle -------------------------------------------------------------------------------

    def join(
        self,
        name: str,
        token_hash: str,
        bot: str | None = None,
        *,
        player_id: str | None = None,
        address_hash: str | None = None,
    ) -> Seat:
        if self.status is not MatchStatus.LOBBY:
            raise GameNotInLobby(
                "game {game} is {status}; seats can only be taken in the lobby",
                game=self.id,
                status=self.status.value,
            )
        seat = Seat(len(self.seats), name, "" if bot is not None else token_hash, bot)
        if bot is None:
            seat.player_id, seat.address_hash = player_id, address_hash
            if set(seat.identities()) & set(self.blocked):
                raise SeatBlocked("the host of game {game} removed and blocked you", game=self.id)
        if len(self.seats) >= self.max_players:
            raise GameFull("game {game} already has its {seats} seats", game=self.id, seats=self.max_players)
        self.seats.append(seat)
        self._record([Event("seat_joined", {"seat": seat.index, "name": name, "bot": bot})])
        return seat

    def leave(self, index: int, removed_by: str, block: bool = False) -> Seat:
        """Free a lobby seat (``removed_by`` is "host" or "self"); later seats move up one place,
        so seats stay numbered 0..n-1 for the rules once the game starts. ``block`` (the host's
        choice) keeps the seat's player and client address from sitting down again."""
        if self.status is not MatchStatus.LOBBY:
            raise GameNotInLobby(
                "game {game} is {status}; seats can only be left in the lobby",
                game=self.id,
                status=self.status.value,
            )
        if not 0 <= index < len(self.seats):
            raise SeatNotFound("game {game} has no seat {seat}", game=self.id, seat=index)
        seat = self.seats.pop(index)
        if block:
            self.blocked.extend(i for i in seat.identities() if i not in self.blocked)
        for later in self.seats[index:]:
            later.index -= 1
        self._record([Event("seat_left", {"seat": index, "name": seat.name, "removed_by": removed_by})])
        return seat

    def start(self) -> list[RecordedEvent]:
        if self.status is not MatchStatus.LOBBY:
            raise GameNotInLobby(
                "game {game} is {status}; only a lobby can start", game=self.id, status=self.status.value
            )
        meta = self.engine.meta
        waiting = [s.index for s in self.seats if not s.confirmed]
        if waiting:
            raise NotEnoughPlayers("rematch seat(s) {waiting} have not joined yet", waiting=waiting)
        if len(self.seats) < meta.min_players:
            raise NotEnoughPlayers(
                "{game_name} needs at least {min_seats} seats, game {game} has {count}",
                game_name=meta.name,
                min_seats=meta.min_players,
                game=self.id,
                count=len(self.seats),
            )
        self.state, opening = self.engine.setup(len(self.seats), self.options, rng_for_seed(self.seed))
        self.status = MatchStatus.IN_PROGRESS
        events = [Event("game_started", {"players": len(self.seats)}), *opening]
        recorded = self._record(events, self._finish_if_over())
        self._decision_moved()
        return recorded

    def abort(self) -> list[RecordedEvent]:
        if self.is_over:
            raise GameOver("game {game} is already {status}", game=self.id, status=self.status.value)
        self.status = MatchStatus.ABORTED
        self.sealed.clear()
        self.sealed_versions.clear()
        return self._record([Event("game_aborted", self._revealed())])

    def expire_lobby(self) -> list[RecordedEvent]:
        """An abandoned lobby ends as aborted, with the reason recorded (nothing is deleted)."""
        if self.status is not MatchStatus.LOBBY:
            raise GameNotInLobby(
                "game {game} is {status}; only a lobby expires", game=self.id, status=self.status.value
            )
        self.status = MatchStatus.ABORTED
        return self._record([Event("game_aborted", {**self._revealed(), "reason": "lobby_expired"})])

    # -- rematch ---------------------------------------------------------------------------------

    def offer_seats_of(self, previous: Match) -> None:
        """A rematch lobby keeps the previous seats in order: bots sit down at once, people
        hold their seat until they take it with their previous seat token."""
        for old in previous.seats:
            seat = Seat(
                old.index,
                old.name,
                old.token_hash,
                old.bot,
                old.player_id,
                confirmed=old.bot is not None,
            )
            self.seats.append(seat)
            data: dict[str, JSON] = {"seat": seat.index, "name": seat.name, "bot": seat.bot}
            if seat.confirmed:
                self._record([Event("seat_joined", data)])
        self.rematch_of = previous.id

    def confirm_seat(self, seat: int, token_hash: str) -> list[RecordedEvent]:
        """The previous game's seat takes its rematch seat under a fresh token."""
        if self.status is not MatchStatus.LOBBY:
            raise GameNotInLobby(
                "game {game} is {status}; seats are taken in the lobby",
                game=self.id,
                status=self.status.value,
            )
        taken = self.seats[seat]
        taken.token_hash = token_hash
        taken.confirmed = True
        return self._record([Event("seat_joined", {"seat": seat, "name": taken.name, "bot": None})])

    def link_rematch(self, rematch_id: str) -> None:
        if self.rematch_id is not None:
            raise RematchExists(
                "game {game} already has its rematch: {rematch}", game=self.id, rematch=self.rematch_id
            )
        if self.status is not MatchStatus.FINISHED:
            raise GameNotFinished(
                "game {game} is {status}; only a finished game has a rematch",
                game=self.id,
                status=self.status.value,
            )
        self.rematch_id = rematch_id
        self.version += 1

    # -- quitters and clocks ---------------------------------------------------------------------

    def resign(self, seat: int) -> list[RecordedEvent]:
        """The seat leaves the game for good; a bot plays it to the end (the "zombie")."""
        self._guard_playable()
        self._guard_not_quit(seat)
        self.seats[seat].stand_in = "resigned"
        return self._record([Event("seat_resigned", {"seat": seat}), *self._cancel_request("seat_quit")])

    def expire_clock(self, seat: int, action: str) -> list[RecordedEvent]:
        """The seat's clock ran out: a bot plays for it until it returns, or it forfeits."""
        self._guard_playable()
        self._guard_not_quit(seat)
        self.seats[seat].stand_in = "timeout" if action == "bot" else "forfeited"
        data: dict[str, JSON] = {"seat": seat, "action": action}
        if action == "bot":
            data["until"] = "return"
        return self._record([Event("clock_expired", data), *self._cancel_request("seat_quit")])

    def lapse(self, seat: int, lapses: int) -> list[RecordedEvent]:
        """The seat's clock ran out, not for the first times in a row: the stand-in bot plays this
        one decision (``decision_played``), then the seat and its clock are the player's again."""
        self._guard_playable()
        self._guard_not_quit(seat)
        self.seats[seat].stand_in = "lapsed"
        return self._record(
            [Event("clock_expired", {"seat": seat, "action": "bot", "until": "decision", "lapses": lapses})]
        )

    def served(self, seat: int) -> bool:
        """The server plays this seat: a bot, a stand-in, or a person whose clock ran out on their
        last decision who has not acted since (the stand-in played it and waits for the next
        lapse). A game whose every seat is served is a game of bots only, whatever its seats
        say, for the cap on them."""
        clock = self.timing.seats.get(seat)
        return self.seats[seat].plays_itself or (clock is not None and clock.lapses > 0)

    def decided_in_person(self, seat: int) -> None:
        """The seat's person made a decision (sealed or applied) with its own token."""
        held = self.seats[seat]
        held.decisions = (held.decisions or 0) + 1

    def decision_played(self, seat: int) -> None:
        """The stand-in played the lapsed decision: the seat is its player's again."""
        if self.seats[seat].stand_in == "lapsed":
            self.seats[seat].stand_in = None

    def return_to_seat(self, seat: int) -> list[RecordedEvent]:
        """A seat whose clock ran out takes its seat back from the bot (and its lapses restart)."""
        self._guard_not_quit(seat)
        if seat in self.timing.seats:
            self.timing.seats[seat].lapses = 0
        self.decision_played(seat)  # back before the stand-in played the lapsed decision
        if self.seats[seat].stand_in != "timeout":
            return []
        self._guard_playable()
        self.seats[seat].stand_in = None
        return self._record([Event("seat_returned", {"seat": seat})])

    def _guard_not_quit(self, seat: int) -> None:
        if self.seats[seat].has_quit:
            raise SeatResigned(
                "seat {seat} has {stand_in}; a bot plays it to the end",
                seat=seat,
                stand_in=self.seats[seat].stand_in,
            )

    # -- decisions -------------------------------------------------------------------------------

    def decision(self) -> Decision | None:
        if self.status is not MatchStatus.IN_PROGRESS:
            return None
        return self.engine.decision(self.state)

    def bot_level(self, seat: int) -> str | None:
        """The level that plays ``seat`` now: a bot's own, or for a seat handed to the stand-in
        the level this game chose for its stand-ins (its clock's ``stand_in``, default greedy)."""
        played = self.seats[seat]
        if played.bot is not None:
            return played.bot
        return self.timing.settings.stand_in if played.stand_in is not None else None

    def awaited_seats(self) -> set[int]:
        """Seats the game is waiting for now: in the decision and not sealed."""
        decision = self.decision()
        if decision is None:
            return set()
        return {seat for seat in decision.seats if seat not in self.sealed}

    def choices_for(self, seat: int | None) -> tuple[Decision | None, list[Choice]]:
        """The decision a seat faces now and its legal choices (None and [] if it has none)."""
        decision = self.decision()
        if seat is None or decision is None or seat not in decision.seats:
            return None, []
        return decision, self.engine.legal_choices(self.state, seat)

    def decision_version_for(self, seat: int | None) -> int | None:
        """The seat's concurrency token: it changes only when *its* decision or choices change
        (a new decision is put, or it seals or replaces its own choice), never when another seat
        seals. None when the seat has nothing to decide."""
        decision = self.decision()
        if seat is None or decision is None or seat not in decision.seats:
            return None
        return self.sealed_versions.get(seat, self.decision_version)

    def submit(
        self,
        seat: int,
        choice: Choice,
        expected_version: int | None = None,
        expected_decision_version: int | None = None,
    ) -> SubmitResult:
        """Guard, then seal or apply one seat's choice."""
        self._guard_playable()
        self._guard_fresh(seat, expected_version, expected_decision_version)
        decision = self.engine.decision(self.state)
        if decision is None or seat not in decision.seats:
            raise NotYourDecision("seat {seat} has nothing to decide now", seat=seat)
        legal = self.engine.legal_choices(self.state, seat)
        listed = find_listed_choice(legal, choice)
        if listed is None:
            raise IllegalChoice.saying(_explain_illegal(decision, legal, choice))
        # The listed object, copied: the client's copy (or a later change to the list) never
        # reaches the state, the sealed choices or the events.
        choice = copy.deepcopy(listed)
        if decision.simultaneous:
            return self._seal(decision, seat, choice)
        return self._apply(decision, {seat: choice})

    def _guard_playable(self) -> None:
        if self.status is MatchStatus.LOBBY:
            raise GameNotInProgress("game {game} has not started yet", game=self.id)
        if self.status is not MatchStatus.IN_PROGRESS:
            raise GameOver("game {game} is {status}", game=self.id, status=self.status.value)

    def _guard_fresh(
        self, seat: int, expected_version: int | None, expected_decision_version: int | None
    ) -> None:
        """Refuse a choice made on a decision that has moved on for this seat. A game ``version``
        read while the seat's decision was already open is still good: other seats sealing in
        the meantime change the version, not this seat's decision."""
        current = self.decision_version_for(seat)
        moved_at = current if current is not None else self.decision_version
        if expected_decision_version is not None and expected_decision_version != current:
            raise StaleDecision(
                "seat {seat}'s decision is at decision_version {decision_version}, not {got}; "
                "reload the choices and retry",
                seat=seat,
                decision_version=current,
                got=expected_decision_version,
            )
        if expected_version is not None and not moved_at <= expected_version <= self.version:
            raise StaleDecision(
                "version {version} is stale: seat {seat}'s decision changed at version {changed_version} "
                "(game {game} is at version {game_version}); reload and retry",
                version=expected_version,
                seat=seat,
                changed_version=moved_at,
                game=self.id,
                game_version=self.version,
            )

    def _seal(self, decision: Decision, seat: int, choice: Choice) -> SubmitResult:
        cancelled = self._cancel_request("game_moved")
        replaced = seat in self.sealed
        self.sealed[seat] = choice
        sealed_seats = sorted(self.sealed)
        sealed_event = Event(
            "choice_sealed",
            {
                "seat": seat,
                "sealed": sealed_seats,
                "waiting": [s for s in decision.seats if s not in self.sealed],
            },
            {seat: {"choice": choice, "replaced": replaced}},
        )
        if any(s not in self.sealed for s in decision.seats):
            recorded = self._record([sealed_event, *cancelled])
            self.sealed_versions[seat] = self.version
            return SubmitResult("sealed", self.version, tuple(recorded))
        sealed, self.sealed = self.sealed, {}
        return self._apply(decision, sealed, prefix=[sealed_event, *cancelled])

    def _apply(
        self, decision: Decision, choices: Mapping[int, Choice], prefix: list[Event] | None = None
    ) -> SubmitResult:
        clocks = self._clock_readings() if self._takebacks_kept else None
        applied = self.engine.apply(self.state, choices)
        events = [*(prefix or []), *applied]
        if not events:
            # A choice that changes nothing on the table (a Carcassonne figure not placed) still
            # passes the decision on: record it, so that every change reaches live followers and
            # the next seat learns from an event that it is asked (with its ``next``).
            events = [Event("choice_applied", {"seat": min(choices), "decision": decision.kind})]
        events.extend(self._cancel_request("game_moved"))
        recorded = self._record(events, self._finish_if_over())
        self._decision_moved()
        self.new_choices.append(AppliedChoices(self.version, self.last_seq, dict(choices)))
        if clocks is not None:
            self._note_takeback_point(decision, choices, applied, clocks)
        return SubmitResult("applied", self.version, tuple(recorded))

    # -- take-backs (domain.model.takebacks) -----------------------------------------------------

    @property
    def _takebacks_kept(self) -> bool:
        return self.takebacks.allowed and self.takeback_rules is not None

    def _clock_readings(self) -> dict[int, ClockReading]:
        return {seat: ClockReading(c.used, c.bank, c.lapses) for seat, c in self.timing.seats.items()}

    def _note_takeback_point(
        self,
        decision: Decision,
        choices: Mapping[int, Choice],
        applied: list[Event],
        clocks: dict[int, ClockReading],
    ) -> None:
        """Keep the decision just applied as one a seat may take back, unless it revealed
        something (then nothing before it can be taken back either) or ended the game."""
        points = self.takebacks.points
        assert self.takeback_rules is not None
        if self.is_over or self.takeback_rules.revealed(decision, applied):
            points.clear()
            return
        points.append(TakeBackPoint(self.version, tuple(sorted(choices)), not decision.simultaneous, clocks))
        del points[:-MAX_POINTS]

    def _cancel_request(self, reason: str) -> list[Event]:
        """The open request ends unanswered: the game moved on (a choice was made, so it no longer
        says what it would take back), or a seat left the game."""
        request = self.takebacks.request
        if request is None:
            return []
        self.takebacks.request = None
        return [Event("takeback_cancelled", {"seat": request.seat, "reason": reason})]

    def takeback_request(self) -> TakeBackRequest | None:
        return self.takebacks.request

    def can_take_back(self, seat: int | None) -> bool:
        """Whether ``seat`` may ask to take back a decision now (asking may still need consent)."""
        if seat is None or self.status is not MatchStatus.IN_PROGRESS or not self._takebacks_kept:
            return False
        if self.takebacks.request is not None or self.seats[seat].has_quit:
            return False
        return self.takebacks.target_of(seat) is not None

    def request_takeback(
        self, seat: int, history: Callable[[], Sequence[AppliedChoices]]
    ) -> list[RecordedEvent]:
        """``seat`` takes back its latest decision: at once when nobody else decided since (or
        only seats the server plays), else as a request the others answer. ``history``: the
        recorded choices, read only when the decision is taken back."""
        self._guard_playable()
        self._guard_not_quit(seat)
        takebacks = self.takebacks
        if not self._takebacks_kept:
            raise TakeBacksOff("game {game} was created without take-backs", game=self.id)
        if takebacks.request is not None:
            raise TakeBackPending(
                "seat {seat} already asked to take back a decision; waiting for seat(s) {waiting}",
                seat=takebacks.request.seat,
                waiting=takebacks.request.waiting,
            )
        index = takebacks.target_of(seat)
        if index is None:
            raise NothingToTakeBack(
                "seat {seat} has no decision to take back: none since something hidden was revealed "
                "(a card or tile drawn, sealed choices opened)",
                seat=seat,
            )
        others = (takebacks.deciders_since(index) | set(self.sealed)) - {seat}
        waiting = sorted(s for s in others if not self.seats[s].plays_itself)
        accepted = sorted(others - set(waiting))
        if not waiting:
            return self._take_back(seat, index, history, accepted)
        request = TakeBackRequest(seat, takebacks.points[index].version, waiting, accepted)
        takebacks.request = request
        return self._record([Event("takeback_requested", request.public())])

    def answer_takeback(
        self, seat: int, accept: bool, history: Callable[[], Sequence[AppliedChoices]]
    ) -> list[RecordedEvent]:
        """A seat asked to consent accepts or refuses; the last acceptance takes the decision back."""
        self._guard_playable()
        request = self.takebacks.request
        if request is None or seat not in request.waiting:
            raise NoTakeBackRequest("no take-back request waits for seat {seat}'s answer", seat=seat)
        if not accept:
            self.takebacks.request = None
            return self._record([Event("takeback_refused", {"seat": request.seat, "by": seat})])
        request.waiting.remove(seat)
        request.accepted.append(seat)
        accepted = Event(
            "takeback_accepted", {"seat": request.seat, "by": seat, "waiting": list(request.waiting)}
        )
        if request.waiting:
            return self._record([accepted])
        index = next(i for i, p in enumerate(self.takebacks.points) if p.version == request.version)
        return self._take_back(request.seat, index, history, sorted(request.accepted), [accepted])

    def _take_back(
        self,
        seat: int,
        index: int,
        history: Callable[[], Sequence[AppliedChoices]],
        accepted: list[int],
        prefix: Sequence[Event] = (),
    ) -> list[RecordedEvent]:
        """Replay the game from its seed without the decisions from ``index`` on; the clocks read
        what they read when the first of them was asked."""
        points = self.takebacks.points
        undone = [point.version for point in points[index:]]
        kept = [a for a in effective_choices([*history(), *self.new_choices]) if a.version not in undone]
        state, _ = self.engine.setup(len(self.seats), self.options, rng_for_seed(self.seed))
        for applied in kept:
            self.engine.apply(state, applied.choices)
        self.state = state
        self.sealed.clear()
        self._restore_clocks(points[index].clocks)
        del points[index:]
        self.takebacks.request = None
        data: dict[str, JSON] = {
            "seat": seat,
            "undone": undone,
            "accepted": accepted,
            "view": self.engine.view(state, None),
        }
        private = {s.index: {"view": self.engine.view(state, s.index)} for s in self.seats}
        recorded = self._record([*prefix, Event("taken_back", data, private)])
        self._decision_moved()
        self.new_choices.append(AppliedChoices(self.version, self.last_seq, {}, tuple(undone)))
        return recorded

    def _restore_clocks(self, readings: Mapping[int, ClockReading]) -> None:
        """Every clock as it read then; the clocks of the seats now awaited start again when the
        match is saved (``Timing.track``)."""
        fresh_bank = self.timing.settings.seconds if self.timing.settings.mode == "fischer" else None
        for seat, clock in self.timing.seats.items():
            reading = readings.get(seat, ClockReading(0.0, fresh_bank, 0))
            clock.used, clock.bank, clock.lapses = reading.used, reading.bank, reading.lapses
            clock.since = clock.deadline = None

    def _decision_moved(self) -> None:
        """The engine's state changed: every seat's decision is a new one."""
        self.decision_version = self.version
        self.sealed_versions.clear()

    def _finish_if_over(self) -> list[Event]:
        outcome = self.engine.outcome(self.state)
        if outcome is None:
            return []
        self.status = MatchStatus.FINISHED
        self.result = {
            "scores": list(outcome.scores),
            "winners": self._winners_still_playing(outcome.scores, outcome.winners),
            "details": dict(outcome.details),
            "resigned": [s.index for s in self.seats if s.stand_in == "resigned"],
            "forfeited": [s.index for s in self.seats if s.stand_in == "forfeited"],
        }
        return [Event("game_over", {**self.result, **self._revealed()})]

    def _winners_still_playing(self, scores: tuple[int, ...], winners: tuple[int, ...]) -> list[int]:
        """A seat that resigned or forfeited cannot win: the engine's winners without them, or
        else the best score among the seats that stayed (all of them if everybody quit)."""
        stayed = [s.index for s in self.seats if not s.has_quit]
        kept = [w for w in winners if w in stayed]
        if kept or not stayed:
            return kept if stayed else list(winners)
        best = max(scores[s] for s in stayed)
        return [s for s in stayed if scores[s] == best]

    def _record(self, events: list[Event], extra: list[Event] | None = None) -> list[RecordedEvent]:
        recorded = []
        for event in [*events, *(extra or [])]:
            self.last_seq += 1
            recorded.append(RecordedEvent(self.last_seq, event))
        self.new_events.extend(recorded)
        self.version += 1
        return recorded

    # -- views -----------------------------------------------------------------------------------

    def view(self, viewer: int | None) -> dict[str, JSON] | None:
        if self.state is None:
            return None
        return self.engine.view(self.state, viewer)

    def replace_seat_token(self, seat: int, token_hash: str) -> None:
        """A new token for a seat (the old one stops working); no event: tokens are secret."""
        self.seats[seat].token_hash = token_hash
        self.version += 1

    def seat_of_token_hash(self, token_hash: str) -> int | None:
        found = None
        for seat in self.seats:
            if seat.bot is not None:
                continue  # a bot seat answers to no token, even one stored by an older version
            if hmac.compare_digest(seat.token_hash, token_hash):
                found = seat.index
        return found


def _explain_illegal(decision: Decision, legal: list[Choice], choice: Choice) -> Detail:
    """Say why a choice was refused, using only what the seat may already see."""
    shapes = sorted({", ".join(sorted(c)) for c in legal})
    same_keys = [c for c in legal if set(c) == set(choice)]
    if not same_keys:
        return Detail(
            "choice {choice!j} does not fit decision {decision!q}: legal choices have the fields "
            "{legal_fields}",
            {"choice": choice, "decision": decision.kind, "legal_fields": "{" + "} or {".join(shapes) + "}"},
        )
    differing = sorted({k for c in same_keys for k in c if not same_json(c[k], choice.get(k))})
    return Detail(
        "choice {choice!j} is not one of the {count} legal choices for decision {decision!q} "
        "(check {check}); GET the choices and post one back verbatim",
        {"choice": choice, "count": len(legal), "decision": decision.kind, "check": differing},
    )


def quits(event: Event, seat: int | None) -> bool:
    """Whether ``event`` takes ``seat`` from its player for good (resigned, or forfeited on the
    clock): from then on the seat's token sees what a spectator sees."""
    if seat is None or event.data.get("seat") != seat:
        return False
    return event.type == "seat_resigned" or (
        event.type == "clock_expired" and event.data.get("action") == "forfeit"
    )
