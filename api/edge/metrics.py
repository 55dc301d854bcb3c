"""Prometheus metrics, in a registry per app so several apps (tests, instances) never collide."""

from __future__ import annotations

from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

METHODS = frozenset(("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"))
"""Methods counted by name; any other a client sends is counted as ``other`` (bounded labels)."""


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "tabletop_http_requests_total",
            "HTTP requests by route template, method and status.",
            ["route", "method", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "tabletop_http_request_duration_seconds",
            "HTTP request latency by route template.",
            ["route"],
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
            registry=self.registry,
        )
        self.submits = Counter(
            "tabletop_submits_total",
            "Choices submitted, by result.",
            ["status"],
            registry=self.registry,
        )
        self.socket_submits = Counter(
            "tabletop_socket_submits_total",
            "submitChoice answered over a GraphQL websocket by the pre-resolved path.",
            registry=self.registry,
        )
        self.owner_forwards = Counter(
            "tabletop_owner_forwards_total",
            "Submits that reached this instance for a game another instance owns, by outcome.",
            ["outcome"],
            registry=self.registry,
        )
        self.reveals = Counter(
            "tabletop_reveals_total", "Simultaneous decisions revealed.", registry=self.registry
        )
        self.active_subscriptions = Gauge(
            "tabletop_active_subscriptions", "Open GraphQL subscriptions.", registry=self.registry
        )
        self.commit_batches = Histogram(
            "tabletop_commit_batch_works",
            "Submits and bot turns per group-commit transaction.",
            buckets=(1, 2, 4, 8, 16, 32, 64),
            registry=self.registry,
        )
        self.games = Gauge("tabletop_games", "Stored games by status.", ["status"], registry=self.registry)
        self._request_children: dict[tuple[str, str, int], tuple[Any, Any]] = {}

    def count_request(self, route: str, method: str, status: int, seconds: float) -> None:
        """One HTTP request. The label children are looked up once per (route, method, status),
        not per request (``labels()`` takes a lock and builds the label tuple each time)."""
        key = (route, method, status)
        children = self._request_children.get(key)
        if children is None:
            name = method if method in METHODS else "other"
            children = (self.requests.labels(route, name, str(status)), self.latency.labels(route))
            self._request_children[key] = children
        children[0].inc()
        children[1].observe(seconds)

    def count_batch(self, works: int) -> None:
        self.commit_batches.observe(works)

    def count_submit(self, status: str, event_types: list[str]) -> None:
        self.submits.labels(status).inc()
        reveals = event_types.count("reveal")
        if reveals:
            self.reveals.inc(reveals)
