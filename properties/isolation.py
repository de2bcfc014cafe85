"""The judge's side of a candidate that runs in a worker process (properties/worker.py).

One worker at a time hosts the candidate and is reused from call to call (start-up
~0.1 s; a call costs a pickle of the inputs, two pipe hops and a JSON reply:
bench/isolation_overhead.py measures it). A worker is replaced after any call that
cost it: a hang, a crash, an exit, exhausted memory. The worker runs in a session and
process group of its own, so a timeout kills it with every child it started (a child
that starts a session of its own escapes; that is beyond what a process group can hold).

Outcomes, as failures of the call (CandidateFault; `fatal` ones end the check at once):
    raised an exception        "crashed: <type>: <message> (in <name>)"
    killed by a signal         "crashed: SIGSEGV (in <name>)"               fatal
    os._exit / sys.exit        "exited with N (in <name>)"                  fatal if the process ended
    no reply in time           "hung after T s (in <name>)"                 fatal
    MemoryError / limit        "out of memory (...)"                        fatal
    reply not plain / too big  "... not plain data" / "... reply of N bytes"

The candidate's stdout and stderr are pipes the judge drains while it waits; it keeps
the first CAPTURE_BYTES of each per check (and counts the rest), for the report."""
from __future__ import annotations

import atexit
import json
import os
import pickle
import selectors
import signal
import subprocess
import sys
import time
import weakref

from .impl import Candidate, CandidateFault, check_required
from .worker import CONFIG_VAR, HEADER

CAPTURE_BYTES = 8192  # per stream and check
FAULT_OUTPUT_CHARS = 1000  # of a failing call's stderr, attached to its violation
MAX_REPLY_BYTES = 256 << 20
EXIT_GRACE_S = 2.0
_BOOTSTRAP = ("import json, os, sys; sys.path[:] = json.loads(os.environ['" + CONFIG_VAR + "'])['sys_path']; "
              "import properties.worker as w; w.main()")
_LIVE: "weakref.WeakSet[IsolatedCandidate]" = weakref.WeakSet()


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
        self.call_tail = (self.call_tail + data)[-4 * FAULT_OUTPUT_CHARS:]

    def take(self, name: str) -> dict:
        text = self.kept.decode("utf-8", "replace")
        report = {name: text, f"{name}_bytes": self.total, f"{name}_truncated": self.total > len(self.kept)}
        self.kept, self.total = bytearray(), 0
        return report

    def since_call(self) -> str:
        return self.call_tail.decode("utf-8", "replace")[-FAULT_OUTPUT_CHARS:]


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
        self.close_fds()

    def close_fds(self) -> None:
        for fd in (self.send_fd, self.recv_fd):
            try:
                os.close(fd)
            except OSError:
                pass
        for stream in (self.process.stdout, self.process.stderr):
            stream.close()


