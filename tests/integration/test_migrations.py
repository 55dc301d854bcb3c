"""Migrations create exactly the schema the table models describe, and startup checks them."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, text

from persistence.database import create_db_engine, describe
from persistence.errors import DatabaseNotMigrated
from persistence.migrate import current_revisions, ensure_migrated, head_revisions, migrate
from persistence.tables import metadata


def test_a_migrated_database_matches_the_table_models_exactly(db_engine: Engine) -> None:
    with db_engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        differences = compare_metadata(context, metadata)
    assert differences == []


def test_a_migrated_database_passes_the_startup_check(db_engine: Engine) -> None:
    ensure_migrated(db_engine)
    assert current_revisions(db_engine) == head_revisions()


def test_migrating_twice_changes_nothing(db_engine: Engine) -> None:
    migrate(db_engine)
    ensure_migrated(db_engine)


def test_an_empty_database_is_refused_with_the_command_to_run(tmp_path: object) -> None:
    db_engine = create_db_engine(f"sqlite:///{tmp_path}/empty.db")
    try:
        with pytest.raises(DatabaseNotMigrated) as refused:
            ensure_migrated(db_engine)
        message = str(refused.value)
        assert "empty.db is not migrated" in message
        assert "no revision" in message
        assert "run `python -m api migrate`" in message

        migrate(f"sqlite:///{tmp_path}/empty.db")
        ensure_migrated(db_engine)
    finally:
        db_engine.dispose()


def test_a_database_at_an_unknown_revision_is_refused(db_engine: Engine) -> None:
    with db_engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = 'from_the_future'"))
    with pytest.raises(DatabaseNotMigrated, match="it is at from_the_future"):
        ensure_migrated(db_engine)
    with db_engine.begin() as connection:
        connection.execute(
            text("UPDATE alembic_version SET version_num = :head"),
            {"head": next(iter(head_revisions()))},
        )


def test_the_refusal_never_shows_the_database_password() -> None:
    db_engine = create_db_engine("postgresql://app:s3cret@db.invalid/tabletop")
    assert describe(db_engine) == "postgresql+psycopg://app:***@db.invalid/tabletop"
    db_engine.dispose()


def test_seat_counts_are_backfilled_for_games_stored_before_them(tmp_path: object) -> None:
    from alembic import command

    from persistence.migrate import alembic_config

    db_engine = create_db_engine(f"sqlite:///{tmp_path}/old.db")
    try:
        with db_engine.begin() as connection:
            config = alembic_config()
            config.attributes["connection"] = connection
            command.upgrade(config, "0004_idempotent_create_and_join")
            connection.execute(
                text(
                    "INSERT INTO games (id, game_type, options, seed, seed_commitment, seed_mode, "
                    "private, host_token_hash, status, seats, version, sealed, last_seq, "
                    "created_at, updated_at) VALUES ('old', 'duel', '{}', 's', 'c', 'host', 0, "
                    "'h', 'in_progress', :seats, 3, '{}', 3, '2026-01-01', '2026-01-01')"
                ),
                {
                    "seats": '[{"index": 0, "name": "a", "token_hash": "t", "bot": null},'
                    ' {"index": 1, "name": "b", "token_hash": "u", "bot": "random"},'
                    ' {"index": 2, "name": "c", "token_hash": "v", "bot": "greedy"}]'
                },
            )
        migrate(db_engine)
        with db_engine.connect() as connection:
            counts = connection.execute(text("SELECT bot_seats, human_seats FROM games")).one()
        assert tuple(counts) == (2, 1)
    finally:
        db_engine.dispose()


def test_decision_versions_and_lobby_facts_are_backfilled(tmp_path: object) -> None:
    """Games stored before 0011: a decision counts as put at the current version, and the seat
    limit and awaited seats come from the stored game."""
    import json

    from alembic import command

    from domain.model.seeding import rng_for_seed
    from domain.registry import default_registry
    from persistence.migrate import alembic_config

    engine = default_registry().get("im-schutze-der-burg")
    options = engine.meta.resolve_options({})
    state, _ = engine.setup(3, options, rng_for_seed("old"))
    decision = engine.decision(state)
    assert decision is not None and 0 in decision.seats
    db_engine = create_db_engine(f"sqlite:///{tmp_path}/old.db")
    insert = text(
        "INSERT INTO games (id, game_type, options, seed, seed_commitment, seed_mode, private, "
        "host_token_hash, status, seats, bot_seats, human_seats, version, state, sealed, last_seq, "
        "created_at, updated_at) VALUES (:id, 'im-schutze-der-burg', :options, 's', 'c', 'host', 0,"
        " 'h', :status, :seats, 0, :humans, 7, :state, :sealed, 7, '2026-01-01', '2026-01-01')"
    )
    seats = [{"index": i, "name": n, "token_hash": n, "bot": None} for i, n in enumerate("abc")]
    try:
        with db_engine.begin() as connection:
            config = alembic_config()
            config.attributes["connection"] = connection
            command.upgrade(config, "0010_game_choices")
            connection.execute(
                insert,
                {
                    "id": "playing",
                    "options": json.dumps(options),
                    "status": "in_progress",
                    "seats": json.dumps(seats),
                    "humans": 3,
                    "state": json.dumps(engine.dump(state)),
                    "sealed": json.dumps({"0": {"card": "x"}}),
                },
            )
            connection.execute(
                insert,
                {
                    "id": "lobby",
                    "options": json.dumps(options),
                    "status": "lobby",
                    "seats": json.dumps(seats[:1]),
                    "humans": 1,
                    "state": None,
                    "sealed": "{}",
                },
            )
        migrate(db_engine)
        with db_engine.connect() as connection:
            rows = {
                row.id: row
                for row in connection.execute(
                    text("SELECT id, decision_version, max_players, awaited_seats FROM games")
                )
            }
        assert rows["playing"].decision_version == 7 == rows["lobby"].decision_version
        assert rows["playing"].max_players == rows["lobby"].max_players == 4
        assert json.loads(rows["playing"].awaited_seats) == [s for s in decision.seats if s != 0]
        assert json.loads(rows["lobby"].awaited_seats) == []
    finally:
        db_engine.dispose()


def test_chat_mutes_and_hides_move_from_seat_numbers_to_the_people_seated(tmp_path: object) -> None:
    """0018: a mute or hide stored by seat number names the person on that seat from then on."""
    import json

    from alembic import command

    from persistence.migrate import alembic_config

    db_engine = create_db_engine(f"sqlite:///{tmp_path}/old.db")
    seats = [
        {"index": 0, "name": "a", "token_hash": "ta", "bot": None, "player_id": "pa"},
        {"index": 1, "name": "b", "token_hash": "tb", "bot": None, "address_hash": "hb"},
        {"index": 2, "name": "c", "token_hash": "tc", "bot": None},
    ]
    try:
        with db_engine.begin() as connection:
            config = alembic_config()
            config.attributes["connection"] = connection
            command.upgrade(config, "0017_tournaments")
            connection.execute(
                text(
                    "INSERT INTO games (id, game_type, options, seed, seed_commitment, seed_mode, "
                    "private, host_token_hash, status, seats, bot_seats, human_seats, version, state, "
                    "sealed, last_seq, created_at, updated_at, decision_version, max_players) VALUES "
                    "('g', 'duel', '{}', 's', 'c', 'host', 0, 'h', 'lobby', :seats, 0, 3, 1, NULL, "
                    "'{}', 1, '2026-01-01', '2026-01-01', 1, 4)"
                ),
                {"seats": json.dumps(seats)},
            )
            connection.execute(text("INSERT INTO chat_mutes (game_id, seat) VALUES ('g', 1), ('g', 2)"))
            connection.execute(text("INSERT INTO chat_hides (game_id, seat, target) VALUES ('g', 0, 1)"))
        migrate(db_engine)
        with db_engine.connect() as connection:
            muted = {row.person for row in connection.execute(text("SELECT person FROM chat_mutes"))}
            hidden = {tuple(row) for row in connection.execute(text("SELECT hider, target FROM chat_hides"))}
        assert muted == {"address:hb", "token:tc"}
        assert hidden == {("player:pa", "address:hb")}
    finally:
        db_engine.dispose()
