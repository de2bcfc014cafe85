"""The contract between the judge and a candidate: which public names it may provide,
and how their plain-data results (properties/core/plain.py) are decoded into the reference's
types on the judge's side. A result that does not fit is a `CallFailed` naming the
field and the value, never a crash of the suite.

Public names (CONTRACT.md's "Public entry points" gives the first four; its "Additions
to the contracts" and docs/judging.md's "Pointing the suite at your implementation"
the rest, and the plain-data and JSON forms a result may take):

    passive(hypotheses, tape, params)                      -> trace       required
    robust_cal(hypotheses, tape, params, vanilla=False)    -> trace       required
    calruption(hypotheses, tape, params)                   -> trace       required
    catoni_root(values, counts, alpha)                     -> (lo, hi)    required
    calruption_epoch(hypotheses, state, counts, params)    -> (record, next state)
                                                             required by the one-epoch checks
    sample_tape(instance, adversary, seed)                 -> tape        optional, checked if present
    loss_difference_samples(H, h, h', q, counts, length)   -> (values, counts)
                                                             optional, checked if present

A *mode* is what a check exercises: a public name, or RobustCAL in one of its two forms
(`robust_cal` is the modified rule, `robust_cal_vanilla` the vanilla one, FINDINGS R6)."""

from __future__ import annotations

from fractions import Fraction

from properties.core.violation import CallFailed, Violation, clip
from reference.calruption import EpochState
from reference.exact import as_fraction
from reference.serialization import from_jsonable
from reference.tape import Tape
from reference.trace import TRACE_TYPES, CALruptionEpoch, trace_from_json

# a candidate without one of these cannot be loaded (bad input)
REQUIRED = ("passive", "robust_cal", "calruption", "catoni_root")
# names a candidate may lack: without calruption_epoch the one-epoch checks fail (the
# contract asks for it); without one of CHECKED_IF_PRESENT its checks do not apply
OPTIONAL = ("calruption_epoch", "sample_tape", "loss_difference_samples")
CHECKED_IF_PRESENT = ("sample_tape", "loss_difference_samples")
PUBLIC_NAMES = REQUIRED + OPTIONAL
TRACE_MODES = ("passive", "robust_cal", "robust_cal_vanilla", "calruption")
MODES = TRACE_MODES + ("calruption_epoch", "catoni_root", "sample_tape", "loss_difference_samples")
# the algorithms a program may answer through the run protocol (docs/protocol.md, section 2)
PROTOCOL_ALGORITHMS = TRACE_MODES + ("calruption_epoch", "catoni_root", "sample_tape", "loss_difference_samples")
# what a candidate may declare as its ARITHMETIC (properties/checks/judgement.py judges each)
ARITHMETICS = ("exact", "float64", "float32")
WORD_SCALE = 1 << 64  # a tape may give its coins as 64-bit words, u_t = w / 2^64


def function_of(mode: str) -> str:
    """The public name a mode calls."""
    return "robust_cal" if mode == "robust_cal_vanilla" else mode


def _malformed(check: str, what: str, error) -> CallFailed:
    return CallFailed(Violation.of(check, f"returned a malformed {what}: {error}"))


class Decoded(dict):
    """A result document together with what the judge decoded from it while reading it
    (properties/judge/command.py reads a program's exact trace in one pass, and a tape it
    has built already), so that decode_trace and decode_tape do not decode it again. The
    judge builds it; a candidate's own result is never one (plain.py makes plain dicts)."""

    __slots__ = ("value",)

    def __init__(self, document: dict, value):
        super().__init__(document)
        self.value = value


def decode_trace(check: str, plain, mode: str):
    """A trace of `mode`, as the reference's dataclasses. The trace must be of the
    algorithm asked for: a vanilla request answered by the modified rule (or the other
    way round) is a failure, not a trace to judge by its own claim."""
    if type(plain) is Decoded:
        trace = plain.value
    else:
        try:
            trace = trace_from_json(plain)
        except (ValueError, TypeError, AttributeError) as error:
            raise _malformed(check, f"{mode} trace", error) from None
    if not isinstance(trace, TRACE_TYPES[mode]) or trace.algorithm != mode:
        raise CallFailed(
            Violation.of(
                check, f"asked for {mode}, returned a trace of algorithm {getattr(trace, 'algorithm', None)!r}"
            )
        )
    return trace


def decode_as(check: str, plain, tp, what: str):
    """Plain data as the reference dataclass `tp`."""
    try:
        return from_jsonable(tp, plain, what)
    except (ValueError, TypeError, AttributeError) as error:
        raise _malformed(check, what, error) from None


def _pair(check: str, plain, what: str):
    if not isinstance(plain, list) or len(plain) != 2:
        raise CallFailed(Violation.of(check, f"{what} must return a pair", got=_shape(plain)))
    return plain


def _shape(plain) -> str:
    if isinstance(plain, list):
        return f"a list of {len(plain)}"
    return type(plain).__name__


