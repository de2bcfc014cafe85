"""Legitimate variants of the reference: each must pass the checks that judge what it changes."""
