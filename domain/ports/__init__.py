"""Ports: what the use cases need from the outside world, one module per concern. Adapters live in
``persistence/``; the composition root (``api/bootstrap.py``) plugs them in.

A port module holds ``Protocol``s and what exists only to carry a port's answer (a listing's
record, the exception an adapter raises); the entities the services hand to a port are the
model's (``domain/model``). Nothing is re-exported here: import each port from its module.
"""