def epoch_shape_problems(rec, num_points: int, num_hypotheses: int) -> list[str]:
    """What is wrong with the sizes and indices of an epoch record (a CALruptionEpoch): a
    check can index a record only when this is empty."""
    m, num_h = num_points, num_hypotheses
    problems = []
    for field in ("q", "empirical_x", "eta_hat", "next_q"):
        if len(getattr(rec, field)) != m:
            problems.append(f"{field} has {len(getattr(rec, field))} entries, not one per point ({m})")
    for field in ("risk_hat", "gap_hat"):
        if len(getattr(rec, field)) != num_h:
            problems.append(f"{field} has {len(getattr(rec, field))} entries, not one per hypothesis ({num_h})")
    for field in ("rho", "min_q", "alpha", "W", "weight"):
        matrix = getattr(rec, field)
        if len(matrix) != num_h or any(len(row) != num_h for row in matrix):
            problems.append(f"{field} is not a |H| x |H| matrix (|H| = {num_h})")
    if any(not 0 <= x < m for x in rec.support) or list(rec.support) != sorted(set(rec.support)):
        problems.append(f"support {list(rec.support)} is not an increasing list of points")
    if not 0 <= rec.h_star_hat < num_h:
        problems.append(f"h^*_l = {rec.h_star_hat} is not a hypothesis index")
    if len(rec.layers) != rec.l + 1 or any(not 0 <= h < num_h for layer in rec.layers for h in layer):
        problems.append("layers are not V_{l+1}^0..V_{l+1}^l of hypothesis indices")
    return problems


def _shown(value) -> str:
    """A candidate's value in a message: its repr, at most 80 characters (an integer may
    have thousands of digits)."""
    return clip(repr(value), 80)


def _index_problems(field: str, indices, size: int, what: str) -> list[str]:
    bad = [h for h in indices if not 0 <= h < size]
    if bad:
        return [f"candidate returned {_shown(bad[0])} in field {field}: expected {what} indices in 0..{size - 1}"]
    if len(set(indices)) != len(indices):
        return [f"candidate returned {list(indices)!r} for field {field}: expected distinct {what} indices"]
    return []


def _entries_problems(field: str, values, size: int, needed, what: str) -> list[str]:
    """A per-hypothesis list: `size` entries, none missing where the checks read one (`needed`)."""
    if len(values) != size:
        return [f"candidate returned {len(values)} entries for field {field}: expected one per hypothesis ({size})"]
    missing = [h for h in needed if values[h] is None]
    if missing:
        return [f"candidate returned None for field {field}[{missing[0]}]: expected {what}"]
    return []


def trace_shape_problems(trace, num_points: int, num_hypotheses: int) -> list[str]:
    """What is wrong with the sizes and indices of a decoded trace, each as "candidate
    returned ... for field ...: expected ...": a check can index a trace only when this is
    empty (as epoch_shape_problems for a CALruption epoch record)."""
    num_h, problems = num_hypotheses, []
    if not 0 <= trace.output < num_h:
        problems.append(f"candidate returned {_shown(trace.output)} for field output: expected a hypothesis index")
    if trace.labels_requested < 0:
        problems.append(
            f"candidate returned {_shown(trace.labels_requested)} for field labels_requested: expected >= 0"
        )
    if hasattr(trace, "empirical_risk"):  # passive
        problems += _entries_problems("empirical_risk", trace.empirical_risk, num_h, range(num_h), "R^_[1,n](h)")
    for i, c in enumerate(getattr(trace, "checkpoints", ())):
        at = f"checkpoints[{i}]"
        if not 1 <= c.t <= trace.n:  # which rounds are checkpoints is check_robust_cal_checkpoints_*'s to judge
            problems.append(f"candidate returned {_shown(c.t)} for field {at}.t: expected a round in 1..n = {trace.n}")
            continue
        found = _index_problems(f"{at}.version_space", c.version_space, num_h, "hypothesis")
        found += _index_problems(f"{at}.next_version_space", c.next_version_space, num_h, "hypothesis")
        if not 0 <= c.h_hat < num_h:
            found.append(f"candidate returned {_shown(c.h_hat)} for field {at}.h_hat: expected a hypothesis index")
        if not found:  # Algorithm 1, lines 8-10 read these for h in V_t and for h^_t
            members = sorted(set(c.version_space) | {c.h_hat})
            found += _entries_problems(
                f"{at}.empirical_risk", c.empirical_risk, num_h, members, "L^_t(h) (h in V_t or h^_t)"
            )
            found += _entries_problems(
                f"{at}.disagreement", c.disagreement, num_h, c.version_space, "rho^_t(h, h^_t) for h in V_t"
            )
            found += _entries_problems(f"{at}.threshold", c.threshold, num_h, (), "line 10's threshold")
        problems += found
    if hasattr(trace, "final_version_space"):
        final = _index_problems("final_version_space", trace.final_version_space, num_h, "hypothesis")
        problems += final or _entries_problems(
            "final_empirical_risk", trace.final_empirical_risk, num_h, trace.final_version_space, "L^_n(h) for h in V"
        )
    for i, rec in enumerate(getattr(trace, "epochs", ())):
        problems += [f"epochs[{i}]: {p}" for p in epoch_shape_problems(rec, num_points, num_h)]
    return problems


