"""Monte-Carlo experiments as data: a spec (JSON) names the experiment and its grid; it
expands into independent tasks (experiment, setting, n, replicate), each run on a worker
with randomness from (master seed, task key) only (`seeds.task_seed`), and a summary
aggregates the finished rows.

* "curves": label complexity. Algorithms x adversaries x n x replicates in counts mode at
  the paper's constants (fast.*_counts: a run costs the same at n = 10^3 and 10^12) on
  |H| thresholds over |X| points (nu uniform, eta* = 1/10 left of the middle and 9/10 from
  it on, h* the middle threshold), delta = 1/10. Adversaries (oblivious):
  clean; misspecified (gamma = 1/32 towards 1 - eta*: c_t = 1/40 each round, inside
  Corollary 5.1's and Theorem 4.1's regimes, h* still best under every eta_t); early
  burst (every label flipped in distribution for t <= n/10, clean afterwards: Section 4's
  early poisoning, C_[0,t] = (4/5) t up to n/10). Per row: labels requested, the output,
  whether it is h*. Summary per (algorithm, adversary, n): mean, 95% confidence interval
  of the mean over replicates (Student t), min, max, fraction of replicates that output
  h*, and whether every replicate did.
* "coverage": condition (1) (Algorithm 2, line 8) per (epoch, pair), the statistical check
  `check_catoni_condition_1_frequency`'s experiment (properties.strategies.
  CATONI_EXPERIMENT) with many more replicates. Per row: the tallies (trials, violations)
  of one run. Summary per slot (l, h, h'): the violation frequency with its exact
  Clopper-Pearson interval at level 1 - alpha / #slots (Bonferroni), against the lemma's
  delta_pair = e^-beta3: a slot whose interval lies above delta_pair refutes "condition (1)
  fails with probability at most delta_pair" at that level.

Everything a task needs travels in its arguments (the spec and the task's own
parameters): a worker on another machine needs only this package."""

from __future__ import annotations

import functools
import hashlib
import json
import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from reference.command_line import bytes_text, seconds_text

ALGORITHMS = ("passive", "RobustCAL", "CALruption")
ADVERSARIES = ("clean", "misspecified", "early_burst")
ADVERSARY_TITLES = {
    "clean": "clean",
    "misspecified": "misspecified, gamma = 1/32",
    "early_burst": "early burst, tau = n/10",
}
GAMMA = Fraction(1, 32)
BURST_FRACTION = 10  # the early burst lasts t <= n // BURST_FRACTION
EXPERIMENTS = ("curves", "coverage")


