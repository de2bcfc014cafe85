"""The processes of a command candidate (properties/judge/command.py): a program's
session and process group with its address-space limit and its death with the judge
(_child_setup, _kill_group), the command line as argv, exit messages, and the one
process of serve mode (_Server, docs/protocol.md "Serve mode"): one request per line on
its stdin, one result per line on its stdout, the same limits and outcomes per call."""

from __future__ import annotations

import ctypes
import os
import re
import resource
import selectors
import shlex
import signal
import subprocess
import time
import weakref

from properties.core.candidate import CandidateFault
from properties.judge.isolation import _signal_name

MAX_RESULT_BYTES = 32 << 20  # as for a worker's reply (properties/judge/isolation.py)
FAULT_OUTPUT_CHARS = 1000
_PR_SET_PDEATHSIG = 1
SERVE_ARGUMENT, SERVE_ENV = "--serve", "CRAL_SERVE"


class _Server:
    """One serving process of a command candidate: started at once, in a session and
    process group of its own with the address-space limit; `call` sends one request line
    and waits for one result line. Killed (its whole group) by `stop`, when dropped, and
    (Linux) when the judge dies."""

    def __init__(self, command: str, memory_limit: int | None, streams: dict, where: str):
        try:
            self.process = subprocess.Popen(
                _argv(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                env={**os.environ, SERVE_ENV: "1"},
                preexec_fn=_child_setup(memory_limit),
            )
        except OSError as error:
            raise CandidateFault(f"cannot be started: {error} ({where})", fatal=True) from None
        self._finalizer = weakref.finalize(self, _kill_group, self.process)
        self.streams = streams  # the candidate's captured streams
        self.buffer = bytearray()  # stdout read but not yet answered
        self.stdin_fd, self.stdout_fd, self.stderr_fd = (
            self.process.stdin.fileno(),
            self.process.stdout.fileno(),
            self.process.stderr.fileno(),
        )
        for fd in (self.stdin_fd, self.stdout_fd, self.stderr_fd):
            os.set_blocking(fd, False)
        self.exit_fd = _pidfd(self.process.pid)
        self.selector = selectors.DefaultSelector()
        self.open = {self.stdout_fd, self.stderr_fd}
        for fd in self.open:
            self.selector.register(fd, selectors.EVENT_READ)
        if self.exit_fd is not None:
            self.selector.register(self.exit_fd, selectors.EVENT_READ)
        self.out_of_turn = False
        self.tail = bytearray()
        self.answered = 0  # result lines returned
        self.busy = False  # a call began and has not returned (an exception cut it short: out of step)

    def state(self):
        """ "ready" (alive, nothing on its stdout since its last answer), "out of turn"
        (it wrote after its answer: that goes to the captured stdout), or the exit status
        of a process that ended since its last answer."""
        self.tail.clear()
        self._drain()
        if self.buffer.strip():
            self.streams["stdout"].add(bytes(self.buffer))
            self.buffer.clear()
            self.out_of_turn = True
        code = self.process.poll()
        if code is not None:
            _kill_group(self.process)
            self._drain()
            return code
        return "out of turn" if self.out_of_turn or self.busy else "ready"

    def _read(self, fd: int) -> bool:
        """Read what is there on stdout or stderr; False when nothing (more) is there."""
        try:
            data = os.read(fd, 1 << 16)
        except BlockingIOError:
            return False
        if not data:
            if fd in self.open:
                self.open.discard(fd)
                self.selector.unregister(fd)
            return False
        if fd == self.stderr_fd:
            self.streams["stderr"].add(data)
            self.tail[:] = (self.tail + data)[-4 * FAULT_OUTPUT_CHARS :]
        else:
            self.buffer += data
        return True

    def _drain(self) -> None:
        for fd in list(self.open):
            while fd in self.open and self._read(fd):
                pass

    def _line(self) -> bytes | None:
        """The next line that is not blank, taken from the buffer (blank lines are skipped)."""
        while True:
            end = self.buffer.find(b"\n")
            if end < 0:
                return None
            line = bytes(self.buffer[:end])
            del self.buffer[: end + 1]
            if line.strip():
                return line

    def call(self, payload: bytes, timeout: float | None, where: str) -> tuple[bytes, int | None, str]:
        """(the result line, None, stderr's tail), or -- when the process ended before a
        whole line -- (what it wrote after its last answer, its exit status, stderr's tail)."""
        self.tail.clear()
        pending = memoryview(payload)
        deadline = None if timeout is None else time.monotonic() + timeout
        self.busy = True
        self.selector.register(self.stdin_fd, selectors.EVENT_WRITE)
        writing = True
        exited = False
        try:
            while True:
                line = self._line()
                if line is not None:
                    if pending:  # it answered before it read the whole request: out of step
                        self.out_of_turn = True
                    self._drain()  # what it logged before its answer belongs to this call
                    if self.buffer.strip():  # a second line for one request
                        self.out_of_turn = True
                        self.streams["stdout"].add(bytes(self.buffer))
                        self.buffer.clear()
                    self.answered += 1
                    self.busy = False
                    return line, None, self.tail_text()
                if len(self.buffer) > MAX_RESULT_BYTES:
                    self.stop()
                    raise CandidateFault(f"wrote more than {MAX_RESULT_BYTES} bytes to stdout ({where})", fatal=True)
                if exited or (self.exit_fd is None and self.process.poll() is not None):
                    # its group goes first, so no writer is left and each pipe ends
                    _kill_group(self.process)
                    self._drain()
                    line = self._line()
                    if line is not None:
                        self.answered += 1
                        self.busy = False
                        return line, None, self.tail_text()
                    if len(self.buffer) > MAX_RESULT_BYTES:
                        raise CandidateFault(
                            f"wrote more than {MAX_RESULT_BYTES} bytes to stdout ({where})", fatal=True
                        )
                    return bytes(self.buffer), self.process.returncode, self.tail_text()
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    self.stop()
                    raise CandidateFault(f"hung after {timeout:g} s ({where})", fatal=True, values=_tail(self.tail))
                wait = remaining if self.exit_fd is not None else min(0.05, remaining or 0.05)
                for key, _ in self.selector.select(wait):
                    if key.fd == self.stdin_fd:
                        try:
                            pending = pending[os.write(self.stdin_fd, pending) :]
                        except BlockingIOError:
                            pass
                        except BrokenPipeError:  # it closed its stdin: it will end, or hang
                            pending = memoryview(b"")
                            self.out_of_turn = True
                        if not pending and writing:
                            self.selector.unregister(self.stdin_fd)
                            writing = False
                    elif key.fd == self.exit_fd:
                        exited = True
                    else:
                        self._read(key.fd)
        finally:
            if writing:
                try:
                    self.selector.unregister(self.stdin_fd)
                except (KeyError, ValueError, RuntimeError, OSError):
                    pass

    def tail_text(self) -> str:
        return bytes(self.tail).decode("utf-8", "replace")[-FAULT_OUTPUT_CHARS:]

    def stop(self) -> None:
        """Kill its process group and close what the judge holds of it."""
        self._finalizer()
        try:
            self.selector.close()
        except (OSError, ValueError):
            pass
        if self.exit_fd is not None:
            os.close(self.exit_fd)
            self.exit_fd = None
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            try:
                stream.close()
            except OSError:
                pass


def _child_setup(limit: int | None):
    """What runs in the child between fork and exec: no core files, the address-space
    limit, and death with the judge (Linux)."""

    def in_child():
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass

    return in_child


def _kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()
    _wait_group_gone(process.pid)


GROUP_GONE_LIMIT_S = 10.0  # a bound, never reached in practice: SIGKILL lands within moments


def _wait_group_gone(pgid: int) -> None:
    """SIGKILL is delivered asynchronously: the group's other members (a candidate's own
    children) can outlive the leader we reaped by a moment, and a caller that looks for them
    right after would still find them (seen once in CI). Wait until only zombies are left
    in the group (Linux /proc; elsewhere nothing to read, no wait), at most the bound."""
    deadline = time.monotonic() + GROUP_GONE_LIMIT_S
    while _live_members(pgid) and time.monotonic() < deadline:
        time.sleep(0.002)


def _live_members(pgid: int) -> bool:
    try:
        entries = os.listdir("/proc")
    except OSError:
        return False
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                stat = handle.read()
        except OSError:
            continue  # gone meanwhile
        state, _, group = stat[stat.rindex(")") + 2 :].split()[:3]
        if state != "Z" and int(group) == pgid:
            return True
    return False


def _pidfd(pid: int) -> int | None:
    """A descriptor that becomes readable when the process exits (Linux >= 5.3)."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
SHELL_SYNTAX = set(";&|<>()$`*?~!#\n[]")


def _argv(command: str) -> list[str]:
    """A simple command line (words and quotes only) is run directly, so its exit status
    and a signal that kills it are its own; anything else through /bin/sh -c."""
    if not SHELL_SYNTAX & set(command):
        try:
            words = shlex.split(command)
        except ValueError:
            words = []
        if words and not _ASSIGNMENT.match(words[0]):  # `VAR=value prog` needs a shell
            return words
    return ["/bin/sh", "-c", command]


def _exit_message(code: int, command: str, where: str) -> str:
    if code > 128 and _argv(command)[0] == "/bin/sh" and code - 128 < signal.NSIG:
        return f"exited with {code} ({where}; the shell's status for {_signal_name(code - 128)})"
    return f"exited with {code} ({where})"


def _tail(stderr_tail: bytearray) -> dict:
    text = bytes(stderr_tail).decode("utf-8", "replace")[-FAULT_OUTPUT_CHARS:]
    return {"stderr": text} if text.strip() else {}
