"""Bad input raises ValueError naming the field and the value; never a silent coercion.

Every case asserts, through `pytest.raises(..., match=names(field, value))`, that the
message names the offending field (with its index, e.g. `nu[0]`, where the library
can point at one entry) and, after it, the offending value. The token rules in
`names` keep a value from being "found" inside the range text of the message
(`[0, 1), got 1` must name the 1 after "got", not the one in "[0, 1)"), so each test
fails if either the field or the value is dropped from the message.
"""

from __future__ import annotations

import dataclasses
import json
import re
from fractions import Fraction as F

import pytest

import reference
from reference import adversary as adversaries
from reference import instances

# -- helpers ---------------------------------------------------------------------------

# A field token must not be glued to a longer name or index: "nu" does not match inside
# "nu[0]" or "num_hypotheses"; a value token must not be part of a larger number,
# fraction, bracketed range or bound ("1" does not match in "-1", "1/2", "[0, 1)",
# "(0, 1)" or ">= 1").
_FIELD_BEFORE = r"(?<![\w.\[])"
_FIELD_AFTER = r"(?![\w\[.])"
_VALUE_BEFORE = r"(?<![\w/.(\[\-])(?<![<>=] )"
_VALUE_AFTER = r"(?![\w/.)\]])"


def names(field: str, value: str, *also: str) -> str:
    """Regex for `match=`: `field` as a token, later `value` as a token, and each of
    `also` (plain text) anywhere in the message."""
    field_re = _FIELD_BEFORE + re.escape(field) + _FIELD_AFTER
    value_re = _VALUE_BEFORE + re.escape(value) + _VALUE_AFTER
    extra = "".join(f"(?=.*{re.escape(a)})" for a in also)
    return f"^(?=.*{field_re}.*{value_re}){extra}"


def test_names_helper_is_strict():
    """The matcher itself: a message without the value (or with it only inside the
    range text) must not match."""
    pattern = names("tape.u[0]", "1")
    assert re.search(pattern, "tape.u[0] must lie in [0, 1), got 1")
    assert not re.search(pattern, "tape.u[0] must lie in [0, 1)")
    assert not re.search(pattern, "tape.u must lie in [0, 1), got 1")
    assert not re.search(names("params.delta", "0"), "params.delta must lie in (0, 1)")
    assert not re.search(names("nu", "2"), "nu[0] must lie in [0, 1], got 2")
    assert not re.search(names("x", "1"), "x must be >= 0, got -1")
    assert not re.search(names("xi1", "0"), "xi1 must be > 0")


HALF = F(1, 2)
NU2 = (HALF, HALF)
ETA2 = (F(1, 10), F(9, 10))
H2 = ((0, 1), (1, 1))


def _case(id_, kwargs, field, value, *also):
    return pytest.param(kwargs, field, value, also, id=id_)


# -- reference.Instance(nu, eta, hypotheses) --------------------------------------------

INSTANCE_CASES = [
    # nu
    _case("nu-not-a-sequence", dict(nu=7), "nu", "7"),
    _case("nu-empty", dict(nu=(), eta=()), "nu", "empty"),
    _case("nu-float-entry", dict(nu=(0.5, HALF)), "nu[0]", "0.5", "float"),
    _case("nu-bool-entry", dict(nu=(HALF, True)), "nu[1]", "True", "bool"),
    _case("nu-negative-entry", dict(nu=(F(-1, 2), F(3, 2))), "nu[0]", "-1/2"),
    _case("nu-entry-above-1", dict(nu=(F(3, 2), F(-1, 2))), "nu[0]", "3/2"),
    _case("nu-sum-not-1", dict(nu=(HALF, F(1, 3))), "nu", "5/6", "sum"),
    # eta
    _case("eta-wrong-length", dict(eta=(0, 0, 0)), "eta", "3"),
    _case("eta-float-entry", dict(eta=(F(1, 10), 0.25)), "eta[1]", "0.25", "float"),
    _case("eta-above-1", dict(eta=(F(1, 10), F(3, 2))), "eta[1]", "3/2"),
    _case("eta-negative", dict(eta=(F(-1, 10), HALF)), "eta[0]", "-1/10"),
    # hypotheses
    _case("hypotheses-empty", dict(hypotheses=()), "hypotheses", "empty"),
    _case("hypotheses-label-2", dict(hypotheses=((0, 1), (1, 2))), "hypotheses[1][1]", "2"),
    _case("hypotheses-label-True", dict(hypotheses=((0, True),)), "hypotheses[0][1]", "True"),
    _case("hypotheses-label-float-1.0", dict(hypotheses=((1.0, 1),)), "hypotheses[0][0]", "1.0"),
    _case("hypotheses-ragged-short", dict(hypotheses=((0, 1), (1,))), "hypotheses[1]", "1", "expected 2"),
    _case("hypotheses-ragged-long", dict(hypotheses=((0, 1), (1, 0, 1))), "hypotheses[1]", "3", "expected 2"),
    _case("hypotheses-a-string", dict(hypotheses="0101"), "hypotheses", "'0101'"),
    _case("hypotheses-entry-a-string", dict(hypotheses=("01",)), "hypotheses[0]", "'01'"),
]


