"""Instances, hypothesis classes, adversaries and parameters (RobustCAL's and CALruption's,
with CALruption's epoch schedule): the pieces every case is drawn from."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from hypothesis import strategies as st

from reference import Instance, Params
from reference import adversary as adversaries
from reference.certified import ScaledLog, certified_ceil
from reference.params import PAPER_BETA2

# -- core instances and hypothesis classes ------------------------------------------------
MAX_POINTS = 6
MAX_HYPOTHESES = 8
MAX_ROUNDS = 600
MAX_DENOMINATOR = 64

# Labels whose edges the suite must reach: deterministic and fair coins, and a "noisy" 1/10.
SPECIAL_ETAS = (Fraction(0), Fraction(1, 2), Fraction(1), Fraction(1, 10), Fraction(9, 10))


# A strategy is an immutable description of how to draw: the ones a composite draws from
# again and again are built once per argument and kept (building and validating a fresh one
# at every draw was most of a draw's cost). The same description makes the same choices,
# so every drawn example is the one a freshly built strategy gives.
@cache
def probabilities(max_denominator: int = MAX_DENOMINATOR):
    return st.one_of(st.sampled_from(SPECIAL_ETAS), st.fractions(0, 1, max_denominator=max_denominator))


@cache
def probability_lists(m: int):
    """eta (or eta_tilde) over m points."""
    return st.lists(probabilities(), min_size=m, max_size=m)


@cache
def target_lists(m: int):
    """An adversary's target over m points: None leaves eta* there."""
    return st.lists(st.one_of(st.none(), probabilities()), min_size=m, max_size=m)


@cache
def mixing_weights(cap: Fraction):
    """gamma in [0, cap], denominators up to 32."""
    return st.fractions(0, cap, max_denominator=32)


@st.composite
def distributions(draw, num_points: int):
    """nu over num_points points: integer weights, so exact; some weights 0 (mass-0
    points), some tiny (weight 1 against a large total)."""
    weights = draw(st.lists(st.integers(0, 20), min_size=num_points, max_size=num_points), label="nu_weights")
    if sum(weights) == 0:
        weights[draw(st.integers(0, num_points - 1), label="nu_nonzero_point")] = 1
    if draw(st.booleans(), label="nu_tiny_mass"):
        weights = [w * 50 for w in weights]
        weights[draw(st.integers(0, num_points - 1), label="nu_tiny_point")] = 1
    total = sum(weights)
    return tuple(Fraction(w, total) for w in weights)


def _thresholds(m):
    return [tuple(1 if x >= k else 0 for x in range(m)) for k in range(m + 1)]


def _intervals(m):
    return [tuple(0 for _ in range(m))] + [
        tuple(1 if a <= x < b else 0 for x in range(m)) for a in range(m) for b in range(a + 1, m + 1)
    ]


@st.composite
def hypothesis_classes(draw, num_points: int):
    """Thresholds, intervals, unions of two intervals, arbitrary label sets, each
    possibly with duplicates; at most MAX_HYPOTHESES hypotheses."""
    kind = draw(st.sampled_from(["thresholds", "intervals", "unions", "arbitrary"]), label="class_kind")
    m = num_points
    if kind == "thresholds":
        pool = _thresholds(m)
    elif kind == "intervals":
        pool = _intervals(m)
    elif kind == "unions":
        pool = sorted({tuple(a | b for a, b in zip(u, v)) for u in _intervals(m) for v in _intervals(m)})
    else:
        pool = None
    if pool is None:
        size = draw(st.integers(1, MAX_HYPOTHESES), label="num_hypotheses")
        H = draw(st.lists(st.tuples(*[st.integers(0, 1)] * m), min_size=size, max_size=size), label="labels")
    else:
        H = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=MAX_HYPOTHESES), label="members")
    if draw(st.booleans(), label="add_duplicate") and len(H) < MAX_HYPOTHESES:
        H = list(H) + [H[draw(st.integers(0, len(H) - 1), label="duplicated")]]
    return tuple(H)


