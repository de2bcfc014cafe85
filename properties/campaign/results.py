"""The results file: JSON lines, one row per finished task, appended as tasks finish,
after one header line {"campaign": name, "spec": the spec, "digest": its digest} that
makes the file self-contained for the summary.

A row: {"task": key, "spec": spec digest, "code_version": ..., "params": the task's
parameters, "seed": its seed, "result": ... | "error": ..., "seconds": wall time}. Rows are
written by the client only (workers return them), each flushed and synced, so a crash or
Ctrl-C loses at most the row being written; a torn last line is cut off on the next
open. A re-run with the same spec reads the finished keys and runs only the others (and
the tasks whose row is an error)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path


def code_version() -> str:
    """`git describe --always --dirty` of the checkout this package runs from, else the
    installed distribution's version and the commit its build recorded (reference/version.py)."""
    root = Path(__file__).resolve().parents[2]
    if (root / ".git").exists():
        try:
            found = subprocess.run(
                ["git", "-C", str(root), "describe", "--always", "--dirty", "--abbrev=12"],
                capture_output=True,
                text=True,
                timeout=10,
            )
            if found.returncode == 0 and found.stdout.strip():
                return found.stdout.strip()
        except (OSError, subprocess.SubprocessError):
            pass
    from reference.version import code_version as suite

    found = suite()  # an installed package: its version and the commit its build recorded
    if found["package"] is None:
        return "unknown"
    return found["package"] + (f"+g{found['commit'][:12]}" if found["commit"] else "")


class ResultsFile:
    """Rows of one spec in one file (another spec's rows there are an error, not mixed)."""

    def __init__(self, path, name: str, spec: dict, digest: str):
        self.path, self.name, self.spec, self.digest = Path(path), name, spec, digest

    def finished(self) -> dict[str, dict]:
        """{task key: row} of the rows already there (a torn last line is cut off first)."""
        if not self.path.exists():
            return {}
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            data = data[: data.rfind(b"\n") + 1]  # the line a kill interrupted
            with open(self.path, "r+b") as handle:
                handle.truncate(len(data))
        rows = {}
        for number, line in enumerate(data.decode().splitlines(), start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                raise ValueError(f"results file {str(self.path)!r}, line {number}: not JSON") from None
            if number == 1 and isinstance(row, dict) and "campaign" in row:
                if row.get("digest") != self.digest:
                    raise ValueError(
                        f"results file {str(self.path)!r} is another spec's (digest {row.get('digest')}, "
                        f"this one is {self.digest}): give another --results"
                    )
                continue
            if not isinstance(row, dict) or "task" not in row or "spec" not in row:
                raise ValueError(f"results file {str(self.path)!r}, line {number}: not a campaign row")
            if row["spec"] != self.digest:
                raise ValueError(
                    f"results file {str(self.path)!r} holds rows of another spec (digest {row['spec']}, "
                    f"this one is {self.digest}): give another --results"
                )
            if "error" not in row:  # a task that raised is run again
                rows[row["task"]] = row
        return rows

    def append(self, row: dict) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.path.exists() or self.path.stat().st_size == 0:
            self._write(json.dumps({"campaign": self.name, "spec": self.spec, "digest": self.digest}, sort_keys=True))
        self._write(json.dumps(row, sort_keys=True))

    def _write(self, line: str) -> None:
        with open(self.path, "a") as handle:
            handle.write(line + "\n")
            handle.flush()
            os.fsync(handle.fileno())


def read_results(path) -> tuple[dict, list[dict]]:
    """(header, rows) of a results file, for the summary."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"results file {str(path)!r} does not exist")
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    rows = []
    for number, line in enumerate(lines, start=1):
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            if number == len(lines):
                break  # a torn last line: the run was killed while writing it
            raise ValueError(f"results file {str(path)!r}, line {number}: not JSON") from None
    if not rows or not isinstance(rows[0], dict) or "campaign" not in rows[0]:
        raise ValueError(f"results file {str(path)!r} has no campaign header line (is it a campaign's results?)")
    # one row per task: its success if it has one (a re-run after an error), else its last error
    latest: dict[str, dict] = {}
    for number, row in enumerate(rows[1:], start=2):
        if not isinstance(row, dict) or not isinstance(row.get("task"), str) or "params" not in row:
            raise ValueError(f"results file {str(path)!r}, line {number}: not a campaign row")
        if "error" not in row or "error" in latest.get(row["task"], {"error": None}):
            latest[row["task"]] = row
    return rows[0], list(latest.values())
