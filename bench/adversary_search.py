"""The strongest oblivious adversary a plain search finds within a budget.

    python bench/adversary_search.py [--quick] [--algorithm RobustCAL|CALruption] [--out PATH]

An adversary here is up to two corrupted windows [a, b] of rounds (clean elsewhere); in a
window eta_t = (1 - gamma) eta* + gamma h'(x) on the points where a competitor h' disagrees
with h^* (labels pushed towards h', the move that can make h' look best), eta* elsewhere. The
genome is (start, length as fractions of n, gamma, competitor) per window. The search is
random sampling followed by hill climbing (perturb one window, keep it if the objective
improves), every candidate scored on the same seeds (common random numbers). The clean run
and the project's shipped adversaries (properties/campaign/experiments.py: gamma = 1/32
misspecification, the early burst) are scored first on those seeds, made to fit the budget
as a candidate is, and the answer is the strongest of them and the candidates: a search
never reports an adversary weaker than a baseline. Budgets:

* RobustCAL: Theorem 4.1's premise C_[0,t] <= t/8 at every checkpoint t = 2^k (a candidate
  over it has its gammas halved until it is within, exactly: reference.bounds.checkpoint_budget_ok);
* CALruption: C_total <= the budget (n/32 by default: Corollary 5.1's per-epoch 1/32 is not
  imposed, so Theorem 5.1 with C-bar_total applies).

Objectives: "labels" (mean labels requested over the seeds) and "wrong" (the fraction of
seeds whose output is not h^*, ties broken by the mean excess risk). The worst adversary found
is set against the corrected bounds (reference.bounds.all_bounds) and written, with its
segments as data and a replay command, to bench/results/adversary_search[_quick].json.
A bound is reported broken only if the measured rate of excess risk above the bound has a
Clopper-Pearson 95% lower limit above the theorem's failure probability (on fresh seeds).
"""

from __future__ import annotations

import json
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _report  # noqa: E402

from reference.command_line import OneLineParser, UsageError  # noqa: E402


def build(instance, n: int, genome, algorithm: str, budget: int, best: int | None = None):
    """The adversary of a genome, made to fit the budget (None if it cannot); `best` is h^*'s
    index when the caller has it (Instance.best recomputes every risk)."""
    from reference.adversary import Segment

    star = instance.hypotheses[instance.best if best is None else best]
    windows = []
    for start, length, gamma, competitor in genome:
        a = 1 + int(start * (n - 1))
        b = min(n, a + max(1, int(length * n)) - 1)
        h = instance.hypotheses[competitor]
        target = tuple(Fraction(h[x]) if h[x] != star[x] else None for x in range(instance.num_points))
        windows.append([a, b, Fraction(gamma).limit_denominator(1024), target])
    windows.sort(key=lambda w: w[0])
    for first, second in zip(windows, windows[1:]):  # no overlap: the later window starts after the earlier
        second[0] = max(second[0], first[1] + 1)
    windows = [w for w in windows if w[0] <= w[1] and w[0] <= n]

    return fit(instance, [Segment(a, b, gamma, target) for a, b, gamma, target in windows], n, algorithm, budget)


def fit(instance, windows, n: int, algorithm: str, budget: int):
    """The adversary of corrupted windows (Segments, in order, not overlapping) made to fit the
    budget: every gamma halved until C_total <= budget and, for RobustCAL, C_[0,t] <= t/8 at
    every checkpoint (Theorem 4.1's premise); None if 40 halvings do not."""
    import reference as R
    from reference.adversary import Adversary, Segment
    from reference.bounds import checkpoint_budget_ok

    def join(ws):
        segments, t = [], 1
        for a, b, gamma, target in ws:
            if a > t:
                segments.append(Segment(t, a - 1))
            segments.append(Segment(a, b, gamma, target))
            t = b + 1
        if t <= n:
            segments.append(Segment(t, n))
        return Adversary(n, segments)

    windows = [[w.start, w.end, w.gamma, w.target] for w in windows if w.target is not None and w.gamma > 0]
    for _ in range(40):
        adv = join(windows) if windows else R.adversary.clean(n)
        total = adv.total(instance, 1, n)
        ok = total <= budget and (algorithm != "RobustCAL" or checkpoint_budget_ok(instance, adv))
        if ok:
            return adv
        for w in windows:
            w[2] = w[2] / 2
    return None


def baselines(instance, n: int, algorithm: str, budget: int) -> dict:
    """The clean run and the project's shipped adversaries (properties/campaign/experiments.py:
    gamma = 1/32 misspecification and the early burst, both towards 1 - eta*), each made to fit
    the budget as a searched candidate is: the search's answer is at least as strong as these."""
    from properties.campaign.experiments import ADVERSARIES, curve_adversary

    found = {}
    for name in ADVERSARIES:
        adv = curve_adversary(name, instance, n)
        fitted = fit(instance, adv.segments, n, algorithm, budget)
        if fitted is not None:
            found[name] = fitted
    return found


