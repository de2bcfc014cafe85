"""Theory against practice: sweeps of the measured labels and accuracy
against the theorems' bounds (reference/bounds.py), on the campaign engine.

A spec {"experiment": "theory", ...} expands into tasks (family, algorithm, budget, n,
replicate); each runs one counts-mode run at the paper's constants (fast.*_counts) against an
oblivious adversary that spends exactly the budget's C_total, and returns the labels
requested, the output and its exact excess risk. The campaign engine (cluster.execute with
kind "theory") runs them on a local Dask cluster bound to 127.0.0.1 and appends each row to
a resumable results file; `summarize` groups the rows and sets each group against every
bound of its theorem, printed and corrected.

Budgets (C_total, an integer): "zero"; "n^1/4", "n^1/2" (floors); "n/log n" (floor of
n/ln n); "n/32" (Corollary 5.1's largest: C_l/N_l <= 1/32 in every epoch) and "n/8" (the
largest Theorem 3.1 is proved for and Theorem 4.1 admits: C_[0,t] <= t/8 at every
checkpoint). The adversary spreads the budget evenly: gamma-misspecification towards
1 - eta* with gamma = (C_total/n)/max_x|1 - 2 eta*^x|, so c_t = C_total/n every round
(Section 2's misspecification model), C_[0,t] = (C_total/n) t.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

from .experiments import _mean_interval, completes_no_epoch, wilson
from .families import FAMILIES

ALGORITHMS = ("passive", "RobustCAL", "RobustCAL-vanilla", "CALruption", "uncertainty")
BUDGETS = ("zero", "n^1/4", "n^1/2", "n/log n", "n/32", "n/8")
THEOREM = {"passive": "3.1", "RobustCAL": "4.1", "CALruption": "5.1"}


def exponent_grid(low: int, high: int) -> list[int]:
    return [10**e for e in range(low, high + 1)]


BUILTIN = {
    "theory": {
        "experiment": "theory",
        "master_seed": 20261127,
        "delta": "1/10",
        "families": list(FAMILIES),
        "algorithms": list(ALGORITHMS),
        "budgets": list(BUDGETS),
        "n": exponent_grid(3, 12),
        "replicates": 20,
    },
    "theory-quick": {
        "experiment": "theory",
        "master_seed": 1,
        "delta": "1/10",
        "families": ["thresholds", "singletons", "breast-cancer"],
        "algorithms": list(ALGORITHMS),
        "budgets": ["zero", "n^1/2", "n/8"],
        "n": [10**3, 10**4, 10**5],
        "replicates": 3,
    },
    "theory-tiny": {
        "experiment": "theory",
        "master_seed": 1,
        "delta": "1/10",
        "families": ["thresholds-noisy"],
        "algorithms": ["passive", "RobustCAL", "CALruption", "uncertainty"],
        "budgets": ["zero", "n/8"],
        "n": [10**3, 10**4],
        "replicates": 2,
    },
}


def validate(spec) -> dict:
    from reference.exact import as_fraction, as_int

    if not isinstance(spec, dict) or spec.get("experiment") != "theory":
        raise ValueError(
            f"spec.experiment must be 'theory', got {spec.get('experiment') if isinstance(spec, dict) else spec!r}"
        )
    fields = {"experiment", "master_seed", "delta", "families", "algorithms", "budgets", "n", "replicates"}
    if set(spec) != fields:
        raise ValueError(
            f"spec fields must be {sorted(fields)}: unknown {sorted(set(spec) - fields)}, "
            f"missing {sorted(fields - set(spec))}"
        )
    as_int(spec["master_seed"], "spec.master_seed", minimum=0)
    as_int(spec["replicates"], "spec.replicates", minimum=1)
    delta = as_fraction(spec["delta"], "spec.delta")
    if not 0 < delta < 1:
        raise ValueError(f"spec.delta must be in (0, 1), got {spec['delta']!r}")
    for key, allowed in (("families", FAMILIES), ("algorithms", ALGORITHMS), ("budgets", BUDGETS)):
        value = spec[key]
        if not isinstance(value, list) or not value or any(v not in allowed for v in value):
            raise ValueError(f"spec.{key} must be a non-empty list from {list(allowed)}, got {value!r}")
    if not isinstance(spec["n"], list) or not spec["n"]:
        raise ValueError(f"spec.n must be a non-empty list of integers >= 2, got {spec['n']!r}")
    for i, n in enumerate(spec["n"]):
        as_int(n, f"spec.n[{i}]", minimum=2)
    return spec


def budget_value(budget: str, n: int) -> int:
    """C_total for the budget at n (an integer number of fully corrupted rounds' worth)."""
    if budget == "zero":
        return 0
    if budget == "n^1/4":
        return math.isqrt(math.isqrt(n))
    if budget == "n^1/2":
        return math.isqrt(n)
    if budget == "n/log n":
        return int(n / math.log(n))
    if budget == "n/32":
        return n // 32
    if budget == "n/8":
        return n // 8
    raise ValueError(f"budget must be one of {list(BUDGETS)}, got {budget!r}")


def spread_adversary(instance, n: int, c_total: int):
    """gamma-misspecification towards 1 - eta* spending exactly c_total: c_t = c_total/n."""
    import reference as R

    if c_total == 0:
        return R.adversary.clean(n)
    spread = max(abs(1 - 2 * e) for e in instance.eta)
    if spread == 0:
        raise ValueError("instance has eta* = 1/2 everywhere: no corruption moves it")
    gamma = Fraction(c_total, n) / spread
    if gamma > 1:
        raise ValueError(f"c_total {c_total} exceeds what misspecification can spend at n = {n}")
    return R.adversary.misspecification(gamma, [1 - e for e in instance.eta], n)


def tasks(spec: dict):
    from .experiments import Task

    found = []
    for family in spec["families"]:
        for algorithm in spec["algorithms"]:
            for budget in spec["budgets"]:
                for n in spec["n"]:
                    cost = (1 + math.log10(n)) * (50 if algorithm == "CALruption" and n > 2 * 10**6 else 1)
                    for i in range(spec["replicates"]):
                        found.append(
                            Task(
                                f"theory/{family}/{algorithm}/{budget}/n={n}/replicate={i}",
                                {"family": family, "algorithm": algorithm, "budget": budget, "n": n, "replicate": i},
                                cost,
                            )
                        )
    # replicate by replicate, the longest first within each: a run stopped by its time budget has
    # every point at the same number of seeds (fewer seeds, not missing points)
    return sorted(found, key=lambda task: (task.params["replicate"], -task.cost))


@cache
def facts_of(family_name: str):
    from reference import bounds as B

    from .families import family

    return B.Facts.of(family(family_name))


def run_one(instance, algorithm: str, adversary, params, seed) -> tuple[int, int]:
    """(labels requested, output) of one counts-mode run."""
    import fast

    if algorithm == "passive":
        return adversary.n, fast.passive_counts(instance, adversary, params, seed, raw=True).output
    if algorithm in ("RobustCAL", "RobustCAL-vanilla"):
        run = fast.robust_cal_counts(
            instance, adversary, params, seed, vanilla=algorithm == "RobustCAL-vanilla", raw=True
        )
    elif algorithm == "CALruption":
        run = fast.calruption_counts(instance, adversary, params, seed, raw=True)
    elif algorithm == "uncertainty":
        from .baselines import uncertainty_counts

        run = uncertainty_counts(instance, adversary, seed)
    else:
        raise ValueError(f"algorithm must be one of {list(ALGORITHMS)}, got {algorithm!r}")
    return run.labels_requested, run.output


def run_sweep_task(spec: dict, params: dict, seed: int) -> dict:
    """One task's row (JSON-ready); runs on a worker."""
    import reference as R

    from .families import family

    instance = family(params["family"])
    n = params["n"]
    adversary = spread_adversary(instance, n, budget_value(params["budget"], n))
    run_params = R.Params.paper(n, instance.num_hypotheses, spec["delta"])
    labels, output = run_one(instance, params["algorithm"], adversary, run_params, seed)
    gap = instance.risk(output) - instance.best_risk
    return {
        "labels": int(labels),
        "output": int(output),
        "output_is_best": output == instance.best,
        "excess_risk": str(gap),
    }


# -- the summary ----------------------------------------------------------------------------------
def bounds_for(family_name: str, budget: str, n: int, delta) -> dict:
    """Every bound at (family, budget, n), as plain data: {algorithm: [bound dicts]}, "budget": {...}."""
    import reference as R
    from reference import bounds as B

    from .families import family

    instance = family(family_name)
    adversary = spread_adversary(instance, n, budget_value(budget, n))
    found = B.all_bounds(
        instance, adversary, R.Params.paper(n, instance.num_hypotheses, delta), delta, facts_of(family_name)
    )
    out = {key: [b.__dict__.copy() for b in value] for key, value in found.items() if key != "budget"}
    out["budget"] = {k: (str(v) if isinstance(v, Fraction) else v) for k, v in found["budget"].items()}
    return out


def summarize(spec: dict, rows: list[dict]) -> dict:
    """Per (family, algorithm, budget, n): labels (mean, bootstrap 95% interval, min, max), the
    output's excess risk (mean, max), the fraction of runs that output h^* (Wilson 95%), and for
    the three analysed algorithms each bound of its theorem with: measured/bound (labels: mean
    over seeds / bound; excess risk: max over seeds / bound) and the fraction of runs within it."""
    done = [row for row in rows if "error" not in row]
    errors = sorted(row["task"] for row in rows if "error" in row)
    groups: dict[tuple, list[dict]] = {}
    for row in done:
        p = row["params"]
        groups.setdefault((p["family"], p["algorithm"], p["budget"], p["n"]), []).append(row["result"])
    cache: dict[tuple, dict] = {}
    table = []
    order = {name: i for i, name in enumerate(FAMILIES + ALGORITHMS + BUDGETS)}
    for (fam, algorithm, budget, n), results in sorted(
        groups.items(), key=lambda kv: (order[kv[0][0]], order[kv[0][1]], order[kv[0][2]], kv[0][3])
    ):
        labels = [r["labels"] for r in results]
        mean, low, high = _mean_interval(labels)
        gaps = [Fraction(r["excess_risk"]) for r in results]
        best = sum(r["output_is_best"] for r in results)
        best_low, best_high = wilson(best, len(results))
        facts = facts_of(fam)
        row = {
            "family": fam,
            "algorithm": algorithm,
            "budget": budget,
            "n": n,
            "seeds": len(results),
            "c_total": budget_value(budget, n),
            "labels_mean": mean,
            "labels_ci_low": low,
            "labels_ci_high": high,
            "labels_min": min(labels),
            "labels_max": max(labels),
            "excess_risk_mean": float(sum(gaps) / len(gaps)),
            "excess_risk_max": float(max(gaps)),
            "output_is_best_fraction": best / len(results),
            # CALruption below |I_1| outputs hypothesis 0 without having run an epoch: not a wrong output
            "no_epoch": completes_no_epoch(algorithm, n, facts.num_hypotheses, spec["delta"]),
            "output_is_best_ci_low": best_low,
            "output_is_best_ci_high": best_high,
            "delta_min": float(facts.delta_min),
            "r_star": float(facts.r_star),
            "bounds": [],
        }
        if algorithm in THEOREM:
            key = (fam, budget, n)
            if key not in cache:
                cache[key] = bounds_for(fam, budget, n, spec["delta"])
            row["budget_facts"] = cache[key]["budget"]
            for bound in cache[key][algorithm]:
                value = bound["value"]
                entry = dict(bound)
                if bound["quantity"] == "labels":
                    entry["ratio"] = mean / value if value > 0 and math.isfinite(value) else None
                    entry["within"] = sum(x <= value for x in labels) / len(labels)
                else:
                    entry["ratio"] = float(max(gaps)) / value if value > 0 and math.isfinite(value) else None
                    entry["within"] = sum(float(g) <= value for g in gaps) / len(gaps)
                    entry["implies_best"] = value < float(facts.delta_min)
                    entry["vacuous"] = value >= 1  # an excess risk is at most 1
                entry["value"] = value if math.isfinite(value) else None
                row["bounds"].append(entry)
        table.append(row)
    return {"experiment": "theory", "tasks": len(tasks(spec)), "finished": len(done), "errors": errors, "rows": table}
