"""Deciding many steps, and the three ways of showing the verdicts: table, JSON, markdown."""

from __future__ import annotations

from collections import Counter, defaultdict

from reference import command_line

from .decide import (
    NOT_MECH,
    NOT_WELL_FORMED,
    PROVED,
    PROVED_FROM_REFUTED,
    REFUTED,
    UNKNOWN,
    Verdict,
    decide_step,
    decider_versions,  # noqa: F401 (the report's public name)
)
from .exact import fraction_text
from .step import REPAIR_SUFFIX, Step

STATUSES = (PROVED, PROVED_FROM_REFUTED, REFUTED, NOT_WELL_FORMED, UNKNOWN, NOT_MECH)
_BAD = (REFUTED, NOT_WELL_FORMED)  # a premise with this verdict does not hold as printed


PLAIN_PROGRESS_EVERY = 50  # steps between progress lines when the stream is not a terminal


def run_steps(steps, progress=None) -> list[tuple[Step, Verdict]]:
    """Decide every step; progress on `progress` (a stream): one line rewritten in place on
    a terminal, a line every PLAIN_PROGRESS_EVERY steps otherwise (no carriage returns in a
    log file). Ctrl-C stops between steps even if a decider caught it."""
    results = []
    tty = progress is not None and progress.isatty()
    for i, step in enumerate(steps, 1):
        command_line.raise_if_interrupted()
        if tty:
            progress.write(f"\r[{i}/{len(steps)}] {step.id:<48}")
            progress.flush()
        elif progress is not None and (i % PLAIN_PROGRESS_EVERY == 0 or i == len(steps)):
            progress.write(f"[{i}/{len(steps)}] steps decided\n")
            progress.flush()
        results.append((step, decide_step(step)))
    command_line.raise_if_interrupted()
    if tty:
        progress.write("\r" + " " * 60 + "\r")
    return propagate(results)


def _premise_status(verdict: Verdict, use: str) -> str:
    """The verdict of what a step relies on: the used step's claim, or (ID#repair) its Repair."""
    if use.endswith(REPAIR_SUFFIX):
        return verdict.repair.status if verdict.repair is not None else UNKNOWN
    return verdict.status


def propagate(results) -> list[tuple[Step, Verdict]]:
    """Carry refutations along `uses`: each step records the refuted (or ill-formed) steps it
    rests on, directly or through the steps it uses; a proved step resting on one becomes
    PROVED_FROM_REFUTED. A step that uses a repaired reading (or ID#repair) is judged by the
    repair's verdict. Uses outside `results` (a --only selection) are not followed."""
    by_id = {s.id: (s, v) for s, v in results}
    done: dict[str, tuple[str, ...]] = {}

    def roots(step_id: str, trail=()) -> tuple[str, ...]:
        if step_id in done:
            return done[step_id]
        if step_id in trail:
            raise ValueError(f"uses: cycle through step {step_id!r}")
        step, _ = by_id[step_id]
        found = set()
        for use in step.uses:
            base = use.removesuffix(REPAIR_SUFFIX)
            if base not in by_id:
                continue
            if _premise_status(by_id[base][1], use) in _BAD:
                found.add(use)
            found.update(roots(base, (*trail, step_id)))
        done[step_id] = tuple(sorted(found))
        return done[step_id]

    for step, verdict in results:
        verdict.refuted_premises = roots(step.id)
        if verdict.status == PROVED and verdict.refuted_premises:
            verdict.status = PROVED_FROM_REFUTED
    return results


def _point(point) -> dict | None:
    return None if point is None else {k: fraction_text(v) for k, v in sorted(point.items())}


def _repair_json(step: Step, verdict: Verdict):
    if step.repair is None:
        return None
    out = {
        "claim": step.repair.claim,
        "premises": list(step.repair.premises or step.premises),
        "note": step.repair.note,
        "status": verdict.repair.status if verdict.repair else UNKNOWN,
        "method": verdict.repair.method if verdict.repair else "",
        "counterexample": _point(verdict.repair.counterexample) if verdict.repair else None,
    }
    if step.repair.sharp:
        name = step.repair.sharp[0]
        out["sharp"] = (
            None
            if verdict.sharp is None
            else {
                "constant": name,
                "refuted_at": fraction_text(verdict.sharp[0]),
                "proved_at": fraction_text(verdict.sharp[1]),
            }
        )
    return out


def to_json(results) -> list[dict]:
    """One object per step (docs/proofs_check_json.md). `result_verdicts`: the three verdicts of
    each result of the step's lemma (statement / proof / constant as route and statement intervals)."""
    from .errata import result_verdicts

    verdicts = result_verdicts({s.id: (s, v) for s, v in results})
    return [
        {
            "id": s.id,
            "lemma": s.lemma,
            "location": s.location,
            "premises": list(s.premises),
            "claim": s.claim,
            "justification": s.justification,
            "status": v.status,
            "method": v.method,
            "reason": v.reason,
            "counterexample": _point(v.counterexample),
            "repair": _repair_json(s, v),
            "finding": s.finding,
            "uses": list(s.uses),
            "reading_of": s.reading_of,
            "refuted_premises": list(v.refuted_premises),
            "standing": list(v.standing),
            "rejected_models": list(v.rejected),
            "result_verdicts": verdicts.get(s.lemma, []),
        }
        for s, v in results
    ]


