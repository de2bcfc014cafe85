"""Checks of an implementation's own tape sampler, `sample_tape(instance, adversary, seed)`
(an optional public name, properties/core/contract.py: a candidate without it is "not
applicable" here).

Every tape the suite itself uses comes from `reference.sample_tape` (generator
"cral-tape-v1", reference/tape.py). A candidate's sampler is held to
* the contract's equality when its tape claims generator "cral-tape-v1" (round for round,
  seed and n included) -- `check_sample_tape_matches_cral_tape_v1`, which also checks, for
  every candidate, that the tape is one a correct sampler can produce at all (n, x_t a point
  of positive mass, y_t of positive probability given x_t, the reported seed);
* the law of the paper's model, whatever its generator: x_t ~ nu*, y_t ~ Ber(eta_t^{x_t}),
  u_t ~ U[0, 1), all independent (Section 2, "Oblivious adversary model"; Algorithm 2,
  line 4 draws Q_t ~ Ber(q) as [u_t < q]) -- `check_sample_tape_law`, a statistical check
  with a stated overall error rate;
* the prefix property, a property of this project's contract rather than of the paper --
  `check_sample_tape_prefix`.

Statistical decisions use a Chernoff bound on binomial tails computed exactly in
rationals (`binomial_tail_bound`): a test rejects only when the bound, an upper bound on
the exact tail, is at most its share of the error rate, so a correct sampler is rejected
with probability at most the stated rate, without any approximation."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from hypothesis import strategies as st

from properties.checks.registry import custom_check
from properties.core.candidate import call, call_many
from properties.core.contract import decode_tape
from properties.core.steering import note
from properties.core.violation import Violation
from properties.strategies import SAMPLER_LAW_EXPERIMENT, sampler_cases, sampler_prefix_cases
from reference import adversary as _adversaries
from reference import sample_tape as reference_sample_tape
from reference.tape import GENERATOR

MAX_REPORTED_ROUNDS = 3  # offending rounds named per kind of violation


def sampled_tape(check: str, impl, instance, adversary, seed):
    """The candidate's tape for (instance, adversary, seed), decoded."""
    return decode_tape(check, call(check, impl, "sample_tape", instance, adversary, seed))


def sampled_tapes(check: str, impl, requests):
    """The candidate's tapes for [(instance, adversary, seed), ...], one round trip."""
    plain = call_many(check, impl, "sample_tape", [(request, {}) for request in requests])
    return [decode_tape(check, p) for p in plain]


def rounds_with_eta(instance, adversary):
    """(t, eta_t) for t = 1..n, one segment at a time."""
    for start, end, eta_t, _ in adversary.bind(instance):
        for t in range(start, end + 1):
            yield t, eta_t


# ==========================================================================================
# what a correct sampler can produce at all
# ==========================================================================================
def tape_violations(check: str, instance, adversary, seed, tape) -> list[Violation]:
    """Violations that are certain, whatever the generator (each is an outcome of
    probability 0 under the model, or a wrong length or provenance): n = adversary.n,
    a reported seed equal to the one asked for, x_t a point of the instance with
    nu*(x_t) > 0, y_t with P(y_t | x_t) > 0, i.e. y_t = 1 only if eta_t^{x_t} > 0 and
    y_t = 0 only if eta_t^{x_t} < 1. Labels in {0, 1} and u_t in [0, 1) are enforced by
    decode_tape: a label or coin outside them is a malformed tape, named by its 0-based
    index (round t is index t - 1)."""
    found = []
    if tape.n != adversary.n:
        return [Violation.of(check, "the tape's length is not the adversary's n", tape_n=tape.n, n=adversary.n)]
    if tape.seed is not None and tape.seed != seed:
        found.append(
            Violation.of(check, "the tape reports another seed than the one asked for", seed=seed, tape_seed=tape.seed)
        )
    m, nu = instance.num_points, instance.nu
    bad: dict[str, list] = {}
    for (t, eta_t), x, y in zip(rounds_with_eta(instance, adversary), tape.x, tape.y):
        if x >= m:
            bad.setdefault("x_t is not a point of the instance (0..m-1)", []).append((t, x, y))
        elif nu[x] == 0:
            bad.setdefault("x_t has probability nu*(x_t) = 0", []).append((t, x, y))
        elif (y == 1 and eta_t[x] == 0) or (y == 0 and eta_t[x] == 1):
            bad.setdefault("y_t has probability 0 given x_t (eta_t^{x_t} is 0 or 1)", []).append((t, x, y))
    for message, rounds in bad.items():
        t, x, y = rounds[0]
        found.append(
            Violation.of(
                check,
                message,
                round=t,
                x=x,
                y=y,
                rounds=len(rounds),
                first_rounds=[r[0] for r in rounds[:MAX_REPORTED_ROUNDS]],
                m=m,
            )
        )
    return found


