"""Broken copies of the fast implementation: each must be caught by the cross-check
(properties/crosscheck.py) as a mismatch, never absorbed into a divergence class.

Same mechanism as tests/broken/mutants.py (a textual patch of one file, the snippet
must occur exactly once), applied to a copy of `fast/` under the top-level name
broken_fast_<name>. fast takes the reference's input types and defines none that the
harness passes to it, so the copy needs no shared modules."""
from __future__ import annotations

import importlib
import shutil
from dataclasses import dataclass
from pathlib import Path

FAST_DIR = Path(__file__).resolve().parents[2] / "fast"
PREFIX = "broken_fast_"


@dataclass(frozen=True)
class FastMutant:
    name: str
    description: str  # what is broken, in the paper's terms
    file: str  # path inside fast/
    old: str  # exact snippet, occurs exactly once
    new: str
    hides_behind: str  # the divergence class it could be mistaken for, or "-"


MUTANTS = [
    FastMutant(
        "rho_over_n", "rho^_l divided by n instead of |I_l| (line 7)", "calruption.py",
        "    rho = rho_counts / length\n", "    rho = rho_counts / (length + 1)\n", "-"),
    FastMutant(
        "alpha_without_five", "Catoni's alpha without the 5 of sqrt(2 L min_q / (5 N rho^))", "calruption.py",
        "a = np.sqrt(2 * fparams.beta3 * mq / (5 * length * r))", "a = np.sqrt(2 * fparams.beta3 * mq / (length * r))", "-"),
    FastMutant(
        "catoni_one_step", "the Catoni root stops after one Newton step from the mean (line 8)",
        "calruption.py", "roots = catoni_roots(values, counts, alpha[ai, aj])",
        "roots = catoni_roots(values, counts, alpha[ai, aj], max_iter=1)", "-"),
    FastMutant(
        "W_antisymmetry_lost", "W^{h',h} = W^{h,h'} instead of -W^{h,h'}", "calruption.py",
        "W[ai, aj], W[aj, ai] = roots, -roots", "W[ai, aj], W[aj, ai] = roots, roots", "-"),
    FastMutant(
        "lp_one_sided", "line 9's LP keeps only w (R_D(h) - R_D(h') - W) <= s, not its mirror: D^ is not optimal",
        "line9.py", "    rows = np.isfinite(weight[r0:r1])\n",
        "    rows = np.isfinite(weight[r0:r1]) & (np.arange(r0, r1)[:, None] < np.arange(len(R))[None, :])\n",
        "lp_non_unique"),
    FastMutant(
        "argmin_without_penalty", "h^*_l minimises R_D^(h) without beta2 Delta^^{l-1}_h (line 10)", "calruption.py",
        "    h_star = int(np.argmin(penalised))", "    h_star = int(np.argmin(risk_hat))", "argmin_tie"),
    FastMutant(
        "layers_strict", "V_{l+1}^i = {h : Delta^ < eps_i} instead of <= (line 12)", "calruption.py",
        "layers = gap_hat[None, :] <= np.ldexp", "layers = gap_hat[None, :] < np.ldexp", "layer_boundary"),
    FastMutant(
        "q_without_layer_factor", "q_{l+1}^x = max rho^ without the 4^(k - l - 1) factor (line 13)", "calruption.py",
        "    pair_value = np.ldexp(rho, 2 * (k - l - 1))", "    pair_value = rho + 0 * k", "coin"),
    FastMutant(
        "coin_doubled", "a round is queried when u_t < 2 q^x instead of q^x (line 4)", "tape_mode.py",
        "        asked = coins(us, xs, q)", "        asked = coins(us, xs, np.minimum(2 * q, 1.0))", "coin"),
    FastMutant(
        "unfinished_epoch_unlabelled", "the unfinished last epoch's queries are not counted", "calruption.py",
        "        labels += int(queried.sum())\n    output", "        labels += 0\n    output", "-"),
    FastMutant(
        "robust_cal_vanilla_threshold", "the enlarged threshold of line 10 loses its rho^/2 term", "robust_cal.py",
        "        threshold = threshold + rho / 2", "        threshold = threshold + 0 * rho", "threshold_boundary"),
    FastMutant(
        "robust_cal_beta_of_t", "beta_t with ln(3 t |H|^2 / delta) instead of log2 t (line 9)", "constants.py",
        "        return self.beta_scale * math.log(3 * k * self.params.num_hypotheses**2 / self.delta)",
        "        return self.beta_scale * math.log(3 * t * self.params.num_hypotheses**2 / self.delta)", "threshold_boundary"),
    FastMutant(
        "robust_cal_version_space_frozen", "V_{t+1} = V_t: line 10 never eliminates", "robust_cal.py",
        "            members = checkpoint.next_version_space\n", "            members = checkpoint.version_space\n", "-"),
    FastMutant(
        "mistakes_label_swapped", "h errs on label h(x) instead of 1 - h(x) (empirical risk)", "hypotheses.py",
        "    return (1 - H) @ label_counts[:, 1] + H @ label_counts[:, 0]",
        "    return H @ label_counts[:, 1] + (1 - H) @ label_counts[:, 0]", "argmin_tie"),
]

# Legitimate variants: a different but valid choice where the paper leaves one open. The
# cross-check must accept each (no mismatch) and count its divergence class.
VARIANTS = [
    FastMutant(
        "ties_to_highest_index", "line 10's argmin breaks ties towards the highest index", "calruption.py",
        "    h_star = int(np.argmin(penalised))",
        "    h_star = int(len(penalised) - 1 - np.argmin(penalised[::-1]))", "argmin_tie"),
    FastMutant(
        "lp_largest_optimal_eta", "line 9 returns, among the optimal D^, one maximising sum eta^ (a second LP)",
        "line9.py",
        "    return eta, lp_value(R, weight, W)\n",
        "    from scipy.optimize import linprog\n"
        "    from scipy.sparse import csr_matrix\n"
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
        "    return eta, lp_value(R, weight, W)\n", "lp_non_unique"),
]

BY_NAME = {m.name: m for m in MUTANTS + VARIANTS}
assert len(BY_NAME) == len(MUTANTS) + len(VARIANTS), "mutant names must be unique"


def build(mutant: FastMutant, directory) -> str:
    """The broken copy under `directory`; returns its importable name."""
    original = (FAST_DIR / mutant.file).read_text()
    occurrences = original.count(mutant.old)
    assert occurrences == 1, f"fast mutant {mutant.name}: snippet occurs {occurrences} times in fast/{mutant.file}"
    package = PREFIX + mutant.name
    target = Path(directory) / package
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(FAST_DIR, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (target / mutant.file).write_text(original.replace(mutant.old, mutant.new))
    importlib.invalidate_caches()
    return package
