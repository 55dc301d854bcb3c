"""Ratings per identity and game type (OpenSkill's Plackett–Luce model, made for free-for-all games).

A rating belongs to a *subject*: a player identity (its id) or a bot level (``bot:greedy``), so
players see how strong each level is. What is rated is decided here from the match alone, the same
way before anyone joins (the lobby and the game view show it) and at the end:

- every person's seat is held by a player identity (an anonymous seat makes the game unrated), and
  at least two distinct identities sit at the table, one of them a person;
- the server chose the seed (``seed_mode`` server), and a turn clock runs (nobody can stall);
- nobody holds two seats (a person in two seats is unrated for everyone: it could only be used to
  feed one seat's points to the other); a bot level in two seats is an opponent at each seat but
  its own rating does not move in that game (one rating cannot be two teams);
- every person's seat took part: it made at least ``MIN_OWN_DECISIONS`` decisions itself (a
  seat resigned, or played by its stand-in, before its first move means no game was played;
  known at the end);
- pair farming: once two players have finished ``PAIR_LIMIT`` rated games together within
  ``PAIR_WINDOW``, further games between them in that window are unrated (checked at the end,
  from the stored changes).

Established identities: a bot level always; a player once ``ESTABLISHED_GAMES`` of its rated
games in the type had an established opponent at the table (counted at each game's end, from the
ratings before it; the stored ``anchored`` count). Identities that have not played established
opponents have no weight over others:

- the leaderboard ranks every established identity above every one that is not (then by display
  value): a newcomer who only beat other newcomers (free identities made to lose) cannot pass
  people who proved themselves against the yardstick (bots, established players);
- an established player's rating moves only against the established seats of a game: a win over
  newcomers leaves it where it was (the newcomers' ratings still move, and they count it towards
  being established when an established player sat with them). A bot level's rating, the yardstick,
  moves from every rated game against people.

Ranks come from the stored result: the winners first, then the others by score; a seat that
resigned or forfeited ranks last whatever its score. Bots are rated opponents: a person's change is
computed against the bot level's rating, and the level's rating moves from games against people.
The update runs in the transaction that records the game's end
(``domain.services.standing.record_end``), so it commits with the final move or not at all, and
the primary key (game, subject) of each stored change refuses a second count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from openskill.models import PlackettLuce

from domain.engine import JSON
from domain.model.match import Match, MatchStatus, Seat
from domain.model.seeding import SEED_MODE_SERVER

BOT_PREFIX = "bot:"
PROVISIONAL_GAMES = 5
"""A rating is provisional (shown, flagged) until this many rated games."""
PAIR_LIMIT = 3
PAIR_WINDOW = timedelta(hours=24)
ESTABLISHED_GAMES = 3
"""Rated games with an established opponent (a bot level, or an established player) that make a
player established in a game type."""
MIN_OWN_DECISIONS = 1
"""Decisions each person's seat makes itself (not its stand-in) for a finished game to be rated."""

MODEL = PlackettLuce()
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma

WHY_UNRATED = (
    "anonymous_seat",
    "fewer_than_two_identities",
    "host_seed",
    "no_clock",
    "same_player_in_two_seats",
    "pair_limit",
    "aborted",
    "seat_did_not_play",
    "unrated_tournament",
)
"""The reasons a game is not rated (``pair_limit`` is only known at the end;
``unrated_tournament``: a round game of a tournament created with ``rated: false``)."""


@dataclass(frozen=True, slots=True)
class Rating:
    subject: str
    game_type: str
    mu: float = START_MU
    sigma: float = START_SIGMA
    games: int = 0
    anchored: int = 0
    """Rated games with an established opponent at the table (``ESTABLISHED_GAMES``)."""

    @property
    def established(self) -> bool:
        """A bot level, or a player who played ``ESTABLISHED_GAMES`` rated games against
        established opponents: it ranks above the others and only they move its rating."""
        return self.subject.startswith(BOT_PREFIX) or self.anchored >= ESTABLISHED_GAMES

    @property
    def display(self) -> float:
        """The conservative value shown and ranked by: mean minus three uncertainties."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One subject's rating after one rated game: the rating history, one row per game."""

    game_id: str
    seat: int
    rank: int
    before: Rating
    after: Rating
    at: datetime


@dataclass(frozen=True, slots=True)
class SeatResult:
    """How a player's seat ended a finished game: its rank and whether it stayed to the end."""

    player_id: str
    game_id: str
    game_type: str
    seat: int
    rank: int
    outcome: str
    """"finished", "resigned" or "timed_out" (forfeited, or a bot still stood in at the end)."""
    rated: bool
    at: datetime


@dataclass(frozen=True, slots=True)
class Finishing:
    """A player's reputation for finishing games (BGA's): counts over finished games."""

    finished: int = 0
    resigned: int = 0
    timed_out: int = 0

    @property
    def games(self) -> int:
        return self.finished + self.resigned + self.timed_out

    @property
    def rate(self) -> float | None:
        return self.finished / self.games if self.games else None


def subject_of(seat: Seat) -> str | None:
    """Whose rating a seat plays for: a bot level, the player identity, or nobody (anonymous)."""
    if seat.bot is not None:
        return BOT_PREFIX + seat.bot
    return seat.player_id