def first_difference(ours, theirs):
    """The first 1-based index where two sequences differ (or where one ends), else None."""
    for t, (a, b) in enumerate(zip(ours, theirs), start=1):
        if a != b:
            return t
    return None if len(ours) == len(theirs) else min(len(ours), len(theirs)) + 1


def check_sample_tape_matches_cral_tape_v1(impl, case):
    """The contract of reference/tape.py (generator "cral-tape-v1") and CONTRACT.md "Tape"
    ("identical seeds give identical tapes on every machine"): a tape whose generator is
    "cral-tape-v1" equals reference.sample_tape(instance, adversary, seed) round for round
    (x_t, y_t, u_t), with the same seed and n = adversary.n. A tape that claims another
    generator, or none, is not held to equality here (its law is
    check_sample_tape_law's). Every tape, whatever it claims, must be one a correct sampler
    can produce (`tape_violations`: n, reported seed, x_t of positive mass, y_t of positive
    probability given x_t; Section 2, "Oblivious adversary model")."""
    name = "check_sample_tape_matches_cral_tape_v1"
    instance, adversary, seed = case.instance, case.adversary, case.seed
    tape = sampled_tape(name, impl, instance, adversary, seed)
    found = tape_violations(name, instance, adversary, seed, tape)
    if tape.generator != GENERATOR:
        note(f"sampler: the tape claims generator {tape.generator!r}, not held to equality")
        return found
    note("sampler: the tape claims cral-tape-v1")
    expected = reference_sample_tape(instance, adversary, seed)
    if tape.seed != expected.seed:
        found.append(Violation.of(name, "a cral-tape-v1 tape must record its seed", seed=seed, tape_seed=tape.seed))
    for field in ("x", "y", "u"):
        ours, theirs = getattr(tape, field), getattr(expected, field)
        t = first_difference(ours, theirs)
        if t is not None:
            found.append(
                Violation.of(
                    name,
                    f"claims cral-tape-v1 but {field}_t differs from reference.sample_tape",
                    round=t,
                    got=ours[t - 1] if t <= len(ours) else "(tape ended)",
                    expected=theirs[t - 1] if t <= len(theirs) else "(tape ended)",
                    rounds_differing=sum(a != b for a, b in zip(ours, theirs)),
                )
            )
    return found


# ==========================================================================================
# the law
# ==========================================================================================
def binomial_tail_bound(N: int, p: Fraction, k: int) -> Fraction:
    """Chernoff's bound on the tail of X ~ Binomial(N, p) on k's side of the mean, exactly:
    P(X >= k) for k >= Np, P(X <= k) for k <= Np, is at most
        (Np / k)^k (N(1 - p) / (N - k))^(N - k)        (= exp(-N KL(k/N || p))),
    with 0^0 = 1; it is 1 at k = Np. For 0 < p < 1."""
    if not 0 < p < 1:
        raise ValueError(f"p must lie in (0, 1), got {p}")
    if not 0 <= k <= N:
        raise ValueError(f"k must lie in 0..{N}, got {k}")
    bound = Fraction(1)
    if k > 0:
        bound *= (N * p / k) ** k
    if k < N:
        bound *= (N * (1 - p) / (N - k)) ** (N - k)
    return min(bound, Fraction(1))


def log_tail_bound(N: int, p: Fraction, k: int) -> float:
    """ln of binomial_tail_bound, in floats (for screening and reporting only)."""
    q = float(p)
    value = 0.0
    if k > 0:
        value += k * math.log(N * q / k)
    if k < N:
        value += (N - k) * math.log(N * (1 - q) / (N - k))
    return min(value, 0.0)


@dataclass(frozen=True)
class PlannedTest:
    """One binomial test: among the rounds `key` selects (N of them), the count k of an
    event of probability p (per round, independently, under a correct sampler)."""

    key: tuple
    p: Fraction
    what: str


U_BINS = 8  # u_t in [j/8, (j+1)/8)
U_SMALL = (Fraction(1, 64), Fraction(1, 1024))  # small query probabilities: u_t < q
SERIAL_LAGS = (1, 1024)  # a round against the next one, and against the same round of the next block


