"""A candidate's own expected failures and skips: `--xfails-file FILE` / `--skips-file FILE`
(`check`, `crosscheck`), `--cral-xfails` / `--cral-skips` (the pytest plugin) and
check_implementation(xfails=..., skips=...).

The file is the candidate's, not ours: a float implementation that fails an exact-only
check, an unfinished CALruption. Our findings' expected failures (registry.EXPECTED_FAILURES,
facts about the paper) stay as they are and are reported apart ("expected failure" versus
"expected failure (yours)").

Format: plain UTF-8 text, one check id or glob pattern (fnmatch: `*`, `?`, `[...]`) per
line; `#` starts a comment (check ids never hold one). A line's reason is its trailing
comment, else the comment lines directly above it (no blank line between), else none.
Blank lines and whole-line comments are ignored.

    # float64: these checks hold only in exact arithmetic
    check_calruption_fit_is_optimal
    check_calruption_one_epoch_*      # one-epoch mode not written yet
    crosscheck_calruption             # `crosscheck`'s comparison of one algorithm

The ids are those of `python -m properties check` (registry.all_checks) and, for
`crosscheck`, `crosscheck_<algorithm>` (CROSSCHECK_IDS), so one file serves both commands:
each applies the lines that name its own ids. Lines are validated against every id, not
against the checks a run selects (`--only`, `-k`): a file does not become invalid because
a run is narrower.

Errors (ListFileError, a ValueError; on a command line exit 2 and the one line
"FILE:LINE: ...", or "FILE: ..." for the file as a whole): a missing or unreadable file, a file that is not UTF-8 text (a NUL or an
undecodable byte: the line it is on), an unknown id, a pattern that matches no id, an empty
pattern (wildcards only, which would match everything), a line that is not one id or
pattern, and a line repeated (naming the first). A typo must never silently list nothing.

Which line applies to a check: a line naming it exactly, else the first glob that matches.
A check matched by both the xfails and the skips file is an error (naming both lines): the
two say contradictory things.

A check that is one of our findings' expected failures and is also in the candidate's
xfails file: our verdict comes first. If the failure is the one our finding explains, it
stays "expected failure" (ours; the candidate's line is shown with it); if it fails in
another way (a crash, a counterexample the finding does not explain) the candidate's line
covers it ("expected failure (yours)"); if it passes, that is an XPASS of the candidate's
line, which `--strict-xfail` turns into a failure like any other."""

from __future__ import annotations

import difflib
import fnmatch
import re
from dataclasses import dataclass, replace
from pathlib import Path

from properties.core.outcomes import BUDGET_SKIP, FAILED, NOT_APPLICABLE, NOT_RUN, PASSED, XFAIL, XPASS, CheckResult

# the candidate's own statuses, shown apart from ours (runner.STATUSES)
from reference.report_vocabulary import YOUR_SKIP, YOUR_STATUSES, YOUR_XFAIL, YOUR_XPASS

KINDS = ("xfails", "skips")
_PATTERN = re.compile(r"[A-Za-z0-9_*?\[\]!-]+")
_WILDCARDS = set("*?[]!-")


class ListFileError(ValueError):
    """A bad xfails or skips file: one line, "FILE:LINE: what is wrong"."""


def crosscheck_ids() -> tuple[str, ...]:
    """`crosscheck`'s ids: one per algorithm it compares."""
    from properties.core.outcomes import ALGORITHMS

    return tuple(f"crosscheck_{algorithm}" for algorithm in ALGORITHMS)


def known_ids() -> tuple[str, ...]:
    from properties.checks.registry import all_checks

    return (*all_checks(), *crosscheck_ids())


@dataclass(frozen=True)
class Entry:
    """One line of a candidate's list."""

    kind: str  # "xfails" or "skips"
    file: str
    line: int
    pattern: str
    reason: str | None

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"

    def describe(self) -> str:
        """ "<reason> (FILE:LINE)", as printed with a result (whose status says "yours")."""
        return f"{self.reason or 'no reason given'} ({self.where})"

    def to_json(self) -> dict:
        return {"list": self.kind, "file": self.file, "line": self.line, "pattern": self.pattern, "reason": self.reason}


