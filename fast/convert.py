"""Fast runs as the reference's trace dataclasses (CONTRACT.md, "Trace").

Quantities the fast path holds as integers (counts, mistakes, disagreement counts) are
reported exactly as Fractions; float64 quantities are reported as the exact rational
value of the float (Fraction(float) is lossless), so the cross-check sees precisely the
numbers the fast path computed with. A float that stands for an irrational (W, beta_t,
the threshold of line 10) is reported as a point enclosure: it is not certified."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from reference.calruption import EpochState
from reference.certified import Enclosure
from reference.trace import CALruptionEpoch, CALruptionTrace, PassiveTrace, RobustCALCheckpoint, RobustCALTrace

LP_METHOD = "highs-float64"


def _rational(value: float) -> Fraction | None:
    return None if value != value else Fraction(value)  # nan marks "undefined"


def _point(value: float) -> Enclosure | None:
    if value != value:
        return None
    exact = Fraction(value)
    return Enclosure(exact, exact)


def _vector(values) -> tuple:
    return tuple(_rational(v) for v in np.asarray(values, dtype=float).tolist())


def _matrix(values, cell=_rational) -> tuple:
    return tuple(tuple(cell(v) for v in row) for row in np.asarray(values, dtype=float).tolist())


def _members(mask) -> tuple[int, ...]:
    return tuple(int(h) for h in np.flatnonzero(mask))


def _on(mask, values, t) -> tuple:
    return tuple(Fraction(int(v), t) if keep else None for keep, v in zip(mask, values))


def passive_trace(run, params) -> PassiveTrace:
    return PassiveTrace(
        "passive", params, run.n, tuple(Fraction(int(v), run.n) for v in run.mistakes), run.n, run.output
    )


def robust_cal_trace(run, params) -> RobustCALTrace:
    checkpoints = tuple(
        RobustCALCheckpoint(
            t=c.t,
            version_space=_members(c.version_space),
            labels_requested=c.labels_requested,
            h_hat=c.h_hat,
            empirical_risk=_on(c.version_space, c.mistakes, c.t),
            disagreement=_on(c.version_space, c.disagreement, c.t),
            beta=_point(float(c.beta)),
            threshold=tuple(_point(v) for v in c.threshold.tolist()),
            next_version_space=_members(c.next_version_space),
        )
        for c in run.checkpoints
    )
    return RobustCALTrace(
        algorithm="robust_cal_vanilla" if run.vanilla else "robust_cal",
        vanilla=run.vanilla,
        params=params,
        n=run.n,
        checkpoints=checkpoints,
        final_version_space=_members(run.final_version_space),
        final_empirical_risk=_on(run.final_version_space, run.final_mistakes, run.n),
        labels_requested=run.labels_requested,
        output=run.output,
    )


def epoch_record(e, fparams) -> CALruptionEpoch:
    support = tuple(int(x) for x in np.flatnonzero(e.seen > 0))
    return CALruptionEpoch(
        l=e.l,
        tau=e.tau,
        length=e.length,
        N=_point(fparams.beta1 * 4.0**e.l),
        q=_vector(e.q),
        labels_requested=e.labels_requested,
        support=support,
        empirical_x=tuple(Fraction(s, e.length) for s in e.seen.tolist()),
        rho=tuple(tuple(Fraction(v, e.length) for v in row) for row in e.rho_counts.tolist()),
        min_q=_matrix(e.min_q),
        alpha=_matrix(e.alpha),
        W=_matrix(e.W, _point),
        weight=_matrix(e.weight),
        eta_hat=_vector(e.eta_hat),
        lp_objective=Fraction(float(e.lp_objective)),
        lp_method=LP_METHOD,
        risk_hat=_vector(e.risk_hat),
        h_star_hat=e.h_star_hat,
        gap_hat=_vector(e.gap_hat),
        layers=tuple(_members(row) for row in e.layers),
        next_q=_vector(e.next_q),
    )


def next_epoch_state(e, fparams) -> EpochState:
    return EpochState(
        l=e.l + 1,
        tau=e.tau + e.length,
        length=fparams.epoch_length(e.l + 1),
        q=_vector(e.next_q),
        gap_hat=_vector(e.gap_hat),
    )


def calruption_trace(run, params, fparams) -> CALruptionTrace:
    return CALruptionTrace(
        algorithm="calruption",
        params=params,
        n=run.n,
        epochs=tuple(epoch_record(e, fparams) for e in run.epochs),
        final_epoch=run.final_epoch,
        unfinished_rounds=run.unfinished_rounds,
        labels_requested=run.labels_requested,
        output=run.output,
    )
