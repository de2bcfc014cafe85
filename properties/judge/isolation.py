"""The judge's side of a candidate that runs in a worker process (properties/judge/worker.py).

One worker at a time hosts the candidate and is reused from call to call (start-up
~0.1 s; a call costs a pickle of the inputs, two pipe hops and a JSON reply:
bench/isolation_overhead.py measures it). A worker is replaced after any call that
cost it: a hang, a crash, an exit, exhausted memory, a reply the judge cannot read. The
worker runs in a session and process group of its own, so a timeout kills it with every
child it started (a child that leaves the group, with setsid or setpgid, escapes: that
is beyond what a process group can hold); it is killed too when its candidate object is
dropped, when the judge exits, and (Linux) when the judge dies without a chance to clean
up.

Outcomes, as failures of the call (CandidateFault; `fatal` ones end the check at once):
    raised an exception        "crashed: <type>: <message> (in <name>)"
    killed by a signal         "crashed: SIGSEGV (in <name>)"               fatal
    os._exit / sys.exit        "exited with N (in <name>)"                  fatal if the process ended
    no reply in time           "hung after T s (in <name>)"                 fatal
    MemoryError / limit        "out of memory (...)"                        fatal
    reply not plain / garbled  "... not plain data" / "sent a garbled reply" / "... reply of N bytes"

Every frame from the worker is checked before use (a candidate can forge frames: the
worker is its own process); nothing the candidate says is unpickled, and every text of
it reaches the report clipped (properties/core/violation.py). The candidate's stdout and
stderr are pipes the judge drains while it waits; it keeps the first CAPTURE_BYTES of
each per check (and counts the rest), for the report.

This protects the verdict from what candidates do to the interpreter they run in, not
from a hostile program: the worker runs as the same user, so it could signal the judge
or write files. For an untrusted candidate, run the whole suite in a container."""

from __future__ import annotations

import json
import os
import pickle
import selectors
import signal
import subprocess
import sys
import time
import weakref

from properties.core import candidate as impl
from properties.core.candidate import Candidate, CandidateFault, check_required
from properties.core.contract import ARITHMETICS, PUBLIC_NAMES
from properties.core.violation import clip
from properties.judge.worker import CONFIG_VAR, HEADER

CAPTURE_BYTES = 8192  # per stream and check
FAULT_OUTPUT_CHARS = 1000  # of a failing call's stderr, attached to its violation
DRAIN_BYTES = 1 << 20  # read after a reply, at most, of what the worker flushed before it
# a reply's size: the largest the suite asks for is well under 2 MiB (the sampler law
# check's three tapes); JSON of a pathological shape decodes to ~25x its size in memory
MAX_REPLY_BYTES = 32 << 20
EXIT_GRACE_S = 2.0
_BOOTSTRAP = (
    "import json, os, sys; sys.path[:] = json.loads(os.environ['" + CONFIG_VAR + "'])['sys_path']; "
    "import properties.judge.worker as w; w.main()"
)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


class _Stream:
    """One captured stream: the first CAPTURE_BYTES since the last take and a count (for
    the check's report), and the last bytes of the current call (for a failing call)."""

    def __init__(self):
        self.kept, self.total, self.call_tail = bytearray(), 0, bytearray()

    def add(self, data: bytes) -> None:
        room = CAPTURE_BYTES - len(self.kept)
        if room > 0:
            self.kept += data[:room]
        self.total += len(data)
        self.call_tail = (self.call_tail + data)[-4 * FAULT_OUTPUT_CHARS :]

    def take(self, name: str) -> dict:
        text = self.kept.decode("utf-8", "replace")
        report = {name: text, f"{name}_bytes": self.total, f"{name}_truncated": self.total > len(self.kept)}
        self.kept, self.total = bytearray(), 0
        return report

    def since_call(self) -> str:
        return self.call_tail.decode("utf-8", "replace")[-FAULT_OUTPUT_CHARS:]


def take_streams(streams: dict) -> dict | None:
    """What the captured streams hold since the last take, for a check's report."""
    report = {}
    for name, stream in streams.items():
        if stream.total:
            report.update(stream.take(name))
    return report or None


