"""docs/protocol.md's worked examples and the conformance kit.

* docs/examples/: one complete request and the reference's result per algorithm, current
  (docs/examples/build.py --check) and each valid against its published schema;
* `python -m properties conformance` on the reference's own program finds every document
  readable; on a program that breaks conventions it names each JSON path, value and rule,
  notes the representations it accepts (W null where rho^ = 0, params as doubles), and
  exits 1."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from properties.judge.conformance import BAD_FLOAT, REQUESTS
from reference import documents
from tests.support import REPO_ROOT

ROOT = REPO_ROOT
EXAMPLES = ROOT / "docs" / "examples"
RESULT_KINDS = {
    "passive": "trace",
    "robust_cal": "trace",
    "robust_cal_vanilla": "trace",
    "calruption": "trace",
    "calruption_epoch": "epoch-result",
    "catoni_root": "catoni-root",
    "sample_tape": "tape",
    "describe": "describe",
    "loss_difference_samples": "samples",
}


def test_the_examples_are_current():
    result = subprocess.run([sys.executable, str(EXAMPLES / "build.py"), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("algorithm", sorted(RESULT_KINDS))
def test_each_example_validates(algorithm):
    request = json.loads((EXAMPLES / f"{algorithm}.request.json").read_text())
    result = json.loads((EXAMPLES / f"{algorithm}.result.json").read_text())
    documents.validate(request, "run-request")
    assert request["algorithm"] == algorithm
    documents.validate(result, RESULT_KINDS[algorithm])
    assert f"examples/{algorithm}.request.json" in (ROOT / "docs" / "protocol.md").read_text()


def _kit(command: str, *extra):
    return subprocess.run(
        [sys.executable, "-m", "properties", "conformance", "--candidate-cmd", command, *extra],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


def test_the_kit_reads_every_document_of_the_reference_program():
    result = _kit(f"{sys.executable} -m properties answer --impl reference", "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["ok"], report
    # the reference declares every mode and exact arithmetic: the kit sends its whole list
    assert [d["request"] for d in report["documents"]] == [label for label, _ in REQUESTS]


def test_the_kit_sends_a_float_token_to_exact_programs_only():
    # spec S2's table: the float-token bad input goes to an exact program; a float64 one may take floats
    result = _kit(f"{sys.executable} -m properties answer --impl fast", "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["describe"]["arithmetic"] == "float64"
    declared = {"describe", *report["describe"]["implements"]}
    expected = [label for label, when in REQUESTS if label.split(" ")[0] in declared and "exact arithmetic" not in when]
    assert [d["request"] for d in report["documents"]] == expected
    assert BAD_FLOAT not in expected


def test_the_protocol_page_lists_every_request_the_kit_sends():
    text = (ROOT / "docs" / "protocol.md").read_text()
    table = text[text.index("<!-- kit requests:") : text.index("<!-- end of kit requests -->")]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    listed = [tuple(cell.strip().strip("`") for cell in row.strip("|").split("|")) for row in rows]
    assert listed == list(REQUESTS), "docs/protocol.md section 8 must print properties.judge.conformance.REQUESTS"


BROKEN = """
import json, os, sys
request = json.load(open(sys.argv[1]))
if request["algorithm"] == "describe":
    print(json.dumps({"format": "cral-describe", "version": 1, "implements": ["calruption", "catoni_root"],
                      "arithmetic": "float64"}))
    sys.exit(0)
import subprocess
subprocess.run([sys.executable, "-m", "properties", "answer", "--impl", "fast", "--one-shot", sys.argv[1]])
document = json.load(open(request["output"]))
os.remove(request["output"])
if request["algorithm"] == "calruption":
    for e in document["epochs"]:
        for h, row in enumerate(e["W"]):
            for h2, v in enumerate(row):
                if h != h2 and e["rho"][h][h2] in (0, 0.0, "0", "0/1"):
                    row[h2] = None
        e["empirical_x"] = [None if v in (0, 0.0, "0", "0/1") else v for v in e["empirical_x"]]
    document["params"]["delta"] = 0.1
elif request["algorithm"] == "catoni_root" and request["counts"] == [-1]:
    document = {"format": "cral-catoni-root", "version": 1, "lo": 0.0, "hi": 0.0}  # answers bad input
print(json.dumps(document))
"""


def test_the_kit_names_each_path_value_and_rule(tmp_path):
    program = tmp_path / "broken.py"
    program.write_text(BROKEN)
    result = _kit(f"{sys.executable} {program}")
    assert result.returncode == 1, result.stdout + result.stderr
    out = result.stdout
    assert "FAIL  calruption\n" in out
    assert "at $.epochs[0].empirical_x[3]: must be a string or a finite number" in out and "got null" in out
    assert "(spec S24: The support S_l is the seen points" in out  # the convention that defines the field
    assert "FAIL  catoni_root (bad input: a negative count)" in out and "cral-error" in out
    assert "ok    catoni_root\n" in out
    assert "note: W is null where rho^ = 0" not in out  # a document with schema errors is not read further
    assert "2 of 5 documents readable by the judge; 3 not (fix these before running check)" in out


SAMPLES_WITHOUT_ZEROS = """
import json, sys
request = json.loads(sys.stdin.read())
if request["algorithm"] == "describe":
    print(json.dumps({"format": "cral-describe", "version": 1, "implements": ["loss_difference_samples"],
                      "arithmetic": "exact"}))
    sys.exit(0)
