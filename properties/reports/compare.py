"""`python -m properties compare OLD.json NEW.json`: what changed between two runs of the
suite: two `check --json` reports (properties/reports/report.py), or two `crosscheck --json`
reports (properties/reports/crosscheck_report.py), whose entries are the algorithms,
`crosscheck_<algorithm>`. A check report and a cross-check report are not compared (exit 2).

    new failures         failing in NEW, not failing in OLD (or not run there)
    fixed                failing in OLD, not failing in NEW (run in both)
    still failing        failing in both
    changed reproducers  a counterexample in both runs, different (the minimal failing
                         example moved: a fix that changed the failure, or a new bug
                         behind an old one)

"Failing" is the report's own per-check verdict (`failing`: what made that run exit 1),
so a candidate's expected failure is not a failure and a strict XPASS is. A check run in
only one of the two reports is listed as such (added or removed checks), and the two
runs' candidates, profiles and seeds (for the cross-check: the case set's seed, size and
kind) are shown when they differ: comparing different settings is allowed but worth a
word. A cross-check's reproducer is that of its first failing run.

Exit status: 1 when there is a new failure, else 0; 2 on bad input (one line on stderr)."""

from __future__ import annotations

from dataclasses import dataclass, field

from properties.reports.report import CROSSCHECK_FORMAT, FORMAT

# what the two runs ran with, per report format: shown when it differs
_LISTS = (
    ("xfails file", lambda r: r["candidate_lists"]["xfails"]),
    ("skips file", lambda r: r["candidate_lists"]["skips"]),
    ("code commit", lambda r: r["code_version"]["commit"]),
)
SETTINGS = {
    FORMAT: (
        ("candidate", lambda r: r["candidate"]["path"]),
        ("profile", lambda r: r["profile"]),
        ("seed", lambda r: r["seed"]),
        ("quick", lambda r: r.get("quick", False)),
        *_LISTS,
    ),
    CROSSCHECK_FORMAT: (
        ("candidate", lambda r: r["candidate"]),
        ("arithmetic", lambda r: r["arithmetic"]),
        ("seed", lambda r: r["seed"]),
        ("cases", lambda r: r["cases"]),
        ("large", lambda r: r["large"]),
        *_LISTS,
    ),
}


@dataclass
class Comparison:
    new_failures: list[str] = field(default_factory=list)
    fixed: list[str] = field(default_factory=list)
    still_failing: list[str] = field(default_factory=list)
    changed_reproducers: list[str] = field(default_factory=list)
    only_old: list[str] = field(default_factory=list)
    only_new: list[str] = field(default_factory=list)
    settings: list[str] = field(default_factory=list)  # "profile: ci -> dev", ...
    statuses: dict = field(default_factory=dict)  # name -> (old status or None, new status)

    def to_json(self) -> dict:
        return {
            "new_failures": self.new_failures,
            "fixed": self.fixed,
            "still_failing": self.still_failing,
            "changed_reproducers": self.changed_reproducers,
            "only_in_old": self.only_old,
            "only_in_new": self.only_new,
            "settings_differ": self.settings,
        }


def compare(old: dict, new: dict) -> Comparison:
    """Two validated reports of one format (report.load), compared check by check (for the
    cross-check, algorithm by algorithm), in NEW's order."""
    if old["format"] != new["format"]:
        raise ValueError(f"cannot compare a {old['format']} with a {new['format']}")
    before = {c["name"]: c for c in old["checks"]}
    after = {c["name"]: c for c in new["checks"]}
    found = Comparison()
    for name, check in after.items():
        was = before.get(name)
        found.statuses[name] = (was["status"] if was else None, check["status"])
        if was is None:
            found.only_new.append(name)
        if check["failing"] and not (was and was["failing"]):
            found.new_failures.append(name)
        elif check["failing"]:
            found.still_failing.append(name)
        elif was and was["failing"]:
            found.fixed.append(name)
        if (
            was
            and was["counterexample"]
            and check["counterexample"]
            and was["counterexample"] != check["counterexample"]
        ):
            found.changed_reproducers.append(name)
    found.only_old = [name for name in before if name not in after]
    for what, get in SETTINGS[new["format"]]:
        if get(old) != get(new):
            found.settings.append(f"{what}: {get(old)} -> {get(new)}")
    return found


def comparison_text(found: Comparison, old_name: str, new_name: str) -> str:
    lines = [f"compare {old_name} -> {new_name}"]
    lines += [f"  note: {line}" for line in found.settings]
    for title, names in (
        ("new failures", found.new_failures),
        ("fixed", found.fixed),
        ("still failing", found.still_failing),
        ("changed reproducers", found.changed_reproducers),
        ("only in old", found.only_old),
        ("only in new", found.only_new),
    ):
        lines.append(f"{title}: {len(names)}")
        for name in names:
            old_status, new_status = found.statuses.get(name, (None, None))
            change = f"{old_status} -> {new_status}" if name in found.statuses else "not run in new"
            lines.append(f"  {name} ({change})")
    return "\n".join(lines)


def main(old_path: str, new_path: str, as_json: bool = False) -> int:
    import json

    from properties.reports.report import ReportError, load
    from reference.command_line import UsageError

    try:
        old, new = (load(path, (FORMAT, CROSSCHECK_FORMAT)) for path in (old_path, new_path))
    except ReportError as error:
        raise UsageError(str(error)) from None
    if old["format"] != new["format"]:
        raise UsageError(
            f"{old_path} is a {old['format']} and {new_path} a {new['format']}: compare two check "
            "reports or two crosscheck reports"
        )
    found = compare(old, new)
    print(json.dumps(found.to_json()) if as_json else comparison_text(found, old_path, new_path))
    return 1 if found.new_failures else 0


__all__ = ["Comparison", "compare", "comparison_text", "main"]
