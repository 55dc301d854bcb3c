"""Driving tournaments through the real services: players who register, take the seat tokens of
their round games (as a client does, with the player token) and play each game to its end."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.model.match import MatchStatus
from domain.services.bundle import Services
from domain.services.players import PlayerService
from domain.services.tournaments import TournamentService, TournamentSettings
from domain.tournaments.tournament import Tournament

CLOCK = {"mode": "per_decision", "seconds": 600}


@dataclass
class Club:
    """Services for games, players and tournaments over one store, and the players' tokens."""

    services: Services
    players: PlayerService
    tournaments: TournamentService
    tokens: dict[str, str] = field(default_factory=dict)
    """Player id -> player token."""

    def join(self, name: str) -> str:
        created = self.players.create(name)
        self.tokens[created.player.id] = created.token
        return created.player.id

    def create(self, fmt: str = "swiss", **given: object) -> tuple[Tournament, str]:
        settings = TournamentSettings(
            name=str(given.pop("name", "Club night")),
            game_type=str(given.pop("game_type", "duel")),
            format=fmt,
            options=given.pop("options", {"rounds": 1}),  # type: ignore[arg-type]
            clock=given.pop("clock", CLOCK),  # type: ignore[arg-type]
            **given,  # type: ignore[arg-type]
        )
        created = self.tournaments.create(settings)
        return created.tournament, created.host_token

    def play_game(self, game_id: str, first_choice: bool = True) -> None:
        """Every seat plays a legal choice (the first one listed, or the last) until the game ends;
        seats a bot plays (a resigned one) are left to the bot."""
        seat_tokens: dict[int, str] = {}
        for _ in range(200):
            match = self.services.core.load(game_id)
            if match.status is not MatchStatus.IN_PROGRESS:
                return
            played = False
            for seat in sorted(match.awaited_seats()):
                if match.seats[seat].plays_itself or seat in match.sealed:
                    continue
                player = match.seats[seat].player_id
                assert player is not None
                if seat not in seat_tokens:
                    joined = self.players.reissue_seat_token(self.tokens[player], game_id, seat)
                    assert joined.token is not None
                    seat_tokens[seat] = joined.token
                _, legal = match.choices_for(seat)
                choice = legal[0] if first_choice else legal[-1]
                self.services.play.submit(game_id, seat_tokens[seat], choice)
                played = True
                break
            if not played and not self.services.play.play_bot_turn(game_id):
                raise AssertionError(f"game {game_id} is stuck")
        raise AssertionError(f"game {game_id} did not end")

    def play_round(self, tournament_id: str) -> Tournament:
        """Play every unfinished game of the current round."""
        tournament = self.tournaments.get(tournament_id)
        for table in tournament.tables:
            if table.round == tournament.current_round and table.ranks is None:
                self.play_game(table.game_id, first_choice=table.number % 2 == 1)
        return self.tournaments.get(tournament_id)