@dataclass(frozen=True)
class CandidateList:
    kind: str
    file: str
    entries: tuple[Entry, ...]

    def match(self, check_id: str) -> Entry | None:
        """The line that applies to `check_id`: an exact one, else the first glob that matches."""
        for entry in self.entries:
            if entry.pattern == check_id:
                return entry
        for entry in self.entries:
            if fnmatch.fnmatchcase(check_id, entry.pattern):
                return entry
        return None


def _text_lines(path: Path, shown: str) -> list[str]:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ListFileError(f"{shown}: no such file") from None
    except IsADirectoryError:
        raise ListFileError(f"{shown}: is a folder, not a file") from None
    except OSError as error:
        raise ListFileError(f"{shown}: cannot be read: {error.strerror or error}") from None
    if data.startswith(b"\xef\xbb\xbf"):  # a byte-order mark some editors write: not part of line 1
        data = data[3:]
    nul = data.find(b"\0")  # valid UTF-8, but no text file holds one
    try:
        text = data.decode("utf-8")
        bad = None
    except UnicodeDecodeError as error:
        text, bad = None, error.start
    if nul >= 0 and (bad is None or nul < bad):
        line = data.count(b"\n", 0, nul) + 1
        raise ListFileError(f"{shown}:{line}: not a text file (a NUL byte)")
    if bad is not None:
        line = data.count(b"\n", 0, bad) + 1
        raise ListFileError(f"{shown}:{line}: not a text file (byte 0x{data[bad]:02x} is not UTF-8 text)")
    # "\n" only: splitlines() also splits at form feeds and U+2028, and line numbers would drift
    return [line.removesuffix("\r") for line in text.split("\n")]


def read(path, kind: str, ids=None) -> CandidateList:
    """Parse and validate the candidate's list at `path` against the check ids `ids`
    (default: every id, known_ids()). Raises ListFileError naming the file and line."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    shown = str(path)
    ids = tuple(known_ids() if ids is None else ids)
    entries: list[Entry] = []
    first_line: dict[str, int] = {}
    comments: list[str] = []  # the comment block directly above the current line
    for number, raw in enumerate(_text_lines(Path(path), shown), start=1):
        pattern, _, comment = raw.partition("#")
        pattern, comment = pattern.strip(), comment.strip()
        if not pattern:
            if "#" in raw:
                if comment:
                    comments.append(comment)
            else:
                comments = []  # a blank line ends a comment block
            continue
        where = f"{shown}:{number}"
        if not _PATTERN.fullmatch(pattern):
            raise ListFileError(
                f"{where}: {pattern!r} is not one check id or glob pattern (one per line; a reason goes after '#')"
            )
        if set(pattern) <= _WILDCARDS:
            raise ListFileError(
                f"{where}: empty pattern {pattern!r} (wildcards only: it would match every check; name the checks)"
            )
        if pattern in first_line:
            raise ListFileError(f"{where}: duplicate line {pattern!r} (first at line {first_line[pattern]})")
        first_line[pattern] = number
        if not any(c in pattern for c in "*?["):
            if pattern not in ids:
                near = difflib.get_close_matches(pattern, ids, n=3)
                hint = f" (did you mean {', '.join(near)}?)" if near else ""
                raise ListFileError(f"{where}: unknown check id {pattern!r}{hint}")
        elif not any(fnmatch.fnmatchcase(i, pattern) for i in ids):
            raise ListFileError(f"{where}: pattern {pattern!r} matches no check")
        reason = comment or (" ".join(comments) if comments else None)
        entries.append(Entry(kind, shown, number, pattern, reason))
        comments = []
    return CandidateList(kind, shown, tuple(entries))


@dataclass(frozen=True)
class CandidateLists:
    """A run's xfails and skips (either may be None)."""

    xfails: CandidateList | None = None
    skips: CandidateList | None = None
    strict_xfail: bool = False

    def skip_of(self, check_id: str) -> Entry | None:
        return self.skips.match(check_id) if self.skips else None

    def xfail_of(self, check_id: str) -> Entry | None:
        return self.xfails.match(check_id) if self.xfails else None

    def to_json(self) -> dict:
        return {
            "xfails": self.xfails.file if self.xfails else None,
            "skips": self.skips.file if self.skips else None,
            "strict_xfail": self.strict_xfail,
        }