@st.composite
def instances(draw, max_points: int = MAX_POINTS):
    m = draw(st.integers(1, max_points), label="num_points")
    nu = draw(distributions(m), label="nu")
    eta = draw(probability_lists(m), label="eta")
    H = draw(hypothesis_classes(m), label="hypotheses")
    return Instance(nu, eta, H)


@st.composite
def low_noise_instances(draw, max_points: int = MAX_POINTS):
    """Like `instances`, with eta* in {0, 1/20, 1/10, 9/10, 19/20, 1}: large
    gaps relative to the noise, so RobustCAL's modified rule eliminates within a few
    hundred rounds and the correctness check has eliminations to judge."""
    m = draw(st.integers(1, max_points), label="num_points")
    nu = draw(distributions(m), label="nu")
    levels = [Fraction(0), Fraction(1, 20), Fraction(1, 10), Fraction(9, 10), Fraction(19, 20), Fraction(1)]
    eta = draw(st.lists(st.sampled_from(levels), min_size=m, max_size=m), label="eta")
    H = draw(hypothesis_classes(m), label="hypotheses")
    return Instance(nu, eta, H)


@st.composite
def rich_instances(draw, max_points: int = 5):
    """An instance of `instances` with at least two distinct hypotheses (the
    complement of the first is added when all coincide) and, half the time, low label noise
    (eta* in {0, 1/10, 9/10, 1}: large gaps Delta_h, so the gap bounds bite)."""
    base = draw(instances(max_points=max_points), label="base_instance")
    H = list(base.hypotheses)
    if len(set(H)) == 1:
        complement = tuple(1 - v for v in H[0])
        H = H + [complement] if len(H) < 8 else H[:-1] + [complement]
    eta = base.eta
    if draw(st.booleans(), label="low_noise"):
        eta = draw(
            st.lists(
                st.sampled_from([Fraction(0), Fraction(1, 10), Fraction(9, 10), Fraction(1)]),
                min_size=base.num_points,
                max_size=base.num_points,
            ),
            label="low_noise_eta",
        )
    return Instance(base.nu, eta, H)


# -- adversaries --------------------------------------------------------------------------
ADVERSARY_KINDS = ("clean", "misspecification", "burst", "piecewise", "theorem41_ok", "theorem41_violated")
COROLLARY51_KINDS = ("corollary51_ok", "corollary51_violated")
CALRUPTION_ADVERSARY_KINDS = ADVERSARY_KINDS + COROLLARY51_KINDS
COROLLARY51_RATE = Fraction(1, 32)  # Corollary 5.1: C_l / N_l <= 1/32 for every epoch l


def _piecewise_segments(draw, m: int, first: int, last: int, cap: Fraction) -> list[dict]:
    """Segments covering rounds first..last (none if last < first): up to 4 drawn cuts,
    each segment a drawn target mixed in with a drawn gamma <= cap, so c_t <= cap."""
    cuts = sorted(draw(st.sets(st.integers(first, last - 1), max_size=4), label="cuts")) if last > first else []
    bounds = [first - 1, *cuts, last] if last >= first else []
    segments = []
    for a, b in zip(bounds, bounds[1:]):
        gamma = draw(mixing_weights(cap), label="segment_gamma")
        target = draw(target_lists(m), label="segment_target")
        segments.append({"start": a + 1, "end": b, "gamma": gamma, "target": target})
    return segments


