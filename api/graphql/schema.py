"""The served GraphQL schema's root types, assembled from one module per resource.

Each resource module (game types, games, seats, play, take-backs, players, ratings, tournaments,
webhooks, subscriptions) holds its types and its root fields; the root types here only combine them.
Expected failures are union results carrying a ``Problem`` with the same ``code`` as REST;
resolvers call the same use cases and reuse the REST mappings, so both APIs say the same thing.
"""

from __future__ import annotations

import strawberry

from api.graphql.chat import ChatMutation, ChatQuery, ChatSubscription
from api.graphql.game_types import GameTypeQuery
from api.graphql.games import GameMutation, GameQuery
from api.graphql.play import PlayMutation, PlayQuery
from api.graphql.players import PlayerMutation, PlayerQuery
from api.graphql.ratings import RatingQuery
from api.graphql.seats import SeatMutation
from api.graphql.subscriptions import Subscription as GameSubscription
from api.graphql.takebacks import TakeBackMutation
from api.graphql.tournaments import TournamentMutation, TournamentQuery, TournamentSubscription
from api.graphql.webhooks import WebhookMutation, WebhookQuery


@strawberry.type
class Query(
    TournamentQuery, RatingQuery, ChatQuery, WebhookQuery, PlayerQuery, PlayQuery, GameQuery, GameTypeQuery
):
    """Every read: its fields come from the resource modules (listed last to first)."""


@strawberry.type
class Mutation(
    TournamentMutation,
    TakeBackMutation,
    PlayMutation,
    GameMutation,
    SeatMutation,
    PlayerMutation,
    WebhookMutation,
    ChatMutation,
):
    """Every change."""


@strawberry.type
class Subscription(TournamentSubscription, ChatSubscription, GameSubscription):
    """Every live stream: a game's events, its chat beside them, and a tournament's events."""


schema = strawberry.Schema(query=Query, mutation=Mutation, subscription=Subscription)

__all__ = ["Mutation", "Query", "Subscription", "schema"]
