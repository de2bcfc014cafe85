"""docs/spec.md is true to the reference: its formulas, written out here from the spec's text
alone (stdlib and fractions, nothing of the project), recompute the worked examples of
docs/examples/ (the reference's answers). Where a quantity is irrational (β_t, a threshold,
α, W) the float value of the spec's formula is compared with the reference's enclosure; a
free choice (the LP's optimum) is taken from the trace and everything after it recomputed."""

from __future__ import annotations

import json
import math
from fractions import Fraction

from tests.support import REPO_ROOT

EXAMPLES = REPO_ROOT / "docs" / "examples"


def load(name: str) -> dict:
    return json.loads((EXAMPLES / name).read_text())


def F(text) -> Fraction | None:
    return None if text is None else Fraction(text)


def ln_constant(constant: dict) -> float:
    """S8: {"value": r} or {"coefficient": c, "argument": a} = c ln a."""
    if "value" in constant:
        return float(Fraction(constant["value"]))
    return float(Fraction(constant["coefficient"])) * math.log(Fraction(constant["argument"]))


def ceil(x: Fraction) -> int:
    return -((-x.numerator) // x.denominator)


REQUEST = load("passive.request.json")
H = REQUEST["hypotheses"]
TAPE = REQUEST["tape"]
X, Y, U = TAPE["x"], TAPE["y"], [Fraction(u) for u in TAPE["u"]]
PARAMS = REQUEST["params"]
N = len(X)
M = len(H[0])


def test_passive_s10():
    trace = load("passive.result.json")
    risk = [Fraction(sum(h[x] != y for x, y in zip(X, Y)), N) for h in H]
    assert [F(r) for r in trace["empirical_risk"]] == risk
    assert trace["labels_requested"] == N and risk[trace["output"]] == min(risk)


def _dis(V):
    return {x for x in range(M) if len({H[h][x] for h in V}) > 1}


def robust_cal(vanilla: bool) -> None:
    trace = load(f"robust_cal{'_vanilla' if vanilla else ''}.result.json")
    assert trace["vanilla"] is vanilla and trace["params"] == PARAMS  # S9
    delta, scale = Fraction(PARAMS["delta"]), Fraction(PARAMS["beta_scale"])
    V, queried, labels = list(range(len(H))), [], 0
    checkpoints = iter(trace["checkpoints"])
    t_next = 2  # S11
    for t in range(1, N + 1):
        q = X[t - 1] in _dis(V)  # S12
        queried.append(q)
        labels += q
        if t != t_next:
            continue
        c = next(checkpoints)
        assert c["t"] == t and c["version_space"] == V and c["labels_requested"] == labels
        L = {h: Fraction(sum(queried[s] and H[h][X[s]] != Y[s] for s in range(t)), t) for h in V}  # S13
        h_hat = c["h_hat"]
        assert h_hat in V and L[h_hat] == min(L.values())
        k = t.bit_length() - 1
        beta = float(scale) * math.log(3 * k * len(H) ** 2 / delta)  # S15
        assert F(c["beta"]["lo"]) <= Fraction(beta) * (1 + Fraction(1, 10**12))
        assert Fraction(beta) * (1 - Fraction(1, 10**12)) <= F(c["beta"]["hi"])
        kept = []
        for h in range(len(H)):
            if h not in V:  # S18
                assert c["empirical_risk"][h] is None and c["disagreement"][h] is None and c["threshold"][h] is None
                continue
            rho = Fraction(sum(H[h][X[s]] != H[h_hat][X[s]] for s in range(t)), t)  # S14
            assert F(c["empirical_risk"][h]) == L[h] and F(c["disagreement"][h]) == rho
            threshold = math.sqrt(2 * beta * rho / t) + 3 * beta / (2 * t) + (0 if vanilla else rho / 2)  # S16
            lo, hi = F(c["threshold"][h]["lo"]), F(c["threshold"][h]["hi"])
            assert float(lo) - 1e-12 <= threshold <= float(hi) + 1e-12
            margin = threshold - float(L[h] - L[h_hat])
            assert abs(margin) > 1e-9  # decided by floats here; exactly in the spec (S17)
            if margin >= 0:
                kept.append(h)
        assert c["next_version_space"] == kept  # S17
        V = kept
        t_next *= 2
    assert next(checkpoints, None) is None
    final = {h: Fraction(sum(queried[s] and H[h][X[s]] != Y[s] for s in range(N)), N) for h in V}  # S19
    assert trace["final_version_space"] == V and trace["labels_requested"] == labels
    assert [F(r) for r in trace["final_empirical_risk"]] == [final.get(h) for h in range(len(H))]
    assert trace["output"] in V and final[trace["output"]] == min(final.values())


def test_robust_cal_s11_to_s19():
    robust_cal(vanilla=False)


def test_robust_cal_vanilla_s16():
    robust_cal(vanilla=True)


def epoch_checks(record: dict, state: dict, seen: list, queried: list, beta1: Fraction, beta2: Fraction, beta3: float):
    """S21-S40 for one epoch record, from its counts; returns the next state (S39)."""
    l, length, q = state["l"], state["length"], [F(v) for v in state["q"]]
    gap_prev = [F(v) for v in state["gap_hat"]]
    assert (record["l"], record["tau"], record["length"]) == (l, state["tau"], length)
    assert length == ceil(beta1 * 4**l)  # S21
    assert F(record["N"]["lo"]) <= beta1 * 4**l <= F(record["N"]["hi"])
    assert [F(v) for v in record["q"]] == q and record["labels_requested"] == sum(map(sum, queried))  # S22
    support = [x for x in range(M) if seen[x] > 0]  # S24
    p_hat = [Fraction(s, length) for s in seen]
    assert record["support"] == support and [F(v) for v in record["empirical_x"]] == p_hat
    nh = len(H)
    rows = []
    for h in range(nh):
        for g in range(nh):
            dis = [x for x in range(M) if H[h][x] != H[g][x]]
            rho = Fraction(sum(seen[x] for x in dis), length)  # S25
            assert F(record["rho"][h][g]) == rho
            if h == g or rho == 0:  # S26, S28, S31
                assert record["min_q"][h][g] is None and record["alpha"][h][g] is None
                assert record["weight"][h][g] is None
                if h != g:  # S30: W = 0 where rho = 0
                    assert F(record["W"][h][g]["lo"]) == 0 == F(record["W"][h][g]["hi"])
                continue
            min_q = min(q[x] for x in dis if x in support)  # S26
            assert F(record["min_q"][h][g]) == min_q
            if min_q == 0:
                assert record["alpha"][h][g] is None and record["W"][h][g] is None and record["weight"][h][g] is None
                continue
            alpha = math.sqrt(2 * beta3 * float(min_q) / (5 * length * float(rho)))  # S28
            assert math.isclose(float(F(record["alpha"][h][g])), alpha, rel_tol=1e-12)
            w = F(record["weight"][h][g])  # S31
            assert abs(w * w - min_q / rho) <= (min_q / rho) * Fraction(1, 2**62)
            W, Wt = record["W"][h][g], record["W"][g][h]  # S30
            assert F(W["hi"]) - F(W["lo"]) <= Fraction(1, 2**64)
            assert (F(Wt["lo"]), F(Wt["hi"])) == (-F(W["hi"]), -F(W["lo"]))
            rows.append((h, g, w, (F(W["lo"]) + F(W["hi"])) / 2))  # S32
    eta = [F(v) for v in record["eta_hat"]]
    assert all((e is None) == (x not in support) for x, e in enumerate(eta))  # S33
    risk = [sum(p_hat[x] * (eta[x] if H[h][x] == 0 else 1 - eta[x]) for x in support) for h in range(nh)]  # S34
    assert [F(v) for v in record["risk_hat"]] == risk
    objective = max([Fraction(0)] + [w * (risk[h] - risk[g] - Wm) for h, g, w, Wm in rows])
    assert F(record["lp_objective"]) == objective  # S33: the trace's eta^ attains it
    penalised = [risk[h] + beta2 * gap_prev[h] for h in range(nh)]  # S35
    star = record["h_star_hat"]
    assert penalised[star] == min(penalised)
    eps = [Fraction(1, 2**i) for i in range(l + 1)]
    gap = [max(eps[l], risk[h] - risk[star] - beta2 * gap_prev[star]) for h in range(nh)]  # S36
    assert [F(v) for v in record["gap_hat"]] == gap
    layers = [[h for h in range(nh) if gap[h] <= eps[i]] for i in range(l + 1)]  # S37
    assert record["layers"] == layers
    level = [max(i for i in range(l + 1) if gap[h] <= eps[i]) for h in range(nh)]
    next_q = [
        max(
            [Fraction(0)]
            + [
                F(record["rho"][h][g]) * Fraction(4) ** (min(level[h], level[g]) - (l + 1))
                for h in range(nh)
                for g in range(nh)
                if H[h][x] != H[g][x]
            ]
        )
        for x in range(M)
    ]  # S38
    assert [F(v) for v in record["next_q"]] == next_q
    return {
        "l": l + 1,
        "tau": state["tau"] + length,
        "length": ceil(beta1 * 4 ** (l + 1)),
        "q": [str(v) for v in next_q],
        "gap_hat": [str(v) for v in gap],
    }


def _beta(params: dict):
    assert "value" in params["beta1"]  # the examples use a rational beta1
    return Fraction(params["beta1"]["value"]), Fraction(params["beta2"]), ln_constant(params["beta3"])


def test_calruption_s20_to_s41():
    trace = load("calruption.result.json")
    beta1, beta2, beta3 = _beta(PARAMS)
    state = {"l": 1, "tau": 1, "length": ceil(4 * beta1), "q": ["1"] * M, "gap_hat": ["0"] * len(H)}  # S39
    records, labels, t = iter(trace["epochs"]), 0, 0
    completed = 0
    while state["tau"] + state["length"] - 1 <= N:
        seen, queried = [0] * M, [[0, 0] for _ in range(M)]
        for t in range(state["tau"], state["tau"] + state["length"]):
            x = X[t - 1]
            seen[x] += 1
            if U[t - 1] < F(state["q"][x]):  # S22
                queried[x][Y[t - 1]] += 1
        labels += sum(map(sum, queried))
        state = epoch_checks(next(records), state, seen, queried, beta1, beta2, beta3)
        completed += 1
    assert next(records, None) is None and completed == 3
    for t in range(state["tau"], N + 1):  # S41: the cut epoch is queried, updates nothing
        labels += U[t - 1] < F(state["q"][X[t - 1]])
    assert (trace["final_epoch"], trace["unfinished_rounds"]) == (state["l"], N - state["tau"] + 1)
    assert trace["labels_requested"] == labels
    assert trace["output"] in trace["epochs"][-1]["layers"][-1]


def test_calruption_epoch_s39():
    request, result = load("calruption_epoch.request.json"), load("calruption_epoch.result.json")
    beta1, beta2, beta3 = _beta(request["params"])
    counts = request["counts"]
    following = epoch_checks(result["record"], request["state"], counts["seen"], counts["queried"], beta1, beta2, beta3)
    assert {k: (v if k in ("l", "tau", "length") else [F(e) for e in v]) for k, v in result["state"].items()} == {
        k: (v if k in ("l", "tau", "length") else [F(e) for e in v]) for k, v in following.items()
    }


def test_min_q_over_the_support_s26():
    """The example where q differs by point and the pair (0, 1) also disagrees at the unseen
    point 3, whose q is the smallest: the min over Dis(h, h') ∩ S_l is not the min over X."""
    request, result = load("calruption_epoch_support.request.json"), load("calruption_epoch_support.result.json")
    beta1, beta2, beta3 = _beta(request["params"])
    counts, q = request["counts"], [F(v) for v in request["state"]["q"]]
    assert counts["seen"][3] == 0 and min(q) == q[3] < F(result["record"]["min_q"][0][1])
    epoch_checks(result["record"], request["state"], counts["seen"], counts["queried"], beta1, beta2, beta3)


def test_loss_difference_samples_s27_s44():
    request, result = load("loss_difference_samples.request.json"), load("loss_difference_samples.result.json")
    Hs = request["hypotheses"]
    assert len(result["results"]) == len(request["calls"])
    for call, answer in zip(request["calls"], result["results"]):
        h, g, q = Hs[call["h"]], Hs[call["h2"]], [F(v) for v in call["q"]]
        samples: dict[Fraction, int] = {}
        nonzero = 0
        for x in range(len(h)):
            if h[x] != g[x] and q[x] > 0:
                for y in (0, 1):
                    c = call["counts"]["queried"][x][y]
                    if c:
                        v = Fraction(int(h[x] != y) - int(g[x] != y)) / q[x]
                        samples[v] = samples.get(v, 0) + c
                        nonzero += c
        if call["length"] > nonzero:
            samples[Fraction(0)] = samples.get(Fraction(0), 0) + call["length"] - nonzero
        values = sorted(samples)
        assert [F(v) for v in answer["values"]] == values and answer["counts"] == [samples[v] for v in values]


def test_catoni_root_s42():
    request, result = load("catoni_root.request.json"), load("catoni_root.result.json")
    values, counts, alpha = [F(v) for v in request["values"]], request["counts"], F(request["alpha"])

    def psi(y: float) -> float:
        return math.log1p(y + y * y / 2) if y >= 0 else -math.log1p(-y + y * y / 2)

    def f(z: float) -> float:
        return sum(c * psi(float(alpha) * (float(v) - z)) for v, c in zip(values, counts))

    lo, hi = F(result["lo"]), F(result["hi"])
    assert lo <= hi and hi - lo <= Fraction(1, 2**64)
    assert f(float(lo) - 1e-9) > 0 > f(float(hi) + 1e-9)
