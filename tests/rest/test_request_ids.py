"""Request ids made without a ``uuid4`` per request (``api.edge.middleware.fresh_request_id``)."""

from __future__ import annotations

import os

from api.edge.middleware import VALID_REQUEST_ID, fresh_request_id


def test_fresh_request_ids_are_unique_and_valid() -> None:
    ids = {fresh_request_id() for _ in range(10_000)}
    assert len(ids) == 10_000
    assert all(VALID_REQUEST_ID.fullmatch(i) for i in ids)


def test_a_forked_process_numbers_its_requests_under_a_prefix_of_its_own() -> None:
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        os.write(write, fresh_request_id()[:16].encode())
        os._exit(0)
    os.waitpid(child, 0)
    assert os.read(read, 16).decode() != fresh_request_id()[:16]