def score(instance, adversary, algorithm: str, seeds, params) -> dict:
    from properties.campaign.sweeps import run_one

    best = instance.best  # computed from every hypothesis's risk on each access: once here
    risk = {best: instance.risk(best)}
    labels, wrong, gaps = [], 0, []
    for seed in seeds:
        asked, output = run_one(instance, algorithm, adversary, params, seed)
        labels.append(asked)
        wrong += output != best
        if output not in risk:
            risk[output] = instance.risk(output)
        gaps.append(risk[output] - risk[best])
    return {
        "labels_mean": sum(labels) / len(labels),
        "wrong_fraction": wrong / len(seeds),
        "excess_risk_mean": float(sum(gaps) / len(gaps)),
        "excess_risk_max": float(max(gaps)),
        "excess_risks": [str(g) for g in gaps],
    }


def objective(result: dict, goal: str) -> float:
    if goal == "labels":
        return result["labels_mean"]
    return result["wrong_fraction"] + result["excess_risk_mean"] * 1e-3


def random_genome(rng: random.Random, num_hypotheses: int, best: int):
    windows = []
    for _ in range(rng.choice((1, 2))):
        competitor = rng.choice([h for h in range(num_hypotheses) if h != best])
        windows.append(
            (
                rng.random() ** 2,
                rng.choice((0.001, 0.01, 0.05, 0.1, 0.3, 1.0)) * rng.random(),
                rng.choice((1.0, 0.5, 0.25, 0.1)),
                competitor,
            )
        )
    return windows


def mutate(rng: random.Random, genome, num_hypotheses: int, best: int):
    genome = list(genome)
    i = rng.randrange(len(genome))
    start, length, gamma, competitor = genome[i]
    move = rng.randrange(4)
    if move == 0:
        start = min(0.999, max(0.0, start + rng.gauss(0, 0.1)))
    elif move == 1:
        length = min(1.0, max(1e-6, length * 2 ** rng.gauss(0, 1)))
    elif move == 2:
        gamma = min(1.0, max(1 / 1024, gamma * 2 ** rng.gauss(0, 1)))
    else:
        competitor = rng.choice([h for h in range(num_hypotheses) if h != best])
    genome[i] = (start, length, gamma, competitor)
    return genome


def search(
    family: str,
    algorithm: str,
    n: int,
    goal: str,
    evaluations: int,
    seeds: int,
    budget: int,
    rng_seed: int = 0,
    delta: str = "1/10",
) -> dict:
    import reference as R
    from properties.campaign.families import family as get_family

    instance = get_family(family)
    params = R.Params.paper(n, instance.num_hypotheses, delta)
    rng = random.Random(rng_seed)
    seed_list = list(range(1000, 1000 + seeds))
    started = time.process_time()
    star = instance.best

    def scored(adversary, genome, source):
        result = score(instance, adversary, algorithm, seed_list, params)
        return {
            "genome": genome,
            "source": source,
            "objective": objective(result, goal),
            "result": result,
            "adversary": adversary.to_json(),
            "c_total": str(adversary.total(instance, 1, n)),
        }

    # the baselines first, on the same seeds: the answer is the strongest of them and the candidates
    reference_points = {
        name: scored(adv, None, f"baseline: {name}") for name, adv in baselines(instance, n, algorithm, budget).items()
    }
    best = max(reference_points.values(), key=lambda c: c["objective"], default=None)
    climbing = None  # the best searched genome: hill climbing perturbs it
    tried = 0
    while tried < evaluations:
        if climbing is None or tried < evaluations // 3:
            genome = random_genome(rng, instance.num_hypotheses, star)
        else:
            genome = mutate(rng, climbing["genome"], instance.num_hypotheses, star)
        adversary = build(instance, n, genome, algorithm, budget, star)
        tried += 1
        if adversary is None:
            continue
        candidate = scored(adversary, genome, "search")
        if climbing is None or candidate["objective"] > climbing["objective"]:
            climbing = candidate
        if best is None or candidate["objective"] > best["objective"]:
            best = candidate
    best = dict(best)
    best["cpu_seconds"] = round(time.process_time() - started, 2)
    best["evaluations"] = tried
    best["baselines"] = {
        name: {"objective": c["objective"], "result": {k: v for k, v in c["result"].items() if k != "excess_risks"}}
        for name, c in reference_points.items()
    }
    return {
        "family": family,
        "algorithm": algorithm,
        "n": n,
        "goal": goal,
        "budget": budget,
        "seeds": seeds,
        "delta": delta,
        **best,
    }


