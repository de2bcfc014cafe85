"""Deliberately broken copies of the reference ("mutants"), each a named textual patch
of the `reference` package that the property suite must catch (tests/teeth/test_broken_caught.py)."""

from .mutants import MUTANTS, Mutant, build, copy_reference, patched_source

__all__ = ["MUTANTS", "Mutant", "build", "copy_reference", "patched_source"]