@st.composite
def adversaries_for(draw, instance: Instance, n: int, kinds=ADVERSARY_KINDS, beta1: Fraction | None = None):
    """An oblivious adversary for `instance` over n rounds, of one of `kinds`:
    clean; gamma-misspecification; early burst (any eta until tau, then clean); random
    piecewise within a drawn corruption budget; one that satisfies Theorem 4.1's
    C_[0,t] <= t/8 (every segment's c_t <= 1/8); one that violates it (a burst of c = 1
    at the start); one that satisfies Corollary 5.1's C_l / N_l <= 1/32 on every epoch
    (every c_t <= 1/32, so on any epoch with N_l read as |I_l|: half the time c_t = 1/32, else
    piecewise with segment gamma <= 1/32); one that violates it on a whole
    complete epoch of CALruption's schedule |I_l| = ceil(beta1 4^l) (FINDINGS R10), which
    needs `beta1` and n >= |I_1|."""
    m = instance.num_points
    if "corollary51_violated" in kinds and (beta1 is None or not epoch_schedule(beta1, n)):
        raise ValueError(f"corollary51_violated needs beta1 and a complete epoch within n = {n} (beta1 = {beta1})")
    kind = draw(st.sampled_from(kinds), label="adversary_kind")
    if kind == "clean":
        return adversaries.clean(n)
    if kind == "misspecification":
        gamma = draw(mixing_weights(Fraction(1, 4)), label="gamma")
        eta_tilde = draw(probability_lists(m), label="eta_tilde")
        return adversaries.misspecification(gamma, eta_tilde, n)
    if kind == "burst":
        tau = draw(st.integers(0, n), label="tau")
        target = draw(target_lists(m), label="eta_burst")
        return adversaries.early_burst(target, tau, n)
    if kind == "theorem41_violated":
        # eta flipped to 1 - eta* where it is furthest from 1/2 makes c_t = max|1 - 2 eta*|;
        # with eta* in {0, 1} somewhere c_t = 1 > 1/8 from round 1 on.
        flipped = tuple(1 - e for e in instance.eta)
        tau = draw(st.integers(1, n), label="tau")
        return adversaries.early_burst(flipped, tau, n)
    # eta_t^x = the label furthest from eta*^x moves eta by max(eta*^x, 1 - eta*^x) >= 1/2 at
    # x, so a mixing weight gamma gives c_t = gamma * far_distance exactly, whatever the instance
    far = tuple(Fraction(0) if e >= Fraction(1, 2) else Fraction(1) for e in instance.eta)
    far_distance = max(max(e, 1 - e) for e in instance.eta)
    if kind == "corollary51_ok" and draw(st.booleans(), label="at_budget"):
        # the corollary's own example, the 1/32-misspecification at its edge: c_t = 1/32 in
        # every round, so C_l / N_l = 1/32 on every complete epoch
        return adversaries.misspecification(COROLLARY51_RATE / far_distance, far, n)
    if kind == "corollary51_violated":
        # Section 5's "fully corrupts some early epoch, then C_l / N_l <= 1/32": gamma = 1 on
        # all of I_l gives c_t >= 1/2 there, so C_l / N_l >= C_l / |I_l| >= 1/2 > 1/32.
        _, tau, length = draw(st.sampled_from(epoch_schedule(beta1, n)), label="corrupted_epoch")
        burst = {"start": tau, "end": tau + length - 1, "gamma": Fraction(1), "target": far}
        return adversaries.piecewise(
            n,
            [
                *_piecewise_segments(draw, m, 1, tau - 1, COROLLARY51_RATE),
                burst,
                *_piecewise_segments(draw, m, tau + length, n, COROLLARY51_RATE),
            ],
        )
    # piecewise schedules: gamma <= 1/8 keeps every c_t <= 1/8 (Theorem 4.1's condition),
    # gamma <= 1/32 every C_l <= |I_l| / 32 (Corollary 5.1's, N_l = |I_l| for rational beta1)
    cap = {"theorem41_ok": Fraction(1, 8), "corollary51_ok": COROLLARY51_RATE}.get(kind, Fraction(1))
    return adversaries.piecewise(n, _piecewise_segments(draw, m, 1, n, cap))


@st.composite
def deterministic_adversaries(draw, m: int, n: int):
    """Adversaries that keep every eta_t^x in {0, 1} when eta* is: clean, or up to three
    segments that set chosen points to a drawn label (c_t in {0, 1})."""
    kind = draw(st.sampled_from(["clean", "flips"]), label="adversary_kind")
    if kind == "clean" or n == 1:
        return adversaries.clean(n)
    cuts = sorted(draw(st.sets(st.integers(1, n - 1), max_size=2), label="cuts"))
    bounds = [0, *cuts, n]
    segments = []
    for a, b in zip(bounds, bounds[1:]):
        target = draw(
            st.lists(st.sampled_from([None, Fraction(0), Fraction(1)]), min_size=m, max_size=m), label="segment_target"
        )
        segments.append({"start": a + 1, "end": b, "gamma": Fraction(1), "target": target})
    return adversaries.piecewise(n, segments)


