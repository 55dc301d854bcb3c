"""One package per game, each exporting its ``HostedGame`` manifest as ``GAME``; the hosted ones
are listed once, in ``domain.registry``."""
