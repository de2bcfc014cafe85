"""Legitimate variants of the reference: different choices where the paper leaves one open."""
