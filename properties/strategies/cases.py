"""Whole-run cases: generic and CALruption cases (paper, scaled and premise regimes, crafted
tapes), RobustCAL / Theorem 4.1 cases and the lemmas' cases."""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction

from hypothesis import strategies as st

from properties.core.case import Case
from properties.core.example_types import tagged
from properties.strategies.instances import (
    ADVERSARY_KINDS,
    BETA1_CHOICES,
    CALRUPTION_ADVERSARY_KINDS,
    COROLLARY51_KINDS,
    DELTA_CHOICES,
    FRACTIONAL_BETA1_CHOICES,
    FULL_RUN_BETA1_CHOICES,
    MAX_ROUNDS,
    adversaries_for,
    aligned_adversaries,
    calruption_params,
    deterministic_adversaries,
    edge_adversaries,
    epoch_blocks,
    epoch_schedule,
    hypothesis_classes,
    instances,
    low_noise_instances,
    params_for,
    premise_params,
    probabilities,
)
from properties.strategies.one_epoch import _composition
from reference import Adversary, Instance, Params, Tape
from reference import adversary as adversaries
from reference.params import BETA1_OVER_BETA3
from reference.serialization import from_jsonable, to_jsonable


# -- generic cases ------------------------------------------------------------------------
@st.composite
def cases(draw, max_rounds: int = MAX_ROUNDS, adversary_kinds=ADVERSARY_KINDS, regimes=("paper", "scaled")):
    """instance + adversary + seed + params: everything a run needs."""
    instance = draw(instances(), label="instance")
    n = draw(st.integers(1, max_rounds), label="n")
    adversary = draw(adversaries_for(instance, n, adversary_kinds), label="adversary")
    seed = draw(st.integers(0, 2**64 - 1), label="seed")
    params = draw(params_for(n, instance.num_hypotheses, regimes), label="params")
    return Case(instance, adversary, seed, params)


# -- CALruption cases ---------------------------------------------------------------------
@st.composite
def calruption_cases(draw, max_rounds: int = MAX_ROUNDS, adversary_kinds=CALRUPTION_ADVERSARY_KINDS):
    """A Case for CALruption: beta1 in FULL_RUN_BETA1_CHOICES ({1, 2, 4, 7/3, ln 3}), n <= max_rounds, n often at an epoch's
    last round or one off it (unfinished_rounds 0, |I_l| - 1 or 1). The adversary kinds
    include Corollary 5.1's; corollary51_violated only where n holds a complete epoch."""
    instance = draw(instances(), label="instance")
    beta1 = draw(st.sampled_from(FULL_RUN_BETA1_CHOICES), label="beta1")
    ends = [tau + length - 1 for _, tau, length in epoch_schedule(beta1, max_rounds + 1)]
    boundaries = sorted({e + d for e in ends for d in (-1, 0, 1) if 1 <= e + d <= max_rounds})
    n = draw(st.one_of(st.integers(1, max_rounds), st.sampled_from(boundaries)), label="n")
    if beta1 in FRACTIONAL_BETA1_CHOICES:
        # Corollary 5.1's adversaries budget C_l <= |I_l| / 32, which is N_l / 32 only when
        # N_l is an integer
        adversary_kinds = tuple(k for k in adversary_kinds if k not in COROLLARY51_KINDS)
    if not epoch_schedule(beta1, n):
        adversary_kinds = tuple(k for k in adversary_kinds if k != "corollary51_violated")
    adversary = draw(adversaries_for(instance, n, adversary_kinds, beta1), label="adversary")
    seed = draw(st.integers(0, 2**64 - 1), label="seed")
    params = draw(calruption_params(n, instance.num_hypotheses, beta1), label="params")
    return Case(instance, adversary, seed, params)