@st.composite
def edge_adversaries(draw, instance: Instance, n: int):
    """The adversary Theorem 4.1's correctness proof must withstand: c_t = 1/8 (its
    budget C_[0,t] <= t/8 used to the full where there is room), spent in favour of a
    competitor h against h*: on Dis(h, h*), eta moves by 1/8 towards h's label, until a
    drawn tau (tau = n: the whole run)."""
    H, best = instance.hypotheses, instance.best
    h = draw(st.integers(0, len(H) - 1), label="favoured")
    tau = draw(st.one_of(st.just(n), st.integers(0, n)), label="tau")
    d = Fraction(1, 8)
    target = tuple(
        None if H[h][x] == H[best][x] else (min(Fraction(1), e + d) if H[h][x] == 1 else max(Fraction(0), e - d))
        for x, e in enumerate(instance.eta)
    )
    return adversaries.early_burst(target, tau, n)


def room(eta_star: Fraction, label: int) -> Fraction:
    """How far eta can move at a point in the direction that raises the risk of a
    hypothesis with this label there (label 1 errs on y = 0: lower eta; label 0: raise it)."""
    return eta_star if label == 1 else 1 - eta_star


def aligned_target(instance: Instance, against: int, d: Fraction, points) -> tuple:
    """eta_t^x = eta*^x moved by d (clipped to [0, 1]) at each x in `points`, in the
    direction that raises R_t(h) for h = hypotheses[against]; None elsewhere.

    On a point where the room is at least d this raises the risk of `against` by exactly
    d nu*(x) and moves every other hypothesis by -d nu*(x) where it disagrees with it:
    equality in Lemma A.1 (for `against`) and Lemma A.2 (for every pair (against, h'))
    when every point of positive mass has room >= d."""
    labels = instance.hypotheses[against]
    chosen = set(points)
    target = []
    for x, e in enumerate(instance.eta):
        if x not in chosen:
            target.append(None)
        elif labels[x] == 1:
            target.append(max(Fraction(0), e - d))
        else:
            target.append(min(Fraction(1), e + d))
    return tuple(target)


@st.composite
def aligned_adversaries(draw, instance: Instance, n: int):
    """An early burst that shifts eta against one hypothesis by a common amount d on a
    region (the support of nu*, all of X, or Dis(h, h*)), until a drawn tau. With d = the
    smallest positive room on the region ("fill") the corruption is used up exactly on
    every point of positive mass that has that room: the lemmas' bounds are attained."""
    H = instance.hypotheses
    against = draw(st.integers(0, len(H) - 1), label="against")
    region = draw(st.sampled_from(("support", "all", "dis_best")), label="aligned_region")
    if region == "support":
        points = [x for x, p in enumerate(instance.nu) if p > 0]
    elif region == "all":
        points = list(range(instance.num_points))
    else:
        best = H[instance.best]
        points = [x for x in range(instance.num_points) if H[against][x] != best[x]]
    rooms = [room(instance.eta[x], H[against][x]) for x in points if instance.nu[x] > 0]
    positive = [r for r in rooms if r > 0]
    if draw(st.booleans(), label="fill_room") and positive:
        d = min(positive)
    else:
        d = draw(st.fractions(0, 1, max_denominator=32), label="shift")
    tau = draw(st.integers(0, n), label="tau")
    return adversaries.early_burst(aligned_target(instance, against, d, points), tau, n)


