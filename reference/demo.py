"""The appendix's counter-example, run: vanilla RobustCAL loses h*, the modified rule
and passive ERM do not.

Instance: counterexample(1/2, 1/128), so h1 (index 0) is h* with R*(h1) = 1/4 and
R*(h2) = 1/4 + 1/128. Adversary: eta^{x1} = 15/32 for t <= tau, then clean; while it
corrupts, the averaged risks favour h2 by xi1/16 - xi2 = 3/128.

Why n = 2^19 and tau = 2^16. Vanilla's threshold at checkpoint t is about
sqrt(2 beta_t rho / t) with rho ~ 65/128 and beta_t ~ 8.2 (delta = 1/20): 0.016 at
t = 2^15 and 0.011 at t = 2^16, against a corrupted gap of 3/128 ~ 0.023 whose
empirical estimate has standard deviation sqrt(rho / t) ~ 0.0028 at t = 2^16; so by
the last corrupted checkpoint (tau = 2^16) vanilla has eliminated h* with
overwhelming probability (seeds 0-9 do it at 2^14 or 2^15). The modified rule adds
rho^/2 ~ 0.25 to the threshold and eliminates nothing here, so its output is the
ERM over all n labels, like passive ERM. With tau = n/8 the averaged risk difference
R(h1) - R(h2) over all n rounds is (1/8)(3/128) - (7/8)(1/128) = -1/256, about 4
standard deviations (sqrt(rho / n) ~ 0.00098) below zero: both recover h1 except with
probability ~3e-5 per seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from . import adversary as adversaries
from .calruption import calruption, epoch_length
from .instances import counterexample
from .params import Params
from .passive import passive
from .robust_cal import robust_cal
from .tape import sample_tape

XI1, XI2 = Fraction(1, 2), Fraction(1, 128)
N, TAU = 2**19, 2**16
DELTA = Fraction(1, 20)
SEEDS = tuple(range(10))


@dataclass(frozen=True)
class DemoRow:
    seed: int
    vanilla_output: int
    vanilla_eliminated_best_at: int | None  # the checkpoint t at which h* left V
    modified_output: int
    modified_keeps_best: bool
    passive_output: int
    vanilla_labels: int
    modified_labels: int
    calruption_output: int
    calruption_epochs: int
    calruption_keeps_best_queried: bool  # q > 0 on Dis(h1, h2) after every epoch
    calruption_labels: int


@dataclass(frozen=True)
class DemoResult:
    n: int
    tau: int
    delta: Fraction
    best: int
    rows: tuple[DemoRow, ...]
    # rounds of CALruption's first epoch at the paper's constants (why the demo scales them)
    calruption_paper_first_epoch: int = 0


# what the demo's header says of CALruption's constants (Params.scaled's defaults)
CALRUPTION_CONSTANTS = "beta1 = 16, beta2 = 5/32, beta3 as the paper's: epochs of 64, 256, 1024, ... rounds"


def run_demo(seeds=SEEDS, n=N, tau=TAU, delta=DELTA, xi1=XI1, xi2=XI2, progress=None) -> DemoResult:
    """`progress(done, total)`, if given, is called after each seed (the CLI's stderr lines)."""
    instance = counterexample(xi1, xi2)
    adversary = adversaries.counterexample(tau, n)
    params = Params.paper(n, instance.num_hypotheses, delta)
    # CALruption's paper constants make the first epoch longer than any stream a demo
    # can afford (N_1 = 4 beta1 ~ 10^6 here): it runs with scaled constants (beta1 = 16).
    scaled = Params.scaled(n, instance.num_hypotheses, delta)
    dis = [x for x in range(instance.num_points) if instance.hypotheses[0][x] != instance.hypotheses[1][x]]
    best = instance.best
    rows = []
    seeds = tuple(seeds)
    for seed in seeds:
        tape = sample_tape(instance, adversary, seed)
        vanilla = robust_cal(instance.hypotheses, tape, params, vanilla=True)
        modified = robust_cal(instance.hypotheses, tape, params)
        erm = passive(instance.hypotheses, tape, params)
        soft = calruption(instance.hypotheses, tape, scaled)
        lost = [c.t for c in vanilla.checkpoints if best in c.version_space and best not in c.next_version_space]
        rows.append(
            DemoRow(
                seed=seed,
                vanilla_output=vanilla.output,
                vanilla_eliminated_best_at=lost[0] if lost else None,
                modified_output=modified.output,
                modified_keeps_best=best in modified.final_version_space,
                passive_output=erm.output,
                vanilla_labels=vanilla.labels_requested,
                modified_labels=modified.labels_requested,
                calruption_output=soft.output,
                calruption_epochs=len(soft.epochs),
                calruption_keeps_best_queried=all(e.next_q[x] > 0 for e in soft.epochs for x in dis),
                calruption_labels=soft.labels_requested,
            )
        )
        if progress is not None:
            progress(len(rows), len(seeds))
    return DemoResult(
        n=n,
        tau=tau,
        delta=Fraction(delta),
        best=best,
        rows=tuple(rows),
        calruption_paper_first_epoch=epoch_length(params, 1),
    )
