"""Correct, but prints debugging output on every call, to stdout and stderr (and at import)."""

import sys

import reference

print("chatty: imported")


def _chatty(name):
    function = getattr(reference, name)

    def wrapper(*args, **kwargs):
        print(f"chatty: {name} called")
        print(f"chatty: {name} debug line on stderr", file=sys.stderr)
        return function(*args, **kwargs)

    wrapper.__name__ = name
    return wrapper


passive = _chatty("passive")
robust_cal = _chatty("robust_cal")
calruption = _chatty("calruption")
calruption_epoch = _chatty("calruption_epoch")
catoni_root = _chatty("catoni_root")
