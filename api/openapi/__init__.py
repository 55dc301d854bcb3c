"""The OpenAPI document's assembly: per-game schemas, the problems each operation answers, webhooks and
examples."""