def _rounds_choice(draw, beta1: Fraction, first_epochs: int):
    """n in [end of epoch `first_epochs`, MAX_ROUNDS], often an epoch's last round."""
    ends = [tau + length - 1 for _, tau, length in epoch_schedule(beta1, MAX_ROUNDS)]
    low = ends[min(first_epochs, len(ends)) - 1]
    return draw(st.one_of(st.integers(low, MAX_ROUNDS), st.sampled_from([e for e in ends if e >= low])), label="n")


@st.composite
def scaled_regime_cases(draw):
    """Regime "scaled": Params.scaled(n, |H|, delta, 1/4, beta1) with beta1 in {1, 2, 4},
    the paper's beta3 = 2 log(3/2 floor(log2 n) |H|^2/delta) and beta2 = 5/32; any instance
    and adversary of `adversaries_for`; n from the end of epoch 2 up to 600 rounds.
    beta1 < 20480 beta3 here: the paper-premise checks are vacuous on these cases."""
    instance = draw(instances(), label="instance")
    beta1 = draw(st.sampled_from(BETA1_CHOICES), label="beta1")
    n = _rounds_choice(draw, beta1, 2)
    adversary = draw(adversaries_for(instance, n), label="adversary")
    seed = draw(st.integers(0, 2**64 - 1), label="seed")
    delta = draw(st.sampled_from(DELTA_CHOICES), label="delta")
    return Case(instance, adversary, seed, Params.scaled(n, instance.num_hypotheses, delta, Fraction(1, 4), beta1))


def _premise_setup(draw, families=("constant_on_support", "any"), min_points=1, contrarian=False):
    """(instance, beta1, beta3, n, adversary) of the premise regime (see premise_regime_cases).
    contrarian: sometimes give the least likely support point the opposite label of the
    most likely one (a short tape concentrated there then favours the wrong class)."""
    m = draw(st.integers(min_points, 4), label="num_points")
    weights = draw(st.lists(st.integers(0, 4), min_size=m, max_size=m), label="nu_weights")
    if sum(weights) == 0:
        weights[draw(st.integers(0, m - 1), label="nu_nonzero_point")] = 1
    nu = [Fraction(w, sum(weights)) for w in weights]
    if draw(st.booleans(), label="nu_tiny_mass") and sum(1 for w in weights if w) > 1:
        # one point of the support gets a tiny mass: rare x, R* far from what a short tape shows
        heavy = [100 * w for w in weights]
        heavy[weights.index(next(w for w in weights if w))] = 1
        nu = [Fraction(w, sum(heavy)) for w in heavy]
    eta = draw(st.lists(st.sampled_from([Fraction(0), Fraction(1)]), min_size=m, max_size=m), label="eta")
    support = [x for x in range(m) if nu[x] > 0]
    if (
        contrarian
        and len(support) > 1
        and draw(st.sampled_from([True, True, True, False]), label="contrarian_rare_point")
    ):
        rare, top = min(support, key=lambda x: nu[x]), max(support, key=lambda x: nu[x])
        if rare != top:
            eta[rare] = 1 - eta[top]
    family = draw(st.sampled_from(families), label="instance_family")
    if family == "constant_on_support":
        k = draw(st.integers(2, 5), label="num_hypotheses")
        H = []
        for _ in range(k):
            side = draw(st.integers(0, 1), label="side_on_support")
            H.append(tuple(side if nu[x] > 0 else draw(st.integers(0, 1), label="label_off_support") for x in range(m)))
    else:
        H = draw(hypothesis_classes(m), label="hypotheses")
    instance = Instance(nu, eta, H)
    beta1 = draw(st.sampled_from(BETA1_CHOICES), label="beta1")
    k3 = draw(st.sampled_from([1, 2, 8]), label="beta3_divisor")
    n = _rounds_choice(draw, beta1, 2)
    adversary = draw(deterministic_adversaries(m, n), label="adversary")
    return instance, beta1, beta1 / (BETA1_OVER_BETA3 * k3), n, adversary


