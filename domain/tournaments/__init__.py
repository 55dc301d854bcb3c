"""Tournament rules, pure: who sits with whom each round (round-robin, Swiss, single elimination,
for tables of 2 to 5 seats), in which seat, and the standings with their stated tie-breaks.

Nothing here stores, schedules or plays a game: the tournament service feeds these functions the
entrants and the finished tables and acts on the pairing they return."""