def assess(found: dict, fresh_seeds: int) -> dict:
    """The worst adversary on fresh seeds against the corrected bounds of its theorem."""
    import reference as R
    from properties.campaign.experiments import clopper_pearson
    from properties.campaign.families import family as get_family
    from reference import bounds as B
    from reference.adversary import Adversary

    instance = get_family(found["family"])
    adversary = Adversary.from_json(found["adversary"])
    n = found["n"]
    params = R.Params.paper(n, instance.num_hypotheses, found["delta"])
    seeds = list(range(5000, 5000 + fresh_seeds))
    result = score(instance, adversary, found["algorithm"], seeds, params)
    bounds = B.all_bounds(instance, adversary, params, found["delta"])[found["algorithm"]]
    gaps = [Fraction(g) for g in result["excess_risks"]]
    out = []
    for bound in bounds:
        entry = {k: v for k, v in bound.__dict__.items()}
        if bound.quantity == "labels":
            entry["measured"] = result["labels_mean"]
            entry["ratio"] = result["labels_mean"] / bound.value
        else:
            above = sum(float(g) > bound.value for g in gaps)
            low, _ = clopper_pearson(above, len(gaps), 0.95)
            entry.update(
                measured=result["excess_risk_max"],
                ratio=result["excess_risk_max"] / bound.value,
                above=above,
                above_ci_low=low,
                # the bound holds w.p. >= probability: more runs above it than 1 - probability,
                # at 95% confidence, refutes it (only inside the theorem's regime)
                broken=bool(bound.covered and low > 1 - bound.probability),
            )
        out.append(entry)
    replay = (
        f"python bench/adversary_search.py --replay docs/theory_vs_practice_adversaries.json "
        f"--family {found['family']} --algorithm {found['algorithm']}"
    )
    return {
        "fresh_seeds": fresh_seeds,
        "result": {k: v for k, v in result.items() if k != "excess_risks"},
        "bounds": out,
        "replay": replay,
    }


# (family, algorithm, n, goal, candidates, seeds per candidate, budget, fresh seeds); sized for a
# loaded 2-core machine: a CALruption run at n = 10^8 costs about a second of CPU
PLANS = {
    # seconds, for the tests: the baselines and a few candidates at n = 10^4
    "tiny": [
        ("thresholds", "RobustCAL", 10**4, "labels", 3, 2, "n/8", 2),
        ("thresholds", "RobustCAL", 10**4, "wrong", 3, 2, "n/8", 2),
    ],
    "quick": [
        ("thresholds", "RobustCAL", 10**5, "labels", 6, 3, "n/8", 4),
        ("thresholds", "RobustCAL", 10**5, "wrong", 6, 3, "n/8", 4),
    ],
    "full": [
        ("thresholds", "RobustCAL", 10**6, "labels", 60, 8, "n/8", 40),
        ("thresholds", "RobustCAL", 10**6, "wrong", 60, 8, "n/8", 40),
        ("singletons", "RobustCAL", 10**6, "wrong", 40, 8, "n/8", 40),
        ("thresholds", "CALruption", 10**8, "wrong", 8, 3, "n/32", 10),
    ],
}


def run_plan(plan: str, fresh_seeds: int | None = None) -> list[dict]:
    from properties.campaign.sweeps import budget_value

    found = []
    for family, algorithm, n, goal, evaluations, seeds, budget, fresh in PLANS[plan]:
        result = search(family, algorithm, n, goal, evaluations, seeds, budget_value(budget, n))
        result["budget_name"] = budget
        result["assessment"] = assess(result, fresh_seeds or fresh)
        found.append(result)
        print(
            f"{family} {algorithm} n={n} {goal}: objective {result['objective']:.4g} "
            f"({result['evaluations']} candidates, {result['cpu_seconds']} s CPU)",
            file=sys.stderr,
            flush=True,
        )
    return found


def load_found(path) -> list[dict]:
    """The adversaries of a report this script wrote (ValueError naming the path if unreadable)."""
    try:
        return json.loads(Path(path).read_text())["found"]
    except (OSError, ValueError, KeyError) as error:
        raise ValueError(f"{str(path)!r}: {type(error).__name__}: {error}") from None


def main(argv=None) -> int:
    parser = OneLineParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="two tiny searches (seconds)")
    parser.add_argument("--out", help="the JSON report (default bench/results/adversary_search[_quick].json)")
    parser.add_argument("--replay", help="a report written by this script: re-run its adversaries on fresh seeds")
    parser.add_argument("--family")
    parser.add_argument("--algorithm")
    parser.add_argument("--fresh-seeds", type=int, default=None)
    try:
        args = parser.parse_args(argv)
        if args.fresh_seeds is not None and args.fresh_seeds < 1:
            raise UsageError(f"--fresh-seeds must be >= 1, got {args.fresh_seeds}")
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.replay:
        try:
            found = load_found(args.replay)
        except ValueError as error:
            print(f"error: --replay {error}", file=sys.stderr)
            return 2
        for entry in found:
            if (args.family and entry["family"] != args.family) or (
                args.algorithm and entry["algorithm"] != args.algorithm
            ):
                continue
            print(
                json.dumps(
                    {
                        "family": entry["family"],
                        "algorithm": entry["algorithm"],
                        "goal": entry["goal"],
                        **assess(entry, args.fresh_seeds or 20),
                    },
                    indent=1,
                )
            )
        return 0
    plan = "quick" if args.quick else "full"
    found = run_plan(plan, args.fresh_seeds)
    out = args.out or _report.RESULTS / ("adversary_search_quick.json" if args.quick else "adversary_search.json")
    _report.write({"plan": plan, "found": found}, out)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
