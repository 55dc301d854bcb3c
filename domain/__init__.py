"""Pure domain: game engines, the match aggregate, ports and use cases. Standard library only."""
