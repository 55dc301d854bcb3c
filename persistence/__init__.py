"""Adapters for the domain ports: SQL storage (SQLite, PostgreSQL), migrations, pub/sub, limit stores and
outbound requests. The composition root (``api.bootstrap``) builds them; nothing is created at import time."""
