"""Table talk over REST: seats write, everyone at the table reads, the host mutes, a seat hides
another for itself, phrases arrive in the reader's language, and the game never notices."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from domain.model.chat import BURST, MAX_MESSAGE_LENGTH
from tests.support.client import player, seated_game
from tests.support.http import auth


def chat(client: TestClient, game_id: str, token: str | None = None, **params: Any) -> dict[str, Any]:
    answer = client.get(f"/v1/games/{game_id}/chat", params=params, headers=auth(token) if token else {})
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def say(client: TestClient, game_id: str, token: str, **body: Any) -> Any:
    return client.post(f"/v1/games/{game_id}/chat", json=body, headers=auth(token))


def test_seats_write_and_every_reader_sees_the_messages_in_order(client: TestClient) -> None:
    game, tokens = seated_game(client, players=3)
    gid = game["id"]
    first = say(client, gid, tokens[0], text="  hello   table ")
    assert first.status_code == 201, first.text
    assert first.json()["seq"] == 1 and first.json()["text"] == "hello table"
    assert client.get(first.headers["location"]).json()["entries"] == [first.json()]
    assert say(client, gid, tokens[2], text="<script>alert(1)</script>").json()["seq"] == 2

    for token in (tokens[1], game["host_token"], None):
        page = chat(client, gid, token)
        assert [(e["seq"], e["seat"], e["text"]) for e in page["entries"]] == [
            (1, 0, "hello table"),
            (2, 2, "<script>alert(1)</script>"),
        ]
        assert page["last_seq"] == 2
    assert chat(client, gid, tokens[1])["can_write"] is True
    assert chat(client, gid)["can_write"] is False and chat(client, gid)["seat"] is None
    assert [e["seq"] for e in chat(client, gid, after=1)["entries"]] == [2]


def test_spectators_and_the_host_only_read(client: TestClient) -> None:
    game, _ = seated_game(client)
    gid = game["id"]
    spectator = client.post(f"/v1/games/{gid}/chat", json={"text": "hi"})
    assert spectator.status_code == 401 and spectator.json()["code"] == "unauthorized"
    host = say(client, gid, game["host_token"], text="hi")
    assert host.status_code == 403 and host.json()["code"] == "forbidden"
    foreign = say(client, gid, "not-a-token", text="hi")
    assert foreign.status_code == 401


def test_chat_changes_neither_the_game_version_nor_its_events(client: TestClient) -> None:
    game, tokens = seated_game(client)
    gid = game["id"]
    before = client.get(f"/v1/games/{gid}", headers=auth(tokens[0])).json()
    events = client.get(f"/v1/games/{gid}/events").json()
    etag = client.get(f"/v1/games/{gid}").headers["etag"]
    assert say(client, gid, tokens[0], phrase="good_luck").status_code == 201
    assert client.put(f"/v1/games/{gid}/chat/mutes/1", headers=auth(game["host_token"])).status_code == 200
    assert client.put(f"/v1/games/{gid}/chat/hidden/1", headers=auth(tokens[0])).status_code == 200
    after = client.get(f"/v1/games/{gid}", headers=auth(tokens[0])).json()
    assert after["version"] == before["version"]
    assert client.get(f"/v1/games/{gid}/events").json() == events
    assert client.get(f"/v1/games/{gid}", headers={"If-None-Match": etag}).status_code == 304


def test_hostile_text_is_refused_with_a_translated_problem(client: TestClient) -> None:
    game, tokens = seated_game(client)
    gid = game["id"]
    hostile = [
        "\u202eevil",  # right-to-left override
        "a\u2066b",  # isolate
        "line\nforged",  # newline
        "x" + "\u200b" * 50,  # zero-width flood
        "\u3164",  # blank filler
        "x" * (MAX_MESSAGE_LENGTH + 1),
        "   ",
    ]
    for text in hostile:
        answer = say(client, gid, tokens[0], text=text)
        assert answer.status_code == 422, (text, answer.text)
        assert answer.json()["code"] == "invalid_chat_message", text
    german = client.post(
        f"/v1/games/{gid}/chat", json={"text": "\u202e"}, headers={**auth(tokens[0]), "Accept-Language": "de"}
    )
    assert german.json()["detail"].startswith("Diese Chatnachricht")
    both = say(client, gid, tokens[0], text="hi", phrase="hello")
    assert both.json()["code"] == "invalid_chat_message"
    unknown = say(client, gid, tokens[0], phrase="insult")
    assert unknown.status_code == 422
    assert chat(client, gid)["entries"] == []
    family = say(client, gid, tokens[0], text="\U0001f468\u200d\U0001f469\u200d\U0001f467 e\u0301")
    assert (
        family.status_code == 201
        and family.json()["text"] == "\U0001f468\u200d\U0001f469\u200d\U0001f467 \u00e9"
    )


def test_phrases_are_rendered_in_each_readers_language(client: TestClient) -> None:
    game, tokens = seated_game(client)
    gid = game["id"]
    assert say(client, gid, tokens[0], phrase="good_game").json()["text"] == "Good game!"
    texts = {lang: chat(client, gid, lang=lang)["entries"][0]["text"] for lang in ("en", "de", "fr", "es")}
    assert texts == {
        "en": "Good game!",
        "de": "Gutes Spiel!",
        "fr": "Bonne partie !",
        "es": "¡Buena partida!",
    }
    assert chat(client, gid, lang="de")["entries"][0]["phrase"] == "good_game"


def test_a_seat_writing_too_fast_waits(client: TestClient) -> None:
    game, tokens = seated_game(client)
    gid = game["id"]
    for i in range(BURST):
        assert say(client, gid, tokens[0], text=f"m{i}").status_code == 201
    refused = say(client, gid, tokens[0], text="one more")
    assert refused.status_code == 429 and refused.json()["code"] == "chat_rate_limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 10
    assert say(client, gid, tokens[1], text="another seat's own budget").status_code == 201


def test_the_host_mutes_and_unmutes_a_seat_and_everyone_sees_it(client: TestClient) -> None:
    game, tokens = seated_game(client, identities=True)
    gid, host = game["id"], auth(game["host_token"])
    assert client.put(f"/v1/games/{gid}/chat/mutes/1", headers=auth(tokens[0])).json()["code"] == "forbidden"
    assert client.put(f"/v1/games/{gid}/chat/mutes/9", headers=host).json()["code"] == "seat_not_found"
    muted = client.put(f"/v1/games/{gid}/chat/mutes/1", headers=host)
    assert muted.json() == {"muted": [1], "hidden": []}
    assert client.put(f"/v1/games/{gid}/chat/mutes/1", headers=host).status_code == 200  # idempotent
    refused = say(client, gid, tokens[1], text="let me speak")
    assert refused.status_code == 403 and refused.json()["code"] == "chat_muted"
    assert chat(client, gid, tokens[1])["can_write"] is False
    assert client.delete(f"/v1/games/{gid}/chat/mutes/1", headers=host).json()["muted"] == []
    assert say(client, gid, tokens[1], text="thanks").status_code == 201
    kinds = [(e["kind"], e["target"]) for e in chat(client, gid)["entries"]]
    assert kinds == [("muted", 1), ("unmuted", 1), ("message", None)]


def test_a_seat_hides_another_for_itself_only(client: TestClient) -> None:
    game, tokens = seated_game(client, players=3, identities=True)
    gid = game["id"]
    say(client, gid, tokens[1], text="spam")
    say(client, gid, tokens[2], text="hello")
    hidden = client.put(f"/v1/games/{gid}/chat/hidden/1", headers=auth(tokens[0]))
    assert hidden.json() == {"muted": [], "hidden": [1]}
    say(client, gid, tokens[1], text="more spam")
    mine = chat(client, gid, tokens[0])
    assert [e["text"] for e in mine["entries"] if e["kind"] == "message"] == ["hello"]
    assert mine["hidden"] == [1] and mine["last_seq"] == 4
    others = chat(client, gid, tokens[2])
    assert [e["text"] for e in others["entries"]] == ["spam", "hello", "more spam"]  # no hide entry
    assert [e["text"] for e in chat(client, gid)["entries"]] == ["spam", "hello", "more spam"]
    self_hide = client.put(f"/v1/games/{gid}/chat/hidden/0", headers=auth(tokens[0]))
    assert self_hide.json()["code"] == "forbidden"
    client.delete(f"/v1/games/{gid}/chat/hidden/1", headers=auth(tokens[0]))
    again = chat(client, gid, tokens[0])
    assert [e["text"] for e in again["entries"] if e["kind"] == "message"] == ["spam", "hello", "more spam"]


def test_chat_stays_open_after_the_game_ends_and_pages_resume(client: TestClient) -> None:
    game, tokens = seated_game(client)
    gid = game["id"]
    assert client.post(f"/v1/games/{gid}/resign", headers=auth(tokens[1])).status_code == 200
    assert say(client, gid, tokens[1], phrase="good_game").status_code == 201  # resigned: still a person
    for i in range(3):
        say(client, gid, tokens[0], text=f"n{i}")
    first = chat(client, gid, limit=2)
    assert [e["seq"] for e in first["entries"]] == [1, 2] and first["last_seq"] == 2
    rest = chat(client, gid, after=first["last_seq"], limit=2)
    assert [e["seq"] for e in rest["entries"]] == [3, 4]
    assert chat(client, gid, after=4)["entries"] == []


def test_a_mute_holds_for_the_person_who_leaves_and_joins_again_not_for_the_newcomer(
    client: TestClient,
) -> None:
    """Seats move up in a lobby when one leaves: the mute stays with the muted player identity
    (back with a new seat), not with the number it had; a bot seat cannot be muted."""
    game = client.post("/v1/games", json={"type": "duel"}).json()
    gid, host = game["id"], auth(game["host_token"])
    ids = [player(client, name) for name in ("Ann", "Bob", "Cid")]
    seats = [
        client.post(f"/v1/games/{gid}/seats", json={}, headers=auth(p["token"])).json()["token"] for p in ids
    ]
    assert client.put(f"/v1/games/{gid}/chat/mutes/1", headers=host).json()["muted"] == [1]
    assert client.delete(f"/v1/games/{gid}/seats/1", headers=auth(seats[1])).status_code == 200
    assert say(client, gid, seats[2], text="I am seat 1 now").status_code == 201
    assert chat(client, gid)["muted"] == []
    back = client.post(f"/v1/games/{gid}/seats", json={}, headers=auth(ids[1]["token"])).json()
    assert back["seat"] == 2
    assert say(client, gid, back["token"], text="still me").json()["code"] == "chat_muted"
    assert chat(client, gid)["muted"] == [2]
    assert client.delete(f"/v1/games/{gid}/seats/0", headers=host).status_code == 200
    assert client.post(f"/v1/games/{gid}/seats", json={"bot": "random"}, headers=host).status_code == 201
    assert client.put(f"/v1/games/{gid}/chat/mutes/2", headers=host).json()["code"] == "forbidden"
