"""Forges the worker's reply frames (the worker is the candidate's own process, so it
can): which forgery is chosen by $CRAL_PLANTED_FORGE. The judge must refuse each as a
failing result ("sent a garbled reply" or a named failure), never crash or trust it."""

import json
import os

import properties.judge.worker as _worker
from reference import calruption, calruption_epoch, catoni_root, passive, robust_cal

_FORGERIES = {
    # a frame nested deeper than any JSON decoder's recursion
    "deep": lambda message: b"[" * 200_000 + b"]" * 200_000,
    # a failure whose values use the names of the judge's own parameters
    "values": lambda message: json.dumps(
        {"ok": False, "message": "x", "values": {"check": "y", "message": "z"}, "fatal": False}
    ).encode(),
    # a success with the wrong number of values, then one that is not an object
    "count": lambda message: json.dumps({"ok": True, "values": []}).encode(),
    "list": lambda message: b"[1, 2, 3]",
    # a hello that is not an object
    "hello": lambda message: b"[1]",
}
_kind = os.environ.get("CRAL_PLANTED_FORGE", "deep")
_real_send = _worker.send


def _send(fd, message):
    if ("names" in message) != (_kind == "hello"):
        return _real_send(fd, message)
    payload = _FORGERIES[_kind](message)
    _worker.write_all(fd, _worker.HEADER.pack(len(payload)) + payload)


_worker.send = _send

__all__ = ["calruption", "calruption_epoch", "catoni_root", "passive", "robust_cal"]
