"""No history in the code, the tests or the docs: what changed and when belongs in CHANGELOG.md only.

A note naming a ticket's number points to a tracker a reader of the repository does not have,
and a sentence telling what the code was describes code that is gone. Both are refused in every
file git tracks, CHANGELOG.md and binary files aside; the failure names each offending file:line.
The phrases refused besides "issue N" are the ones that only ever narrate a change: wider ones
("no longer", "used to", "previously", "now") also state present facts ("the fit is no longer
optimal", "a table used to classify"), so they are left to review."""

from __future__ import annotations

import re
import subprocess

from tests.support import REPO_ROOT

ALLOWED = {"CHANGELOG.md"}
ISSUE_NUMBER = re.compile(r"\bissues? ?#?\d", re.IGNORECASE)
HISTORY_PHRASES = re.compile(
    r"\bused to be\b|\b(?:was|were) renamed\b|\bformerly\b|\bearlier version\b|[(]was: ", re.IGNORECASE
)


def tracked_text_files() -> dict[str, list[str]]:
    """{path: its lines} of every file git tracks, CHANGELOG.md and binary files (a NUL byte,
    or not UTF-8) aside. Files deleted from the working tree but still in the index are skipped."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO_ROOT, capture_output=True, check=True).stdout
    out = {}
    for name in filter(None, listed.decode().split("\0")):
        path = REPO_ROOT / name
        if name in ALLOWED or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data:
            continue
        try:
            out[name] = data.decode("utf-8").splitlines()
        except UnicodeDecodeError:
            continue
    return out


def _hits(pattern: re.Pattern) -> list[str]:
    return [
        f"{name}:{number}: {line.strip()[:160]}"
        for name, lines in sorted(tracked_text_files().items())
        for number, line in enumerate(lines, start=1)
        if pattern.search(line)
    ]


def test_no_file_but_the_changelog_names_an_issue_number():
    hits = _hits(ISSUE_NUMBER)
    assert not hits, (
        f"{len(hits)} line(s) name an issue number; say why instead (with the paper's line or lemma), "
        "and put what changed in CHANGELOG.md:\n" + "\n".join(hits)
    )


def test_no_file_but_the_changelog_narrates_a_change():
    hits = _hits(HISTORY_PHRASES)
    assert not hits, (
        f"{len(hits)} line(s) narrate a change; state the present and put the change in CHANGELOG.md:\n"
        + "\n".join(hits)
    )


def test_the_patterns_catch_what_they_are_for():
    # spelled in pieces so that this file passes its own tests
    issue, issues = "iss" + "ue", "Iss" + "ues"
    for line in (f"({issue} 28, item 6)", f"{issues} 11 and 18", f"{issue} #4", f"see {issue.upper()} 3", f"{issue}29"):
        assert ISSUE_NUMBER.search(line), line
    for line in (f"the reference's {issue} tracker", f"an {issue} of rounding", f"t{issue} 3"):
        assert not ISSUE_NUMBER.search(line), line
    for line in ("it used to" + " be a list", "the module was" + " renamed", "(was" + ": 1.94 eps)", "former" + "ly x"):
        assert HISTORY_PHRASES.search(line), line
    assert not HISTORY_PHRASES.search("a table used to classify its counterexamples")
