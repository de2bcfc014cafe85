"""The findings' counterexamples (FINDINGS.md): each a fixed example that a check runs
explicitly, whatever Hypothesis draws."""

from __future__ import annotations

from fractions import Fraction

from properties.core.case import Case
from properties.strategies.cases import CraftedCase, crafted_case, sharp_lemma_c1_case
from properties.strategies.instances import premise_params
from properties.strategies.one_epoch import OneEpochCase
from properties.strategies.population import PopulationCase
from reference import Instance, Params
from reference import adversary as adversaries


# -- the findings' counterexamples --------------------------------------------------------
# Each is the minimal counterexample of a FINDINGS.md entry, of the type its check's
# strategy produces; properties/checks/registry.py (KNOWN_EXAMPLES) runs it first, as an explicit
# example, in every profile. Verified exactly in the meta-tests.
def finding_f2_lemma_c1_case() -> Case:
    """FINDINGS F2 (Lemma C.1, lines 1-2): one point, eta* = 39/64 (g = 1/32 in
    `sharp_lemma_c1_case`), eta_t = 31/64 in every round (c_t = 1/8, C_[0,t] = t/8), the
    paper's constants, delta = 1/10, n = 2^16, tape seed 0: h^_t = (0) with gap 7/32 > line 2
    = 0.208270 at t = n."""
    return sharp_lemma_c1_case(Fraction(1, 32), 2**16, 0)


def finding_f5_estimation_lemma_case() -> CraftedCase:
    """FINDINGS F5 (lemma "Estimation accuracy for D^_l" on E_gap), paper premises: nu
    uniform on 3 points, eta* = (0, 0, 1), H = {000, 111}, 20 clean rounds all at x = 0,
    beta1 = 1, beta3 = 1/20480. Epoch 1 fits D^ exactly: R_D^(000) - R_D^(111) = -1 against
    R*(000) - R*(111) = -1/3, so 2/3 > 1/32."""
    instance = Instance([Fraction(1, 3)] * 3, [Fraction(0), Fraction(0), Fraction(1)], ((0, 0, 0), (1, 1, 1)))
    return crafted_case(instance, premise_params(20, 2, Fraction(1), Fraction(1, 20480)), [0] * 20)


def finding_f5_lemma_51_case() -> CraftedCase:
    """FINDINGS F5 (Lemma 5.1, Lemma 5.2 and Theorem 5.1 on E_gap, E_dis1, E_dis2), paper
    premises: nu = (99/100, 1/100), eta* = (0, 1), H = {00, 11}, 84 clean rounds (three
    epochs, beta1 = 1, beta3 = 1/20480) all at the rare point x1, coins balanced: D^ prefers
    11 (Delta = 49/50) in every epoch, h_out = 11 and (49/50)^2 > 72/84."""
    instance = Instance([Fraction(99, 100), Fraction(1, 100)], [Fraction(0), Fraction(1)], ((0, 0), (1, 1)))
    return crafted_case(instance, premise_params(84, 2, Fraction(1), Fraction(1, 20480)), [1] * 84)


def finding_f5_estimation_lemma_one_epoch_case() -> OneEpochCase:
    """FINDINGS F5, one epoch with the paper's own constants (Params.paper): the
    est-helper lemma fails at epoch 1 of 1283198 rounds all at x0 (nu = (1/51, 50/51),
    eta* = 0, H = {11, 01}): R_D^ difference 1, R* difference 1/51, 50/51 > 1/32."""
    return OneEpochCase.from_json(
        {
            "instance": {"nu": ["1/51", "50/51"], "eta": ["0/1", "0/1"], "hypotheses": [[1, 1], [0, 1]]},
            "params": {
                "regime": "paper",
                "n": 2097152,
                "num_hypotheses": 2,
                "delta": "1/20",
                "beta_scale": "1/1",
                "beta1": {"coefficient": "40960/1", "argument": "2520/1"},
                "beta2": "5/32",
                "beta3": {"coefficient": "2/1", "argument": "2520/1"},
            },
            "state": {"l": 1, "tau": 1, "length": 1283198, "q": ["1/1", "1/1"], "gap_hat": ["0/1", "0/1"]},
            "counts": {"seen": [1283198, 0], "queried": [[1283198, 0], [0, 0]]},
            "prev_seen": [],
            "past_corruption": [],
            "epoch_eta": ["0/1", "0/1"],
            "mode": "one_point_seen",
        }
    )