class IsolatedCandidate(Candidate):
    """A candidate hosted by a worker process; see the module notes."""

    isolated = True

    def __init__(self, path: str, *, timeout: float, memory_limit: int | None):
        self.path, self.timeout, self.memory_limit = path, timeout, memory_limit
        self._worker: _Worker | None = None
        self._streams = {"stdout": _Stream(), "stderr": _Stream()}
        try:
            hello = self._start()
        except CandidateFault as fault:
            raise ValueError(f"implementation {path!r} {fault.message}") from None
        if not hello.get("ok"):
            self.close()
            raise ValueError(f"implementation {path!r} cannot be imported: {hello.get('message')}")
        self.names = frozenset(hello["names"])
        self.arithmetic = hello["arithmetic"]
        self.starts = 1
        _LIVE.add(self)
        try:
            check_required(self)
        except ValueError:
            self.close()
            raise

    # -- the worker's life ---------------------------------------------------------------
    def _start(self) -> dict:
        """Start a worker and wait for its hello (the import runs under the call timeout)."""
        requests_r, requests_w = os.pipe()
        replies_r, replies_w = os.pipe()
        config = {"path": self.path, "sys_path": [p for p in sys.path], "fds": [requests_r, replies_w],
                  "memory_limit": self.memory_limit}
        env = {**os.environ, CONFIG_VAR: json.dumps(config)}
        try:
            process = subprocess.Popen([sys.executable, "-c", _BOOTSTRAP], stdin=subprocess.DEVNULL,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, pass_fds=(requests_r, replies_w),
                                       start_new_session=True, env=env)
        finally:
            os.close(requests_r)
            os.close(replies_w)
        self._worker = _Worker(process, requests_w, replies_r)
        try:
            return self._exchange(None, self.timeout, "importing it")
        except CandidateFault as fault:
            raise CandidateFault(f"failed while importing: {fault.message}", fatal=True) from None

    def _lose_worker(self) -> None:
        if self._worker is not None:
            self._worker.kill()
            self._worker = None

    def close(self) -> None:
        worker, self._worker = self._worker, None
        if worker is None:
            return
        goodbye = pickle.dumps(("exit",))
        try:
            os.set_blocking(worker.send_fd, True)
            os.write(worker.send_fd, HEADER.pack(len(goodbye)) + goodbye)
            worker.process.wait(EXIT_GRACE_S)
        except (OSError, subprocess.TimeoutExpired):
            pass
        worker.kill()  # children it left behind go with its group

    # -- calls ---------------------------------------------------------------------------
    def invoke(self, name, args, kwargs, timeout):
        return self.invoke_many(name, [(args, kwargs)], timeout)[0]

    def invoke_many(self, name, calls, timeout):
        if not self.provides(name):
            raise CandidateFault(f"the implementation has no callable {name!r}")
        if self._worker is None:
            self.starts += 1
            hello = self._start()
            if not hello.get("ok"):
                self._lose_worker()
                raise CandidateFault(f"failed while importing again: {hello.get('message')}", fatal=True)
        request = pickle.dumps(("call", name, calls), protocol=pickle.HIGHEST_PROTOCOL)
        reply = self._exchange(request, timeout, f"in {name}")
        if not isinstance(reply, dict) or "ok" not in reply:
            self._lose_worker()
            raise CandidateFault(f"garbled reply from the worker (in {name})", fatal=True)
        if reply["ok"]:
            values = reply.get("values")
            if not isinstance(values, list) or len(values) != len(calls):
                raise CandidateFault(f"garbled reply from the worker (in {name})")
            return values
        if reply.get("fatal"):
            self._lose_worker()
        values = reply.get("values") if isinstance(reply.get("values"), dict) else {}
        raise CandidateFault(str(reply.get("message")), fatal=bool(reply.get("fatal")),
                             **self._with_output(values))

    def _with_output(self, values: dict) -> dict:
        stderr = self._streams["stderr"].since_call()
        if stderr.strip():
            values = {**values, "stderr": stderr}
        return values

    def _exchange(self, request: bytes | None, timeout: float | None, where: str) -> dict:
        """Send the request (None: only wait for the hello) and return the decoded reply,
        draining stdout and stderr all the while; a hang, a death or a bad reply is a
        CandidateFault and costs the worker."""
        worker = self._worker
        for stream in self._streams.values():
            stream.call_tail = bytearray()
        pending = memoryview(b"" if request is None else HEADER.pack(len(request)) + request)
        reply = bytearray()
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
                    self._lose_worker()
                    raise CandidateFault(f"hung after {timeout:g} s ({where})", fatal=True,
                                         **self._with_output({}))
                for key, _ in selector.select(remaining):
                    fd = key.fd
                    if fd == worker.send_fd:
                        try:
                            pending = pending[os.write(fd, pending):]
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
                    reply += data
                    if len(reply) >= HEADER.size:
                        size = HEADER.unpack_from(reply)[0]
                        if size > MAX_REPLY_BYTES:
                            self._lose_worker()
                            raise CandidateFault(f"sent a reply of {size} bytes, over the limit of {MAX_REPLY_BYTES} "
                                                 f"({where})", fatal=True)
                        if len(reply) >= HEADER.size + size:
                            self._drain(worker)
                            try:
                                return json.loads(bytes(reply[HEADER.size:HEADER.size + size]))
                            except ValueError:
                                self._lose_worker()
                                raise CandidateFault(f"garbled reply from the worker ({where})", fatal=True) from None

    def _drain(self, worker: _Worker) -> None:
        """What the worker flushed before replying is already in the pipes."""
        for fd, name in list(worker.open_outputs.items()):
            while True:
                try:
                    data = os.read(fd, 1 << 16)
                except BlockingIOError:
                    break
                if not data:
                    del worker.open_outputs[fd]
                    break
                self._streams[name].add(data)

    def _death(self, where: str) -> CandidateFault:
        """The reply channel closed: the worker ended. How, from its exit status."""
        worker, self._worker = self._worker, None
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
            limit = self.memory_limit
            hint = "" if name != "SIGKILL" or not limit else f"; possibly out of memory (limit {limit >> 20} MiB)"
            message = f"crashed: {name} ({where}{hint})"
        else:
            message = f"exited with {code} ({where})"
        return CandidateFault(message, fatal=True, **self._with_output({}))

    def take_output(self):
        report = {}
        for name, stream in self._streams.items():
            if stream.total:
                report.update(stream.take(name))
        return report or None


@atexit.register
def _close_all() -> None:
    for candidate in list(_LIVE):
        candidate.close()