def why_unrated(match: Match) -> list[str]:
    """What keeps the game from being rated, from the match alone (empty: rated). In the lobby
    the seats are not all taken: "fewer_than_two_identities" goes away as identities join."""
    reasons: list[str] = []
    if match.status is MatchStatus.ABORTED:
        reasons.append("aborted")
    if any(seat.bot is None and seat.player_id is None for seat in match.seats):
        reasons.append("anonymous_seat")
    people = [seat.player_id for seat in match.seats if seat.bot is None and seat.player_id]
    subjects = {subject_of(seat) for seat in match.seats} - {None}
    if len(subjects) < 2 or not people:
        reasons.append("fewer_than_two_identities")
    if len(people) != len(set(people)):
        reasons.append("same_player_in_two_seats")
    if match.seed_mode != SEED_MODE_SERVER:
        reasons.append("host_seed")
    if not match.timing.settings.runs:
        reasons.append("no_clock")
    if match.status is MatchStatus.FINISHED and not took_part(match):
        reasons.append("seat_did_not_play")
    return reasons


def took_part(match: Match) -> bool:
    """Every person's seat made ``MIN_OWN_DECISIONS`` of its own: a seat that resigned or was
    played by its stand-in from the start never played, so the game proves nothing about anyone
    (free identities that resign at once cannot feed an opponent's rating)."""
    return all(
        seat.decisions is None or seat.decisions >= MIN_OWN_DECISIONS
        for seat in match.seats
        if seat.bot is None
    )


def unrated_reasons(
    match: Match, rated_at_end: bool | None = None, unrated_tournament: bool = False
) -> list[str]:
    """``why_unrated``, and for a finished game the decision stored at its end
    (``rated_at_end``, None: not known): a game the pair limit left unrated says so.
    ``unrated_tournament``: the game is a round of a tournament that is not rated."""
    reasons = why_unrated(match)
    if unrated_tournament:
        reasons.append("unrated_tournament")
    if match.status is MatchStatus.FINISHED and rated_at_end is False and not reasons:
        reasons.append("pair_limit")
    return reasons


def ranks(match: Match) -> list[int]:
    """Rank per seat (1 is best, ties share a rank): winners, then by score; quitters last."""
    result = match.result or {}
    scores = _numbers(result.get("scores")) or [0] * len(match.seats)
    winners = set(_numbers(result.get("winners")))
    keys = [(seat.has_quit, seat.index not in winners, -scores[seat.index]) for seat in match.seats]
    ordered = sorted(set(keys))
    return [ordered.index(key) + 1 for key in keys]


def _numbers(value: JSON) -> list[int]:
    """A list of numbers of ``Match.result`` (its scores, its winners), position for position."""
    if not isinstance(value, list):
        return []
    return [int(v) if isinstance(v, int | float) else 0 for v in value]


def outcome_of(seat: Seat) -> str:
    if seat.stand_in == "resigned":
        return "resigned"
    if seat.stand_in in ("forfeited", "timeout"):
        return "timed_out"
    return "finished"


def rate(
    game_id: str,
    game_type: str,
    seats: Sequence[tuple[int, str, int]],
    known: dict[str, Rating],
    at: datetime,
) -> list[RatingChange]:
    """New ratings for ``(seat, subject, rank)`` entries, one team per seat. A subject in several
    seats (a bot level) is an opponent at each but gets no change of its own. An established
    player's change is computed among the established seats only (none: no change); everyone
    else's among all seats (see the module's rules)."""
    befores = {subject: known.get(subject) or Rating(subject, game_type) for _, subject, _ in seats}
    established = {subject for subject, before in befores.items() if before.established}
    everyone = _rated(seats, befores)
    anchors = [entry for entry in seats if entry[1] in established]
    among_established = _rated(anchors, befores) if len({s for _, s, _ in anchors}) >= 2 else {}
    counts = [subject for _, subject, _ in seats]
    changes: list[RatingChange] = []
    for seat, subject, rank in seats:
        if counts.count(subject) > 1:
            continue
        before = befores[subject]
        if before.established and not subject.startswith(BOT_PREFIX):
            if seat not in among_established:
                continue  # only newcomers at the table: they carry no weight over it
            mu, sigma = among_established[seat]
        else:
            mu, sigma = everyone[seat]
        anchored = before.anchored + any(other != subject and other in established for other in counts)
        after = Rating(subject, game_type, mu, sigma, before.games + 1, anchored)
        changes.append(RatingChange(game_id, seat, rank, before, after, at))
    return changes


def _rated(
    seats: Sequence[tuple[int, str, int]], befores: dict[str, Rating]
) -> dict[int, tuple[float, float]]:
    """OpenSkill's update of these seats as one free-for-all: the new (mu, sigma) per seat."""
    teams = [[MODEL.create_rating([befores[s].mu, befores[s].sigma], name=s)] for _, s, _ in seats]
    rated = MODEL.rate(teams, ranks=[float(rank) for _, _, rank in seats])
    return {seat: (team[0].mu, team[0].sigma) for (seat, _, _), team in zip(seats, rated, strict=True)}