def finding_f5_gap_bounds_one_epoch_case() -> OneEpochCase:
    """FINDINGS F5, one epoch with the paper's own constants: the upper bound of the
    estimated gap fails at l = 2 with every round at the rare disputed x4 (nu(x4) = 1/5,
    eta* = 0): Delta^^2 of 00011 is 1 - 5/64 - (tiny) > 2 (Delta + eps_2) = 9/10."""
    return OneEpochCase.from_json(
        {
            "instance": {
                "nu": ["0/1", "0/1", "4/5", "0/1", "1/5"],
                "eta": ["0/1"] * 5,
                "hypotheses": [[0, 0, 0, 1, 1], [0, 0, 0, 0, 0]],
            },
            "params": {
                "regime": "paper",
                "n": 8388608,
                "num_hypotheses": 2,
                "delta": "1/20",
                "beta_scale": "1/1",
                "beta1": {"coefficient": "40960/1", "argument": "2760/1"},
                "beta2": "5/32",
                "beta3": {"coefficient": "2/1", "argument": "2760/1"},
            },
            "state": {
                "l": 2,
                "tau": 1298104,
                "length": 5192409,
                "q": ["0/1", "0/1", "0/1", "21635/432701", "21635/432701"],
                "gap_hat": ["1/2", "1/2"],
            },
            "counts": {"seen": [0, 0, 0, 0, 5192409], "queried": [[0, 0], [0, 0], [0, 0], [0, 0], [259619, 0]]},
            "prev_seen": [0, 0, 1038483, 0, 259620],
            "past_corruption": ["0/1"],
            "epoch_eta": ["0/1"] * 5,
            "mode": "one_point_seen",
        }
    )


def finding_f6_final_step_case() -> Case:
    """FINDINGS F6 (the correctness chain's last step, 24 C-bar/n): nu = (1/2, 1/2),
    eta* = (0, 1), H = {01, 10}, beta1 = 1, n = 330 (3 completed epochs), c = 1 on epoch 1
    and 1/8 on epoch 2 (towards (1, 0)), clean after: 3 eps_3 + 3 g_3 = 15/16 >
    6 sqrt(2/330) + 144/330."""
    n = 330
    instance = Instance([Fraction(1, 2)] * 2, [Fraction(0), Fraction(1)], ((0, 1), (1, 0)))
    adversary = adversaries.piecewise(
        n,
        [
            dict(start=1, end=4, gamma=1, target=[1, 0]),
            dict(start=5, end=20, gamma=Fraction(1, 8), target=[1, 0]),
            dict(start=21, end=n),
        ],
    )
    return Case(instance, adversary, 0, Params.scaled(n, 2, Fraction(1, 10), Fraction(1, 4), 1))


def _population_case(nu, eta, H, etas, beta1) -> PopulationCase:
    """One noisy instance, eta_t = etas[i] on the i-th round, beta1 (every round in epochs)."""
    n = len(etas)
    adversary = adversaries.piecewise(
        n, [dict(start=t + 1, end=t + 1, gamma=1, target=list(e)) for t, e in enumerate(etas)]
    )
    return PopulationCase(Instance(nu, eta, H), adversary, Fraction(beta1))


