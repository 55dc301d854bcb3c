"""The hot-path JSON (orjson) reads and writes what ``json`` did: stored rows stay readable both ways."""

from __future__ import annotations

import json
import math

from persistence import fast_json


def test_what_it_writes_json_reads_the_same_and_the_other_way_round() -> None:
    value = {"seats": [{"name": "Zoë", "score": 3}], "sealed": {0: {"card": 1}}, "ratio": 0.5, "x": None}
    as_json = json.loads(json.dumps(value))  # int keys become strings, as stored before
    assert json.loads(fast_json.dumps(value)) == as_json
    assert fast_json.loads(json.dumps(value)) == as_json
    assert fast_json.loads(json.dumps(value, ensure_ascii=False).encode()) == as_json


def test_what_orjson_refuses_still_goes_through_json() -> None:
    huge = {"n": 2**70}
    assert fast_json.loads(fast_json.dumps(huge)) == huge
    assert math.isnan(fast_json.loads('{"n": NaN}')["n"])  # json's NaN token is still read