def law_plan(setting) -> list[PlannedTest]:
    """The tests made on one setting's tape, fixed by the setting alone (so the Bonferroni
    split does not depend on the data):
      x: per segment of the adversary and point x with 0 < nu*(x) < 1, #{x_t = x} among the
         segment's rounds ~ Bin(|segment|, nu*(x))   (x_t ~ nu*, whatever the adversary does);
      y: per segment and point x with 0 < nu*(x) and 0 < eta_t^x < 1, #{y_t = 1} among the
         segment's rounds with x_t = x ~ Bin(., eta_t^x), given the x's;
      u: per bin [j/8, (j+1)/8), #{u_t in it} ~ Bin(n, 1/8); for q in {1/64, 1/1024},
         #{u_t < q} ~ Bin(n, q); per (x, y) with nu*(x) > 0, #{u_t < 1/2} among the rounds
         with (x_t, y_t) = (x, y) ~ Bin(., 1/2), given the x's and y's (u independent of
         both: the query coin must not know the label);
      serial: for lag L in {1, 1024}, disjoint pairs (t, t + L) (t in the even-numbered
         blocks of L rounds), #{[u_t < 1/2] = [u_{t+L} < 1/2]} ~ Bin(pairs, 1/2) (rounds
         independent; a sampler that repeats a block of cral-tape-v1 fails the lag 1024).
    The u events have dyadic probabilities, exact for u on any grid 2^-k, k >= 10
    (cral-tape-v1's is 2^-64)."""
    instance = setting.instance
    nu, m = instance.nu, instance.num_points
    plan = []
    for s, (start, end, eta_t, _) in enumerate(setting.adversary.bind(instance)):
        for x in range(m):
            if 0 < nu[x] < 1:
                plan.append(PlannedTest(("x", s, x), nu[x], f"#{{x_t = {x}}} on rounds {start}..{end}"))
        for x in range(m):
            if nu[x] > 0 and 0 < eta_t[x] < 1:
                plan.append(
                    PlannedTest(
                        ("y", s, x),
                        eta_t[x],
                        f"#{{y_t = 1}} among x_t = {x} on rounds {start}..{end} (eta_t^x = {eta_t[x]})",
                    )
                )
    for j in range(U_BINS):
        plan.append(PlannedTest(("u_bin", j), Fraction(1, U_BINS), f"#{{u_t in [{j}/{U_BINS}, {j + 1}/{U_BINS})}}"))
    for q in U_SMALL:
        plan.append(PlannedTest(("u_below", q), q, f"#{{u_t < {q}}}"))
    for x in range(m):
        if nu[x] > 0:
            for y in (0, 1):
                plan.append(
                    PlannedTest(("u_given_xy", x, y), Fraction(1, 2), f"#{{u_t < 1/2}} among (x_t, y_t) = ({x}, {y})")
                )
    for lag in SERIAL_LAGS:
        plan.append(
            PlannedTest(
                ("serial", lag),
                Fraction(1, 2),
                f"#{{[u_t < 1/2] = [u_(t+{lag}) < 1/2]}} over disjoint pairs at lag {lag}",
            )
        )
    return plan