@pytest.mark.parametrize("kwargs, field, value, also", INSTANCE_CASES)
def test_instance_rejects(kwargs, field, value, also):
    args = {"nu": NU2, "eta": ETA2, "hypotheses": H2, **kwargs}
    with pytest.raises(ValueError, match=names(field, value, *also)):
        reference.Instance(**args)


def test_instance_valid_baseline():
    """The baseline the cases above perturb is itself valid (so each case fails for
    the one reason it names)."""
    inst = reference.Instance(NU2, ETA2, H2)
    assert inst.nu == NU2 and inst.hypotheses == H2


@pytest.mark.parametrize("missing", ["nu", "eta", "hypotheses"])
def test_instance_from_json_missing_field(missing):
    data = reference.Instance(NU2, ETA2, H2).to_json()
    del data[missing]
    with pytest.raises(ValueError, match=names("instance", f"'{missing}'", "missing")):
        reference.Instance.from_json(data)


# -- reference.instances.counterexample(xi1, xi2) ---------------------------------------


@pytest.mark.parametrize(
    "xi1, xi2, field, value",
    [
        pytest.param(0, F(1, 128), "xi1", "0", id="xi1-zero"),
        pytest.param(F(-1, 2), F(1, 128), "xi1", "-1/2", id="xi1-negative"),
        pytest.param(HALF, F(-1, 128), "xi2", "-1/128", id="xi2-negative"),
        pytest.param(F(3, 4), HALF, "xi1 + xi2", "5/4", id="xi1-plus-xi2-above-1"),
        pytest.param(0.5, F(1, 128), "xi1", "0.5", id="xi1-float"),
        pytest.param(HALF, 0.25, "xi2", "0.25", id="xi2-float"),
    ],
)
def test_counterexample_instance_rejects(xi1, xi2, field, value):
    with pytest.raises(ValueError, match=names(field, value)):
        instances.counterexample(xi1, xi2)


# -- reference.adversary -----------------------------------------------------------------


def _seg(start, end, **extra):
    return {"start": start, "end": end, **extra}


@pytest.mark.parametrize(
    "n, segments, field, value, also",
    [
        pytest.param(0, [_seg(1, 1)], "n", "0", (), id="n-zero"),
        pytest.param(5.0, [_seg(1, 5)], "n", "5.0", ("float",), id="n-float"),
        pytest.param(5, [], "segments", "[]", (), id="segments-empty"),
        pytest.param(5, [_seg(1, 2), _seg(4, 5)], "segments[1].start", "4", ("gap",), id="segments-gap"),
        pytest.param(5, [_seg(1, 3), _seg(3, 5)], "segments[1].start", "3", ("overlap",), id="segments-overlap"),
        pytest.param(5, [_seg(1, 4)], "segments[0].end", "4", ("n = 5",), id="last-end-short-of-n"),
        pytest.param(5, [_seg(1, 6)], "segments[0].end", "6", ("n = 5",), id="last-end-past-n"),
        pytest.param(5, [_seg(1, 5, gamma=F(3, 2))], "segments[0].gamma", "3/2", (), id="gamma-above-1"),
        pytest.param(5, [_seg(1, 5, gamma=F(-1, 4))], "segments[0].gamma", "-1/4", (), id="gamma-negative"),
        pytest.param(
            5, [_seg(1, 5, gamma=1, target=[0, F(7, 5)])], "segments[0].target[1]", "7/5", (), id="target-entry-above-1"
        ),
        pytest.param(
            5,
            [_seg(1, 5, gamma=1, target=[F(-1, 3), None])],
            "segments[0].target[0]",
            "-1/3",
            (),
            id="target-entry-negative",
        ),
        pytest.param(5, [_seg(1, 5, gamma=1, target=0.5)], "segments[0].target", "0.5", (), id="target-a-float"),
        pytest.param(
            5,
            [_seg(1, 5, gamma=1, target=[0, 0.5])],
            "segments[0].target[1]",
            "0.5",
            ("float",),
            id="target-entry-float",
        ),
        pytest.param(5, [_seg(1, 5, weight=1)], "segments[0]", "'weight'", ("unknown",), id="segment-unknown-key"),
    ],
)
def test_adversary_constructor_rejects(n, segments, field, value, also):
    with pytest.raises(ValueError, match=names(field, value, *also)):
        adversaries.Adversary(n, segments)