def _groups(results):
    groups = defaultdict(list)
    for s, v in results:
        groups[s.lemma].append((s, v))
    return groups


def _counts(items) -> str:
    c = Counter(v.status for _, v in items)
    return ", ".join(f"{c[k]} {k}" for k in STATUSES if c[k])


def _detail(v: Verdict) -> str:
    """How a verdict was reached: the method, the counterexample, or the reason."""
    if v.status == REFUTED:
        text = "counterexample " + ", ".join(f"{k} = {t}" for k, t in _point(v.counterexample).items())
    else:
        text = v.method if v.status in (PROVED, PROVED_FROM_REFUTED) else v.reason
    if v.standing:
        text += " (within the standing assumptions " + ", ".join(v.standing) + ")"
    if v.refuted_premises:
        text += "; rests on " + ", ".join(v.refuted_premises) + " (not valid as printed)"
    return text


def _sharp(s: Step, v: Verdict) -> str:
    return f"{s.repair.sharp[0]} in ({fraction_text(v.sharp[0])}, {fraction_text(v.sharp[1])}]"


# the paper's numbering of the results its \\labels name (as the property checks cite them)
_NUMBERED = {
    "them: passive learning": "Theorem 3.1",
    "prop: robust cal for known C": "Theorem 4.1",
    "them: main": "Theorem 5.1",
    "lem(main): upper and lower bound": "Lemma 5.1",
    "lem(main): upper bound the difference of classifiers": "Lemma 5.2",
    "lem: corruption related  1": "Lemma A.1",
    "lem: corruption related  2": "Lemma A.2",
    "lem: passive learning": "Lemma C.1",
}
_KINDS = {
    "lem": "lemma",
    "them": "theorem",
    "prop": "proposition",
    "coro": "corollary",
    "sec": "section",
    "line": "line",
    "alg": "algorithm",
    "condition": "condition",
}


def heading(label: str) -> str:
    """A group's heading for people: 'Lemma A.1 (lem: corruption related  1)' rather
    than the raw LaTeX label alone; the label stays, so it can be searched for."""
    if label in _NUMBERED:
        return f"{_NUMBERED[label]} ({label})"
    prefix, sep, rest = label.partition(":")
    kind = _KINDS.get(prefix.split("(")[0].strip())
    rest = " ".join(rest.split())
    if prefix == "unlabeled":
        return f"unlabeled in the paper: {rest}"
    if sep and kind:
        return f"{kind} '{rest}' ({label})" if rest and rest != "main" else f"{kind} {label}"
    return label


def table(results) -> str:
    lines = []
    for lemma, items in _groups(results).items():
        lines.append(f"== {heading(lemma)}: {_counts(items)}")
        for s, v in items:
            lines.append(f"  {v.status:<15} {s.id:<40} {_detail(v)}")
            if s.reading_of:
                lines.append(f"  {'':<15} (a repaired reading of {s.reading_of})")
            if v.repair is not None:
                sharp = "" if v.sharp is None else f" (sharp {_sharp(s, v)})"
                lines.append(f"  {'  repair: ' + v.repair.status:<15} {s.repair.claim}{sharp}")
    lines.append(f"total: {_counts(results)}")
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(results) -> str:
    """The committed report (proofs_check/REPORT.md). Deterministic: no timings, and
    every decider is deterministic (z3 under an rlimit, a derandomized search)."""
    lines = [
        "# proofs_check report",
        "",
        "Generated by `python -m proofs_check --markdown proofs_check/REPORT.md`; "
        "`tests/proofs_check/test_deciders_and_pipeline.py` fails when it is stale.",
        "",
        f"Deciders: {decider_versions()}.",
        "",
        f"**Total: {_counts(results)}** ({len(results)} steps)",
        "",
    ]
    for lemma, items in _groups(results).items():
        lines += [
            f"## {lemma}",
            "",
            _counts(items),
            "",
            "| id | location | claim | status | how |",
            "| --- | --- | --- | --- | --- |",
        ]
        for s, v in items:
            how = _detail(v)
            if s.reading_of:
                how = f"repaired reading of {s.reading_of}; " + how
            if s.finding:
                how += f" (FINDINGS {s.finding})"
            if v.repair is not None:
                how += f"; repair `{s.repair.claim}`: {v.repair.status}"
                if v.sharp is not None:
                    how += f", sharp {_sharp(s, v)}"
            lines.append(f"| {s.id} | {_cell(s.location)} | `{_cell(s.claim)}` | {v.status} | {_cell(how)} |")
        lines.append("")
    return "\n".join(lines)
