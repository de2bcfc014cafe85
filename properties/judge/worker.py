"""The worker process that hosts one candidate (started by properties/judge/isolation.py).

It sets its own limits (address space, no core files), arranges to die with the judge,
imports the candidate -- the only process that ever does -- and then answers requests
until told to stop or its input closes. The channel is a pair of pipes of its own, apart
from stdout and stderr (which the judge captures): the candidate may print, but cannot
garble a reply by it.

Frames are an 8-byte big-endian length and a payload. Requests (judge -> worker) are
pickles of plain tuples of the reference's input objects, one pickle per call, unpickled
just before that call (so every call gets its own copy); the worker trusts the judge.
Replies (worker -> judge) are JSON of plain data only, so the judge never unpickles
anything the candidate could have shaped:

    hello     {"ok": true, "names": [...], "arithmetic": "...", "declared": bool}  or  {"ok": false, "message": "..."}
    progress  {"progress": i}   after call i of a batch (the judge's per-call timeout restarts)
    result    {"ok": true, "values": [plain, ...]}
              {"ok": false, "index": i, "message": "...", "values": {...}, "fatal": bool}

The judge validates every frame: a candidate can forge them (this is its own process),
which changes nothing but its own verdict.
"""

from __future__ import annotations

import ctypes
import faulthandler
import importlib
import json
import os
import pickle
import resource
import signal
import struct
import sys

HEADER = struct.Struct(">Q")
CONFIG_VAR = "CRAL_WORKER_CONFIG"
_JUDGE: tuple = ()  # _judges_modules(), set before the candidate is imported
_PR_SET_PDEATHSIG = 1


def read_exactly(fd: int, size: int) -> bytes | None:
    chunks, remaining = [], size
    while remaining:
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def send(fd: int, message: dict) -> None:
    payload = json.dumps(message, separators=(",", ":")).encode()
    write_all(fd, HEADER.pack(len(payload)) + payload)


def _die_with(judge: int) -> None:
    """SIGKILL this process when the judge dies (Linux), even if the judge is killed
    without a chance to clean up; and stop now if it is already gone."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the judge's exit handler still closes us
        pass
    if os.getppid() != judge:
        os._exit(0)


def _limit(config: dict) -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a crash must not leave core files behind
    limit = config.get("memory_limit")
    if limit:
        # soft = hard: the candidate cannot raise it again
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # a candidate may have replaced or closed them
            pass


def _judges_modules() -> tuple:
    """What the worker does on the judge's behalf (unpickling the inputs, encoding a
    result, describing a fault), imported before the candidate is: nothing the candidate
    does to the process afterwards (signal handlers, alarms, sys.modules) reaches an
    import the judge's side needs. Unpickling a request imports the reference's modules
    of its inputs; they are imported here too, and so loaded before the candidate runs."""
    import reference  # noqa: F401  (the inputs' classes, for pickle)
    import reference.calruption  # noqa: F401
    from properties.core.candidate import fault_of_exception
    from properties.core.contract import PUBLIC_NAMES
    from properties.core.plain import NotPlain, encode_result

    return PUBLIC_NAMES, fault_of_exception, NotPlain, encode_result


def _answer(module, name: str, calls, replies: int) -> dict:
    _, fault_of_exception, NotPlain, encode_result = _JUDGE

    function = getattr(module, name, None)
    if not callable(function):
        return {
            "ok": False,
            "index": 0,
            "message": f"the implementation has no callable {name!r}",
            "values": {},
            "fatal": False,
        }
    values = []
    for index, call in enumerate(calls):
        if index:
            _flush()
            send(replies, {"progress": index})
        args, kwargs = pickle.loads(call)
        try:
            value = function(*args, **kwargs)
            values.append(encode_result(name, value))
        except NotPlain as error:
            return {
                "ok": False,
                "index": index,
                "message": f"{name} returned something that is not plain data: {error}",
                "values": {},
                "fatal": False,
            }
        except (Exception, SystemExit) as error:
            fault = fault_of_exception(name, error)
            # after a MemoryError the process may be in any state: the judge replaces it
            return {
                "ok": False,
                "index": index,
                "message": fault.message,
                "values": fault.values,
                "fatal": isinstance(error, MemoryError),
            }
    return {"ok": True, "values": values}


def main() -> None:
    config = json.loads(os.environ.pop(CONFIG_VAR))
    _die_with(config["judge"])
    _limit(config)
    requests, replies = config["fds"]
    for fd in (requests, replies):
        os.set_inheritable(fd, False)  # the candidate's children do not get the channel
    sys.path[:] = config["sys_path"]
    faulthandler.enable()  # a crash leaves the Python traceback on the captured stderr
    global _JUDGE
    _JUDGE = _judges_modules()
    PUBLIC_NAMES = _JUDGE[0]
    try:
        module = importlib.import_module(config["path"])
        names = [name for name in PUBLIC_NAMES if callable(getattr(module, name, None))]
        arithmetic = getattr(module, "ARITHMETIC", "exact")
        hello = {
            "ok": True,
            "names": names,
            "arithmetic": arithmetic if isinstance(arithmetic, str) else repr(arithmetic),
            "declared": hasattr(module, "ARITHMETIC"),
        }
    except BaseException as error:  # ImportError, SyntaxError, SystemExit, whatever the import raises
        hello = {"ok": False, "message": f"{type(error).__name__}: {error}"[:4000]}
    _flush()
    send(replies, hello)
    if not hello["ok"]:
        return
    while True:
        header = read_exactly(requests, HEADER.size)
        if header is None:
            return
        request = pickle.loads(read_exactly(requests, HEADER.unpack(header)[0]))
        if request[0] == "exit":
            return
        _, name, calls = request
        reply = _answer(module, name, calls, replies)
        _flush()
        send(replies, reply)


if __name__ == "__main__":
    main()
