"""Broken copies of the fast implementation: each must be caught by the cross-check
(properties/checks/crosscheck.py) as a mismatch, never absorbed into a divergence class
(tests/properties/checks/test_crosscheck.py), and by `check` alone, through the registered checks its
`caught_by` names (tests/teeth/test_float_broken_caught.py: the teeth of teeth/broken
kept for a float implementation, which `check` judges by derived error bounds).

Same mechanism as teeth/broken/mutants.py (a textual patch of one file, each snippet
must occur exactly once; `old`/`new` may be tuples of snippets patched in turn), applied
to a copy of `fast/` under the top-level name broken_fast_<name>. fast takes the
reference's input types and defines none that the harness passes to it, so the copy
needs no shared modules.

Every mutant is a bug of the algorithm, not a rounding: tests/teeth/test_float_broken_caught.py shows
each one changes fast's trace on the fixed cross-check cases by more than any rounding
could (a discrete field, or a relative change above 1e-6). `from_epoch` is the first
CALruption epoch whose record the bug can change: 2 for bugs that only act through
what epoch 1 leaves behind (q_1 = 1 and Delta^^0 = 0 make them vanish in epoch 1), so a
check must run a full CALruption run past epoch 1 to see them."""

from __future__ import annotations

import importlib
import shutil
import time
from dataclasses import dataclass, replace
from pathlib import Path

FAST_DIR = Path(__file__).resolve().parents[2] / "fast"
PREFIX = "broken_fast_"


@dataclass(frozen=True)
class FastMutant:
    name: str
    description: str  # what is broken, in the paper's terms
    file: str  # path inside fast/
    old: str | tuple[str, ...]  # exact snippet(s), each occurs exactly once
    new: str | tuple[str, ...]
    hides_behind: str  # the divergence class it could be mistaken for, or "-"
    # the registered checks that must each catch it on their own (tests/teeth/test_float_broken_caught.py)
    caught_by: tuple[str, ...] = ()
    from_epoch: int = 1  # the first CALruption epoch it changes (2: epoch 1's record is fast's, bit for bit)
    # (file, old, new) patches of other files of fast/, each old snippet occurring once there
    more: tuple[tuple[str, str, str], ...] = ()

    @property
    def snippets(self) -> tuple[tuple[str, str], ...]:
        """(old, new) pairs, applied in turn."""
        if isinstance(self.old, str):
            return ((self.old, self.new),)
        assert len(self.old) == len(self.new), f"fast mutant {self.name}: as many new snippets as old ones"
        return tuple(zip(self.old, self.new))


# check names, short (the registered names of properties/checks/registry.py)
RECOMPUTED = "check_calruption_recomputed_from_trace"
CATONI = "check_calruption_catoni_enclosures_certified"
FIT = "check_calruption_fit_is_optimal"
SCHEDULE = "check_calruption_epoch_schedule"
LABELS = "check_calruption_importance_weights_unbiased"
ELIMINATION = "check_robust_cal_elimination_recomputed"