@st.composite
def premise_regime_cases(draw):
    """Regime "paper premises" for full runs: Params.scaled with beta1 in {1, 2, 4},
    beta2 = 5/32 and a rational beta3 = beta1 / (20480 k), k in {1, 2, 8}, so
    beta1 >= 20480 beta3 and beta2 >= 5/32 hold. Labels are deterministic (eta*, eta_t in
    {0, 1}): with q_1 = 1 the first epoch's loss differences are exact, so condition (1)
    holds there despite the tiny beta3; later epochs meet it only when the importance
    weights happen to average exactly. Instances are either "constant on the support"
    (every hypothesis is constant on {x : nu(x) > 0}, so every rho* is 0 or 1 and
    rho^ = rho*: E_dis1 and E_dis2 hold) or any small class; nu sometimes puts a tiny mass
    on one point. The tape is sampled from the seed."""
    instance, beta1, beta3, n, adversary = _premise_setup(draw)
    seed = draw(st.integers(0, 2**64 - 1), label="seed")
    delta = draw(st.sampled_from(DELTA_CHOICES), label="delta")
    params = premise_params(n, instance.num_hypotheses, beta1, beta3, delta)
    return Case(instance, adversary, seed, params)


@tagged("cral-crafted-case/v1")
@dataclass(frozen=True)
class CraftedCase:
    """A case whose tape is chosen by the strategy (not sampled from a seed): every
    x_t in the support of nu, y_t in the support of Ber(eta_t^{x_t}), u_t in [0, 1), so the
    tape has positive probability and the lemmas' "on the events" statements apply."""

    instance: Instance
    adversary: Adversary
    params: Params
    tape: Tape
    seed = None

    def to_json(self) -> dict:
        return {
            "instance": self.instance.to_json(),
            "adversary": self.adversary.to_json(),
            "params": to_jsonable(self.params),
            "tape": self.tape.to_json(),
        }

    @classmethod
    def from_json(cls, data) -> CraftedCase:
        return cls(
            Instance.from_json(data["instance"]),
            Adversary.from_json(data["adversary"]),
            from_jsonable(Params, data["params"], "params"),
            Tape.from_json(data["tape"]),
        )

    def reproducer(self) -> str:
        return f"properties.strategies.CraftedCase.from_json(json.loads({json.dumps(json.dumps(self.to_json()))}))"

    def __repr__(self) -> str:
        return f"CraftedCase.from_json({json.dumps(self.to_json())})"


def balanced_coins(M: int) -> list[Fraction]:
    """u = (i + 1/2)/M, i = 0..M-1: exactly ceil(qM - 1/2) of them are < q, i.e. qM when qM
    is an integer (the query count equals its expectation)."""
    return [Fraction(2 * i + 1, 2 * M) for i in range(M)]


def crafted_case(instance: Instance, params: Params, x, adversary: Adversary | None = None) -> CraftedCase:
    """The CraftedCase of the tape x (n = len(x) rounds, every x_t in the support of nu)
    with deterministic labels y_t = eta_t^{x_t} (eta_t in {0, 1}) and balanced coins per
    (epoch, point) (`balanced_coins`, in order of appearance), for a rational beta1; the
    adversary is clean unless given."""
    x = list(x)
    adversary = adversary or adversaries.clean(len(x))
    u = []
    for tau, length in epoch_blocks(params.beta1.value, len(x)):
        segment = x[tau - 1 : tau - 1 + length]
        coins = {p: iter(balanced_coins(segment.count(p))) for p in set(segment)}
        u += [next(coins[p]) for p in segment]
    y = [int(adversary.eta(instance, t)[p]) for t, p in enumerate(x, start=1)]
    return CraftedCase(instance, adversary, params, Tape(x, y, u))