def exponent_grid(low: int, high: int) -> list[int]:
    """n = 10^e for e = low, low + 1/2, ..., high (exact powers of ten at whole e)."""
    return [10 ** (k // 2) if k % 2 == 0 else round(10 ** (k / 2)) for k in range(2 * low, 2 * high + 1)]


# Built-in specs: `python -m properties campaign experiment NAME`. A JSON file with the
# same fields is a spec too.
BUILTIN_SPECS = {
    # docs/label_curves.png
    "curves": {
        "experiment": "curves",
        "master_seed": 20261124,
        "points": 256,
        "hypotheses": 64,
        "delta": "1/10",
        "algorithms": list(ALGORITHMS),
        "adversaries": list(ADVERSARIES),
        "n": exponent_grid(3, 12),
        "replicates": 20,
    },
    # a smoke run of seconds: no CALruption epoch completes below ~2.4e6 rounds
    "curves-quick": {
        "experiment": "curves",
        "master_seed": 1,
        "points": 256,
        "hypotheses": 64,
        "delta": "1/10",
        "algorithms": list(ALGORITHMS),
        "adversaries": list(ADVERSARIES),
        "n": exponent_grid(3, 5),
        "replicates": 2,
    },
    "coverage": {
        "experiment": "coverage",
        "master_seed": 20261124,
        "setting": "catoni-small",
        "replicates": 1000,
        "alpha": "1/1000",
        "impl": "reference",
    },
}
COVERAGE_SETTINGS = ("catoni-small",)

# -- sizes, checked before any work ---------------------------------------------------------
# above these a campaign runs only with --yes (properties/campaign/cli.py); the per-unit
# figures behind the estimates were measured on the built-in specs' instances
MAX_TASKS = 100_000  # the task list is held in memory, about TASK_BYTES a task
TASK_BYTES = 500
MAX_POINTS = 2048  # each curves task builds a points x points threshold table
ENTRY_BYTES, ENTRY_SECONDS = 16, 3e-6  # of that table, per entry (reference.instances.thresholds)


def task_count(spec: dict) -> int:
    """The number of tasks the (validated) spec expands into, without expanding it."""
    if spec["experiment"] == "curves":
        return len(spec["algorithms"]) * len(spec["adversaries"]) * len(spec["n"]) * spec["replicates"]
    return spec["replicates"]


def tasks_estimate(count: int) -> str:
    return f"{count:,} tasks, a task list of about {bytes_text(count * TASK_BYTES)} before the first runs"


def size_limits(spec: dict) -> list[tuple[str, object, float, float, str]]:
    """(field, value, amount, limit, estimate) of each size of the spec that has a limit
    (reference.command_line.within_limit checks them before any work)."""
    count = task_count(spec)
    found = [("spec.replicates", spec["replicates"], count, MAX_TASKS, tasks_estimate(count))]
    if spec["experiment"] == "curves":
        entries = spec["points"] ** 2
        found.append(
            (
                "spec.points",
                spec["points"],
                spec["points"],
                MAX_POINTS,
                f"each task builds a {spec['points']:,} x {spec['points']:,} threshold table, about "
                f"{bytes_text(entries * ENTRY_BYTES)} and {seconds_text(entries * ENTRY_SECONDS)} a task",
            )
        )
    return found


def _fraction(value, field: str) -> Fraction:
    from reference.exact import as_fraction

    return as_fraction(value, field)


def _int_list(value, field: str, minimum: int) -> list[int]:
    from reference.exact import as_int

    if not isinstance(value, list) or not value:
        raise ValueError(f"{field} must be a non-empty list of integers, got {value!r}")
    return [as_int(v, f"{field}[{i}]", minimum=minimum) for i, v in enumerate(value)]


def _names(value, field: str, allowed) -> list[str]:
    if not isinstance(value, list) or not value or any(v not in allowed for v in value) or len(set(value)) < len(value):
        raise ValueError(f"{field} must be a non-empty list of distinct names from {list(allowed)}, got {value!r}")
    return list(value)


def validate_spec(spec) -> dict:
    """The spec with every field checked (ValueError naming the field and its value)."""
    from reference.exact import as_int

    if not isinstance(spec, dict):
        raise ValueError(f"spec must be a JSON object, got {spec!r}")
    kind = spec.get("experiment")
    if kind not in EXPERIMENTS:
        raise ValueError(f"spec.experiment must be one of {list(EXPERIMENTS)}, got {kind!r}")
    fields = {
        "curves": {
            "experiment",
            "master_seed",
            "points",
            "hypotheses",
            "delta",
            "algorithms",
            "adversaries",
            "n",
            "replicates",
        },
        "coverage": {"experiment", "master_seed", "setting", "replicates", "alpha", "impl"},
    }[kind]
    unknown = sorted(set(spec) - fields)
    missing = sorted(fields - set(spec))
    if unknown or missing:
        raise ValueError(f"spec for {kind!r}: unknown fields {unknown}, missing fields {missing}")
    as_int(spec["master_seed"], "spec.master_seed", minimum=0)
    as_int(spec["replicates"], "spec.replicates", minimum=1)
    if kind == "curves":
        points = as_int(spec["points"], "spec.points", minimum=2)
        hypotheses = as_int(spec["hypotheses"], "spec.hypotheses", minimum=2, maximum=points)
        if points % hypotheses:
            raise ValueError(
                f"spec.hypotheses must divide spec.points (every points/hypotheses-th threshold), got "
                f"{hypotheses} and {points}"
            )
        delta = _fraction(spec["delta"], "spec.delta")
        if not 0 < delta < 1:
            raise ValueError(f"spec.delta must be in (0, 1), got {spec['delta']!r}")
        _names(spec["algorithms"], "spec.algorithms", ALGORITHMS)
        _names(spec["adversaries"], "spec.adversaries", ADVERSARIES)
        # fast/ is imported only for a curves spec: every command line builds this module's
        # parser, and the array stack costs a third of a second to import
        from fast.counts import MAX_ROUNDS

        sizes = _int_list(spec["n"], "spec.n", 1)
        too_large = [n for n in sizes if n > MAX_ROUNDS]
        if too_large:
            raise ValueError(
                f"spec.n must be at most 2^62 = {MAX_ROUNDS} (counts mode counts rounds in int64), got {too_large[0]}"
            )
        if len(set(sizes)) < len(sizes):
            raise ValueError(f"spec.n must not repeat a value, got {spec['n']!r}")
    else:
        if spec["setting"] not in COVERAGE_SETTINGS:
            raise ValueError(f"spec.setting must be one of {list(COVERAGE_SETTINGS)}, got {spec['setting']!r}")
        alpha = _fraction(spec["alpha"], "spec.alpha")
        if not 0 < alpha < 1:
            raise ValueError(f"spec.alpha must be in (0, 1), got {spec['alpha']!r}")
        if not isinstance(spec["impl"], str) or not spec["impl"]:
            raise ValueError(f"spec.impl must be an import path, got {spec['impl']!r}")
    return spec


def load_spec(name_or_path: str) -> tuple[str, dict]:
    """(name, spec) of a built-in spec or a JSON file."""
    if name_or_path in BUILTIN_SPECS:
        return name_or_path, validate_spec(json.loads(json.dumps(BUILTIN_SPECS[name_or_path])))
    path = Path(name_or_path)
    if not path.is_file():
        raise ValueError(
            f"spec must be a built-in name ({', '.join(BUILTIN_SPECS)}) or a JSON file, got {name_or_path!r}"
        )
    try:
        spec = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"spec file {name_or_path!r} is not readable JSON: {error}") from None
    return path.stem, validate_spec(spec)


def spec_digest(spec: dict) -> str:
    """A short hash of the spec's canonical JSON: rows of another spec are never resumed."""
    return hashlib.sha256(json.dumps(spec, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Task:
    key: str
    params: dict
    cost: float  # a guess of its relative run time, so the longest start first


def tasks(spec: dict) -> list[Task]:
    """Every task of the spec, longest first (the order affects speed only)."""
    found = []
    r = range(spec["replicates"])
    if spec["experiment"] == "curves":
        for algorithm in spec["algorithms"]:
            for adversary in spec["adversaries"]:
                for n in spec["n"]:
                    # CALruption's epoch updates dominate once its first epoch completes (~2.4e6 rounds)
                    cost = (1 + math.log10(n)) * (50 if algorithm == "CALruption" and n > 2 * 10**6 else 1)
                    for i in r:
                        found.append(
                            Task(
                                f"curves/{algorithm}/{adversary}/n={n}/replicate={i}",
                                {"algorithm": algorithm, "adversary": adversary, "n": n, "replicate": i},
                                cost,
                            )
                        )
    else:
        for i in r:
            found.append(
                Task(f"coverage/{spec['setting']}/replicate={i}", {"setting": spec["setting"], "replicate": i}, 1.0)
            )
    return sorted(found, key=lambda task: -task.cost)


# -- on the worker ------------------------------------------------------------------------
@functools.lru_cache(maxsize=8)
def thresholds_instance(points: int, hypotheses: int):
    """h_k(x) = 1[x >= k points/hypotheses], nu uniform, eta 1/10 left of the middle and
    9/10 from it on (reference.instances.thresholds, every (points/hypotheses)-th hypothesis).
    Built once per worker process for each size: a curves task of a spec reuses its
    (immutable) instance instead of paying its exact validation again."""
    import reference as R

    base = R.instances.thresholds(points)
    step = points // hypotheses
    return R.Instance(base.nu, base.eta, base.hypotheses[::step][:hypotheses])


@functools.lru_cache(maxsize=8)
def _best_hypothesis(points: int, hypotheses: int) -> int:
    """h* of thresholds_instance(points, hypotheses), computed once per worker process."""
    return thresholds_instance(points, hypotheses).best


def curve_adversary(name: str, instance, n: int):
    import reference as R

    against = [1 - e for e in instance.eta]
    if name == "clean":
        return R.adversary.clean(n)
    if name == "misspecified":
        return R.adversary.misspecification(GAMMA, against, n)
    if name == "early_burst":
        return R.adversary.early_burst(against, n // BURST_FRACTION, n)
    raise ValueError(f"adversary must be one of {ADVERSARIES}, got {name!r}")


def curve_run(algorithm: str, instance, adversary, params, seed) -> tuple[int, int]:
    """(labels requested, output hypothesis) of one counts-mode run."""
    import fast

    if algorithm == "passive":
        result = fast.passive_counts(instance, adversary, params, seed, raw=True)
        return result.n, result.output  # ERM asks for every label; its raw run keeps no count
    if algorithm == "RobustCAL":
        result = fast.robust_cal_counts(instance, adversary, params, seed, vanilla=False, raw=True)
    elif algorithm == "CALruption":
        result = fast.calruption_counts(instance, adversary, params, seed, raw=True)
    else:
        raise ValueError(f"algorithm must be one of {ALGORITHMS}, got {algorithm!r}")
    return result.labels_requested, result.output


def curves_title(spec: dict) -> str:
    """The label-curves figure's title: what was run, in one line."""
    return (
        f"Labels requested vs n: {spec['hypotheses']} thresholds on {spec['points']} points, "
        f"delta = {spec['delta']}, paper constants, {spec['replicates']} seeds per point"
    )


def completes_no_epoch(algorithm: str, n: int, num_hypotheses: int, delta) -> bool:
    """Whether a run completes no epoch: CALruption with n below |I_1| = ceil(beta1 4)
    (Algorithm 2, line 1) never reaches line 6's epoch end and outputs hypothesis 0
    (V_1^0 = H): its output says nothing about the algorithm's accuracy."""
    import reference as R
    from reference.calruption import epoch_length

    return algorithm == "CALruption" and n < epoch_length(R.Params.paper(n, num_hypotheses, delta), 1)


def first_epoch_n(num_hypotheses: int, delta) -> int:
    """The least n at which CALruption completes its first epoch at the paper's constants:
    the least fixed point of n -> |I_1|(n), since |I_1| = ceil(4 beta1) grows with n only
    through beta3's log(floor(log2 n)) (Algorithm 2, line 1), so iterating from below
    reaches the least n with |I_1|(n) <= n."""
    import reference as R
    from reference.calruption import epoch_length

    n = 2
    while True:
        needed = epoch_length(R.Params.paper(n, num_hypotheses, delta), 1)
        if needed <= n:
            return n
        n = needed


def _coverage_experiment(setting: str, seed: int):
    from dataclasses import replace

    from properties.strategies import CATONI_EXPERIMENT

    if setting != "catoni-small":
        raise ValueError(f"setting must be one of {COVERAGE_SETTINGS}, got {setting!r}")
    return replace(CATONI_EXPERIMENT, seeds=(seed,))


def run_task(spec: dict, params: dict, seed: int) -> dict:
    """One task's result (JSON-ready). Runs on a worker."""
    import reference as R

    if spec["experiment"] == "curves":
        instance = thresholds_instance(spec["points"], spec["hypotheses"])
        best = _best_hypothesis(spec["points"], spec["hypotheses"])
        n = params["n"]
        run_params = R.Params.paper(n, spec["hypotheses"], spec["delta"])
        labels, output = curve_run(
            params["algorithm"], instance, curve_adversary(params["adversary"], instance, n), run_params, seed
        )
        return {"labels": int(labels), "output": int(output), "output_is_best": int(output) == best}
    from properties.campaign.worker import candidate_for
    from properties.checks.calruption_events import condition_1_tallies

    experiment = _coverage_experiment(params["setting"], seed)
    tallies = condition_1_tallies("campaign coverage", candidate_for(spec["impl"]), experiment)
    return {"tallies": [[l, h, h2, trials, violations] for (l, h, h2), (trials, violations) in sorted(tallies.items())]}


# -- the summary --------------------------------------------------------------------------
BOOTSTRAP_RESAMPLES = 10_000
LABELS_CI_METHOD = f"bootstrap percentile, {BOOTSTRAP_RESAMPLES} resamples, 95%"
RATE_CI_METHOD = "Wilson score, 95%"


def _mean_interval(values: list[int], level: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high): the percentile bootstrap interval of the mean (LABELS_CI_METHOD).
    A label count lies in [0, n], and so does every resampled mean: the interval cannot
    leave the range, as a Student t interval does on few seeds (2 seeds gave [-2687,
    13831]). On few seeds it is narrow rather than wide -- with 2 it is the two values'
    range -- which the figure's legend says by naming the method and the seed count.
    Resampled with a fixed seed: the same rows give the same summary."""
    import numpy as np

    count = len(values)
    mean = sum(values) / count
    if count == 1:
        return mean, mean, mean
    data = np.asarray(sorted(values), dtype=float)
    resamples = np.random.default_rng(0).integers(0, count, size=(BOOTSTRAP_RESAMPLES, count))
    means = data[resamples].mean(axis=1)
    low, high = np.quantile(means, [(1 - level) / 2, 1 - (1 - level) / 2])
    # the quantiles of a discrete set of means: float rounding must not put the mean outside
    return mean, float(min(low, mean)), float(max(high, mean))


def wilson(successes: int, trials: int, level: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (RATE_CI_METHOD): inside [0, 1] always,
    and not degenerate at 0 or `trials` successes, unlike the normal approximation."""
    from scipy.stats import norm

    z = float(norm.ppf(0.5 + level / 2))
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def clopper_pearson(successes: int, trials: int, level: float) -> tuple[float, float]:
    """The exact (Clopper-Pearson) two-sided interval at confidence `level` for a binomial
    proportion (scipy's beta quantiles: floats)."""
    from scipy.stats import beta

    tail = (1 - level) / 2
    low = 0.0 if successes == 0 else float(beta.ppf(tail, successes, trials - successes + 1))
    high = 1.0 if successes == trials else float(beta.ppf(1 - tail, successes + 1, trials - successes))
    return low, high


def summarize(spec: dict, rows: list[dict]) -> dict:
    """The aggregate of the finished rows: deterministic (sorted, no timings), so two runs of
    the same spec on any number of workers give the same summary."""
    done = [row for row in rows if "error" not in row]
    errors = sorted(row["task"] for row in rows if "error" in row)
    expected = len(tasks(spec))
    if spec["experiment"] == "curves":
        groups: dict[tuple, list[dict]] = {}
        for row in done:
            p = row["params"]
            groups.setdefault((p["algorithm"], p["adversary"], p["n"]), []).append(row["result"])
        order = {name: i for i, name in enumerate(ALGORITHMS + ADVERSARIES)}
        table = []
        for (algorithm, adversary, n), results in sorted(
            groups.items(), key=lambda kv: (order[kv[0][1]], order[kv[0][0]], kv[0][2])
        ):
            labels = [r["labels"] for r in results]
            mean, low, high = _mean_interval(labels)
            best = sum(r["output_is_best"] for r in results)
            best_low, best_high = wilson(best, len(results))
            table.append(
                {
                    "algorithm": algorithm,
                    "adversary": adversary,
                    "n": n,
                    "seeds": len(results),
                    "labels_mean": mean,
                    "labels_ci_low": low,
                    "labels_ci_high": high,
                    "labels_ci_method": LABELS_CI_METHOD,
                    "labels_min": min(labels),
                    "labels_max": max(labels),
                    "output_is_best_fraction": best / len(results),
                    "every_seed_best": best == len(results),
                    "output_is_best_ci_low": best_low,
                    "output_is_best_ci_high": best_high,
                    "output_is_best_ci_method": RATE_CI_METHOD,
                    "no_epoch": completes_no_epoch(algorithm, n, spec["hypotheses"], spec["delta"]),
                }
            )
        return {"experiment": "curves", "tasks": expected, "finished": len(done), "errors": errors, "rows": table}
    from properties.checks.calruption_events import per_pair_delta
    from properties.strategies import CATONI_EXPERIMENT

    delta_pair = per_pair_delta(CATONI_EXPERIMENT.params.beta3)
    slots: dict[tuple, list[int]] = {}
    for row in done:
        for l, h, h2, trials, violations in row["result"]["tallies"]:
            slot = slots.setdefault((l, h, h2), [0, 0])
            slot[0] += trials
            slot[1] += violations
    alpha = Fraction(spec["alpha"])
    level = 1 - float(alpha) / max(1, len(slots))
    table = []
    for (l, h, h2), (trials, violations) in sorted(slots.items()):
        low, high = clopper_pearson(violations, trials, level)
        table.append(
            {
                "l": l,
                "pair": [h, h2],
                "trials": trials,
                "violations": violations,
                "frequency": violations / trials,
                "ci_low": low,
                "ci_high": high,
                "exceeds_delta": low > float(delta_pair),
            }
        )
    return {
        "experiment": "coverage",
        "tasks": expected,
        "finished": len(done),
        "errors": errors,
        "delta_pair": str(delta_pair),
        "level": level,
        "rows": table,
        "slots_exceeding_delta": sum(r["exceeds_delta"] for r in table),
    }