@pytest.mark.parametrize(
    "build, field, value",
    [
        pytest.param(lambda: adversaries.clean(0), "n", "0", id="clean-n-zero"),
        pytest.param(
            lambda: adversaries.misspecification(F(3, 2), (0, 0), 5), "gamma", "3/2", id="misspecification-gamma-3/2"
        ),
        pytest.param(
            lambda: adversaries.misspecification(HALF, (0, 2), 5),
            "eta_tilde[1]",
            "2",
            id="misspecification-eta-tilde-2",
        ),
        pytest.param(lambda: adversaries.early_burst((0, None), -1, 5), "tau", "-1", id="early-burst-tau-negative"),
        pytest.param(lambda: adversaries.early_burst((0, None), 6, 5), "tau", "6", id="early-burst-tau-above-n"),
        pytest.param(lambda: adversaries.counterexample(-1, 5), "tau", "-1", id="counterexample-tau-negative"),
    ],
)
def test_adversary_models_reject(build, field, value):
    with pytest.raises(ValueError, match=names(field, value)):
        build()


def test_counterexample_adversary_bound_to_wrong_instance_names_target():
    adv = adversaries.counterexample(2, 5)  # a 3-point target
    four_points = instances.thresholds(4)
    with pytest.raises(ValueError, match=names("segments[0].target", "3", "4 points")):
        adv.bind(four_points)


def test_adversary_from_json_missing_segments():
    data = adversaries.clean(5).to_json()
    del data["segments"]
    with pytest.raises(ValueError, match=names("adversary", "'segments'", "missing")):
        adversaries.Adversary.from_json(data)


@pytest.mark.parametrize(
    "query, field, value",
    [
        pytest.param(lambda adv, inst: adv.total(inst, 0, 5), "start", "0", id="total-start-zero"),
        pytest.param(lambda adv, inst: adv.total(inst, 1, 6), "end", "6", id="total-end-past-n"),
        pytest.param(lambda adv, inst: adv.eta(inst, 6), "t", "6", id="eta-t-past-n"),
        pytest.param(lambda adv, inst: adv.corruption(inst, 0), "t", "0", id="corruption-t-zero"),
    ],
)
def test_adversary_queries_reject_rounds_outside_1_to_n(query, field, value):
    adv = adversaries.clean(5)
    inst = instances.thresholds(4)
    with pytest.raises(ValueError, match=names(field, value)):
        query(adv, inst)


# -- reference.Tape(x, y, u) and sample_tape ---------------------------------------------


@pytest.mark.parametrize(
    "x, y, u, field, value, also",
    [
        pytest.param((), (), (), "tape.x", "empty", (), id="empty"),
        pytest.param((0, 1), (0,), (0, 0), "y", "1", ("tape", "x 2"), id="unequal-lengths"),
        pytest.param((0, -1), (0, 0), (0, 0), "tape.x[1]", "-1", (), id="x-negative"),
        pytest.param((1.0,), (0,), (0,), "tape.x[0]", "1.0", ("float",), id="x-float"),
        pytest.param((0, 0), (1, 2), (0, 0), "tape.y[1]", "2", (), id="y-2"),
        pytest.param((0,), (0,), (1,), "tape.u[0]", "1", (), id="u-1-not-below-1"),
        pytest.param((0,), (0,), (F(-1, 2),), "tape.u[0]", "-1/2", (), id="u-negative"),
        pytest.param((0,), (0,), (0.5,), "tape.u[0]", "0.5", ("float",), id="u-float"),
    ],
)
def test_tape_rejects(x, y, u, field, value, also):
    with pytest.raises(ValueError, match=names(field, value, *also)):
        reference.Tape(x, y, u)


