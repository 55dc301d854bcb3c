"""A webhook request goes to the address its target check approved (no DNS rebinding).

A receiver on 127.0.0.1 stands for the inside of the network. The name ``localhost`` answers a
public address to the check (a fake resolver), while the system resolver would send the request
to the receiver: the sender must connect to the checked address, never resolve the name again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from domain.model.webhooks import Attempt, ClaimedDelivery
from domain.services.webhooks import RetryPolicy, new_secret
from persistence.outbound.webhook_sender import TargetGuard, WebhookSender, pinned
from tests.support.fakes import FakeRepository, FakeUnitOfWork
from tests.support.webhooks import Receiver, running_receiver

pytestmark = pytest.mark.timeout(30)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with running_receiver() as server:
        yield server


def delivery(url: str) -> ClaimedDelivery:
    now = datetime.now(UTC)
    return ClaimedDelivery(1, "msg_1", "ep", url, new_secret(), '{"type":"ping"}', 0, now)


def sender(guard: TargetGuard) -> WebhookSender:
    policy = RetryPolicy(1.0, 10.0, timedelta(hours=1))
    unused_storage = FakeUnitOfWork(FakeRepository())  # attempt sends only; it records nothing
    return WebhookSender(lambda: unused_storage, guard.checked_address, policy, 1.0, 1024, 1.0)


def attempt_now(webhooks: WebhookSender, claimed: ClaimedDelivery) -> Attempt:
    async def once() -> Attempt:
        async with webhooks.client() as client:
            return await webhooks.attempt(client, claimed)

    return asyncio.run(once())


def test_a_name_rebound_to_the_inside_after_the_check_is_not_followed(receiver: Receiver) -> None:
    port = receiver.server_address[1]
    guard = TargetGuard(False, resolver=lambda host, _: ["93.184.216.34"])  # a public answer
    guard(f"http://localhost:{port}/hook")  # registered: the check saw a public address
    attempt = attempt_now(sender(guard), delivery(f"http://localhost:{port}/hook"))
    assert receiver.hosts == []  # the system resolver's 127.0.0.1 was never used
    assert attempt.status_code is None and attempt.error


def test_the_pinned_request_keeps_the_name_in_the_host_header(receiver: Receiver) -> None:
    port = receiver.server_address[1]
    url, headers, extensions = pinned(f"http://localhost:{port}/hook?x=1", "127.0.0.1")
    assert url == f"http://127.0.0.1:{port}/hook?x=1" and extensions == {}
    response = httpx.post(url, headers=headers, content=b"{}", trust_env=False)
    assert response.status_code == 204
    assert receiver.hosts == [f"localhost:{port}"]


def test_https_keeps_the_name_for_tls_and_ipv6_addresses_are_bracketed() -> None:
    url, headers, extensions = pinned("https://hooks.example/in", "2606:2800:220:1::1")
    assert url == "https://[2606:2800:220:1::1]/in"
    assert headers == {"host": "hooks.example"}
    assert extensions == {"sni_hostname": "hooks.example"}
    assert pinned("http://h.example:8080/", None) == ("http://h.example:8080/", {}, {})
