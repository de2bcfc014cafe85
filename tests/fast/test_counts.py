"""Counts mode has the law of tape mode (fast/counts.py).

Counts mode draws each update's per-point counts (multinomial per adversary segment,
binomial coins and labels) instead of reading a tape. If it is right, the outputs, labels
used and per-epoch statistics of a run have the same distribution in both modes. Fixed
seeds: RUNS tapes (fast.sample_tape, cral-tape-v1) against RUNS counts-mode runs, on an
instance and adversary with two segments (an early burst that ends mid-epoch) so that the
per-segment draws matter.

Decision rule: two-sample tests (chi-square homogeneity for categorical statistics,
Kolmogorov-Smirnov for counts), each at ALPHA / (number of tests) (Bonferroni), with
fixed seeds so the verdict is reproducible. A test that cannot fail shows nothing, so the
same rule is applied to deliberately broken counts modes, which it must reject."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

import fast
import fast.counts as counts_mode
from reference import Instance, Params, adversary

RUNS = 300
# a broken counts mode is sampled on fewer runs, against the same RUNS tapes and by the same
# rule: less data makes rejecting it harder, not easier (each breakage's smallest p-value is
# below 1e-20 at 60 runs, the threshold ALPHA / 11 about 1e-4)
BROKEN_RUNS = 60
ALPHA = 1e-3
N = 700  # beta1 = 2: epochs of 8, 32, 128, 512 rounds complete by 680


def _setting():
    instance = Instance(
        [Fraction(1, 4), Fraction(1, 4), Fraction(1, 8), Fraction(3, 8)],
        [Fraction(1, 10), Fraction(3, 10), Fraction(7, 10), Fraction(9, 10)],
        [(0, 0, 0, 0), (0, 0, 1, 1), (0, 1, 1, 1), (0, 0, 0, 1), (1, 1, 1, 1)],
    )
    burst = adversary.early_burst([Fraction(9, 10), Fraction(9, 10), Fraction(1, 10), None], 100, N)
    params = Params.scaled(N, 5, Fraction(1, 10), Fraction(1, 4), Fraction(2))
    return instance, burst, params


def _statistics(run_calruption, run_robust_cal, run_passive) -> dict:
    c = run_calruption
    return {
        "calruption.output": ("categorical", c.output),
        "calruption.labels": ("count", c.labels_requested),
        "calruption.epoch1.h_star": ("categorical", c.epochs[0].h_star_hat),
        "calruption.epoch2.labels": ("count", c.epochs[1].labels_requested),
        "calruption.epoch3.labels": ("count", c.epochs[2].labels_requested),
        "calruption.epoch3.seen_x2": ("count", int(c.epochs[2].seen[2])),
        "calruption.epoch4.level_of_h3": ("categorical", int(c.epochs[3].layers[:, 3].sum())),
        "robust_cal.labels": ("count", run_robust_cal.labels_requested),
        "robust_cal.output": ("categorical", run_robust_cal.output),
        "passive.output": ("categorical", run_passive.output),
        "passive.mistakes_of_h1": ("count", int(run_passive.mistakes[1])),
    }


def tape_mode_sample(instance, adv, params, runs=RUNS):
    rows = []
    for seed in range(runs):
        tape = fast.sample_tape(instance, adv, 1000 + seed)
        H = instance.hypotheses
        rows.append(
            _statistics(
                fast.calruption(H, tape, params, raw=True),
                fast.robust_cal(H, tape, params, raw=True),
                fast.passive(H, tape, params, raw=True),
            )
        )
    return rows


def counts_mode_sample(instance, adv, params, runs=RUNS):
    rows = []
    for seed in range(runs):
        rows.append(
            _statistics(
                fast.calruption_counts(instance, adv, params, 5000 + seed, raw=True),
                fast.robust_cal_counts(instance, adv, params, 9000 + seed, raw=True),
                fast.passive_counts(instance, adv, params, 13000 + seed, raw=True),
            )
        )
    return rows


def p_values(left: list[dict], right: list[dict]) -> dict[str, float]:
    result = {}
    for name, (kind, _) in left[0].items():
        a = [row[name][1] for row in left]
        b = [row[name][1] for row in right]
        if kind == "count":
            result[name] = stats.ks_2samp(a, b).pvalue if len(set(a) | set(b)) > 1 else 1.0
        else:
            categories = sorted(set(a) | set(b))
            if len(categories) == 1:
                result[name] = 1.0
                continue
            table = np.array([[a.count(v) for v in categories], [b.count(v) for v in categories]])
            result[name] = stats.chi2_contingency(table).pvalue
    return result


def rejected(pvals: dict[str, float]) -> list[str]:
    threshold = ALPHA / len(pvals)
    return [name for name, p in pvals.items() if p < threshold]


@pytest.fixture(scope="module")
def tape_sample():
    return tape_mode_sample(*_setting())


def test_counts_mode_has_the_law_of_tape_mode(tape_sample):
    pvals = p_values(tape_sample, counts_mode_sample(*_setting()))
    assert not rejected(pvals), {k: f"{v:.2e}" for k, v in pvals.items()}


def test_the_statistics_vary(tape_sample):
    """Each statistic takes several values over the runs: a constant one would test nothing."""
    for name in tape_sample[0]:
        values = {row[name][1] for row in tape_sample}
        assert len(values) > 1, f"{name} is always {values}"


def _broken_clean_only(monkeypatch):
    """Counts mode ignoring the adversary: every piece drawn from eta* (segment 2's eta)."""
    original = counts_mode.Environment.pieces

    def pieces(self, start, end):
        for length, _ in original(self, start, end):
            yield length, self.segments[-1][2]

    monkeypatch.setattr(counts_mode.Environment, "pieces", pieces)


def _broken_coin_squared(monkeypatch):
    """CALruption's coins drawn with probability q^2 instead of q."""
    original = counts_mode.epoch_counts
    monkeypatch.setattr(counts_mode, "epoch_counts", lambda env, rng: lambda s, e, q: original(env, rng)(s, e, q * q))


def _broken_one_piece(monkeypatch):
    """An update spanning two segments drawn entirely from the first one's eta."""
    original = counts_mode.Environment.pieces

    def pieces(self, start, end):
        parts = list(original(self, start, end))
        yield sum(length for length, _ in parts), parts[0][1]

    monkeypatch.setattr(counts_mode.Environment, "pieces", pieces)


@pytest.mark.parametrize(
    "breakage",
    [_broken_clean_only, _broken_coin_squared, _broken_one_piece],
    ids=["ignores_adversary", "coin_q_squared", "one_eta_per_update"],
)
def test_the_rule_rejects_a_broken_counts_mode(breakage, tape_sample, monkeypatch):
    breakage(monkeypatch)
    pvals = p_values(tape_sample, counts_mode_sample(*_setting(), runs=BROKEN_RUNS))
    assert rejected(pvals), {k: f"{v:.2e}" for k, v in pvals.items()}