@st.composite
def crafted_tape_cases(draw):
    """Regime "paper premises" (the instance, constants and adversary of
    premise_regime_cases) with a crafted tape: per epoch (and the unfinished rest) the
    x-counts are drawn ("typical": |I| nu within 3 sd; "one_point": every round at one
    point of the support; "wild": any proportions) and laid out in blocks; y_t is the
    deterministic label eta_t^{x_t}; the coins are balanced per (epoch, point)
    (`balanced_coins`), so the number of queries at x is q M exactly whenever q M is an
    integer (always when every rho^ is 0 or 1), and condition (1) holds with the tiny
    beta3. Pattern "rare_point": every round at the support point of least mass (lowest
    index on ties), the tape furthest from nu that keeps E_dis exact on a class constant on
    the support. This reaches the events after epoch 1, which sampled tapes rarely do;
    instances are constant on the support 3 times in 4, have >= 2 points, and often give the
    least likely point the opposite label of the most likely one."""
    instance, beta1, beta3, n, adversary = _premise_setup(
        draw, ("constant_on_support", "constant_on_support", "constant_on_support", "any"), 2, True
    )
    delta = draw(st.sampled_from(DELTA_CHOICES), label="delta")
    params = premise_params(n, instance.num_hypotheses, beta1, beta3, delta)
    support = [x for x in range(instance.num_points) if instance.nu[x] > 0]
    xs = []
    pattern = draw(st.sampled_from(["rare_point", "rare_point", "per_epoch"]), label="tape_pattern")
    rare = min(support, key=lambda x: instance.nu[x])
    for _, length in epoch_blocks(beta1, n):
        mode = (
            "rare_point"
            if pattern == "rare_point"
            else draw(st.sampled_from(["typical", "one_point", "wild"]), label="epoch_x_mode")
        )
        if mode == "rare_point":
            counts = [length if x == rare else 0 for x in range(instance.num_points)]
        elif mode == "one_point":
            point = draw(st.sampled_from(support), label="epoch_point")
            counts = [length if x == point else 0 for x in range(instance.num_points)]
        else:
            counts = _composition(draw, "epoch_x", length, instance.nu, mode)
        for x, c in enumerate(counts):
            xs += [x] * c
    return crafted_case(instance, params, xs, adversary)


def paper_premise_cases():
    """Crafted tapes twice as often as sampled ones."""
    return st.one_of(crafted_tape_cases(), premise_regime_cases(), crafted_tape_cases())


def any_regime_cases():
    return st.one_of(scaled_regime_cases(), premise_regime_cases(), crafted_tape_cases())


@st.composite
def burst_then_clean_cases(draw):
    """Regime "scaled" (beta1 in {1, 2, 4}, the paper's beta3): corruption (an early burst,
    c_t up to 1) during the first epochs only, then clean, and n inside the epoch after
    the last completed one: the corner where g_{L-1} (corruption of completed epochs,
    scaled by 2/N_{L-1}) is largest against C-bar_total/n (the correctness chain's last
    step)."""
    instance = draw(instances(), label="instance")
    beta1 = draw(st.sampled_from(BETA1_CHOICES), label="beta1")
    epochs = epoch_schedule(beta1, MAX_ROUNDS)
    ends = [tau + length - 1 for _, tau, length in epochs]
    L = draw(st.integers(1, len(ends) - 1), label="completed_epochs")
    n = draw(st.one_of(st.integers(ends[L - 1], ends[L] - 1), st.just(ends[L] - 1)), label="n")
    tau = draw(st.one_of(st.sampled_from(ends[:L]), st.integers(1, ends[L - 1])), label="burst_end")
    flip = draw(st.booleans(), label="flip_labels")
    if flip:
        target = tuple(1 - e for e in instance.eta)
    else:
        target = draw(
            st.lists(st.one_of(st.none(), probabilities()), min_size=instance.num_points, max_size=instance.num_points),
            label="eta_burst",
        )
    adversary = adversaries.early_burst(target, tau, n)
    seed = draw(st.integers(0, 2**64 - 1), label="seed")
    delta = draw(st.sampled_from(DELTA_CHOICES), label="delta")
    return Case(instance, adversary, seed, Params.scaled(n, instance.num_hypotheses, delta, Fraction(1, 4), beta1))


# -- RobustCAL / Theorem 4.1 cases --------------------------------------------------------
THEOREM41_KINDS = ("clean", "misspecification", "theorem41_ok")


