"""Sends the notices' outbox: Web Push (VAPID, ``pywebpush``) and e-mail (``smtplib``).

One sender thread per instance leases each due delivery from the database
(``NoticeRepository.claim``: ``FOR UPDATE SKIP LOCKED`` while the lease is written, so two
instances never take the same one), sends it on a small pool of threads (both libraries block:
none of this runs on the server's event loop), then records the attempt under that lease. A
failure is tried again with growing delays (``RetryPolicy``) until the notice is stale; a push
service that answers 404 or 410 says the browser's subscription is gone: it is removed with its
other notices. A crash between sending and recording sends the notice again when the lease runs
out: the push message carries the delivery's ``Topic`` and the notification its ``tag`` (a second
copy replaces the first on the device), the e-mail its ``Message-ID``.

A push endpoint is an address a browser chose: it is checked like a webhook URL
(``TargetGuard``: no loopback, private, link-local... unless ``push_allow_private_targets``)
when registered and again before every request.
"""

from __future__ import annotations

import base64
import json
import logging
import random
import smtplib
import ssl
import threading
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid  # type: ignore[import-untyped]
from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]

from domain.errors import WebhookTargetRefused
from domain.model.notice_texts import email_body, notice_text
from domain.model.notices import ClaimedNotice
from domain.ports.unit_of_work import UnitOfWorkFactory
from domain.services.notices import opt_out_token
from domain.services.webhooks import RetryPolicy
from persistence.outbound.leasing import lease_for, now

log = logging.getLogger("tabletop.notices")


@dataclass(frozen=True, slots=True)
class Outcome:
    sent: bool
    error: str | None = None
    gone: bool = False
    """The target no longer exists (a push subscription the push service forgot)."""
    permanent: bool = False
    """Trying again cannot help (a mail server refused the address for good)."""


def vapid_key(private_key: str) -> Any:
    """The VAPID key of ``TABLETOP_VAPID_PRIVATE_KEY`` (base64url raw 32 bytes or DER)."""
    return Vapid.from_string(private_key=private_key)


def public_key_of(key: Any) -> str:
    """The application server key browsers subscribe with: the uncompressed P-256 point, base64url."""
    raw = key.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def new_vapid_keys() -> tuple[str, str]:
    """A fresh VAPID key pair: the private key (base64url of its 32 raw bytes) and the public key."""
    key = Vapid()
    key.generate_keys()
    number = key.private_key.private_numbers().private_value.to_bytes(32, "big")
    return base64.urlsafe_b64encode(number).decode().rstrip("="), public_key_of(key)


class PushChannel:
    """Web Push with VAPID (RFC 8030, 8291, 8292), the payload encrypted as aes128gcm."""

    def __init__(
        self, private_key: str, subject: str, ttl_seconds: int, guard: Callable[[str], object], timeout: float
    ) -> None:
        self.key = vapid_key(private_key)
        self.public_key = public_key_of(self.key)
        self.subject = subject
        self.ttl_seconds = ttl_seconds
        self.guard = guard
        self.timeout = timeout

    def send(self, notice: ClaimedNotice, message: dict[str, Any]) -> Outcome:
        subscription = notice.subscription
        assert subscription is not None
        try:
            self.guard(subscription.endpoint)
        except WebhookTargetRefused as refused:
            return Outcome(False, refused.message, permanent=True)
        try:
            webpush(
                {
                    "endpoint": subscription.endpoint,
                    "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
                },
                data=json.dumps(message, separators=(",", ":")),
                vapid_private_key=self.key,
                vapid_claims={"sub": self.subject},  # a fresh dict: webpush adds aud and exp to it
                ttl=self.ttl_seconds,
                timeout=self.timeout,
                headers={"Urgency": "high", "Topic": f"notice{notice.id}"},
            )
        except WebPushException as failed:
            status = failed.response.status_code if failed.response is not None else None
            if status in (404, 410):
                return Outcome(False, f"the push service says the subscription is gone ({status})", gone=True)
            if status is not None and 400 <= status < 500 and status not in (408, 425, 429):
                return Outcome(False, f"the push service refused it ({status})", permanent=True)
            return Outcome(False, f"push failed: {status or failed.message}"[:255])
        except OSError as failed:  # requests' ConnectionError and Timeout are OSErrors
            return Outcome(False, f"{type(failed).__name__}: {failed}"[:255])
        return Outcome(True)


class MailChannel:
    """E-mail through an SMTP server (``smtplib``), one connection per message."""

    def __init__(
        self,
        host: str,
        port: int,
        tls: str,
        username: str | None,
        password: str | None,
        sender: str,
        timeout: float,
    ) -> None:
        self.host = host
        self.port = port
        self.tls = tls
        self.username = username
        self.password = password
        self.sender = sender
        self.timeout = timeout

    def send(self, message: EmailMessage) -> Outcome:
        try:
            if self.tls == "tls":
                client: smtplib.SMTP = smtplib.SMTP_SSL(
                    self.host, self.port, timeout=self.timeout, context=ssl.create_default_context()
                )
            else:
                client = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
            with client:
                if self.tls == "starttls":
                    client.starttls(context=ssl.create_default_context())
                if self.username:
                    client.login(self.username, self.password or "")
                client.send_message(message)
        except smtplib.SMTPRecipientsRefused as refused:
            codes = [code for code, _ in refused.recipients.values()]
            return Outcome(
                False,
                f"the mail server refused the address ({codes})",
                permanent=all(c >= 500 for c in codes),
            )
        except (smtplib.SMTPException, OSError) as failed:
            return Outcome(False, f"{type(failed).__name__}: {failed}"[:255])
        return Outcome(True)