def _tape_json():
    return reference.Tape((0, 1), (1, 0), (F(1, 3), 0)).to_json()


@pytest.mark.parametrize(
    "change, field, value, also",
    [
        pytest.param({"format": "cral-trace"}, "tape.format", "'cral-trace'", (), id="wrong-format"),
        pytest.param({"version": 2}, "tape.version", "2", (), id="wrong-version"),
        pytest.param({"u": None}, "tape", "'u'", ("missing",), id="missing-u"),
    ],
)
def test_tape_from_json_rejects(change, field, value, also):
    data = _tape_json()
    for key, new in change.items():
        if new is None:
            del data[key]
        else:
            data[key] = new
    with pytest.raises(ValueError, match=names(field, value, *also)):
        reference.Tape.from_json(data)


def test_tape_json_baseline_roundtrips():
    assert reference.Tape.from_json(_tape_json()) == reference.Tape((0, 1), (1, 0), (F(1, 3), 0))


@pytest.mark.parametrize(
    "seed, value",
    [
        pytest.param(-1, "-1", id="seed-negative"),
        pytest.param(2**64, str(2**64), id="seed-2**64"),
        pytest.param(1.5, "1.5", id="seed-float"),
        pytest.param(True, "True", id="seed-bool"),
    ],
)
def test_sample_tape_rejects_seed(seed, value):
    inst = instances.thresholds(4)
    with pytest.raises(ValueError, match=names("seed", value)):
        reference.sample_tape(inst, adversaries.clean(5), seed)


def test_sample_tape_rejects_non_instance():
    inst = instances.thresholds(4)
    # Passing the instance's JSON instead of the object: the message names the field
    # and the kind of value (a dict's repr is not useful on one line).
    with pytest.raises(ValueError, match=names("instance", "dict")):
        reference.sample_tape(inst.to_json(), adversaries.clean(5), 0)


# -- reference.Params ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "build, field, value, also",
    [
        pytest.param(lambda: reference.Params.paper(8, 2, 0), "params.delta", "0", (), id="delta-0"),
        pytest.param(lambda: reference.Params.paper(8, 2, 1), "params.delta", "1", (), id="delta-1"),
        pytest.param(
            lambda: reference.Params.paper(8, 2, 0.05), "params.delta", "0.05", ("float",), id="delta-float-0.05"
        ),
        pytest.param(lambda: reference.Params.paper(0, 2, F(1, 20)), "params.n", "0", (), id="n-0"),
        pytest.param(
            lambda: reference.Params.paper(8, 0, F(1, 20)), "params.num_hypotheses", "0", (), id="num-hypotheses-0"
        ),
        pytest.param(
            lambda: reference.Params("weird", 8, 2, F(1, 20), 1, 16, F(5, 32), 2),
            "params.regime",
            "'weird'",
            (),
            id="unknown-regime",
        ),
        pytest.param(
            lambda: reference.Params.scaled(8, 2, beta_scale=0), "params.beta_scale", "0", (), id="scaled-beta-scale-0"
        ),
        pytest.param(
            lambda: dataclasses.replace(reference.Params.paper(8, 2, F(1, 20)), beta_scale=F(1, 2)),
            "params.beta_scale",
            "1/2",
            ("paper",),
            id="paper-regime-beta-scale-1/2",
        ),
    ],
)
def test_params_reject(build, field, value, also):
    with pytest.raises(ValueError, match=names(field, value, *also)):
        build()


# -- running the algorithms --------------------------------------------------------------

ALGORITHMS = [
    pytest.param(reference.passive, id="passive"),
    pytest.param(reference.robust_cal, id="robust_cal"),
]