class _Worker:
    def __init__(self, process: subprocess.Popen, send_fd: int, recv_fd: int):
        self.process, self.send_fd, self.recv_fd = process, send_fd, recv_fd
        for fd in (send_fd, recv_fd, process.stdout.fileno(), process.stderr.fileno()):
            os.set_blocking(fd, False)
        self.open_outputs = {process.stdout.fileno(): "stdout", process.stderr.fileno(): "stderr"}

    def kill(self) -> None:
        """The worker's whole process group, children included."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.process.wait()
        for fd in (self.send_fd, self.recv_fd):
            try:
                os.close(fd)
            except OSError:
                pass
        for stream in (self.process.stdout, self.process.stderr):
            stream.close()

    def close(self) -> None:
        """Ask it to exit, then kill its group (children it left behind go with it)."""
        goodbye = pickle.dumps(("exit",))
        try:
            os.write(self.send_fd, HEADER.pack(len(goodbye)) + goodbye)  # non-blocking: a full pipe skips it
            self.process.wait(EXIT_GRACE_S)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self.kill()


class _Slot:
    """Holds the live worker, apart from the candidate, so a finalizer can close it when
    the candidate is dropped or the judge exits (weakref.finalize runs at exit too)."""

    def __init__(self):
        self.worker: _Worker | None = None

    def close(self) -> None:
        worker, self.worker = self.worker, None
        if worker is not None:
            worker.close()

    def kill(self) -> None:
        worker, self.worker = self.worker, None
        if worker is not None:
            worker.kill()


def _garbled(where: str) -> CandidateFault:
    return CandidateFault(f"sent a garbled reply ({where})", fatal=True)


def _frame_values(values) -> dict:
    """A failure frame's values, as text: string keys only, clipped."""
    if not isinstance(values, dict):
        return {}
    return {clip(k, 100): clip(v if isinstance(v, str) else repr(v)) for k, v in values.items() if isinstance(k, str)}