def decode_epoch_result(check: str, plain, num_points: int, num_hypotheses: int):
    """calruption_epoch's (epoch record, next state), the record's shapes sound."""
    record, state = _pair(check, plain, "calruption_epoch")
    record = decode_as(check, record, CALruptionEpoch, "epoch record")
    problems = epoch_shape_problems(record, num_points, num_hypotheses)
    if problems:
        raise CallFailed(Violation.of(check, "malformed epoch record: " + "; ".join(problems), l=record.l))
    return record, decode_as(check, state, EpochState, "next epoch state")


def _rational(check: str, plain, what: str) -> Fraction:
    """A "p/q" string or an int (a float is not a rational of the contract)."""
    if isinstance(plain, float):  # "got the float": the evidence properties/reports/float_evidence.py's hint looks for
        raise CallFailed(
            Violation.of(check, f"{what} must be a rational ('p/q' or an integer), got the float {plain!r}")
        )
    if isinstance(plain, bool) or not isinstance(plain, (str, int)):
        raise CallFailed(Violation.of(check, f"{what} must be a rational ('p/q' or an integer)", got=repr(plain)))
    try:
        return as_fraction(plain, what)
    except ValueError as error:
        raise _malformed(check, what, error) from None


def _float_or_rational(check: str, plain, what: str) -> Fraction:
    if isinstance(plain, float):
        return Fraction(plain)
    return _rational(check, plain, what)


def decode_enclosure(check: str, plain, *, floats: bool = False) -> tuple[Fraction, Fraction]:
    """catoni_root's (lo, hi): a pair, or an object with fields lo and hi (the reference's
    Enclosure). Floats are accepted only from a candidate that declares float64
    arithmetic (`floats`); lo <= hi is checked by the Catoni checks, not here."""
    if isinstance(plain, dict) and {"lo", "hi"} <= set(plain):
        lo, hi = plain["lo"], plain["hi"]
    else:
        lo, hi = _pair(check, plain, "catoni_root")
    read = _float_or_rational if floats else _rational
    return read(check, lo, "catoni_root lo"), read(check, hi, "catoni_root hi")


def decode_samples(check: str, plain) -> tuple[list[Fraction], list[int]]:
    """loss_difference_samples' (values, counts)."""
    values, counts = _pair(check, plain, "loss_difference_samples")
    if not isinstance(values, list) or not isinstance(counts, list):
        raise CallFailed(
            Violation.of(
                check, "loss_difference_samples must return two lists", got=f"{_shape(values)}, {_shape(counts)}"
            )
        )
    if len(values) != len(counts):
        raise CallFailed(
            Violation.of(
                check,
                "loss_difference_samples returned values and counts of different lengths",
                values=len(values),
                counts=len(counts),
            )
        )
    decoded = [_rational(check, v, f"values[{i}]") for i, v in enumerate(values)]
    if any(isinstance(c, bool) or not isinstance(c, int) for c in counts):
        raise CallFailed(Violation.of(check, "loss_difference_samples' counts must be integers", counts=counts))
    return decoded, counts


def decode_tape(check: str, plain) -> Tape:
    """sample_tape's tape: fields x, y and either u (rationals in [0, 1)) or u_words
    (64-bit integers w, u = w / 2^64), optionally seed and generator; validated by
    reference.Tape (so a coin outside [0, 1) or a label outside {0, 1} is named)."""
    if type(plain) is Decoded and isinstance(plain.value, Tape):
        return plain.value
    if not isinstance(plain, dict):
        raise CallFailed(Violation.of(check, "sample_tape must return a tape object", got=_shape(plain)))
    try:
        if "u" in plain:
            if not isinstance(plain["u"], list):
                raise ValueError(f"tape.u must be a list, got {_shape(plain['u'])}")
            u = [_rational(check, v, f"tape.u[{i}]") for i, v in enumerate(plain["u"])]
        elif "u_words" in plain:
            words = plain["u_words"]
            if not isinstance(words, list) or any(
                isinstance(w, bool) or not isinstance(w, int) or not 0 <= w < WORD_SCALE for w in words
            ):
                raise ValueError("tape.u_words must be a list of integers in [0, 2^64)")
            u = [Fraction(w, WORD_SCALE) for w in words]
        else:
            raise ValueError("tape has neither u nor u_words")
        return Tape(plain.get("x"), plain.get("y"), u, plain.get("seed"), plain.get("generator"))
    except (ValueError, TypeError) as error:
        raise _malformed(check, "tape", error) from None


__all__ = [
    "CHECKED_IF_PRESENT",
    "Decoded",
    "MODES",
    "OPTIONAL",
    "PROTOCOL_ALGORITHMS",
    "PUBLIC_NAMES",
    "REQUIRED",
    "TRACE_MODES",
    "decode_as",
    "decode_enclosure",
    "decode_epoch_result",
    "epoch_shape_problems",
    "trace_shape_problems",
    "decode_samples",
    "decode_tape",
    "decode_trace",
    "function_of",
]