def law_counts(setting, tape) -> dict[tuple, tuple[int, int]]:
    """(k, N) for every key a plan may name, from one pass over the tape (whose x, y have
    been validated by tape_violations: x_t < m)."""
    instance, adversary = setting.instance, setting.adversary
    m = instance.num_points
    segments = adversary.bind(instance)
    seen = [[0] * m for _ in segments]
    ones = [[0] * m for _ in segments]
    bins = [0] * U_BINS
    below = dict.fromkeys(U_SMALL, 0)
    xy_rounds = [[0, 0] for _ in range(m)]
    xy_low = [[0, 0] for _ in range(m)]
    low = []  # [u_t < 1/2]
    s = 0
    for t, (x, y, u) in enumerate(zip(tape.x, tape.y, tape.u), start=1):
        while t > segments[s][1]:
            s += 1
        seen[s][x] += 1
        ones[s][x] += y
        a, b = u.numerator, u.denominator
        bins[a * U_BINS // b] += 1
        for q in U_SMALL:
            below[q] += a * q.denominator < q.numerator * b
        is_low = 2 * a < b
        low.append(is_low)
        xy_rounds[x][y] += 1
        xy_low[x][y] += is_low
    counts = {}
    for s, (start, end, _, _) in enumerate(segments):
        for x in range(m):
            counts[("x", s, x)] = (seen[s][x], end - start + 1)
            counts[("y", s, x)] = (ones[s][x], seen[s][x])
    for j in range(U_BINS):
        counts[("u_bin", j)] = (bins[j], tape.n)
    for q in U_SMALL:
        counts[("u_below", q)] = (below[q], tape.n)
    for x in range(m):
        for y in (0, 1):
            counts[("u_given_xy", x, y)] = (xy_low[x][y], xy_rounds[x][y])
    for lag in SERIAL_LAGS:
        pairs = [(t, t + lag) for t in range(tape.n) if (t // lag) % 2 == 0 and t + lag < tape.n]
        counts[("serial", lag)] = (sum(low[a] == low[b] for a, b in pairs), len(pairs))
    return counts


@dataclass(frozen=True)
class TestOutcome:
    setting: str
    what: str
    k: int
    N: int
    p: Fraction
    ln_bound: float  # ln of the Chernoff bound on k's tail (0 = no evidence)
    rejected: bool

    @property
    def p_value_bound(self) -> float:
        """A two-sided p-value bound of this one test, min(1, 2 * bound)."""
        return min(1.0, 2 * math.exp(self.ln_bound))


@dataclass(frozen=True)
class LawReport:
    """Everything check_sample_tape_law decided: certain violations, and every test with
    its count and bound (for the meta-tests and the report)."""

    certain: tuple[Violation, ...]
    outcomes: tuple[TestOutcome, ...]
    alpha: Fraction
    generators: tuple

    @property
    def per_side(self) -> Fraction:
        """alpha split by Bonferroni over the tests, and over the two sides of each."""
        return self.alpha / (2 * len(self.outcomes))

    @property
    def rejections(self) -> list[TestOutcome]:
        return [o for o in self.outcomes if o.rejected]


def decide(N: int, p: Fraction, k: int, threshold: Fraction) -> tuple[bool, float]:
    """(rejected, ln bound): rejected iff binomial_tail_bound(N, p, k) <= threshold, decided
    exactly. The float screen only skips the exact computation where the bound is above
    the threshold by a factor e or more (float error in ln is far below 1 here); every
    rejection is certified in rationals."""
    if N == 0:
        return False, 0.0
    ln_bound = log_tail_bound(N, p, k)
    if ln_bound > math.log(threshold) + 1:
        return False, ln_bound
    return binomial_tail_bound(N, p, k) <= threshold, ln_bound


def law_report(check: str, impl, experiment) -> LawReport:
    """Sample each setting's tape from the candidate, then every certain violation
    (`tape_violations`; for a cral-tape-v1 tape also x under the setting's adversary = x
    under clean(n), same seed: reference/tape.py "x_t does not depend on the adversary")
    and every planned binomial test."""
    settings = experiment.settings
    tapes = sampled_tapes(check, impl, [(s.instance, s.adversary, s.seed) for s in settings])
    certain = []
    for setting, tape in zip(settings, tapes):
        certain += [
            Violation.of(check, v.message, setting=setting.name, **v.values)
            for v in tape_violations(check, setting.instance, setting.adversary, setting.seed, tape)
        ]
    claims = [(setting, tape) for setting, tape in zip(settings, tapes) if tape.generator == GENERATOR]
    if claims:
        clean = sampled_tapes(check, impl, [(s.instance, _adversaries.clean(s.adversary.n), s.seed) for s, _ in claims])
        for (setting, tape), other in zip(claims, clean):
            t = first_difference(tape.x, other.x)
            if t is not None:
                certain.append(
                    Violation.of(
                        check,
                        "claims cral-tape-v1 but x_t depends on the adversary (same seed, clean adversary)",
                        setting=setting.name,
                        round=t,
                    )
                )
    plans = [law_plan(setting) for setting in settings]
    total = sum(len(plan) for plan in plans)
    threshold = experiment.alpha / (2 * total)
    outcomes = []
    for setting, tape, plan in zip(settings, tapes, plans):
        # counting needs a tape of the right length whose x_t are points; a tape that is
        # not has a certain violation above, and its tests count as not made (no rejection)
        countable = tape.n == setting.adversary.n and all(x < setting.instance.num_points for x in tape.x)
        counts = law_counts(setting, tape) if countable else {}
        for test in plan:
            k, N = counts.get(test.key, (0, 0))
            rejected, ln_bound = decide(N, test.p, k, threshold)
            outcomes.append(TestOutcome(setting.name, test.what, k, N, test.p, ln_bound, rejected))
    return LawReport(tuple(certain), tuple(outcomes), experiment.alpha, tuple(t.generator for t in tapes))


def check_sample_tape_law(impl, experiment):
    """Section 2, "Oblivious adversary model": x_t ~ nu* independently of the adversary,
    y_t ~ Ber(eta_t^{x_t}); Algorithm 2, line 4 (Q_t ~ Ber(q) drawn as [u_t < q]): u_t ~
    U[0, 1) independent of x_t and y_t; rounds independent. Whatever the tape's generator.

    On the fixed settings of SAMPLER_LAW_EXPERIMENT (three tapes, 22096 rounds) the tests of
    `law_plan` (90 binomial tests), each two-sided, rejecting when the exact Chernoff bound
    (`binomial_tail_bound`) on the observed tail is <= alpha / (2 * 90); alpha = 10^-6 is the
    overall error rate: a correct sampler fails this check with probability at most 10^-6
    (Bonferroni; conditional tests are valid given the x's and y's they condition on).
    Certain violations (`tape_violations`; for a cral-tape-v1 tape, x_t changing with the
    adversary) are reported whatever the tests say. Power: a sampler that draws labels from
    eta* instead of eta_t, or x from another distribution than nu*, or a query coin tied to
    the label, or repeating blocks, is rejected with bounds below 10^-30
    (tests/properties/checks/test_sampler.py)."""
    name = "check_sample_tape_law"
    report = law_report(name, impl, experiment)
    found = list(report.certain)
    for o in report.rejections:
        found.append(
            Violation.of(
                name,
                "a tape statistic is too far from its law",
                setting=o.setting,
                test=o.what,
                count=o.k,
                among=o.N,
                p=o.p,
                expected=o.N * o.p,
                ln_tail_bound=round(o.ln_bound, 2),
                ln_threshold=round(math.log(report.per_side), 2),
            )
        )
    return found


# ==========================================================================================
# the prefix property
# ==========================================================================================
def check_sample_tape_prefix(impl, case):
    """The prefix property: for the same instance and seed, the tape for the first n rounds
    of an adversary is the first n rounds of its tape for all n_long rounds (eta_t the same
    for t <= n). This is this project's contract, not the paper's: CONTRACT.md "Tape"
    (identical seeds give identical tapes) and reference/tape.py, "Consequences a user can
    rely on". Held for every sampler, whatever its generator, as its law is: a tape of n rounds is then the start of a longer
    run, so results at horizons n < n_long are comparable on one seed."""
    name = "check_sample_tape_prefix"
    instance, seed = case.instance, case.seed
    short, long = sampled_tapes(name, impl, [(instance, case.short_adversary, seed), (instance, case.adversary, seed)])
    found = []
    for tape, n in ((short, case.n), (long, case.adversary.n)):
        if tape.n != n:
            found.append(Violation.of(name, "the tape's length is not the adversary's n", tape_n=tape.n, n=n))
    if found:
        return found
    for field in ("x", "y", "u"):
        ours, theirs = getattr(short, field), getattr(long, field)[: case.n]
        t = first_difference(ours, theirs)
        if t is not None:
            found.append(
                Violation.of(
                    name,
                    f"{field}_t of the {case.n}-round tape differs from the {case.adversary.n}-round tape's",
                    round=t,
                    short=ours[t - 1],
                    long=theirs[t - 1],
                    generator=short.generator,
                )
            )
    return found


CHECKS = (
    custom_check(
        check_sample_tape_matches_cral_tape_v1,
        "docs/spec.md S45-S46 (generator cral-tape-v1); CONTRACT.md 'Tape'; Section 2 'Oblivious adversary model' "
        "(support)",
        "deterministic",
        sampler_cases(),
        covers=("sample_tape",),
    ),
    custom_check(
        check_sample_tape_law,
        "Section 2 'Oblivious adversary model' (x_t ~ nu*, y_t ~ Ber(eta_t^{x_t})); Algorithm 2, line 4 "
        "(Q_t ~ Ber(q) from u_t)",
        "statistical",
        st.just(SAMPLER_LAW_EXPERIMENT),
        covers=("sample_tape",),
    ),
    custom_check(
        check_sample_tape_prefix,
        "CONTRACT.md 'Tape'; docs/spec.md S46 'Consequences' (the project's contract, not the paper)",
        "deterministic",
        sampler_prefix_cases(),
        covers=("sample_tape",),
    ),
)
