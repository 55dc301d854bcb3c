"""Use cases, by resource: load, call the aggregate, commit, then publish. They orchestrate; they
never decide a rule.

- ``core``: the ports, viewer resolution, save / commit hooks and retries every use case shares;
- ``bundle``: the resource services built together on one core (the composition root's helper);
- ``lobby``, ``seating``, ``seats``: creating and listing games, taking a seat, the seats' changes;
- ``play``, ``decisions``: pending choices, submits, bots' turns; a seat's pending decision as
  clients read it;
- ``reads``, ``replay``: a game's events and history; a finished game at any event;
- ``players``, ``presence``, ``rematch``, ``standing``, ``chat``, ``webhooks``: the resources of
  the same names (``standing`` also records ratings and results at a game's end);
- ``outbox``, ``deadlines``: the webhook deliveries written with each change; clocks and old
  lobbies fired from the database;
- ``samples``, ``verification``: random games for the JSON Schemas; replaying a game of bots from
  its revealed seed.
"""
