"""Background threads of a server process: bots' turns, deadlines and presence, each calling a domain
service."""
