"""Pure domain: game engines, the match aggregate, ports and use cases (see ``domain/README.md``)."""
