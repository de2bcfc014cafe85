"""The ranked page that opens ERRATA.md: every real error of the paper, by consequence.

Written for a reader of the paper: each row gives the place, the printed formula, the corrected
formula, one line of reason and the smallest witness. Machine detail (premises, step ids,
polynomials) stays in the sections below the page and in `python -m proofs_check --json`.
`CONSTANTS` names, per statement, the one corrected constant and the route that proves it; a test
checks that each appears with that value in ERRATA.md, FINDINGS.md and reference.theorem_constants
(which reference.bounds evaluates)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    where: str
    printed: str
    corrected: str
    why: str
    witness: str
    finding: str


# 1. What the proofs support changes a rate or a theorem's hypothesis.
RATE = (
    Row(
        "Thm 5.1, label complexity (tex l. 409-412; App. D.6)",
        "θ*(R* + 3√(β1/n) + 64C̄/n)·β·((R*)²n + log(n)(1 + C̄))",
        "θ*(2R* + 3√(β1/n))·(160(R*)²n + 480R*√(nβ1) + (45/4)β1(lg+2)(lg+4) + 1680(lg+2)C̄) + 4β1(lg+2), "
        "lg = log2(n/β1)",
        "the query sums drop 8β1 per epoch and miscount layers (F11); θ* is the last epoch's (F12): the proof "
        "gives β1 log²n; the printed log n is not decided",
        "β1 = θ* = 1, l = 10: the layer sum is 90β1θ*·l, not 20β1θ*·9",
        "F11, F12",
    ),
    Row(
        "Thm 4.1, accuracy (tex l. 292)",
        "for any n ≥ (8R*/ε² + 22/ε)β: R(h_out) − R* ≤ ε + O(R*C_total/n)",
        "≤ ε + 8(C_total/n)R* if n = 2^k or C_[0,n] ≤ n/8; not for every n",
        "Lemma C.1 is applied at t = n, a checkpoint only for n = 2^k",
        "n = 2^13 − 1, |H| = 2, R* = 0, ν(a) = 3/32, labels flipped on a in rounds 1793-2048 and 3841-8191, "
        "δ = 10⁻⁶, ε = 1/16: Δ(h_out) = 3/32 with probability ≥ 0.99985",
        "F19",
    ),
    Row(
        "Thm 3.1 (tex l. 237)",
        "Δ ≤ L/n + √(8R*L/n) + 8(C/n)R* + 5(L/n)/(1 − 4C/n)² for any C_total",
        "the same for C_total < n/4",
        "the quadratic needs 1 − 4C/n > 0",
        "one point, η* = 4/5, η_t = 9/20, n = 2^14: gap 3/5 > 0.583",
        "F3",
    ),
    Row(
        "Lemma D.4 and Lemma 5.1 (tex l. 833-1030)",
        "deterministic on E_gap ∩ E_dis1 ∩ E_dis2",
        "on ... ∩ E_bern (the sampling event): estimation lemma checked, Lemma 5.1 not decided",
        "'by Bernstein' needs an event not named",
        "3 points, H = {000, 111}, n = 20, every x_t = 0: Δ̂²(000) ≈ 0.922 > 1/2",
        "F5",
    ),
)

# 2. A theorem's or an algorithm's constant.
THEOREM = (
    Row(
        "Thm 3.1, 'This implies' (tex l. 239-245)",
        "ε + (C_total/n)R*",
        "((44 + 16√7)/18)ε + 8(C_total/n)R*",
        "the coefficient 1 on (C/n)R* is false; the ε-factor is the event line's (ρ ≤ Δ + 2R*)",
        "F2's run: one point, η* = 39/64, η_t = 31/64 (C_total = n/8), n = 2^16, δ = 1/10: Δ(h_out) = 7/32 > ε + R*/8 ≈ 0.061",
        "F15",
    ),
    Row(
        "Thm 5.1 and Cor 5.1, accuracy (tex l. 407, 420)",
        "ε + 24C̄_total/n (Cor: ε + 24R*C_total/n)",
        "ε + 64C̄_total/n (Cor: ε + 64R*C_total/n)",
        "ε²_{L−1} < 16β1/(3n), not 4β1/n, and g carries 2R* where C̄ carries R* (F6)",
        "β1 = 1, n = 330, c = 1 then 1/8: 15/16 > 0.904 (last step)",
        "F6",
    ),
    Row(
        "Alg. 2, β1 (tex l. 333) for Lemma 5.1's induction",
        "β1 = 20480β3, β2 = 5/32",
        "β1 ≥ 40960β3 (β2 = 5/32), or β2 ≥ (3 + 2√2)/32 at β1 = 20480β3",
        "4√(10β3/β1) = √2/16 > 1/16 at 20480",
        "a dyadic point of the proof's line (ε_l = 2^-20, ε_j = 1, R* = 0): the upper-bound step fails",
        "F5",
    ),
    Row(
        "Thm 4.1, label complexity (tex l. 294-296; App. C.1)",
        "Δ_h ≤ 120β_t/t + 12R* inside θ*; O(·) constant 120",
        "Δ_h ≤ (30179/50)β_t/t + (1007/50)R*; label sum 604.8·θ*β_t(R*n + log n)",
        "a dropped ρ̂(ĥ_t, h*)/2, AM-GM costing 3β_4 not 2β_4, and the solved coefficient (F9)",
        "t = 16, β_t = 1, ρ = ρ̂ = 1/2: line 3 = 21/32 > line 4 = 5/8",
        "F9",
    ),
    Row(
        "Alg. 1, β_t (tex l. 276)",
        "β_t = log(3 log(t)|H|²/δ)",
        "β_t = log(6k²|H|²/δ), t = 2^k",
        "the union bound over checkpoints sums to δ(1 + 1/2 + … + 1/K) (F7)",
        "|H| = 2, δ = 1/2, two checkpoints: 3/4 > 1/2",
        "F7",
    ),
)

# 3. Lines of the proofs.
LEMMA = (
    Row(
        "Lemma C.1, lines 1-2 (tex l. 599-600)",
        "22L/t + 4(C_t/n)R* + √(8R*L/t)",
        "22L/t + 8(C_t/t)R* + √(8R*L/t)",
        "the corruption moves ĥ_t by up to 2(C_t/t)ρ ≈ (2/3)R*, not R*/2",
        "one point, η* = 39/64, η_t = 31/64, n = t = 2^16: gap 7/32 > 0.2083",
        "F2",
    ),
    Row(
        "Estimation lemma, corruption term (tex l. 837-839)",
        "4(C_l/N_l)R* + 2(C_l/N_l)max{Δ_h, Δ_h'}",
        "2(C_l/N_l)ρ*(h, h')",
        "Lemma A.2 gives 2cρ*; the proof halves it (F17)",
        "two points: exceeded at population level",
        "F17",
    ),
    Row(
        "Estimation lemma, constant (tex l. 837)",
        "1/16 at β1 = 20480β3",
        "4√(10β3/β1)(max D̂^{l−1} + ε_l) + 2√(β3/β1)ε_l = (√2/16)(max D̂ + ε_l) + ε_l/(32√5)",
        "its proof's two terms at 20480β3",
        "any pair with max D̂^{l−1} ≫ ε_l",
        "F5",
    ),
    Row(
        "Catoni width (tex l. 789-791)",
        "2αρ̂/q + 2L/(αN) = √(10Lρ̂/(Nq))",
        "= √(98Lρ̂/(5Nq))",
        "the first term is dropped; condition (1) still follows at the per-slot log(1/δ') = β3/2 "
        "(at β3/2 + log 2 for β3 ≥ 98 log 2)",
        "L = 3, N = 1000, ρ̂ = 3/10, q = 1/10: 21/50 > 3/10",
        "F1",
    ),
    Row(
        "Gap lemmas, 2C_l/N_l > 1/16 (tex l. 931-996)",
        "Corruption Term 2C_l/N_l (upper), C_l/N_l (lower)",
        "2(C_l/N_l)ρ*(h, ·)",
        "the branch drops 4R*c or the term (F10)",
        "Δ = 0, R* = 3/4, c = 3/16, ε_l = 1/4: err = 1/2 > 1/64 + 3/8",
        "F10",
    ),
    Row(
        "Lemma A.2, first '≤' (tex l. 547-560)",
        "≤ ρ*(h, h')(2/|I|)Σ_t max_h (R_t(h) − R*(h))",
        "≤ ρ*(h, h')(2/|I|)Σ_t c_t",
        "a pointwise corruption bounded by a change of risk",
        "ν = (1/2, 1/2), η* = (0, 0), η_1 = (0, 1/2): 1/2 > 1/4",
        "F13",
    ),
    Row(
        "Thm 3.1 proof, quadratic (tex l. 583)",
        "5L/n",
        "(3 + 2√2)L/n from the printed chain",
        "(1 + √2)² = 3 + 2√2 is needed (F14); the statement's 5 holds",
        "C = 0, R* = 0: root 5.83L/n",
        "F14",
    ),
    Row(
        "Thm 4.1 proof, last display (tex l. 649)",
        "22L/n + 4R*C/n + √(8R*L/n) ≤ ε at the stated n",
        "22L/n + 4R*C/n + √(8R*L/n) ≤ (5/4)ε",
        "the closed form is lossy; the event line gives ε",
        "ε = 1/2, R* = 1/4, L = 1, n = 64: 33/64 > ε",
        "F8",
    ),
)

TYPOS = (
    "Lemma C.1, line 1 (tex l. 599): C_t/n for C_t/t.",
    "Alg. 1, line 10 (tex l. 279): V_{log(t)} for V_t; line 8: Σ_{s∈t} for Σ_{s≤t} (FINDINGS R4).",
    "Appendix C.2 (tex l. 720): 'R̄_t(h2) ≥ R̄_t(h1)' for R̄_t(h1) ≥ R̄_t(h2) (F4).",
    "Printed lines whose intended reading is proved (F16): listed below with their readings.",
)

NOTATION = (
    "β1: Algorithm 2 sets 32·640β3 = 20480β3, Theorem 5.1 writes 16·640 log(…) (FINDINGS R8).",
    "Checkpoints 'log(t) ∈ ℕ' are t = 2, 4, 8, … (β_1 = log 0 otherwise); log t inside β_t is log2 t (R3).",
)

HOLDS = (
    "Thm 3.1's bound with its printed constants for C_total < n/4; sharp on its event: 2 + 2√2 (C_total ≤ n/8).",
    "Lemma C.1, line 3: 26L/t + R*; the event line proves 39/2.",
    "Lemma C.1, line 1's L/t coefficient 22: the event line proves (44 + 16√7)/9.",
    "Thm 4.1's accuracy at n = 2^k (and whenever C_[0,n] ≤ n/8): ε + 8(C_total/n)R* on its event.",
    "Lemma 5.1's lower-bound branches and both large-corruption branches, coefficients kept apart.",
)

# One corrected constant per statement: (statement, constants.py name, its value as printed here, route)
CONSTANTS = (
    ("Thm 3.1, 'This implies', factor on ε", "THM31_IMPLIES_EPS", "(44 + 16√7)/18", "event line, ρ ≤ Δ + 2R*"),
    ("Thm 3.1, 'This implies', coefficient of (C_total/n)R*", "THM31_IMPLIES_CORRUPTION", "8", "Lemma A.2's 2cρ"),
    (
        "Thm 5.1, accuracy, coefficient of C̄_total/n",
        "THM51_ACCURACY_CORRUPTION",
        "64",
        "correctness chain, ε²_{L−1} < 16β1/(3n)",
    ),
    ("Lemma 5.1, β1/β3", "BETA1_OVER_BETA3_SHARP", "40960", "estimation lemma's coefficients kept apart"),
    ("Lemma 5.1 at β1 = 20480β3, β2", "BETA2_AT_20480", "(3 + 2√2)/32", "kept apart, ε_j dyadic"),
    ("Thm 4.1, label sum constant", "THM41_LABELS", "604.8", "radius 603.58β_t/t + 20.14R*"),
    ("Lemma C.1, line 1, corruption coefficient", "LEMC1_CORRUPTION", "8", "Lemma A.2's 2cρ"),
)


def _table(rows, start: int) -> list[str]:
    lines = ["| # | where | printed | corrected | why | smallest witness |", "| --- | --- | --- | --- | --- | --- |"]
    for i, r in enumerate(rows, start):
        lines.append(f"| {i} | {r.where} | {r.printed} | {r.corrected} | {r.why} | {r.witness} ({r.finding}) |")
    return lines


def ranked_page() -> list[str]:
    """The corrigendum page (Markdown lines), at most 1,500 words (tests/proofs_check/test_corrigendum.py)."""
    lines = [
        "## Corrigendum",
        "",
        "Ranked by consequence. 'Corrected' is what the repaired proof proves; the witness, inside the "
        "paper's assumptions, is a run, a population instance or a point of the proof's own line, as the row "
        "says. Ids refer to FINDINGS.md.",
        "",
        "### 1. Rates and hypotheses",
        "",
    ]
    lines += _table(RATE, 1)
    lines += ["", "### 2. Constants of theorems and algorithms", ""]
    lines += _table(THEOREM, len(RATE) + 1)
    lines += ["", "### 3. Lines of the proofs", ""]
    lines += _table(LEMMA, len(RATE) + len(THEOREM) + 1)
    lines += [
        "",
        "### One corrected constant per statement",
        "",
        "| statement | corrected | route |",
        "| --- | --- | --- |",
    ]
    lines += [f"| {s} | {v} | {route} |" for s, _, v, route in CONSTANTS]
    lines += ["", "### Typos (the intended reading holds)", "", *(f"- {t}" for t in TYPOS)]
    lines += ["", "### Notation and readings", "", *(f"- {t}" for t in NOTATION)]
    lines += ["", "### Checked and holds", "", *(f"- {t}" for t in HOLDS), ""]
    return lines


PAGE_END = "<!-- end of the corrigendum -->"
