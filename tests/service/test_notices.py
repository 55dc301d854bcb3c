"""Notices with fakes: which change writes which notice for whom, in its own transaction; a seat
with an open page gets none; subscriptions, the address and its opt-out link."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from domain.errors import (
    InvalidEmail,
    InvalidPushSubscription,
    NoticesOff,
    PushSubscriptionNotFound,
    Unauthorized,
)
from domain.i18n import LANGUAGES
from domain.model.notice_texts import OPT_OUT_PAGE, OPTED_OUT, TEXTS, UNKNOWN_LINK, email_body, notice_text
from domain.model.notices import MAX_SUBSCRIPTIONS_PER_PLAYER, PushSubscription, valid_email
from domain.registry import EngineRegistry
from domain.services.bundle import Services
from domain.services.notices import NoticeService, opt_out_token
from domain.services.players import PlayerService
from domain.services.presence import PresenceService
from domain.services.rematch import RematchService
from tests.support.duel_game import DuelEngine
from tests.support.duel_play import person_token
from tests.support.fake_notices import FakeNoticeRepository
from tests.support.fakes import FakePublisher, FakeRepository, FakeUnitOfWork, ManualClock

KEY = "B" + "A" * 86  # 65 bytes in base64url, the first one 0x04 (an uncompressed point)
AUTH = "A" * 22  # 16 bytes


@dataclasses.dataclass
class World:
    service: Services
    store: FakeRepository
    players: PlayerService
    notices: NoticeService


def world(channels: frozenset[str] = frozenset({"push", "email"})) -> World:
    store = FakeRepository()
    store.notices = FakeNoticeRepository(channels)
    service = Services.build(
        lambda: FakeUnitOfWork(store), EngineRegistry([DuelEngine()]), FakePublisher(), ManualClock()
    )
    players = PlayerService(service.core, service.seats)
    notices = NoticeService(service.core, players.authenticate, channels, lambda _: None)
    return World(service, store, players, notices)


@pytest.fixture
def w() -> World:
    return world()


def subscribe(w: World, token: str, endpoint: str = "https://push.example.org/a", lang: str = "de") -> str:
    return w.notices.subscribe(token, endpoint, KEY, AUTH, lang).id


def written(w: World) -> list[tuple[str, str, str, int]]:
    """(channel, kind, player, seat) of every notice written, in order."""
    return [
        (d.new.target.channel, d.new.notice.kind, d.new.notice.player_id, d.new.notice.seat)
        for d in w.store.notices.deliveries
    ]


def duel(w: World, ann: str, bea: str) -> tuple[str, str, list[str]]:
    created = w.service.lobby.create_game("duel", {"rounds": 1}, "seed")
    game_id = created.match.id
    tokens = [
        person_token(w.players.join(game_id, ann, None)),
        person_token(w.players.join(game_id, bea, None)),
    ]
    return game_id, created.host_token, tokens


def test_a_turn_and_the_end_are_told_to_a_closed_seat_on_each_of_its_targets(w: World) -> None:
    ann, bea = w.players.create("Ann"), w.players.create("Bea")
    subscribe(w, bea.token)
    w.notices.set_email(bea.token, "bea@example.org", "de")
    game_id, host, tokens = duel(w, ann.token, bea.token)
    presence = PresenceService(w.service.core, "instance", timedelta(seconds=30))
    w.service.seats.start(game_id, host)
    bea_id = bea.player.id
    assert written(w) == [("push", "your_turn", bea_id, 1), ("email", "your_turn", bea_id, 1)]
    assert w.store.notices.deliveries[0].new.target.language == "de"

    page = presence.connect(game_id, 1)  # Bea's page is open from here on
    w.service.play.submit(game_id, tokens[0], {"card": 3})
    w.service.play.submit(game_id, tokens[1], {"card": 2})
    assert len(written(w)) == 2
    presence.disconnect(page)
    w.service.play.submit(game_id, tokens[0], {"action": "pass"})  # Ann banks or passes: the end
    assert w.service.core.load(game_id).status.value == "finished"
    assert written(w)[2:] == [("push", "game_over", bea_id, 1), ("email", "game_over", bea_id, 1)]


def test_an_open_page_at_the_moment_of_the_notice_gets_none(w: World) -> None:
    ann, bea = w.players.create("Ann"), w.players.create("Bea")
    subscribe(w, ann.token, "https://push.example.org/ann")
    subscribe(w, bea.token)
    game_id, host, _ = duel(w, ann.token, bea.token)
    PresenceService(w.service.core, "instance", timedelta(seconds=30)).connect(game_id, 1)
    w.service.seats.start(game_id, host)
    assert written(w) == [("push", "your_turn", ann.player.id, 0)]


def test_nothing_is_written_on_a_channel_the_server_does_not_send_on() -> None:
    w = world(frozenset({"email"}))
    ann, bea = w.players.create("Ann"), w.players.create("Bea")
    with pytest.raises(NoticesOff):
        subscribe(w, bea.token)
    # A subscription stored while push was on stays, but nothing is written for it now.
    w.store.notices.add_subscription(
        PushSubscription("old", bea.player.id, "https://p.example.org/x", KEY, AUTH, "en", datetime.now(UTC))
    )
    w.notices.set_email(bea.token, "bea@example.org", "en")
    game_id, host, _ = duel(w, ann.token, bea.token)
    w.service.seats.start(game_id, host)
    assert written(w) == [("email", "your_turn", bea.player.id, 1)]


def test_a_rematch_offers_each_held_seat_and_not_the_one_that_asked(w: World) -> None:
    ann, bea = w.players.create("Ann"), w.players.create("Bea")
    subscribe(w, ann.token, "https://push.example.org/ann")
    subscribe(w, bea.token)
    game_id, host, tokens = duel(w, ann.token, bea.token)
    w.service.seats.start(game_id, host)
    w.service.play.submit(game_id, tokens[0], {"card": 3})
    w.service.play.submit(game_id, tokens[1], {"card": 2})
    w.service.play.submit(game_id, tokens[0], {"action": "pass"})
    before = len(written(w))
    presence = PresenceService(w.service.core, "instance", timedelta(seconds=30))
    presence.connect(game_id, 0)  # Ann asks for the rematch from the end screen
    rematch = RematchService(w.service.core).create(game_id, tokens[0])
    assert written(w)[before:] == [("push", "rematch_offered", bea.player.id, 1)]
    assert w.store.notices.deliveries[-1].new.notice.game_id == rematch.match.id


def test_subscriptions_are_a_players_own_checked_and_bounded(w: World) -> None:
    bea, ann = w.players.create("Bea"), w.players.create("Ann")
    with pytest.raises(Unauthorized):
        subscribe(w, "not-a-player")
    with pytest.raises(InvalidPushSubscription):
        w.notices.subscribe(bea.token, "ftp://push.example.org/a", KEY, AUTH, "en")
    with pytest.raises(InvalidPushSubscription):
        w.notices.subscribe(bea.token, "https://push.example.org/a", "AAAA", AUTH, "en")
    with pytest.raises(InvalidPushSubscription):
        w.notices.subscribe(bea.token, "https://push.example.org/a", KEY, "AAAA", "en")
    first = subscribe(w, bea.token, "https://push.example.org/same")
    again = subscribe(w, bea.token, "https://push.example.org/same")  # the same browser again
    assert [s.id for s in w.notices.subscriptions(bea.token)] == [again] and again != first
    with pytest.raises(PushSubscriptionNotFound):
        w.notices.unsubscribe(ann.token, again)  # not Ann's
    for n in range(MAX_SUBSCRIPTIONS_PER_PLAYER + 2):
        subscribe(w, bea.token, f"https://push.example.org/{n}")
    kept = w.notices.subscriptions(bea.token)
    assert len(kept) == MAX_SUBSCRIPTIONS_PER_PLAYER and kept[-1].endpoint.endswith(f"/{n}")
    w.notices.unsubscribe(bea.token, kept[0].id)
    assert len(w.notices.subscriptions(bea.token)) == MAX_SUBSCRIPTIONS_PER_PLAYER - 1
    assert w.notices.subscribe(bea.token, "https://p.example.org/x", KEY, AUTH, "xx").language == "en"


def test_the_opt_out_link_is_signed_per_address_and_turns_mail_off(w: World) -> None:
    bea = w.players.create("Bea")
    with pytest.raises(InvalidEmail):
        w.notices.set_email(bea.token, "bea at example.org", "en")
    contact = w.notices.set_email(bea.token, " bea@example.org ", "fr")
    assert (contact.email, contact.language, contact.enabled) == ("bea@example.org", "fr", True)
    token = opt_out_token(contact)
    assert w.notices.opt_out_contact(token[:-2] + "xx") is None  # forged
    assert w.notices.opt_out_contact("nobody." + token.split(".")[1]) is None
    assert w.notices.opt_out(token) is not None
    email = w.notices.email(bea.token)
    assert email is not None and email.enabled is False
    # A new address: on again, and the old link no longer names it.
    renewed = w.notices.set_email(bea.token, "bea@example.net", "fr")
    assert renewed.enabled and w.notices.opt_out_contact(token) is None
    w.notices.remove_email(bea.token)
    assert w.notices.email(bea.token) is None


@pytest.mark.parametrize(
    ("address", "valid"),
    [
        ("bea@example.org", True),
        ("b.e+a@mail.example-one.org", True),
        ("bea@localhost", False),
        ("bea@@example.org", False),
        ("b ea@example.org", False),
        ("bea@-example.org", False),
        ("a" * 65 + "@example.org", False),
        ("bea@" + "e" * 250 + ".org", False),
    ],
)
def test_addresses(address: str, valid: bool) -> None:
    assert valid_email(address) is valid


def test_every_text_exists_in_every_language_and_names_the_game() -> None:
    for lang in LANGUAGES:
        assert set(TEXTS[lang]) == set(TEXTS["en"])
        assert lang in OPT_OUT_PAGE and lang in OPTED_OUT and lang in UNKNOWN_LINK
        for kind in ("your_turn", "game_over", "rematch_offered", "tournament_round"):
            assert "Carcassonne" in notice_text(kind, lang, "Carcassonne").body
        mail = email_body(
            "your_turn", lang, "Keythedral", "https://x/play/#/mine/g/1", "https://x/notices/opt-out/t"
        )
        assert "https://x/play/#/mine/g/1" in mail.body and "https://x/notices/opt-out/t" in mail.body
    assert notice_text("your_turn", "de", "Carcassonne").title == "Du bist am Zug"