MUTANTS = [
    # -- CALruption (Algorithm 2) -----------------------------------------------------------
    FastMutant(
        "rho_over_n",
        "rho^_l divided by n instead of |I_l| (line 7)",
        "calruption.py",
        "    np.divide(rho_counts, length, out=rho)",
        "    np.divide(rho_counts, length + 1, out=rho)",
        "-",
        caught_by=(RECOMPUTED, FIT),
    ),
    FastMutant(
        "alpha_without_five",
        "Catoni's alpha without the 5 of sqrt(2 L min_q / (5 N rho^))",
        "calruption.py",
        "        np.multiply(rho, 5 * length, out=weight)",
        "        np.multiply(rho, length, out=weight)",
        "-",
        caught_by=(CATONI,),
    ),
    FastMutant(
        "catoni_one_step",
        "the Catoni root stops after one Newton step from the mean (line 8)",
        "calruption.py",
        "(ai, aj, catoni_roots(values, counts, alpha[ai, aj], trusted=True))  # blocks built valid",
        "(ai, aj, catoni_roots(values, counts, alpha[ai, aj], trusted=True, max_iter=1))  # blocks built valid",
        "-",
        caught_by=(CATONI,),
    ),
    FastMutant(
        "W_antisymmetry_lost",
        "W^{h',h} = W^{h,h'} instead of -W^{h,h'}",
        "calruption.py",
        "W[ai, aj], W[aj, ai] = roots, -roots",
        "W[ai, aj], W[aj, ai] = roots, roots",
        "-",
        caught_by=(CATONI,),
    ),
    FastMutant(
        "lp_one_sided",
        "line 9's LP keeps only w (R_D(h) - R_D(h') - W) <= s, not its mirror: D^ is not optimal",
        "line9.py",
        "    rows = np.isfinite(weight[r0:r1])\n",
        "    rows = np.isfinite(weight[r0:r1]) & (np.arange(r0, r1)[:, None] < np.arange(len(R))[None, :])\n",
        "lp_non_unique",
        caught_by=(FIT,),
    ),
    FastMutant(
        "argmin_without_penalty",
        "h^*_l minimises R_D^(h) without beta2 Delta^^{l-1}_h (line 10)",
        "epoch_types.py",
        "    h_star = int(np.argmin(penalised))",
        "    h_star = int(np.argmin(risk_hat))",
        "argmin_tie",
        caught_by=(RECOMPUTED,),
        from_epoch=2,
    ),  # Delta^^0 = 0: no penalty in epoch 1
    FastMutant(
        "layers_strict",
        "V_{l+1}^i = {h : Delta^ < eps_i} instead of <= (line 12)",
        "epoch_types.py",
        "layers = gap_hat[None, :] <= np.ldexp",
        "layers = gap_hat[None, :] < np.ldexp",
        "layer_boundary",
        caught_by=(RECOMPUTED,),
    ),
    FastMutant(
        "q_without_layer_factor",
        "q_{l+1}^x = max rho^ without the 4^(k - l - 1) factor (line 13)",
        "calruption.py",
        "        np.ldexp(rho[r0:r1], 2 * (k - l - 1), out=pair_value[r0:r1])",
        "        np.copyto(pair_value[r0:r1], rho[r0:r1] + 0 * k)",
        "coin",
        caught_by=("check_calruption_query_probabilities_bounded", RECOMPUTED),
    ),
    FastMutant(
        "coin_doubled",
        "a round is queried when u_t < 2 q^x instead of q^x (line 4)",
        "tape_mode.py",
        "        asked = coins(us, xs, q)",
        "        asked = coins(us, xs, np.minimum(2 * q, 1.0))",
        "coin",
        caught_by=(LABELS,),
        from_epoch=2,
    ),  # q_1 = 1: min(2 q, 1) = q in epoch 1
    FastMutant(
        "unfinished_epoch_unlabelled",
        "the unfinished last epoch's queries are not counted",
        "calruption.py",
        "        labels += int(queried.sum())\n    output",
        "        labels += 0\n    output",
        "-",
        caught_by=(LABELS,),
    ),
    FastMutant(
        "calruption_epoch_length_plus_one",
        "|I_l| = ceil(N_l) + 1 rounds (line 1)",
        "constants.py",
        "    return _exact_epoch_length(params, l)\n",
        "    return _exact_epoch_length(params, l) + 1\n",
        "-",
        caught_by=(SCHEDULE,),
    ),
    FastMutant(
        "calruption_next_length_of_this_epoch",
        "line 14 gives epoch l+1 the length of epoch l, ceil(N_l) instead of ceil(N_{l+1}) (epoch 1 is right: "
        "line 1 sets it)",
        "calruption.py",
        "    next_state = State(l + 1, state.tau + length, fparams.epoch_length(l + 1), next_q, gap_hat)",
        "    next_state = State(l + 1, state.tau + length, fparams.epoch_length(l), next_q, gap_hat)",
        "-",
        caught_by=(SCHEDULE,),
        from_epoch=2,
    ),
    FastMutant(
        "calruption_unfinished_rounds_off_by_one",
        "one round too few in the unfinished last epoch (n - tau_L instead of n - tau_L + 1)",
        "calruption.py",
        "    return CALruptionRun(n, tuple(epochs), state.l, n - state.tau + 1, labels, output)",
        "    return CALruptionRun(n, tuple(epochs), state.l, n - state.tau, labels, output)",
        "-",
        caught_by=(SCHEDULE,),
    ),
    FastMutant(
        "calruption_no_importance_weight",
        "the loss estimate drops the importance weight: l^ = 1{h(x) != y} Q instead of 1{h(x) != y} Q / q (line 5)",
        "pair_stats.py",
        "    return asked, np.concatenate([1 / v, -1 / v, [0.0]])",
        "    return asked, np.concatenate([np.ones_like(v), -np.ones_like(v), [0.0]])",
        "-",
        caught_by=(CATONI,),
        from_epoch=2,
    ),  # q_1 = 1: 1/q = 1 in epoch 1
    FastMutant(
        "alpha_without_min_q",
        "Catoni's alpha = sqrt(2 beta3 / (5 N rho^)) without min q (line 8)",
        "calruption.py",
        "        np.multiply(min_q, 2 * fparams.beta3, out=alpha)",
        "        np.multiply(np.ones_like(min_q), 2 * fparams.beta3, out=alpha)",
        "-",
        caught_by=(CATONI,),
        from_epoch=2,
    ),  # q_1 = 1: min q = 1 in epoch 1
    FastMutant(
        "weight_without_min_q",
        "line 9's weight sqrt(1 / rho^) without min q",
        "calruption.py",
        "        np.divide(min_q, rho, out=weight)",
        "        np.divide(1.0, rho, out=weight)",
        "-",
        caught_by=(FIT,),
        from_epoch=2,
    ),  # q_1 = 1: min q = 1 in epoch 1
    FastMutant(
        "gap_without_eps_floor",
        "Delta^^l_h lacks the max with eps_l (line 11)",
        "epoch_types.py",
        "    gap_hat = np.clip(risk_hat - penalised[h_star], 2.0**-l, 1.0)",
        "    gap_hat = np.minimum(risk_hat - penalised[h_star], 1.0)",
        "-",
        caught_by=(RECOMPUTED,),
    ),
    FastMutant(
        "gap_own_penalty",
        "line 11 subtracts h's own penalty: Delta^^l_h = max(eps_l, R(h) - R(h^*) - beta2 Delta^^{l-1}_h) instead of "
        "- beta2 Delta^^{l-1}_{h^*}",
        "epoch_types.py",
        "    gap_hat = np.clip(risk_hat - penalised[h_star], 2.0**-l, 1.0)",
        "    gap_hat = np.clip(risk_hat - risk_hat[h_star] - beta2 * gap_prev, 2.0**-l, 1.0)",
        "-",
        caught_by=(RECOMPUTED,),
        from_epoch=2,
    ),  # Delta^^0 = 0 in epoch 1
    FastMutant(
        "q_from_previous_rho",
        "q_{l+1} (line 13) is built from the previous epoch's rho^_{l-1} (epoch 1's own rho^_1 for q_2)",
        "calruption.py",
        (
            "        np.ldexp(rho[r0:r1], 2 * (k - l - 1), out=pair_value[r0:r1])",
            "    next_state = State(l + 1, state.tau + length, fparams.epoch_length(l + 1), next_q, gap_hat)",
        ),
        (
            # State lives in fast/epoch_types.py: the previous rho^ rides on the instance
            # (the Workspace then hands the next epoch a fresh array: this one is referenced)
            "        np.ldexp((rho if getattr(state, 'rho_prev', None) is None else state.rho_prev)[r0:r1], "
            "2 * (k - l - 1), out=pair_value[r0:r1])",
            "    next_state = State(l + 1, state.tau + length, fparams.epoch_length(l + 1), next_q, gap_hat)\n"
            "    object.__setattr__(next_state, 'rho_prev', rho)",
        ),
        "-",
        caught_by=(RECOMPUTED,),
        from_epoch=2,
    ),
    FastMutant(
        "calruption_hard_eliminates",
        "q_{l+1}^x counts only pairs inside the top layer V_{l+1}^l: points where only other pairs disagree get "
        "q = 0 (hard elimination, line 13)",
        "calruption.py",
        "        np.ldexp(rho[r0:r1], 2 * (k - l - 1), out=pair_value[r0:r1])",
        "        np.copyto(pair_value[r0:r1], np.where(k == l, np.ldexp(rho[r0:r1], 2 * (k - l - 1)), 0.0))",
        "-",
        caught_by=("check_calruption_never_hard_eliminates",),
    ),
    FastMutant(
        "calruption_fit_returns_half",
        "D^_l (line 9) is eta^ = 1/2 on S_l instead of the LP's solution",
        "line9.py",
        "    return eta, objective\n",
        "    eta = np.full(k, 0.5)\n"
        "    R = HS @ (pS * (1 - eta)) + (1 - HS) @ (pS * eta)\n"
        "    return eta, lp_value(R, weight, W)\n",
        "-",
        caught_by=(FIT,),
    ),
    FastMutant(
        "catoni_negative_branch_sign",
        "Catoni's psi loses the sign of its negative branch: +ln(1 - y + y^2/2) for y < 0 (appendix lemma "
        '"Concentration inequality for Catoni\'s estimator")',
        "catoni.py",
        "    return np.copysign(psi, d), slope",
        "    return psi, slope",
        "-",
        caught_by=("check_catoni_root_certified", CATONI),
    ),
    # -- RobustCAL (Algorithm 1) -------------------------------------------------------------
    FastMutant(
        "robust_cal_vanilla_threshold",
        "the enlarged threshold of line 10 loses its rho^/2 term",
        "robust_cal.py",
        "        threshold = threshold + rho / 2",
        "        threshold = threshold + 0 * rho",
        "threshold_boundary",
        caught_by=(ELIMINATION,),
    ),
    FastMutant(
        "robust_cal_threshold_constant_one",
        "line 10's threshold uses beta_t / t instead of 3 beta_t / (2t)",
        "robust_cal.py",
        "    threshold = np.sqrt(2 * beta * rho / t) + 3 * beta / (2 * t)",
        "    threshold = np.sqrt(2 * beta * rho / t) + beta / t",
        "threshold_boundary",
        caught_by=(ELIMINATION,),
    ),
    FastMutant(
        "robust_cal_beta_of_t",
        "beta_t with ln(3 t |H|^2 / delta) instead of log2 t (line 9)",
        "constants.py",
        "        return self.beta_scale * math.log(3 * k * self.params.num_hypotheses**2 / self.delta)",
        "        return self.beta_scale * math.log(3 * t * self.params.num_hypotheses**2 / self.delta)",
        "threshold_boundary",
        caught_by=(ELIMINATION,),
    ),
    FastMutant(
        "robust_cal_version_space_frozen",
        "V_{t+1} = V_t: line 10 never eliminates",
        "robust_cal.py",
        "            members = checkpoint.next_version_space\n",
        "            members = checkpoint.version_space\n",
        "-",
        caught_by=("check_robust_cal_version_space_only_shrinks",),
    ),
    FastMutant(
        "robust_cal_queries_everywhere",
        "RobustCAL queries every label (line 4 ignores Dis(V_t))",
        "robust_cal.py",
        "        dis = disagreement_mask(H, members)\n",
        "        dis = np.ones(m, dtype=bool)  # line 4 without Dis(V_t)\n",
        "-",
        caught_by=("check_robust_cal_queries_iff_in_disagreement_region",),
    ),
    FastMutant(
        "robust_cal_first_checkpoint_at_4",
        "RobustCAL's first update at t = 4, not t = 2 (line 7: log t in N)",
        "robust_cal.py",
        "    start, t = 1, 2\n",
        "    start, t = 1, 4\n",
        "-",
        caught_by=("check_robust_cal_checkpoints_at_powers_of_two",),
    ),
    # -- passive ERM (Theorem 3.1) and the empirical risk both share ------------------------
    FastMutant(
        "mistakes_label_swapped",
        "h errs on label h(x) instead of 1 - h(x) (empirical risk)",
        "hypotheses.py",
        "    return (1 - H) @ label_counts[:, 1] + H @ label_counts[:, 0]",
        "    return H @ label_counts[:, 1] + (1 - H) @ label_counts[:, 0]",
        "argmin_tie",
        caught_by=("check_passive_output_is_erm", "check_passive_empirical_risks_recomputed"),
    ),
    FastMutant(
        "passive_ignores_labels_at_x0",
        "passive ERM drops the labels of the rounds with x_t = 0",
        "tape_mode.py",
        "    return _by_label(tape.x, tape.y.astype(np.int64), m)\n",
        "    counts = _by_label(tape.x, tape.y.astype(np.int64), m)\n"
        "    counts[0] = 0  # the labels of x_t = 0 dropped\n"
        "    return counts\n",
        "-",
        caught_by=("check_passive_empirical_risks_recomputed",),
    ),
    FastMutant(
        "passive_risk_over_n_plus_one",
        "passive ERM reports R^_[1,n](h) as mistakes / (n + 1)",
        "convert.py",
        "tuple(Fraction(int(v), run.n) for v in run.mistakes)",
        "tuple(Fraction(int(v), run.n + 1) for v in run.mistakes)",
        "-",
        caught_by=("check_passive_empirical_risks_recomputed",),
    ),
]

