"""A group's shared live answer is encoded with orjson: the same JSON as ``json`` would write,
compact, non-ASCII as UTF-8 text (a websocket text frame), and what orjson refuses still encodes."""

from __future__ import annotations

import json

from api.graphql.fanout import SharedData


def test_the_shared_payload_reads_back_as_the_data_it_was_made_from() -> None:
    data = {"gameEvents": {"seq": 3, "type": "placed", "data": {"name": "Zoë 🎲", "at": [1, -2]}}}
    shared = SharedData(data)
    assert json.loads(shared.payload) == {"data": data}
    assert "Zoë 🎲" in shared.payload and " " not in shared.payload.replace("Zoë 🎲", "")


def test_a_next_message_splices_an_id_that_needs_escaping() -> None:
    shared = SharedData({"gameEvents": {"seq": 1}})
    message = json.loads(shared.next_message('op "1"\\'))
    assert message == {"id": 'op "1"\\', "type": "next", "payload": {"data": {"gameEvents": {"seq": 1}}}}


def test_an_integer_beyond_64_bits_still_encodes() -> None:
    shared = SharedData({"big": 2**70})
    assert json.loads(shared.payload) == {"data": {"big": 2**70}}