GameName = Callable[[str, str], str]
"""The name of a game type in a language."""


class NoticeSender:
    """Sends due notices, ``concurrency`` at a time, each attempt bounded by ``timeout_seconds``."""

    def __init__(
        self,
        uow: UnitOfWorkFactory,
        policy: RetryPolicy,
        game_name: GameName,
        public_url: str | None,
        push: PushChannel | None,
        mail: MailChannel | None,
        poll_seconds: float,
        timeout_seconds: float,
        concurrency: int = 4,
    ) -> None:
        self.uow = uow
        self.policy = policy
        self.game_name = game_name
        self.public_url = (public_url or "").rstrip("/")
        self.push = push
        self.mail = mail
        self.poll_seconds = poll_seconds
        self.lease = lease_for(timeout_seconds)
        self.concurrency = concurrency
        self.owner = uuid.uuid4().hex
        self._rng = random.Random()
        self._stop = threading.Event()
        self._free = threading.Semaphore(concurrency)
        self._thread: threading.Thread | None = None
        self._pool: ThreadPoolExecutor | None = None

    def start(self) -> None:
        self._stop.clear()
        self._pool = ThreadPoolExecutor(self.concurrency, thread_name_prefix="notice-send")
        self._thread = threading.Thread(target=self._run, name="notice-sender", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 15.0) -> None:
        """Stop claiming; attempts in flight finish (each within its timeout)."""
        if self._thread is not None:
            self._stop.set()
            self._thread.join(timeout)
            self._thread = None
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None

    def _run(self) -> None:
        while not self._stop.is_set():
            while not self._stop.is_set() and self._free.acquire(timeout=self.poll_seconds):
                try:
                    claimed = self._claim()
                except Exception:
                    self._free.release()
                    log.exception("notice sender failed to claim; retrying at the next poll")
                    break
                if claimed is None:
                    self._free.release()
                    break
                assert self._pool is not None
                self._pool.submit(self._deliver, claimed)
            self._stop.wait(self.poll_seconds)

    def _claim(self) -> ClaimedNotice | None:
        with self.uow() as uow:
            claimed = uow.notices.claim(now(), self.lease, self.owner)
            uow.commit()
        return claimed

    def _deliver(self, notice: ClaimedNotice) -> None:
        try:
            outcome = self.attempt(notice)
            next_at = None
            if not outcome.sent and not outcome.gone and not outcome.permanent:
                next_at = self.policy.next_attempt(notice.attempts + 1, notice.created_at, now(), self._rng)
            with self.uow() as uow:
                recorded = uow.notices.record(
                    notice.id, self.owner, outcome.sent, next_at, outcome.error, now()
                )
                if recorded and outcome.gone and notice.subscription is not None:
                    uow.notices.remove_subscription(notice.subscription.id)
                uow.commit()
            if not outcome.sent:
                log.info("notice %s (%s) not sent: %s", notice.id, notice.channel, outcome.error)
        except Exception:
            log.exception("notice %s failed; its lease runs out and it is sent again", notice.id)
        finally:
            self._free.release()

    def game_url(self, notice: ClaimedNotice) -> str:
        """The web client's link that opens the seat on any device of the player."""
        return f"{self.public_url}/play/#/mine/{notice.game_id}/{notice.seat}"

    def attempt(self, notice: ClaimedNotice) -> Outcome:
        game_type = str(notice.payload.get("game_type", ""))
        name = self.game_name(game_type, notice.language)
        if notice.channel == "push" and self.push is not None:
            text = notice_text(notice.kind, notice.language, name)
            message = {
                "title": text.title,
                "body": text.body,
                "url": self.game_url(notice),
                "tag": f"tabletop-{notice.game_id}-{notice.kind}",
                "lang": notice.language,
                **notice.payload,
            }
            return self.push.send(notice, message)
        if notice.channel == "email" and self.mail is not None and notice.email is not None:
            return self.mail.send(self.email_message(notice, name))
        return Outcome(False, f"this instance does not send on {notice.channel}")

    def email_message(self, notice: ClaimedNotice, name: str) -> EmailMessage:
        contact = notice.email
        assert contact is not None and self.mail is not None
        opt_out = f"{self.public_url}/notices/opt-out/{opt_out_token(contact)}"
        text = email_body(notice.kind, notice.language, name, self.game_url(notice), opt_out)
        message = EmailMessage()
        message["From"] = self.mail.sender
        message["To"] = contact.email
        message["Subject"] = text.title
        message["Date"] = formatdate(localtime=False)
        message["Message-ID"] = (
            f"<notice-{notice.id}.{notice.created_at.timestamp():.0f}@{_domain(self.public_url)}>"
        )
        message["Content-Language"] = notice.language
        message["Auto-Submitted"] = "auto-generated"
        message["List-Unsubscribe"] = f"<{opt_out}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        message.set_content(text.body)
        return message


def _domain(url: str) -> str:
    return urlsplit(url).hostname or "localhost"
