"""What tests share: the test game, fakes of the ports, the real databases, servers and clients,
game set-ups, problem assertions and ``eventually``. The only part of ``tests`` a test module (or
``bench/``) imports: test modules never import each other (``tests/unit/test_test_imports.py``)."""
