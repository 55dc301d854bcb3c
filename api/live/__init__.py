"""Live streams of a game: its events and its chat, history first then live, behind GraphQL
subscriptions and Server-Sent Events."""
