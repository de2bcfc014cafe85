"""Planted candidates: implementations that misbehave outside the algorithms
-- crash the interpreter, exit, print, tamper with the judge or with their inputs, leave
children behind, exhaust memory. Each is the reference with one function replaced;
tests/properties/judge/test_isolation.py runs them through `python -m properties check`, `crosscheck` and
the pytest route and requires a named failing result (or, for the one that only prints,
passing results with its output attached), the other checks run, exit 1, valid JSON."""
