"""GraphQL take-backs: a seat takes back its latest decision (or asks), the seats asked answer."""

from __future__ import annotations

import strawberry
from strawberry import ID
from strawberry.types import Info

from api.graphql.common import attempt, container_of, token_of
from api.graphql.games import Game, GameOrProblem, game_of
from api.rest.models.games import changed_game


@strawberry.type
class TakeBackMutation:
    @strawberry.mutation(
        description="Take back the token's seat's latest decision if nothing hidden was revealed "
        "since: at once when nobody else decided since, else the seats a person plays that did "
        "are asked (`takebacks.request`)."
    )
    async def request_takeback(self, info: Info, game_id: ID) -> GameOrProblem:
        container, token = container_of(info), token_of(info)

        def request() -> Game:
            match = container.takebacks.request(game_id, token)
            return game_of(changed_game(container.core, container.presence, match, token))

        return await attempt(request)

    @strawberry.mutation(
        description="Accept or refuse the take-back the token's seat is asked about; the last "
        "acceptance takes the decision back."
    )
    async def answer_takeback(self, info: Info, game_id: ID, accept: bool) -> GameOrProblem:
        container, token = container_of(info), token_of(info)

        def answer() -> Game:
            match = container.takebacks.answer(game_id, token, accept)
            return game_of(changed_game(container.core, container.presence, match, token))

        return await attempt(answer)
