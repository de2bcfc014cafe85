"""The relational standing assumptions of proofs_check/domain.py: each rejects the points the paper
excludes and accepts the ones it allows (the decision itself is tested in test_proofs_check.py)."""

from fractions import Fraction as F

import pytest

from proofs_check.decide import REFUTED, decide_claim
from proofs_check.domain import RELATIONS, standing_premises, violations


@pytest.mark.parametrize(
    "point, broken",
    [
        ({"R_star": F(1, 2), "Delta": F(3, 4)}, True),  # R_*(h) = 5/4 > 1
        ({"R_star": F(1, 2), "Delta": F(1, 2)}, False),
        ({"Rstar": F(0), "rho_h": F(1, 4), "Delta_h": F(1, 2)}, True),  # Delta_h > rho_*(h, h^*)
        ({"Rstar": F(0), "rho_h": F(1, 2), "Delta_h": F(1, 2)}, False),
        ({"Rstar": F(0), "rho_h": F(3, 4), "Delta_h": F(1, 2)}, True),  # rho_* > Delta_h + 2R^*
        ({"eps_l": F(1, 4), "Dp_h": F(0)}, True),  # D^^{l-1} < eps_{l-1} at l = 2
        ({"eps_l": F(1, 2), "Dp_h": F(0)}, False),  # D^^0 = 0 at l = 1
        ({"eps_l": F(1, 4), "eps_j": F(3, 4)}, True),  # eps_j / eps_l = 3, not a power of 2
        ({"eps_l": F(1, 4), "eps_j": F(1)}, False),
        ({"eps_l": F(1, 3)}, True),  # eps_l is 2^-l
        ({"n": F(63), "Cbar": F(64)}, True),  # C-bar_total <= C_total <= n
        ({"t": F(2), "C": F(3)}, True),
    ],
)
def test_relations_reject_what_the_paper_excludes(point, broken):
    assert bool(violations(point)) == broken, (point, violations(point))


def test_relations_become_premises_only_where_all_their_names_appear():
    assert "R_star + Delta <= 1" in standing_premises(("Delta <= R_star",))
    assert not any("Delta" in p for p in standing_premises(("R_star <= 1",)))
    assert all(r.why for r in RELATIONS)


def test_a_refutation_outside_a_relation_is_decided_again_inside_it():
    """Delta <= 1 - R_star is false over the box [0, 1]^2 but true under R^* + Delta <= 1."""
    verdict = decide_claim(("R_star >= 0", "Delta >= 0"), "Delta <= 1 - R_star")
    assert verdict.status != REFUTED and verdict.rejected, verdict
