"""What the tests share: the repository's root (every test that runs a command or reads a page
starts from it) and, in this package's modules, the samplers, report samples, scale records, the
pair oracle, the Redis server the tests start and the repository's import graph (imports.py)."""

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
