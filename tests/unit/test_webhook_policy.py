"""Webhook retry policy and target guard, pure (the guard gets a fake resolver)."""

from __future__ import annotations

import ipaddress
import random
from datetime import UTC, datetime, timedelta

import pytest

from domain.errors import WebhookTargetRefused
from domain.services.webhooks import RetryPolicy, new_secret
from persistence.outbound.webhook_sender import TargetGuard, embedded_ipv4

T0 = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def test_retries_back_off_exponentially_with_jitter_up_to_a_cap() -> None:
    policy = RetryPolicy(base_seconds=5, max_seconds=600, give_up_after=timedelta(hours=6))
    rng = random.Random(1)
    for attempts, full in [(1, 5), (2, 10), (3, 20), (8, 600), (30, 600)]:
        moment = policy.next_attempt(attempts, T0, T0, rng)
        assert moment is not None
        delay = (moment - T0).total_seconds()
        assert full * 0.5 <= delay <= full


def test_retries_stop_once_the_give_up_time_is_reached() -> None:
    policy = RetryPolicy(base_seconds=60, max_seconds=3600, give_up_after=timedelta(hours=6))
    rng = random.Random(2)
    assert policy.next_attempt(3, T0, T0 + timedelta(hours=5), rng) is not None
    assert policy.next_attempt(3, T0, T0 + timedelta(hours=6), rng) is None


def test_secrets_follow_the_standard_webhooks_format() -> None:
    secret = new_secret()
    assert secret.startswith("whsec_") and len(secret) == 6 + 44
    assert new_secret() != secret


def resolver_to(*addresses: str):  # type: ignore[no-untyped-def]
    return lambda host, port: list(addresses)


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.1.2.3",
        "172.16.0.5",
        "192.168.1.1",
        "169.254.169.254",  # cloud metadata
        "100.64.0.1",  # shared address space
        "0.0.0.0",
        "::1",
        "fe80::1",
        "fd00:ec2::254",
        "::ffff:127.0.0.1",
        "224.0.0.1",
    ],
)
def test_non_public_targets_are_refused_by_default(address: str) -> None:
    guard = TargetGuard(allow_private=False, resolver=resolver_to(address))
    with pytest.raises(WebhookTargetRefused, match="non-public address"):
        guard("https://hooks.example/tabletop")


def test_a_name_that_resolves_to_one_private_address_among_public_ones_is_refused() -> None:
    guard = TargetGuard(allow_private=False, resolver=resolver_to("93.184.216.34", "10.0.0.1"))
    with pytest.raises(WebhookTargetRefused):
        guard("https://hooks.example/x")


def test_public_targets_pass_and_the_setting_allows_private_ones() -> None:
    TargetGuard(False, resolver_to("93.184.216.34", "2606:2800:220:1::1"))("https://hooks.example/")
    TargetGuard(True, resolver_to("127.0.0.1"))("http://127.0.0.1:9999/hook")


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("ftp://hooks.example/", "http:// or https://"),
        ("/relative", "http:// or https://"),
        ("https://user:pw@hooks.example/", "credentials"),
        ("https://hooks.example:99999/", "invalid port"),
    ],
)
def test_malformed_targets_are_refused_with_a_reason(url: str, message: str) -> None:
    with pytest.raises(WebhookTargetRefused, match=message):
        TargetGuard(False, resolver_to("93.184.216.34"))(url)


def test_a_name_that_does_not_resolve_is_refused() -> None:
    def failing(host: str, port: int) -> list[str]:
        raise OSError("no such host")

    with pytest.raises(WebhookTargetRefused, match="does not resolve"):
        TargetGuard(False, failing)("https://nowhere.example/")


@pytest.mark.parametrize(
    ("address", "embedded", "refused"),
    [
        ("::127.0.0.1", "127.0.0.1", True),  # IPv4-compatible
        ("::10.0.0.1", "10.0.0.1", True),
        ("::8.8.8.8", "8.8.8.8", True),  # the prefix itself is refused
        ("::ffff:169.254.169.254", "169.254.169.254", True),  # IPv4-mapped
        ("::ffff:8.8.8.8", "8.8.8.8", True),
        ("64:ff9b::127.0.0.1", "127.0.0.1", True),  # NAT64, well-known prefix
        ("64:ff9b::192.168.1.1", "192.168.1.1", True),
        ("64:ff9b::8.8.8.8", "8.8.8.8", True),
        ("64:ff9b:1:7f00:0:100::", "127.0.0.1", True),  # NAT64, local-use /48 (RFC 6052)
        ("64:ff9b:1:a9fe:a9:fe00::", "169.254.169.254", True),
        ("2002:7f00:1::1", "127.0.0.1", True),  # 6to4
        ("2002:a9fe:a9fe::1", "169.254.169.254", True),
        ("2002:808:808::1", "8.8.8.8", True),
        ("2606:4700::5efe:7f00:1", "127.0.0.1", True),  # ISATAP interface id, public prefix
        ("2606:4700::200:5efe:a00:1", "10.0.0.1", True),
        ("2606:4700::5efe:808:808", "8.8.8.8", False),
        ("2606:4700::1111", None, False),
        ("2a00:1450:4001:82b::200e", None, False),
    ],
)
def test_ipv6_forms_that_carry_an_ipv4_address_are_refused(
    address: str, embedded: str | None, refused: bool
) -> None:
    ip = ipaddress.IPv6Address(address)
    assert embedded_ipv4(ip) == (ipaddress.IPv4Address(embedded) if embedded else None)
    guard = TargetGuard(allow_private=False, resolver=resolver_to(address))
    if refused:
        with pytest.raises(WebhookTargetRefused, match="non-public address"):
            guard("https://hooks.example/tabletop")
    else:
        assert guard.checked_address("https://hooks.example/tabletop") == address


def test_an_ipv4_compatible_literal_in_the_url_is_refused_with_the_real_resolver() -> None:
    with pytest.raises(WebhookTargetRefused, match="non-public address"):
        TargetGuard(allow_private=False)("http://[::127.0.0.1]/")
