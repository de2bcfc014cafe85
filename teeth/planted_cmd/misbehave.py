"""A command candidate (docs/protocol.md) that answers `describe` correctly and then, on
every other request, misbehaves in the way its first argument names -- or answers
correctly, through the reference, where the mode says so (stderr noise, .npy tapes,
float64 numbers). The request path is the last argument, as the harness appends it.

    python teeth/planted_cmd/misbehave.py MODE [--declare FIELD=JSON ...] REQUEST"""

import json
import os
import signal
import subprocess
import sys
import time


def answer_correctly(request):
    import reference
    from properties.judge.answer import answer

    return answer(reference, "reference", request)


def floats(value):
    """Every "p/q" string as the nearest float (a float64 program's trace)."""
    from fractions import Fraction

    if isinstance(value, str) and "/" in value:
        try:
            return float(Fraction(value))
        except ValueError:
            return value
    if isinstance(value, list):
        return [floats(v) for v in value]
    if isinstance(value, dict):
        return {k: v if k == "params" else floats(v) for k, v in value.items()}
    return value


def main():
    mode, path = sys.argv[1], sys.argv[-1]
    declared = dict(arg.split("=", 1) for arg in sys.argv[2:-1] if "=" in arg)
    with open(path) as handle:
        request = json.load(handle)
    output = request["output"]

    def write(document):
        with open(output, "w") as out:
            json.dump(document, out)

    if request["algorithm"] == "describe":
        describe = {
            "format": "cral-describe",
            "version": 1,
            "implements": [
                "passive",
                "robust_cal",
                "robust_cal_vanilla",
                "calruption",
                "calruption_epoch",
                "catoni_root",
            ],
            "arithmetic": "exact",
            "name": f"misbehave {mode}",
        }
        describe.update({k: json.loads(v) for k, v in declared.items()})
        if mode == "describe-garbage":
            print("hello")
            return 0
        write(describe)
        return 0
    if mode == "segfault":
        os.kill(os.getpid(), signal.SIGSEGV)
    if mode == "exit":
        return 3
    if mode == "hang":
        time.sleep(600)
    if mode == "garbage":
        print("this is not JSON")
        return 0
    if mode == "stdout-noise":  # a log line before the document, both on stdout
        print("computing...")
        print(json.dumps(answer_correctly(request)))
        return 0
    if mode == "stderr-noise":
        print("progress: 50%", file=sys.stderr)
        write(answer_correctly(request))
        return 0
    if mode == "missing-field":
        document = answer_correctly(request)
        document.pop("output", None)
        document.pop("labels_requested", None)
        write(document)
        return 0
    if mode == "wrong-algorithm":  # a passive trace whatever was asked
        write(answer_correctly({**request, "algorithm": "passive"}))
        return 0
    if mode == "orphan":  # leaves a child in its process group that would run for a long time
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)  # cral-orphan-marker"])
        write(answer_correctly(request))
        return 0
    if mode == "floats":
        write(floats(answer_correctly(request)))
        return 0
    if mode == "correct":
        write(answer_correctly(request))
        return 0
    raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    sys.exit(main())
