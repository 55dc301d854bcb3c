"""The model: the match aggregate and the values around it (clocks, lobby, chat, ratings, webhooks,
seeds, tokens)."""