# Legitimate variants: a different but valid choice where the paper leaves one open. The
# cross-check must accept each (no mismatch) and count its divergence class.
VARIANTS = [
    FastMutant(
        "ties_to_highest_index",
        "line 10's argmin breaks ties towards the highest index",
        "epoch_types.py",
        "    h_star = int(np.argmin(penalised))",
        "    h_star = int(len(penalised) - 1 - np.argmin(penalised[::-1]))",
        "argmin_tie",
    ),
    FastMutant(
        "lp_largest_optimal_eta",
        "line 9 returns, among the optimal D^, one maximising sum eta^ (a second LP)",
        "line9.py",
        "    return eta, objective\n",
        "    from scipy.optimize import linprog\n"
        "    from scipy.sparse import csr_matrix\n"
        "    num_h = HS.shape[0]\n"
        "    equalities = tree_equalities(HS, pS)\n"
        "    every_a, every_b = np.nonzero(np.isfinite(weight))\n"
        "    indptr, indices, data, upper = pair_rows(every_a, every_b, weight, W, k, num_h)\n"
        "    every_row = csr_matrix((data, indices, indptr), shape=(len(upper), k + num_h + 1))\n"
        "    c2 = np.concatenate([-np.ones(k), np.zeros(num_h + 1)])\n"
        "    bounds2 = [(0, 1)] * k + [(None, None)] * num_h + [(None, lp_value(R, weight, W) * (1 + 1e-12) + 1e-12)]\n"
        "    second = linprog(c2, A_ub=every_row, b_ub=upper, A_eq=equalities[0], b_eq=equalities[1],\n"
        "                     bounds=bounds2,\n"
        "                     method='highs')\n"
        "    if second.status == 0:\n"
        "        eta = np.clip(second.x[:k], 0.0, 1.0)\n"
        "        R = HS @ (pS * (1 - eta)) + (1 - HS) @ (pS * eta)\n"
        "    return eta, lp_value(R, weight, W)\n",
        "lp_non_unique",
    ),
]