class IsolatedCandidate(Candidate):
    """A candidate hosted by a worker process; see the module notes."""

    isolated = True

    def __init__(self, path: str, *, timeout: float | None, memory_limit: int | None):
        self.path, self.timeout, self.memory_limit = path, timeout, memory_limit
        self._slot = _Slot()
        self._finalizer = weakref.finalize(self, _Slot.close, self._slot)
        self._streams = {"stdout": _Stream(), "stderr": _Stream()}
        self.starts = 0
        try:
            self.names, self.arithmetic = self._start()
            check_required(self)
        except CandidateFault as fault:
            self.close()
            raise ValueError(f"implementation {path!r} {fault.message}") from None
        except ValueError:
            self.close()
            raise

    # -- the worker's life ---------------------------------------------------------------
    def _import_timeout(self) -> float:
        return impl.DEFAULT_TIMEOUT_S if self.timeout is None else self.timeout  # as it is now

    def _start(self) -> tuple[frozenset, str]:
        """Start a worker and read its hello (the import runs under the call timeout):
        (the names it provides, its ARITHMETIC); CandidateFault if it fails to start, a
        ValueError if it declares something the contract does not allow."""
        requests_r, requests_w = os.pipe()
        replies_r, replies_w = os.pipe()
        config = {
            "path": self.path,
            "sys_path": list(sys.path),
            "fds": [requests_r, replies_w],
            "memory_limit": self.memory_limit,
            "judge": os.getpid(),
        }
        try:
            process = subprocess.Popen(
                [sys.executable, "-c", _BOOTSTRAP],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=(requests_r, replies_w),
                start_new_session=True,
                env={**os.environ, CONFIG_VAR: json.dumps(config)},
            )
        except OSError:
            os.close(requests_w)
            os.close(replies_r)
            raise
        finally:
            os.close(requests_r)
            os.close(replies_w)
        self._slot.worker = _Worker(process, requests_w, replies_r)
        self.starts += 1
        try:
            hello = self._exchange(None, self._import_timeout(), "importing it")
        except CandidateFault as fault:
            raise CandidateFault(f"failed while importing: {fault.message}", fatal=True) from None
        if hello.get("ok") is False and isinstance(hello.get("message"), str):
            self._slot.kill()
            raise CandidateFault(f"cannot be imported: {hello['message']}")
        names, arithmetic = hello.get("names"), hello.get("arithmetic")
        declared = hello.get("declared")
        self.arithmetic_declared = declared if isinstance(declared, bool) else None
        if (
            hello.get("ok") is not True
            or not isinstance(names, list)
            or not set(names) <= set(PUBLIC_NAMES)
            or not isinstance(arithmetic, str)
        ):
            self._slot.kill()
            raise _garbled("its hello")
        if arithmetic not in ARITHMETICS:
            self._slot.kill()
            raise ValueError(
                f"implementation {self.path!r} declares ARITHMETIC = {clip(arithmetic, 100)!r}, not one "
                f"of {ARITHMETICS}"
            )
        return frozenset(names), arithmetic

    def close(self) -> None:
        self._slot.close()  # the finalizer stays armed: a worker started later is closed at exit

    # -- calls ---------------------------------------------------------------------------
    def invoke(self, name, args, kwargs, timeout):
        return self.invoke_many(name, [(args, kwargs)], timeout)[0]

    def invoke_many(self, name, calls, timeout):
        if not self.provides(name):
            raise CandidateFault(f"the implementation has no callable {name!r}")
        if self._slot.worker is None:
            try:
                provided = self._start()
            except (ValueError, CandidateFault) as error:
                raise CandidateFault(
                    f"failed while importing again: {getattr(error, 'message', error)}", fatal=True
                ) from None
            if provided != (self.names, self.arithmetic):
                self._slot.kill()
                raise CandidateFault("provides other names when imported again", fatal=True)
        # one pickle per call: each call gets its own copy of the inputs, even in a batch
        request = pickle.dumps(
            ("call", name, [pickle.dumps(c, protocol=pickle.HIGHEST_PROTOCOL) for c in calls]),
            protocol=pickle.HIGHEST_PROTOCOL,
        )
        where = f"in {name}"
        reply = self._exchange(request, timeout, where, calls=len(calls))
        if reply.get("ok") is True:
            values = reply.get("values")
            if not isinstance(values, list) or len(values) != len(calls):
                self._slot.kill()
                raise _garbled(where)
            return values
        message, fatal = reply.get("message"), reply.get("fatal")
        if reply.get("ok") is not False or not isinstance(message, str) or not isinstance(fatal, bool):
            self._slot.kill()
            raise _garbled(where)
        if fatal:
            self._slot.kill()
        raise CandidateFault(message, fatal=fatal, values=self._with_output(_frame_values(reply.get("values"))))

    def _with_output(self, values: dict) -> dict:
        stderr = self._streams["stderr"].since_call()
        if stderr.strip():
            values = {**values, "stderr": stderr}
        return values

    def _exchange(self, request: bytes | None, timeout: float | None, where: str, calls: int = 1) -> dict:
        """Send the request (None: only wait for the hello) and return the final reply
        frame, a dict, draining stdout and stderr all the while; each progress frame of a
        batch restarts the per-call timeout. A hang, a death or an unreadable frame is a
        CandidateFault and costs the worker."""
        worker = self._slot.worker
        for stream in self._streams.values():
            stream.call_tail = bytearray()
        pending = memoryview(b"" if request is None else HEADER.pack(len(request)) + request)
        buffer, progress = bytearray(), 0
        deadline = None if timeout is None else time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            selector.register(worker.recv_fd, selectors.EVENT_READ)
            for fd in worker.open_outputs:
                selector.register(fd, selectors.EVENT_READ)
            if pending:
                selector.register(worker.send_fd, selectors.EVENT_WRITE)
            while True:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    self._slot.kill()
                    raise CandidateFault(
                        f"hung after {timeout:g} s ({where})", fatal=True, values=self._with_output({})
                    )
                for key, _ in selector.select(remaining):
                    fd = key.fd
                    if fd == worker.send_fd:
                        try:
                            pending = pending[os.write(fd, pending) :]
                        except BrokenPipeError:
                            pending = memoryview(b"")
                        if not pending:
                            selector.unregister(fd)
                        continue
                    try:
                        data = os.read(fd, 1 << 16)
                    except BlockingIOError:
                        continue
                    if fd in worker.open_outputs:
                        if data:
                            self._streams[worker.open_outputs[fd]].add(data)
                        else:
                            selector.unregister(fd)
                        continue
                    if not data:
                        raise self._death(where)
                    buffer += data
                    while len(buffer) >= HEADER.size:
                        size = HEADER.unpack_from(buffer)[0]
                        if size > MAX_REPLY_BYTES:
                            self._slot.kill()
                            raise CandidateFault(
                                f"sent a reply of {size} bytes, over the limit of {MAX_REPLY_BYTES} ({where})",
                                fatal=True,
                            )
                        if len(buffer) < HEADER.size + size:
                            break
                        frame = self._decode(bytes(buffer[HEADER.size : HEADER.size + size]), where)
                        del buffer[: HEADER.size + size]
                        if request is not None and set(frame) == {"progress"}:
                            if frame["progress"] != progress + 1 or frame["progress"] >= calls:
                                self._slot.kill()
                                raise _garbled(where)
                            progress = frame["progress"]
                            if timeout is not None:
                                deadline = time.monotonic() + timeout
                            continue
                        self._drain(worker)
                        return frame

    def _decode(self, payload: bytes, where: str) -> dict:
        try:
            frame = json.loads(payload)
        except Exception:  # ValueError, RecursionError on absurd nesting, MemoryError ...
            frame = None
        if not isinstance(frame, dict):
            self._slot.kill()
            raise _garbled(where)
        return frame

    def _drain(self, worker: _Worker) -> None:
        """What the worker flushed before replying is already in the pipes (a writer that
        keeps them full, a child say, is read for at most DRAIN_BYTES)."""
        budget = DRAIN_BYTES
        for fd, name in list(worker.open_outputs.items()):
            while budget > 0:
                try:
                    data = os.read(fd, 1 << 16)
                except BlockingIOError:
                    break
                if not data:
                    del worker.open_outputs[fd]
                    break
                self._streams[name].add(data)
                budget -= len(data)

    def _death(self, where: str) -> CandidateFault:
        """The reply channel closed: the worker ended. How, from its exit status."""
        worker, self._slot.worker = self._slot.worker, None
        try:
            code = worker.process.wait(EXIT_GRACE_S)
        except subprocess.TimeoutExpired:
            code = None
        self._drain(worker)
        worker.kill()
        if code is None:
            message = f"closed its channel without exiting ({where})"
        elif code < 0:
            name = _signal_name(-code)
            hint = "; from outside, e.g. the system's out-of-memory killer" if name == "SIGKILL" else ""
            message = f"crashed: {name} ({where}{hint})"
        else:
            message = f"exited with {code} ({where})"
        return CandidateFault(message, fatal=True, values=self._with_output({}))

    def take_output(self):
        return take_streams(self._streams)
