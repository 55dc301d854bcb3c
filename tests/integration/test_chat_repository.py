"""The chat on real databases: concurrent writers get a gap-free sequence, two writers that read
the same last ``seq`` both land (the loser tries again), entries are published after commit."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from types import TracebackType
from typing import Any, Self

import pytest
from sqlalchemy import Engine

from domain.errors import ChatFull, ChatMuted, ChatRateLimited
from domain.model.chat import BURST, ChatEntry, chat_channel
from domain.registry import EngineRegistry
from domain.services.bundle import Services
from domain.services.chat import ChatService
from persistence.database import create_db_engine
from persistence.uow import SqlUnitOfWork, SqlUnitOfWorkFactory
from tests.support.duel_play import game_service, start_duel
from tests.support.fakes import FakePublisher, FixedClock

pytestmark = pytest.mark.timeout(60)


def chat_service(
    uow_factory: Any, registry: EngineRegistry, units: Any = None
) -> tuple[ChatService, Any, Services]:
    games = game_service(uow_factory, registry)
    publisher = FakePublisher()
    return ChatService(games.core, units or uow_factory, publisher, FixedClock()), publisher, games


def test_concurrent_posts_get_one_gap_free_sequence_and_are_published_once(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    chat, publisher, games = chat_service(uow_factory, registry)
    duel = start_duel(games, players=3)
    version = games.core.load(duel.game_id).version
    posts = [(token, f"{seat}-{n}") for seat, token in enumerate(duel.tokens) for n in range(BURST)]
    with ThreadPoolExecutor(max_workers=6) as pool:
        entries = list(pool.map(lambda post: chat.post(duel.game_id, post[0], post[1], None), posts))
    assert sorted(e.seq for e in entries) == list(range(1, len(posts) + 1))
    stored = chat.entries(duel.game_id, 0, 100)
    assert [e.seq for e in stored] == list(range(1, len(posts) + 1))
    assert sorted(e.text or "" for e in stored) == sorted(text for _, text in posts)
    published = [event.seq for game_id, events in publisher.published for event in events]
    assert sorted(published) == list(range(1, len(posts) + 1))
    assert {game_id for game_id, _ in publisher.published} == {chat_channel(duel.game_id)}
    with pytest.raises(ChatRateLimited):  # each seat spent its burst (the clock stands still)
        chat.post(duel.game_id, duel.tokens[0], "one more", None)
    assert games.core.load(duel.game_id).version == version  # talking never moves the game


class GatedChat:
    """The first ``parties`` writers take no lock and read the next ``seq`` after waiting for each
    other, so they all read the same one (two writers meeting); later attempts are normal."""

    def __init__(self, inner: Any, barrier: threading.Barrier, left: list[int], lock: threading.Lock) -> None:
        self._inner, self._barrier = inner, barrier
        with lock:
            self._gated = left[0] > 0
            left[0] -= 1

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def lock(self, game_id: str) -> None:
        if not self._gated:
            self._inner.lock(game_id)

    def next_seq(self, game_id: str) -> int:
        if not self._gated:
            seq: int = self._inner.next_seq(game_id)
            return seq
        seq = self._inner.last_seq(game_id) + 1  # past the writers' lock: both read the same
        self._barrier.wait()
        return seq


class GatedUnits:
    def __init__(self, inner: SqlUnitOfWorkFactory, parties: int) -> None:
        self.inner = inner
        self.barrier = threading.Barrier(parties, timeout=10)
        self.left = [parties]
        self.lock = threading.Lock()

    def __call__(self) -> GatedUnitOfWork:
        return GatedUnitOfWork(self.inner(), self)


class GatedUnitOfWork:
    def __init__(self, inner: SqlUnitOfWork, units: GatedUnits) -> None:
        self.inner = inner
        self.units = units

    def __enter__(self) -> Self:
        self.inner.__enter__()
        self.games = self.inner.games
        self.chat = GatedChat(self.inner.chat, self.units.barrier, self.units.left, self.units.lock)
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.inner.__exit__(exc_type, exc, tb)

    def commit(self) -> None:
        self.inner.commit()


@pytest.mark.postgres
def test_two_writers_that_read_the_same_next_seq_both_land(
    postgres_engine: Engine, registry: EngineRegistry
) -> None:
    """Should two writers ever read the same next ``seq`` (the lock bypassed here), the primary key
    admits one and the other tries again and gets 2: nothing lost, no gap, no error."""
    factory = SqlUnitOfWorkFactory(postgres_engine, registry)
    chat, publisher, games = chat_service(factory, registry, GatedUnits(factory, 2))
    duel = start_duel(games)
    with ThreadPoolExecutor(max_workers=2) as pool:
        written = list(
            pool.map(lambda seat: chat.post(duel.game_id, duel.tokens[seat], f"s{seat}", None), (0, 1))
        )
    assert sorted(e.seq for e in written) == [1, 2]
    stored: list[ChatEntry] = chat.entries(duel.game_id, 0, 10)
    assert [(e.seq, e.text) for e in stored] == sorted((e.seq, e.text) for e in written)
    assert sorted(event.seq for _, events in publisher.published for event in events) == [1, 2]


def test_simultaneous_posts_of_one_seat_keep_the_rate_rule(
    db_engine: Engine, registry: EngineRegistry
) -> None:
    """20 posts of one seat sent at once through two servers on one database: exactly ``BURST``
    are stored, the rest answer ``ChatRateLimited`` (the window is counted under the chat's lock)."""
    first, second = db_engine, create_db_engine(db_engine.url)
    try:
        chats = [
            chat_service(SqlUnitOfWorkFactory(engine, registry), registry)[0] for engine in (first, second)
        ]
        games = game_service(SqlUnitOfWorkFactory(first, registry), registry)
        duel = start_duel(games)
        gate = threading.Barrier(20, timeout=20)

        def post(n: int) -> str:
            gate.wait()
            try:
                chats[n % 2].post(duel.game_id, duel.tokens[0], f"burst {n}", None)
            except ChatRateLimited:
                return "refused"
            return "stored"

        with ThreadPoolExecutor(max_workers=20) as pool:
            answers = list(pool.map(post, range(20)))
        assert answers.count("stored") == BURST
        assert answers.count("refused") == 20 - BURST
        assert len(chats[0].entries(duel.game_id, 0, 100)) == BURST
    finally:
        second.dispose()


def test_a_full_chat_stores_nothing_more_and_hides_count_in_the_rate_rule(
    db_engine: Engine, registry: EngineRegistry
) -> None:
    factory = SqlUnitOfWorkFactory(db_engine, registry)
    games = game_service(factory, registry)
    chat = ChatService(games.core, factory, FakePublisher(), FixedClock(), max_entries=BURST + 1)
    duel = start_duel(games, players=3)
    for n in range(BURST - 1):
        chat.post(duel.game_id, duel.tokens[0], f"line {n}", None)
    chat.hide(duel.game_id, duel.tokens[0], 1, True)  # the seat's fifth entry in the window
    with pytest.raises(ChatRateLimited):
        chat.hide(duel.game_id, duel.tokens[0], 1, False)
    chat.post(duel.game_id, duel.tokens[1], "the last one", None)
    with pytest.raises(ChatFull):
        chat.post(duel.game_id, duel.tokens[2], "one too many", None)
    with pytest.raises(ChatFull):
        chat.mute(duel.game_id, duel.host_token, 0, True)
    assert [e.seq for e in chat.entries(duel.game_id, 0, 100)] == list(range(1, BURST + 2))


def test_mutes_and_hides_follow_the_person_not_the_seat_number(
    db_engine: Engine, registry: EngineRegistry
) -> None:
    """In the lobby seats move up when one leaves: a muted person who leaves and joins again is
    still muted, and whoever takes the old number is not; a hide follows its target the same way."""
    factory = SqlUnitOfWorkFactory(db_engine, registry)
    chat, _, games = chat_service(factory, registry)
    created = games.lobby.create_game("duel", {"rounds": 2}, seed="integration-seed")
    gid, host = created.match.id, created.host_token

    def join(name: str, address: str) -> str:
        token = games.seats.join(gid, name, address=address).token
        assert token is not None
        return token

    ann, bob, cid = join("Ann", "10.0.0.1"), join("Bob", "10.0.0.2"), join("Cid", "10.0.0.3")
    assert chat.mute(gid, host, 1, True).muted == frozenset({1})  # Bob
    assert chat.hide(gid, ann, 2, True).hidden == frozenset({2})  # Ann hides Cid
    games.seats.remove_seat(gid, 1, bob)  # Cid moves up to seat 1
    assert chat.post(gid, cid, "not muted", None).seat == 1
    state = chat.state(gid, chat.reader(games.core.load(gid), ann))
    assert state.muted == frozenset() and state.hidden == frozenset({1})  # Cid, now seat 1
    bob = join("Bob again", "10.0.0.2")  # seat 2, the same person
    with pytest.raises(ChatMuted):
        chat.post(gid, bob, "muted still", None)
    state = chat.state(gid, chat.reader(games.core.load(gid), ann))
    assert state.muted == frozenset({2}) and state.hidden == frozenset({1})
    games.seats.remove_seat(gid, 1, cid)  # Bob moves up to seat 1, Cid gone
    state = chat.state(gid, chat.reader(games.core.load(gid), ann))
    assert state.muted == frozenset({1}) and state.hidden == frozenset()
    assert chat.mute(gid, host, 1, False).muted == frozenset()
    assert chat.post(gid, bob, "unmuted", None).seat == 1
    join("Cid again", "10.0.0.3")
    state = chat.state(gid, chat.reader(games.core.load(gid), ann))
    assert state.hidden == frozenset({2})