BY_NAME = {m.name: m for m in MUTANTS + VARIANTS}
FROM_EPOCH_2 = [m for m in MUTANTS if m.from_epoch >= 2]
assert len(BY_NAME) == len(MUTANTS) + len(VARIANTS), "mutant names must be unique"


def build(mutant: FastMutant, directory, prefix: str = PREFIX) -> str:
    """The patched copy under `directory` (the package prefix + name); returns its
    importable name. teeth/legit/float_variants.py builds its float32 copy with this too."""
    patches = [(mutant.file, old, new) for old, new in mutant.snippets] + list(mutant.more)
    patched: dict[str, str] = {}
    for file, old, new in patches:
        text = patched.get(file, (FAST_DIR / file).read_text())
        occurrences = text.count(old)
        assert occurrences == 1, f"fast mutant {mutant.name}: snippet occurs {occurrences} times in fast/{file}"
        patched[file] = text.replace(old, new)
    package = prefix + mutant.name
    target = Path(directory) / package
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(FAST_DIR, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for file, text in patched.items():
        (target / file).write_text(text)
    importlib.invalidate_caches()
    return package


def first_catch(check, candidate, *, with_last: bool = False, **options):
    """properties.run.runner.run_check(check, candidate, **options), and the first example on
    which the check's own logic (not a fault of the call: a crash, a hang, a malformed
    result) found a violation, with the seconds from the start of the run until then:
    (result, example or None, seconds or None), and with `with_last` the last such
    example too (after Hypothesis's shrinking, the minimal one). The check runs
    unchanged; only its `execute` is watched."""
    from properties.run.runner import run_check

    seen: dict = {}
    started = time.perf_counter()

    def execute(impl, example):
        found = check.execute(impl, example)
        if found and not all(v.fault for v in found):
            seen.setdefault("example", example)
            seen.setdefault("seconds", time.perf_counter() - started)
            seen["last"] = example
        return found

    result = run_check(replace(check, execute=execute), candidate, **options)
    caught = (result, seen.get("example"), seen.get("seconds"))
    return caught + (seen.get("last"),) if with_last else caught