@pytest.fixture(scope="module")
def small_run():
    inst = instances.thresholds(4)  # 4 points, 5 hypotheses
    tape = reference.sample_tape(inst, adversaries.clean(8), 0)
    return inst, tape


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_run_rejects_params_n_not_tape_n(algorithm, small_run):
    inst, tape = small_run
    params = reference.Params.paper(9, inst.num_hypotheses, F(1, 20))
    with pytest.raises(ValueError, match=names("params.n", "9", "n = 8")):
        algorithm(inst.hypotheses, tape, params)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_run_rejects_params_num_hypotheses_not_len_h(algorithm, small_run):
    inst, tape = small_run
    params = reference.Params.paper(tape.n, 4, F(1, 20))
    with pytest.raises(ValueError, match=names("params.num_hypotheses", "4", "5 hypotheses")):
        algorithm(inst.hypotheses, tape, params)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_run_rejects_tape_x_beyond_points(algorithm, small_run):
    inst, _ = small_run
    tape = reference.Tape((0, 3, 7, 1), (0, 1, 1, 0), (0, 0, 0, 0))
    params = reference.Params.paper(4, inst.num_hypotheses, F(1, 20))
    with pytest.raises(ValueError, match=names("tape.x[2]", "7")):
        algorithm(inst.hypotheses, tape, params)


@pytest.mark.parametrize("vanilla", ["yes", 1, None])
def test_robust_cal_rejects_non_bool_vanilla(vanilla, small_run):
    inst, tape = small_run
    params = reference.Params.paper(tape.n, inst.num_hypotheses, F(1, 20))
    with pytest.raises(ValueError, match=names("vanilla", repr(vanilla))):
        reference.robust_cal(inst.hypotheses, tape, params, vanilla=vanilla)


# -- trace JSON ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def trace_json():
    """A robust_cal and a passive trace, as JSON (plain data, freshly copied per use)."""
    inst = instances.thresholds(4)
    tape = reference.sample_tape(inst, adversaries.clean(16), 0)
    params = reference.Params.paper(16, inst.num_hypotheses, F(1, 20))
    text = {
        "robust_cal": json.dumps(reference.trace_to_json(reference.robust_cal(inst.hypotheses, tape, params))),
        "passive": json.dumps(reference.trace_to_json(reference.passive(inst.hypotheses, tape, params))),
    }
    return lambda which: json.loads(text[which])


@pytest.mark.parametrize("which", ["robust_cal", "passive"])
def test_trace_json_baseline_roundtrips(which, trace_json):
    data = trace_json(which)
    assert reference.trace_to_json(reference.trace_from_json(data)) == data


def _set(data, path, value):
    *parents, last = path
    for key in parents:
        data = data[key]
    data[last] = value


@pytest.mark.parametrize(
    "which, path, new, field, value",
    [
        pytest.param("robust_cal", ["format"], "cral-tape", "trace.format", "'cral-tape'", id="wrong-format"),
        pytest.param("robust_cal", ["version"], 2, "trace.version", "2", id="wrong-version"),
        pytest.param(
            "robust_cal", ["algorithm"], "calruption_v0", "trace.algorithm", "'calruption_v0'", id="unknown-algorithm"
        ),
        pytest.param("robust_cal", ["output"], "h1", "trace.output", "'h1'", id="robust_cal-output-a-string"),
        pytest.param("passive", ["output"], "1", "trace.output", "'1'", id="passive-output-a-string"),
        pytest.param(
            "robust_cal",
            ["checkpoints", 0, "empirical_risk", 0],
            0.25,
            "trace.checkpoints[0].empirical_risk[0]",
            "0.25",
            id="robust_cal-risk-a-float",
        ),
        pytest.param(
            "robust_cal",
            ["checkpoints", 0, "beta", "lo"],
            7.5,
            "trace.checkpoints[0].beta.lo",
            "7.5",
            id="robust_cal-beta-lo-a-float",
        ),
        pytest.param(
            "passive", ["empirical_risk", 1], 0.4, "trace.empirical_risk[1]", "0.4", id="passive-risk-a-float"
        ),
        pytest.param("passive", ["params", "delta"], 0.05, "trace.params.delta", "0.05", id="params-delta-a-float"),
    ],
)
def test_trace_from_json_rejects(which, path, new, field, value, trace_json):
    data = trace_json(which)
    _set(data, path, new)
    with pytest.raises(ValueError, match=names(field, value)):
        reference.trace_from_json(data)