from fractions import Fraction
results = []
for call in request["calls"]:
    h, h2 = request["hypotheses"][call["h"]], request["hypotheses"][call["h2"]]
    grouped = {}
    for x, (a, b) in enumerate(zip(h, h2)):
        q = Fraction(call["q"][x])
        if a != b and q > 0:
            for y in (0, 1):
                value = Fraction(int(a != y) - int(b != y)) / q
                grouped[value] = grouped.get(value, 0) + call["counts"]["queried"][x][y]
    grouped = {v: c for v, c in grouped.items() if c}  # the rounds giving 0 are forgotten
    results.append({"values": [str(v) for v in sorted(grouped)], "counts": [grouped[v] for v in sorted(grouped)]})
print(json.dumps({"format": "cral-samples", "version": 1, "results": results}))
"""


def test_the_kit_sends_loss_difference_samples_and_cites_the_spec(tmp_path):
    """spec S27: every round of the epoch is a sample, 0 where nothing is queried in
    Dis(h, h'); a program that leaves out the zeros is named in the spec's terms."""
    program = tmp_path / "samples.py"
    program.write_text(SAMPLES_WITHOUT_ZEROS)
    result = _kit(f"{sys.executable} {program}")
    assert result.returncode == 1, result.stdout + result.stderr
    out = result.stdout
    assert "FAIL  loss_difference_samples" in out
    assert "at $.results[2].values: the reference writes a list of 1, the program []" in out
    assert "spec S27: The loss-difference samples" in out and "S44: loss_difference_samples answers" in out


DOUBLES_ONLY = """
import json, os, subprocess, sys, tempfile
# a parser like JavaScript's JSON.parse: 1.0 and 1 are the same number
request = json.loads(sys.stdin.read(), parse_float=lambda t: int(float(t)) if float(t).is_integer() else float(t))
with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, "request.json")
    request["output"] = os.path.join(folder, "result.json")
    with open(path, "w") as handle:
        json.dump(request, handle)
    subprocess.run([sys.executable, "-m", "properties", "answer", "--impl", "reference", "--one-shot", path])
    print(open(request["output"]).read())
"""


def test_the_kit_catches_a_parser_that_cannot_tell_1_from_1_0(tmp_path):
    """spec S2: -1.0 among catoni_root's values must be refused by an exact program; one that
    reads it as the integer -1 answers, and the kit names the rule."""
    program = tmp_path / "doubles.py"
    program.write_text(DOUBLES_ONLY)
    result = _kit(f"{sys.executable} {program}")
    out = result.stdout
    assert result.returncode == 1, out + result.stderr
    assert "FAIL  catoni_root (bad input: a float value -1.0, spec S2)" in out
    assert "spec S2: A float where a rational belongs is refused" in out
    assert "ok    catoni_root (bad input: a negative count)" in out


def test_the_kit_refuses_a_program_that_cannot_describe_itself(tmp_path):
    result = _kit(f"{sys.executable} -c 'import sys; sys.exit(3)'")
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr


EITHER = """
import json, os, subprocess, sys
request = json.load(open(sys.argv[1]))
subprocess.run([sys.executable, "-m", "properties", "answer", "--impl", "fast", "--one-shot", sys.argv[1]])
document = json.load(open(request["output"]))
os.remove(request["output"])
if request["algorithm"] == "calruption" and document.get("format") == "cral-trace":
    for e in document["epochs"]:
        for h, row in enumerate(e["W"]):
            for h2, v in enumerate(row):
                if h != h2 and e["rho"][h][h2] in (0, 0.0, "0", "0/1"):
                    row[h2] = None
    document["params"]["delta"] = float(eval(request["params"]["delta"]))
print(json.dumps(document))
"""


def test_the_judge_reads_either_representation_and_says_so(tmp_path):
    """docs/protocol.md section 6: W null where rho^ = 0 and params echoed as doubles are
    representations: a float program writing them agrees with the reference, and the run
    says which it read."""
    program = tmp_path / "either.py"
    program.write_text(EITHER)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "properties",
            "crosscheck",
            "--candidate-cmd",
            f"{sys.executable} {program}",
            "--cases",
            "2",
            "--algorithms",
            "calruption",
            "--results-dir",
            str(tmp_path / "results"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 mismatches" in result.stdout
    assert "read as the reference writes them (docs/protocol.md, section 6): " in result.stdout
    assert "W null where rho^ = 0" in result.stdout and "params echoed as doubles (2 times)" in result.stdout
