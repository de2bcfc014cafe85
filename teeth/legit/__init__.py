"""Legitimate variants of the reference: different choices where the paper leaves one open; each must pass every check that judges what it changes."""
