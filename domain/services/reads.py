"""Reading a game's record: its events as a viewer may see them, and its whole history."""

from __future__ import annotations

from domain.model.match import RecordedEvent, ShownEvent
from domain.services.core import ServiceCore, Viewer


class ReadService:
    def __init__(self, core: ServiceCore) -> None:
        self.core = core

    def events(
        self, game_id: str, token: str | None, after: int, limit: int
    ) -> tuple[Viewer, list[ShownEvent]]:
        viewer, _, events = self.events_of_game(game_id, token, after, limit)
        return viewer, events

    def events_of_game(
        self, game_id: str, token: str | None, after: int, limit: int
    ) -> tuple[Viewer, str, list[ShownEvent]]:
        """``events`` with the game's type (which tells a client how to read each event)."""
        with self.core.uow() as uow:
            match = uow.games.get(game_id)
            viewer = self.core.viewer(match, token)
            events = uow.games.events(game_id, after, limit)
        return viewer, match.game_type, [event.for_viewer(viewer.seat) for event in events]

    def history(self, game_id: str, after: int, limit: int) -> list[RecordedEvent]:
        with self.core.uow() as uow:
            return uow.games.events(game_id, after, limit)
