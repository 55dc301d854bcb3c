"""Use cases, by resource: load, call the aggregate, commit, then publish. They orchestrate; they
never decide a rule.

- ``core``: the ports, viewer resolution, save / commit hooks and retries every use case shares;
- ``lobby``: creating games, the lobby list, counts;
- ``seats``: joining, leaving, starting, aborting, resigning, host changes;
- ``play``: pending choices, submits, bots' turns;
- ``reads``: a game's events and history;
- ``decisions``: a seat's pending decision as clients read it;
- ``bundle``: the resource services built together on one core (the composition root's helper).
"""
