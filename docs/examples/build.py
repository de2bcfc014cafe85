"""Write one complete run request and the reference's result for every algorithm of the
run protocol (docs/protocol.md), from the conformance kit's small case.

    python docs/examples/build.py          # rewrite the files beside this script
    python docs/examples/build.py --check  # exit 1 if a file is missing or differs

tests/test_protocol_examples.py checks that the files are current and that each request
and result validates against its published schema."""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import reference  # noqa: E402
from properties.core.plain import to_plain  # noqa: E402
from properties.judge.conformance import _epoch_request, _small_case  # noqa: E402
from reference.calruption import calruption_epoch  # noqa: E402
from reference.serialization import to_jsonable  # noqa: E402

HERE = Path(__file__).resolve().parent
OUTPUT = "/tmp/cral-call-000001/result.json"  # where the judge would ask for the result


def _request(algorithm: str, **inputs) -> dict:
    return {"format": "cral-run-request", "version": 1, "algorithm": algorithm, "output": OUTPUT, **inputs}


def examples() -> dict[str, dict]:
    """file name -> document."""
    instance, params, tape = _small_case()
    H = instance.hypotheses
    trace_inputs = {"hypotheses": [list(h) for h in H], "tape": tape.to_json(), "params": to_jsonable(params)}
    out = {}
    runs = {
        "passive": lambda: reference.passive(H, tape, params),
        "robust_cal": lambda: reference.robust_cal(H, tape, params),
        "robust_cal_vanilla": lambda: reference.robust_cal(H, tape, params, vanilla=True),
        "calruption": lambda: reference.calruption(H, tape, params),
    }
    for algorithm, run in runs.items():
        out[f"{algorithm}.request.json"] = _request(algorithm, **trace_inputs)
        out[f"{algorithm}.result.json"] = reference.trace_to_json(run())
    args = _epoch_request(instance, params, tape)
    record, following = calruption_epoch(*args)
    out["calruption_epoch.request.json"] = _request(
        "calruption_epoch",
        hypotheses=[list(h) for h in H],
        state=to_plain(args[1], "state"),
        counts=to_plain(args[2], "counts"),
        params=to_jsonable(params),
    )
    out["calruption_epoch.result.json"] = {
        "format": "cral-epoch-result",
        "version": 1,
        "record": to_jsonable(record),
        "state": to_jsonable(following),
    }
    values, counts, alpha = [Fraction(-1), Fraction(0), Fraction(3, 2)], [2, 5, 1], Fraction(1, 3)
    root = reference.catoni_root(values, counts, alpha)
    out["catoni_root.request.json"] = _request(
        "catoni_root", values=[str(v) for v in values], counts=counts, alpha=str(alpha)
    )
    out["catoni_root.result.json"] = {
        "format": "cral-catoni-root",
        "version": 1,
        "lo": str(root.lo),
        "hi": str(root.hi),
    }
    adversary = reference.adversary.clean(16)
    out["sample_tape.request.json"] = _request(
        "sample_tape", instance=instance.to_json(), adversary=adversary.to_json(), seed=3
    )
    out["sample_tape.result.json"] = reference.sample_tape(instance, adversary, 3).to_json()
    out["describe.request.json"] = _request("describe")
    out["describe.result.json"] = {
        "format": "cral-describe",
        "version": 1,
        "implements": [
            "passive",
            "robust_cal",
            "robust_cal_vanilla",
            "calruption",
            "calruption_epoch",
            "catoni_root",
            "sample_tape",
        ],
        "arithmetic": "exact",
        "tape_formats": ["json"],
        "name": "reference",
    }
    return out


def text(document: dict) -> str:
    return json.dumps(document, indent=1) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a file is missing or differs")
    args = parser.parse_args(argv)
    stale = []
    for name, document in examples().items():
        path = HERE / name
        if args.check:
            if not path.exists() or path.read_text() != text(document):
                stale.append(name)
        else:
            path.write_text(text(document))
    if stale:
        print(f"stale examples (run python docs/examples/build.py): {', '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