def finding_f17_estimation_term_case() -> PopulationCase:
    """FINDINGS F17 (the estimation lemma's corruption term, population level): nu = (1/2, 1/2),
    eta* = (0, 1/4), H = {00, 01, 10} (h* = 00, R* = 1/8), one round with eta_1 = (1/4, 0)
    (c = 1/4): err(01, 10) = 1/2 > 4 c R* + 2 c max{Delta} = 3/8 (= 2 c rho*(01, 10), tex 889)."""
    half = Fraction(1, 2)
    return _population_case(
        (half, half),
        (Fraction(0), Fraction(1, 4)),
        ((0, 0), (0, 1), (1, 0)),
        [(Fraction(1, 4), Fraction(0))],
        Fraction(1, 4),
    )


def finding_f17_gap_upper_small_case() -> PopulationCase:
    """FINDINGS F17 (upper gap lemma, line 4, small branch): nu = (1/2, 1/2), eta* = (0, 1/8),
    H = {00, 01, 10} (R* = 1/16), one round with eta_1 = (1/32, 3/32) (c = 1/32, 2c = 1/16):
    err(01, 10) = 1/16 > max{Delta}/16 + 4 c R* = 5/128."""
    half = Fraction(1, 2)
    return _population_case(
        (half, half),
        (Fraction(0), Fraction(1, 8)),
        ((0, 0), (0, 1), (1, 0)),
        [(Fraction(1, 32), Fraction(3, 32))],
        Fraction(1, 4),
    )


def finding_f10_lower_large_case() -> PopulationCase:
    """FINDINGS F10 (lower gap lemma, line 3, large branch) at population: one point,
    eta* = 1/2, H = {(0), (1)} (h* = (0), R* = 1/2, Delta = 0), eta_1 = 1 (c = 1/2):
    -err((1), h*) = 1 > Delta/16 + c = 1/2."""
    return _population_case((Fraction(1),), (Fraction(1, 2),), ((0,), (1,)), [(Fraction(1),)], Fraction(1, 4))


def finding_f10_upper_line8_case() -> PopulationCase:
    """FINDINGS F10 (upper gap lemma, line 8): one point, eta* = 0, H = {(0)} (R* = 0),
    eta_1 = 1 (c = 1, large branch): the Corruption Term 2c = 2 > 4 R* c = 0."""
    return _population_case((Fraction(1),), (Fraction(0),), ((0,),), [(Fraction(1),)], Fraction(1, 4))


def finding_f10_lower_bookkeeping_case() -> PopulationCase:
    """FINDINGS F10 (lower gap lemma, last line): one point, eta* = 0, H = {(1)} (R* = 1),
    eta_1 = 1 (c = 1, large branch): 4 R* c + c = 5 > (18/8) g_1 = 9/2."""
    return _population_case((Fraction(1),), (Fraction(0),), ((1,),), [(Fraction(1),)], Fraction(1, 4))


def finding_f2_lemma_c1_population_case() -> PopulationCase:
    """FINDINGS F2 at population level (Lemma C.1, lines 1-2): one point, eta* = 3/8,
    H = {(0), (1)} (h* = (0), R* = 3/8), eta_t = 1/2 in both rounds of epoch 1 (beta1 = 1/2;
    c_t = 1/8, C_t = t/8 at the checkpoint t = 2): R-bar_2((1)) = R-bar_2((0)) = 1/2, so (1) is a
    minimiser, and its gap 1/4 > 4 (C_t/t) R* = R*/2 = 3/16."""
    return _population_case((Fraction(1),), (Fraction(3, 8),), ((0,), (1,)), [(Fraction(1, 2),)] * 2, Fraction(1, 2))


def finding_f13_a2_middle_case() -> PopulationCase:
    """FINDINGS F13 (Lemma A.2's middle line): nu = (1/2, 1/2), eta* = (0, 0), H = the four
    labelings, one round with eta_1 = (0, 1/2): err(00, 01) = 1/2 > rho* 2 max_h (R_1(h) - R*(h))
    = 1/2 * 2 * 1/4 = 1/4."""
    half = Fraction(1, 2)
    return _population_case(
        (half, half),
        (Fraction(0), Fraction(0)),
        ((0, 0), (0, 1), (1, 0), (1, 1)),
        [(Fraction(0), half)],
        Fraction(1, 4),
    )
