"""Instance families for the theory-against-practice sweeps (properties/campaign/sweeps.py).

Each family is an exact reference.Instance with a different disagreement coefficient theta^*
and gap Delta_min:

* "thresholds": 64 thresholds on 256 points, nu uniform, eta* 1/10 left of the middle and 9/10
  from it on (the label-curves instance; theta^* small, Delta_min = 1/80).
* "thresholds-noisy": 16 thresholds on 64 points, eta* 3/10 and 7/10 (R^* = 3/10, Delta_min = 1/40).
* "singletons": h_0 = all 0 and h_i = 1 only at point i, 32 points, nu uniform, eta* = 1/10
  except 7/20 at point 0 (h^* = h_0; theta^* = 32, the largest a class on 32 points can have;
  Delta_min = 1/128 at h_1).
* "breast-cancer": the 569 points of properties/campaign/data/breast_cancer.csv with the empirical
  distribution, H = axis-aligned stumps on 4 features (7 quantile thresholds each, both signs:
  56 hypotheses), eta from the labels with 10% symmetric label noise. Points that every
  stump labels alike are one point of the instance (nu the share of the data there, eta the
  noisy label mean): the algorithms see a point only through the hypotheses' labels, so this
  changes nothing they can observe.
* "digits-3v8": the 3s and 8s of properties/campaign/data/digits.csv.gz (pixel stumps on 6 pixels,
  thresholds 4, 8, 12 and both signs: 36 hypotheses), built the same way.
"""

from __future__ import annotations

import csv
import gzip
from fractions import Fraction
from functools import cache
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"  # package data: in the wheel too (data/README.md: sources, licences)
FAMILIES = ("thresholds", "thresholds-noisy", "singletons", "breast-cancer", "digits-3v8")
SYNTHETIC = FAMILIES[:3]
REAL = FAMILIES[3:]
LABEL_NOISE = Fraction(1, 10)


@cache
def family(name: str):
    """The family's exact instance (cached per process)."""
    import reference as R

    if name == "thresholds":
        from .experiments import thresholds_instance

        return thresholds_instance(256, 64)
    if name == "thresholds-noisy":
        m, k = 64, 16
        eta = [Fraction(3, 10) if x < m // 2 else Fraction(7, 10) for x in range(m)]
        step = m // k
        hyps = [tuple(int(x >= j * step) for x in range(m)) for j in range(k)]
        return R.Instance([Fraction(1, m)] * m, eta, hyps)
    if name == "singletons":
        m = 32
        eta = [Fraction(7, 20)] + [Fraction(1, 10)] * (m - 1)
        hyps = [tuple([0] * m)] + [tuple(int(x == i) for x in range(m)) for i in range(m)]
        return R.Instance([Fraction(1, m)] * m, eta, hyps)
    if name == "breast-cancer":
        rows = _breast_cancer()
        return stump_instance(rows, features=(0, 1, 22, 27), thresholds_per_feature=7)
    if name == "digits-3v8":
        rows = _digits(positive=8, negative=3)
        return stump_instance(rows, features=(20, 21, 28, 36, 43, 44), fixed_thresholds=(4, 8, 12))
    raise ValueError(f"family must be one of {list(FAMILIES)}, got {name!r}")


def _breast_cancer() -> list[tuple[tuple[Fraction, ...], int]]:
    """(features, label) rows; label 1 = benign, as the CSV's last column."""
    with open(DATA / "breast_cancer.csv", newline="") as handle:
        reader = csv.reader(handle)
        next(reader)  # the header: 569,30,malignant,benign
        return [(tuple(Fraction(v) for v in row[:-1]), int(row[-1])) for row in reader]


def _digits(positive: int, negative: int) -> list[tuple[tuple[Fraction, ...], int]]:
    with gzip.open(DATA / "digits.csv.gz", "rt", newline="") as handle:
        rows = []
        for row in csv.reader(handle):
            digit = int(float(row[-1]))
            if digit in (positive, negative):
                rows.append((tuple(Fraction(int(float(v))) for v in row[:-1]), int(digit == positive)))
        return rows


def stump_instance(rows, features, thresholds_per_feature: int = 0, fixed_thresholds=(), noise=LABEL_NOISE):
    """X = the rows with the empirical distribution; H = stumps h(x) = 1[x_f >= c] and 1[x_f < c]
    on the features, c at quantiles (or the fixed thresholds); eta(x) = the label mean of the
    rows at x, mixed with `noise` symmetric label noise: (1 - noise) eta + noise (1 - eta).
    Rows every stump labels alike are merged (see the module docstring)."""
    import reference as R

    stumps = []
    for f in features:
        values = sorted(row[0][f] for row in rows)
        if fixed_thresholds:
            cuts = [Fraction(c) for c in fixed_thresholds]
        else:
            k = thresholds_per_feature
            cuts = sorted({values[(len(values) * (i + 1)) // (k + 1)] for i in range(k)})
        for c in cuts:
            stumps.append((f, c, 1))
            stumps.append((f, c, 0))
    cells: dict[tuple[int, ...], list[int]] = {}
    for x, label in rows:
        column = tuple(int((x[f] >= c) == bool(sign)) for f, c, sign in stumps)
        cells.setdefault(column, []).append(label)
    columns = sorted(cells)
    total = len(rows)
    nu = [Fraction(len(cells[c]), total) for c in columns]
    eta = []
    for c in columns:
        clean = Fraction(sum(cells[c]), len(cells[c]))
        eta.append((1 - noise) * clean + noise * (1 - clean))
    hypotheses = [tuple(column[j] for column in columns) for j in range(len(stumps))]
    # distinct hypotheses only (two stumps that split the data alike are one hypothesis of the finite class)
    unique = list(dict.fromkeys(hypotheses))
    return R.Instance(nu, eta, unique)