# -- parameters ---------------------------------------------------------------------------
DELTA_CHOICES = (Fraction(1, 20), Fraction(1, 10), Fraction(1, 3))
BETA1_CHOICES = (Fraction(1), Fraction(2), Fraction(4))  # epochs of 4, 8 or 16 rounds first
# The full-run and one-epoch checks also draw constants whose N_l = beta1 4^l is not an
# integer, so |I_l| = ceil(N_l) rounds (Algorithm 2, line 1): a rational 7/3 (N_l = 9.33.., 37.33..,
# ...) and an irrational ln 3 (N_l = 4.39.., 17.57.., ...; the paper's beta1 is a log too).
# An implementation that rounds epoch lengths otherwise than the contract is caught there.
FRACTIONAL_BETA1_CHOICES = (Fraction(7, 3), ScaledLog(Fraction(1), Fraction(3)))
FULL_RUN_BETA1_CHOICES = BETA1_CHOICES + FRACTIONAL_BETA1_CHOICES


def beta1_of(params):
    """beta1 as the strategies draw it: a Fraction, or the ScaledLog itself."""
    return getattr(params.beta1, "value", params.beta1)


BETA2_CHOICES = (PAPER_BETA2, Fraction(0), Fraction(1))  # the paper's 5/32, no penalty, a large one
BETA3_CHOICES = (None, Fraction(1, 2), Fraction(8))  # None: the paper's 2 log(3/2 floor(log n) |H|^2 / delta)


@st.composite
def params_for(draw, n: int, num_hypotheses: int, regimes=("paper", "scaled")):
    regime = draw(st.sampled_from(regimes), label="regime")
    delta = draw(st.sampled_from(DELTA_CHOICES), label="delta")
    if regime == "paper":
        return Params.paper(n, num_hypotheses, delta)
    beta_scale = draw(st.sampled_from([Fraction(1, 16), Fraction(1, 4), Fraction(1)]), label="beta_scale")
    beta1 = draw(st.sampled_from(BETA1_CHOICES), label="beta1")
    return Params.scaled(n, num_hypotheses, delta, beta_scale, beta1)


def rational_epoch_length(beta1, l: int) -> int:
    """|I_l| = ceil(beta1 4^l) (FINDINGS R10), for a rational beta1 or a certified
    constant (ScaledLog)."""
    if isinstance(beta1, ScaledLog):
        return certified_ceil(beta1, 4**l)
    value = Fraction(beta1) * 4**l
    return -((-value.numerator) // value.denominator)


def epoch_schedule(beta1: Fraction, max_rounds: int) -> list[tuple[int, int, int]]:
    """(l, tau_l, |I_l|) of the epochs l = 1, 2, ... that end by round max_rounds, for a
    rational beta1."""
    schedule, tau, l = [], 1, 1
    while tau + rational_epoch_length(beta1, l) - 1 <= max_rounds:
        schedule.append((l, tau, rational_epoch_length(beta1, l)))
        tau += rational_epoch_length(beta1, l)
        l += 1
    return schedule


def epoch_blocks(beta1: Fraction, n: int) -> list[tuple[int, int]]:
    """(tau, length) of the epochs that end by round n, then of the unfinished rest (if any):
    n rounds in all, for a rational beta1."""
    blocks = [(tau, length) for _, tau, length in epoch_schedule(beta1, n)]
    done = sum(length for _, length in blocks)
    return blocks + [(done + 1, n - done)] if done < n else blocks


def premise_params(n: int, num_hypotheses: int, beta1, beta3, delta: Fraction = Fraction(1, 10)) -> Params:
    """Params.scaled with beta_scale 1/4, the paper's beta2 = 5/32 and the given beta1, beta3:
    the paper premises (beta1 >= 20480 beta3, beta2 >= 5/32) hold when beta1 >= 20480 beta3."""
    return Params.scaled(n, num_hypotheses, delta, Fraction(1, 4), beta1, PAPER_BETA2, beta3)


@st.composite
def calruption_params(draw, n: int, num_hypotheses: int, beta1: Fraction):
    """Scaled constants for CALruption (every regime the checks must hold in): beta1
    given, beta2 in {5/32, 0, 1}, beta3 the paper's log or a rational."""
    delta = draw(st.sampled_from(DELTA_CHOICES), label="delta")
    beta2 = draw(st.sampled_from(BETA2_CHOICES), label="beta2")
    beta3 = draw(st.sampled_from(BETA3_CHOICES), label="beta3")
    return Params.scaled(n, num_hypotheses, delta, Fraction(1, 4), beta1, beta2, beta3)
