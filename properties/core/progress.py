"""Progress of `python -m properties check` on stderr, inside a check as well as between
checks: a check may run a minute (the fuzz profile's single check), and silence that long reads as a hang.

One line per check, "[i/N] name ... status (k examples)". While a check runs longer than
`every` seconds, a heartbeat says how many examples it has tried: on a terminal the line
is rewritten in place; otherwise (a log, CI) a plain line is added every `every` seconds,
so a log never holds carriage returns. A quick check prints nothing more than its line.
stdout is untouched: it carries only the report."""

from __future__ import annotations

import sys
import threading
import time

TERMINAL_EVERY_S = 2.0  # a terminal's line is cheap to rewrite
LOG_EVERY_S = 10.0  # a log gets a line only when a check is really long


class CheckProgress:
    def __init__(self, index: int, total: int, name: str, stream=None, every: float | None = None):
        self.stream = stream or sys.stderr
        self.terminal = self.stream.isatty()
        self.every = every if every is not None else TERMINAL_EVERY_S if self.terminal else LOG_EVERY_S
        self.head = f"[{index}/{total}] {name} ..."
        self.examples = 0
        self.beats = 0
        self.started = time.monotonic()
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._beat, daemon=True)

    def __enter__(self):
        self._write(self.head)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._done.set()
        self._thread.join()
        if exc[0] is not None:  # an interrupt or a crash: end the line, say nothing more
            self._write("\n")

    def update(self, examples: int) -> None:
        """run_check's progress callback: examples tried so far."""
        self.examples = examples

    def _beat(self) -> None:
        while not self._done.wait(self.every):
            seconds = time.monotonic() - self.started
            with self._lock:
                if self._done.is_set():
                    return
                self.beats += 1
                if self.terminal:
                    self._write(f"\r\033[K{self.head} {self.examples} examples, {seconds:.0f} s")
                else:
                    self._write(
                        f"{'' if self.beats > 1 else chr(10)}  still running: {self.examples} examples "
                        f"after {seconds:.0f} s\n"
                    )

    def finish(self, text: str) -> None:
        self._done.set()
        self._thread.join()
        if self.beats and self.terminal:
            self._write(f"\r\033[K{self.head} {text}\n")
        elif self.beats:
            self._write(f"{self.head} {text}\n")
        else:
            self._write(f" {text}\n")

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a closed stderr must not end the run
            pass


class CountProgress:
    """ "[i/N] <text>" for a run of N steps (crosscheck's cases): on a terminal one line
    rewritten at every step and ended by close(); otherwise (a log, CI) a plain line at
    most every `every` seconds and at the last step, so a log never holds carriage
    returns nor one line per case."""

    def __init__(self, total: int, stream=None, every: float = LOG_EVERY_S):
        self.total = total
        self.stream = stream or sys.stderr
        self.terminal = self.stream.isatty()
        self.every = every
        self.last = None  # monotonic time of the last plain line
        self.open_line = False

    def update(self, done: int, text: str) -> None:
        line = f"[{done}/{self.total}] {text}"
        if self.terminal:
            self.open_line = True
            self._write(f"\r\033[K{line}")
            return
        now = time.monotonic()
        if done >= self.total or self.last is None or now - self.last >= self.every:
            self.last = now
            self._write(line + "\n")

    def close(self) -> None:
        """End a terminal's line (nothing in a log: its lines are complete)."""
        if self.open_line:
            self.open_line = False
            self._write("\n")

    _write = CheckProgress._write


__all__ = ["CheckProgress", "CountProgress", "LOG_EVERY_S", "TERMINAL_EVERY_S"]
