"""`python -m properties conformance --candidate-cmd CMD`: a program's documents checked
before any check runs, so that a malformed document is named as such and not read as a
wrong answer.

Each request kind is sent once -- describe, every algorithm the program declares
(loss_difference_samples included: one request of three calls), a
boundary tape (a coin exactly on a non-dyadic q of CALruption's second epoch), and bad
input (catoni_root with a negative count and, to an exact program, with the float token
-1.0 among its values: each must be answered with a `cral-error` document) -- and each answer is checked as a document, in seconds:

1. as JSON and against its published schema (reference/schemas/v1/): *every* schema
   error, each with its JSON path, the value and the rule;
2. against the conventions a valid result needs beyond the schema, by the same decoders
   the judge uses (properties/core/contract.py) and by comparing the document's shape with
   the reference's answer to the same request: where the reference writes null the
   program must too (a diagonal of min_q, alpha or W, the x-marginal off the support is
   0 not null, final_empirical_risk outside V), lists of the same lengths, and the trace's
   params the request's (a float program may echo them as the nearest doubles: noted);
3. W = 0 where rho^ = 0 may also be written null: both are accepted by the judge, and
   the kit says which form the program uses.

What a document *means* (its numbers) is left to `check` and `crosscheck`: the kit only
says whether the judge can read it. Exit status 0 when every document is readable, 1
when one is not, 2 on bad input (a command that cannot describe itself)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from fractions import Fraction

import reference
from properties.core import representations
from properties.core.candidate import CandidateFault
from properties.core.contract import decode_enclosure, decode_epoch_result, decode_samples, decode_trace
from properties.core.spec_citations import cite, conventions_at
from properties.core.violation import CallFailed
from properties.judge.command import RESULT_KINDS, CommandCandidate, _samples_request
from properties.judge.either_forms import read_either_forms
from reference import documents
from reference.calruption import EpochCounts, calruption_epoch, initial_state, loss_difference_samples
from reference.documents import DocumentError, json_path, shown
from reference.serialization import to_jsonable

BAD_INPUT = "catoni_root (bad input: a negative count)"
# spec S2: a float token where a rational belongs, sent to an exact program (-1.0: a parser
# that reads JSON numbers as doubles sees the integer -1 and must look at the raw text)
BAD_FLOAT = "catoni_root (bad input: a float value -1.0, spec S2)"
BAD_INPUTS = (BAD_INPUT, BAD_FLOAT)
BOUNDARY = "calruption (boundary tape: a coin exactly on q)"

# Every request the kit sends, in the order sent, with when it is sent. docs/protocol.md
# section 8 prints this table; tests/properties/judge/test_protocol_examples.py keeps the two equal and holds
# `conformance` to sending exactly these.
REQUESTS = (
    ("describe", "always, first"),
    ("passive", "the program declares passive"),
    ("robust_cal", "the program declares robust_cal"),
    ("robust_cal_vanilla", "the program declares robust_cal_vanilla"),
    ("calruption", "the program declares calruption"),
    (BOUNDARY, "the program declares calruption"),
    ("calruption_epoch", "the program declares calruption_epoch"),
    ("catoni_root", "the program declares catoni_root"),
    (BAD_INPUT, "the program declares catoni_root"),
    (BAD_FLOAT, "the program declares catoni_root and exact arithmetic"),
    ("loss_difference_samples", "the program declares loss_difference_samples"),
    ("sample_tape", "the program declares sample_tape"),
)


@dataclass
class DocumentReport:
    """One request and what is wrong with its answer (nothing: readable)."""

    request: str
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict:
        return {"request": self.request, "ok": self.ok, "problems": self.problems, "notes": self.notes}


class _RawCandidate(CommandCandidate):
    """The command route with the result kept as parsed JSON: schema errors are the kit's
    to list (all of them), not a failure of the first."""

    def _read(self, data, source, algorithm, exit_message, code, directory, where, values):
        if self.raw_mode:
            if not data.strip():
                self._fail(directory, exit_message if code else f"wrote no result document ({where})", values)
            try:
                document = documents.parse_json(data, source)
            except DocumentError as error:
                self._fail(directory, f"wrote no readable JSON ({where}): {error}", values)
            if not isinstance(document, dict):
                self._fail(directory, f"wrote a JSON {type(document).__name__}, not an object ({where})", values)
            return document
        return super()._read(data, source, algorithm, exit_message, code, directory, where, values)

    raw_mode = False

    def raw(self, algorithm: str, args: tuple, kwargs: dict | None = None) -> dict:
        self.raw_mode = True
        try:
            if algorithm == "loss_difference_samples":  # args: the calls of one request
                inputs = _samples_request(args)
            else:
                inputs = self._inputs(algorithm, args, kwargs or {})
            return self._run(algorithm, inputs, self.timeout)
        finally:
            self.raw_mode = False


# -- the requests ------------------------------------------------------------------------
def _small_case():
    """4 points (one of mass 0: never seen, so the x-marginal is 0 and eta^ null there),
    3 hypotheses (two that agree on the support: a pair with rho^ = 0), n = 84: three
    complete CALruption epochs at beta1 = 1 (4 + 16 + 64 rounds), RobustCAL's checkpoints
    2..64 with eliminations (final_empirical_risk null outside V)."""
    instance = reference.Instance(
        [Fraction(1, 2), Fraction(1, 3), Fraction(1, 6), Fraction(0)],
        [Fraction(1, 8), Fraction(1, 2), Fraction(7, 8), Fraction(1, 2)],
        [(0, 0, 1, 0), (1, 1, 0, 1), (0, 0, 1, 1)],
    )
    n = 84
    params = reference.Params.scaled(n, 3, Fraction(1, 10), Fraction(1, 16), Fraction(1))
    tape = reference.sample_tape(instance, reference.adversary.clean(n), 7)
    return instance, params, tape


def _boundary_tape(instance, params, tape):
    """The small case's tape with the first coin of epoch 2 at a point with q_2 > 0 set to
    exactly q_2 there (a tie u_t = q is no query; a non-dyadic q when the epoch length
    has an odd factor)."""
    H = instance.hypotheses
    first = reference.calruption(H, tape, params).epochs[0]
    us = list(tape.u)
    for t in range(first.tau + first.length - 1, tape.n):
        if first.next_q[tape.x[t]] > 0:
            us[t] = first.next_q[tape.x[t]]
            break
    return reference.Tape(tape.x, tape.y, us)


def _epoch_request(instance, params, tape):
    H = instance.hypotheses
    state = initial_state(instance.num_points, len(H), params)
    seen = [0] * instance.num_points
    queried = [[0, 0] for _ in range(instance.num_points)]
    for t in range(state.length):
        seen[tape.x[t]] += 1
        queried[tape.x[t]][tape.y[t]] += 1
    _, state = calruption_epoch(H, state, EpochCounts(tuple(seen), tuple(map(tuple, queried))), params)
    seen = [0] * instance.num_points
    for t in range(state.tau - 1, state.tau - 1 + state.length):
        seen[tape.x[t]] += 1
    queried = tuple((s // 2, s - s // 2) if state.q[x] > 0 else (0, 0) for x, s in enumerate(seen))
    return H, state, EpochCounts(tuple(seen), queried), params


# -- the conventions -----------------------------------------------------------------------
def _shape_differences(candidate, exact, path=()) -> list[str]:
    """Where the program's document differs in shape from the reference's: null against a
    value, a list of another length, a field missing (values themselves are not judged)."""
    if exact is None or candidate is None:
        if (exact is None) != (candidate is None):
            return [
                f"at {json_path(path)}: the reference writes {'null' if exact is None else shown(exact)}, the "
                f"program {'null' if candidate is None else shown(candidate)}{_spec(path)}"
            ]
        return []
    if isinstance(exact, list):
        if not isinstance(candidate, list) or len(candidate) != len(exact):
            return [
                f"at {json_path(path)}: the reference writes a list of {len(exact)}, the program "
                f"{shown(candidate)}{_spec(path)}"
            ]
        return [d for i, (c, e) in enumerate(zip(candidate, exact)) for d in _shape_differences(c, e, (*path, i))]
    if isinstance(exact, dict):
        if not isinstance(candidate, dict):
            return [
                f"at {json_path(path)}: the reference writes an object, the program {shown(candidate)}{_spec(path)}"
            ]
        return [
            d
            for key, e in exact.items()
            if key not in ("lp_method",)
            for d in _shape_differences(candidate.get(key), e, (*path, key))
        ]
    return []


def _spec(path) -> str:
    """ " (spec S26: ...)" for the field at `path`: what the program must write there."""
    ids = conventions_at(path)
    return f" ({cite(ids)})" if ids else ""


def _samples_differences(document: dict, exact: dict) -> list[str]:
    """Where the program's loss-difference samples differ from the reference's as multisets
    (spec S27, S44: the checks read them so)."""
    problems = []
    for i, (got, want) in enumerate(zip(document["results"], exact["results"])):
        values, counts = decode_samples("conformance", [got["values"], got["counts"]])
        have: dict[Fraction, int] = {}
        for v, c in zip(values, counts):
            have[v] = have.get(v, 0) + c
        expected = {Fraction(v): c for v, c in zip(want["values"], want["counts"])}
        if have != expected:
            problems.append(
                f"at $.results[{i}]: the samples are {_multiset(have)}, the reference's {_multiset(expected)} "
                f"({cite(('S27', 'S44'))})"
            )
    return problems


def _multiset(samples: dict) -> str:
    return "{" + ", ".join(f"{v}: {c}" for v, c in sorted(samples.items())) + "}"


def _samples_calls(instance, params, tape) -> list:
    """loss_difference_samples calls of the epoch request: a pair with queried rounds both
    ways, the same pair reversed, and a pair with rho^ = 0 (every sample 0)."""
    H, state, counts, _ = _epoch_request(instance, params, tape)
    return [((H, h, h2, state.q, counts, state.length), {}) for h, h2 in ((0, 1), (1, 0), (0, 2))]


# -- the run -------------------------------------------------------------------------------
def _schema_problems(document, kind: str, arithmetic: str) -> list[str]:
    problems = []
    for line in documents.schema_errors(document, kind, arithmetic=arithmetic, source="result"):
        where = re.match(r"result: at \$((?:\.\w+|\[\d+\])*)", line)
        names = re.findall(r"\.(\w+)", where.group(1)) if where else []
        problems.append(line.split(": ", 1)[1] + _spec(names))
    return problems


def _judge(
    candidate: _RawCandidate, label: str, algorithm: str, args: tuple, exact_document, decode, request_params=None
) -> DocumentReport:
    report = DocumentReport(label)
    try:
        document = candidate.raw(algorithm, args)
    except (CandidateFault, CallFailed) as fault:
        message = getattr(fault, "message", None) or str(fault)
        report.problems.append(message)
        return report
    if not isinstance(document, dict):
        report.problems.append(f"at $: must be an object, got {shown(document)}")
        return report
    expected_format, kind = RESULT_KINDS[algorithm]
    if label in BAD_INPUTS:
        if document.get("format") != "cral-error":
            report.problems.append(
                f"bad input must be answered with a cral-error document, got format {shown(document.get('format'))} "
                f"({cite(('S2', 'S43', 'S47') if label == BAD_FLOAT else ('S43', 'S47'))})"
            )
        else:
            report.problems += _schema_problems(document, "error", "exact")
        return report
    if document.get("format") == "cral-error":
        report.problems.append(f"answered with an error: {shown(document.get('message'))}")
        return report
    if algorithm in representations.RESULT_ALGORITHMS:  # read for meaning first, as the judge does
        try:
            document, ignored = representations.accept_document(algorithm, document, candidate.arithmetic)
        except representations.MissingField as error:
            report.problems.append(str(error))
            return report
        if ignored:
            report.notes.append(f"unknown fields ignored (the judge ignores them too): {', '.join(sorted(ignored))}")
    report.problems += _schema_problems(document, kind, candidate.arithmetic)
    if report.problems:
        return report
    if kind == "trace":
        document, read = read_either_forms(document, request_params, candidate.arithmetic)
        report.notes += [
            f"{what} ({count} entries): accepted, read as the reference writes it"
            for what, count in sorted(read.items())
        ]
        if document.get("params") != request_params:
            report.problems.append(
                f"at $.params: must echo the request's params exactly, got "
                f"{shown(document.get('params'))}, the request's {shown(request_params)}"
            )
            document = {**document, "params": request_params}
    report.problems += _shape_differences(document, exact_document)
    if report.problems:
        return report
    if algorithm == "loss_difference_samples":
        try:
            report.problems += _samples_differences(document, exact_document)
        except CallFailed as failure:
            report.problems.append(failure.violation.message)
        return report
    try:
        decode(document)
    except CallFailed as failure:
        report.problems.append(failure.violation.message)
    return report


def conformance(
    command: str, *, timeout: float | None = 60, memory_limit: int | None = None, tape_format: str = "auto"
) -> tuple[dict, list[DocumentReport]]:
    """(the describe document, one report per request). Raises ValueError when the
    command cannot describe itself (that is the describe report, as bad input)."""
    candidate = _RawCandidate(command, timeout=timeout, memory_limit=memory_limit, tape_format=tape_format)
    try:
        instance, params, tape = _small_case()
        H = instance.hypotheses
        request_params = json.loads(json.dumps(to_jsonable(params)))
        reports = [
            DocumentReport(
                "describe",
                notes=[f"implements {', '.join(sorted(candidate.modes))}; arithmetic {candidate.arithmetic}"],
            )
        ]
        runs = {
            "passive": lambda: reference.passive(H, tape, params),
            "robust_cal": lambda: reference.robust_cal(H, tape, params),
            "robust_cal_vanilla": lambda: reference.robust_cal(H, tape, params, vanilla=True),
            "calruption": lambda: reference.calruption(H, tape, params),
        }
        for mode, run in runs.items():
            if mode not in candidate.modes:
                continue
            exact = reference.trace_to_json(run())
            reports.append(
                _judge(
                    candidate,
                    mode,
                    mode,
                    (H, tape, params),
                    exact,
                    lambda plain, m=mode: decode_trace("conformance", plain, m),
                    request_params,
                )
            )
        if "calruption" in candidate.modes:
            boundary = _boundary_tape(instance, params, tape)
            exact = reference.trace_to_json(reference.calruption(H, boundary, params))
            reports.append(
                _judge(
                    candidate,
                    BOUNDARY,
                    "calruption",
                    (H, boundary, params),
                    exact,
                    lambda plain: decode_trace("conformance", plain, "calruption"),
                    request_params,
                )
            )
        if "calruption_epoch" in candidate.modes:
            args = _epoch_request(instance, params, tape)
            record, following = calruption_epoch(*args)
            exact = {
                "format": "cral-epoch-result",
                "version": 1,
                "record": to_jsonable(record),
                "state": to_jsonable(following),
            }
            reports.append(
                _judge(
                    candidate,
                    "calruption_epoch",
                    "calruption_epoch",
                    args,
                    exact,
                    lambda plain: decode_epoch_result(
                        "conformance", [plain["record"], plain["state"]], instance.num_points, len(H)
                    ),
                )
            )
        if "catoni_root" in candidate.modes:
            args = ([Fraction(-1), Fraction(0), Fraction(3, 2)], [2, 5, 1], Fraction(1, 3))
            exact = {"format": "cral-catoni-root", "version": 1, "lo": "0", "hi": "0"}
            floats = candidate.arithmetic != "exact"
            reports.append(
                _judge(
                    candidate,
                    "catoni_root",
                    "catoni_root",
                    args,
                    exact,
                    lambda plain: decode_enclosure("conformance", [plain["lo"], plain["hi"]], floats=floats),
                )
            )
            reports.append(
                _judge(
                    candidate, BAD_INPUT, "catoni_root", ([Fraction(1)], [-1], Fraction(1)), None, lambda plain: None
                )
            )
            if candidate.arithmetic == "exact":
                floats = ([-1.0, Fraction(0), Fraction(3, 2)], [2, 5, 1], Fraction(1, 3))
                reports.append(_judge(candidate, BAD_FLOAT, "catoni_root", floats, None, lambda plain: None))
        if "loss_difference_samples" in candidate.modes:
            calls = _samples_calls(instance, params, tape)
            results = []
            for args, _ in calls:
                values, counts = loss_difference_samples(*args)
                results.append({"values": [str(v) for v in values], "counts": list(counts)})
            reports.append(
                _judge(
                    candidate,
                    "loss_difference_samples",
                    "loss_difference_samples",
                    calls,
                    {"format": "cral-samples", "version": 1, "results": results},
                    lambda plain: None,
                )
            )
        if "sample_tape" in candidate.modes:
            adversary = reference.adversary.clean(16)
            exact = reference.sample_tape(instance, adversary, 3).to_json()
            reports.append(
                _judge(
                    candidate,
                    "sample_tape",
                    "sample_tape",
                    (instance, adversary, 3),
                    {**exact, "format": "cral-tape", "version": 1},
                    lambda plain: None,
                )
            )
        return candidate.description, reports
    finally:
        candidate.close()


def report_text(reports: list[DocumentReport]) -> str:
    lines = []
    for r in reports:
        lines.append(f"{'ok  ' if r.ok else 'FAIL'}  {r.request}")
        lines += [f"        {problem}" for problem in r.problems]
        lines += [f"        note: {note}" for note in r.notes]
    bad = sum(not r.ok for r in reports)
    lines.append(
        f"{len(reports) - bad} of {len(reports)} documents readable by the judge"
        + ("" if not bad else f"; {bad} not (fix these before running check)")
    )
    return "\n".join(lines)


__all__ = ["REQUESTS", "DocumentReport", "conformance", "report_text"]
