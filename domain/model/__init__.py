"""The model: the match aggregate and the rules and values around it (clocks, lobby, chat, ratings,
webhooks and their outbox, players, presence, names, seeds, tokens, idempotency). It imports no
port and no service."""