@st.composite
def theorem41_cases(draw, max_rounds: int = 1024):
    """Cases whose adversary is meant to satisfy Theorem 4.1's C_[0,t] <= t/8: the kinds
    clean / misspecification / theorem41_ok of `adversaries_for` and
    `edge_adversaries`. theorem41_ok (segment gamma <= 1/8), clean and edge always
    satisfy it; misspecification (gamma <= 1/4) does not always: the checks decide it
    exactly per example and skip (with hypothesis.event) the examples where it fails."""
    instance = draw(st.one_of(instances(), low_noise_instances()), label="instance")
    n = draw(st.one_of(st.integers(2, 64), st.integers(2, max_rounds)), label="n")
    if draw(st.booleans(), label="edge_adversary"):
        adversary = draw(edge_adversaries(instance, n), label="adversary")
    else:
        adversary = draw(adversaries_for(instance, n, THEOREM41_KINDS), label="adversary")
    seed = draw(st.integers(0, 2**64 - 1), label="seed")
    params = draw(params_for(n, instance.num_hypotheses), label="params")
    return Case(instance, adversary, seed, params)


def sharp_lemma_c1_case(g: Fraction, n: int, seed: int, delta: Fraction = Fraction(1, 10)) -> Case:
    """One point, eta* = (1 + Delta)/2 with Delta = 1/4 - g, H = {h* = (1), h = (0)}
    (rho*(h, h*) = 1 = R*(h) + R*: they never err together), and c_t = 1/8 in every round
    (eta_t = eta* - 1/8: the 1/8-misspecification regime of Theorem 4.1) in favour of h.
    Then R-bar_t(h) - R-bar_t(h*) = -g, so h^_t = h at large t, and
    Delta_h = 1/4 - g > R*/2 + O(sqrt(R* log/t)): Lemma C.1's second line fails."""
    eta = (1 + Fraction(1, 4) - g) / 2
    instance = Instance((Fraction(1),), (eta,), ((1,), (0,)))
    adversary = adversaries.early_burst((eta - Fraction(1, 8),), n, n)
    return Case(instance, adversary, seed, Params.paper(n, 2, delta))


@st.composite
def sharp_lemma_c1_cases(draw):
    """`sharp_lemma_c1_case` over g in {1/32, 1/16}, n in {2^12, 2^14, 2^16}, any seed."""
    g = draw(st.sampled_from([Fraction(1, 32), Fraction(1, 16)]), label="g")
    n = draw(st.sampled_from([2**16, 2**14, 2**12]), label="n")
    seed = draw(st.integers(0, 2**16), label="seed")
    return sharp_lemma_c1_case(g, n, seed)


def lemma_c1_cases():
    """Generic Theorem 4.1 cases (short runs: the lemma's premise binds, its conclusion
    rarely) and the sharp one-point family where the conclusion is tight."""
    return st.one_of(theorem41_cases(), sharp_lemma_c1_cases())


# -- lemma cases --------------------------------------------------------------------------
ALL_INTERVALS_MAX_N = 24  # up to this horizon every interval [a, b] is checked
MAX_LEMMA_ROUNDS = 400


@st.composite
def lemma_cases(draw, max_rounds: int = MAX_LEMMA_ROUNDS):
    """instance + adversary (the paper's models, or an aligned burst that attains the
    lemmas' bounds) over a horizon that is mostly small enough to check every interval.
    The seed only picks the sampled intervals of a long horizon."""
    instance = draw(instances(), label="instance")
    n = draw(st.one_of(st.integers(1, ALL_INTERVALS_MAX_N), st.integers(1, max_rounds)), label="n")
    family = draw(st.sampled_from(("paper_models", "aligned")), label="adversary_family")
    if family == "paper_models":
        adversary = draw(adversaries_for(instance, n), label="adversary")
    else:
        adversary = draw(aligned_adversaries(instance, n), label="adversary")
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    return Case(instance, adversary, seed, Params.scaled(n, instance.num_hypotheses))