def load(xfails=None, skips=None, *, strict_xfail: bool = False, ids=None) -> CandidateLists:
    """Read both files (either may be None) and refuse a check both list."""
    ids = tuple(known_ids() if ids is None else ids)
    found = CandidateLists(
        read(xfails, "xfails", ids) if xfails is not None else None,
        read(skips, "skips", ids) if skips is not None else None,
        strict_xfail,
    )
    if found.xfails and found.skips:
        for check_id in ids:
            x, s = found.xfail_of(check_id), found.skip_of(check_id)
            if x and s:
                raise ListFileError(
                    f"{x.where}: {check_id} is also skipped by {s.where}: an expected failure "
                    "is run, a skip is not; list it in one file"
                )
    return found


def skipped_result(check, entry: Entry) -> CheckResult:
    """The result of a check the candidate skips: not run."""
    return CheckResult(
        check.name, check.cites, check.kind, YOUR_SKIP, 0, reason=entry.describe(), listed=entry.to_json()
    )


def apply(result: CheckResult, lists: CandidateLists) -> CheckResult:
    """The result with the candidate's xfails line (if any) applied; see the module's
    docstring for a check that is also one of our findings' expected failures."""
    entry = lists.xfail_of(result.name)
    if entry is None or result.status == NOT_APPLICABLE:
        return result
    if result.status == XFAIL:  # our finding explains it: ours, the candidate's line shown with it
        return replace(result, listed=entry.to_json())
    if result.status == FAILED:
        return replace(
            result,
            status=YOUR_XFAIL,
            listed=entry.to_json(),
            reason=entry.describe() + (f"; ours: {result.reason}" if result.reason else ""),
        )
    if result.status in (PASSED, XPASS):
        return replace(
            result,
            status=YOUR_XPASS,
            listed=entry.to_json(),
            reason=f"listed as an expected failure but passed: remove line {entry.where} ({entry.reason or 'no reason given'})",
        )
    return result


def crosscheck_statuses(reports, lists: CandidateLists) -> dict[str, tuple[str, Entry | None]]:
    """`crosscheck`'s verdict per algorithm compared, with the candidate's xfails applied:
    {algorithm: (status, the xfails line or None)}; an algorithm fails when one of its runs
    mismatched or was skipped (a hang)."""
    found = {}
    for algorithm in dict.fromkeys(r.algorithm for r in reports):
        ok = all(r.ok for r in reports if r.algorithm == algorithm)
        entry = lists.xfail_of(f"crosscheck_{algorithm}")
        if not ok and all(r.ok or r.skipped == BUDGET_SKIP for r in reports if r.algorithm == algorithm):
            found[algorithm] = (NOT_RUN, entry)  # nothing failed, but the time budget left runs undone
        elif entry is None:
            found[algorithm] = (PASSED if ok else FAILED, None)
        else:
            found[algorithm] = (YOUR_XPASS if ok else YOUR_XFAIL, entry)
    return found


def status_fails_run(status: str, strict_xfail: bool = False) -> bool:
    """The rule both commands share: a failure (for `crosscheck`: a mismatch or a hang), a
    verdict the time budget left undone, or under strict_xfail an expected failure of the
    candidate's that passed (its line is stale)."""
    return status in (FAILED, NOT_RUN) or (status == YOUR_XPASS and strict_xfail)


def is_failure(result: CheckResult, impl_path: str, strict_xfail: bool = False) -> bool:
    """`check`'s rule: status_fails_run, and an expected failure of ours that passed on the
    reference (our record of the finding is stale)."""
    from properties.core.candidate import DEFAULT_IMPL

    return status_fails_run(result.status, strict_xfail) or (result.status == XPASS and impl_path == DEFAULT_IMPL)


__all__ = [
    "CandidateList",
    "CandidateLists",
    "Entry",
    "KINDS",
    "ListFileError",
    "YOUR_SKIP",
    "YOUR_STATUSES",
    "YOUR_XFAIL",
    "YOUR_XPASS",
    "apply",
    "crosscheck_ids",
    "crosscheck_statuses",
    "is_failure",
    "known_ids",
    "load",
    "read",
    "skipped_result",
    "status_fails_run",
]
