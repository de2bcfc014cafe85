"""A command candidate that declares serve mode (docs/protocol.md, "Serve mode") and, on
the K-th request it serves (counted across its processes, in STATE/count), misbehaves
in the way MODE names; every other request it answers correctly, through the reference.
Each start of a serving process appends a line to STATE/starts (its pid), so a test can
tell how often the judge started it.

    python teeth/planted_cmd/serving.py MODE STATE K REQUEST   (describe: one shot)
    python teeth/planted_cmd/serving.py MODE STATE K --serve   (the judge's server)

Modes: correct, crash (SIGSEGV), exit (status 3), hang (sleeps, with a child in its
group), garbage (a line that is not JSON), print (a log line on stdout before the
answer), partial (half a line, then SIGSEGV), missing-field, two-lines (its answer twice),
exit-after (answers, then exits 0), blank-lines (blank lines around every answer), stderr
(a log line on stderr for every request), crash-passive (SIGSEGV on every passive request,
whatever K), flood (33 MiB on stdout without a newline, then sleeps)."""

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


def count(state: str) -> int:
    path = os.path.join(state, "count")
    try:
        with open(path) as handle:
            number = int(handle.read() or 0) + 1
    except FileNotFoundError:
        number = 1
    with open(path, "w") as handle:
        handle.write(str(number))
    return number


def serve(mode: str, state: str, k: int) -> int:
    with open(os.path.join(state, "starts"), "a") as handle:
        handle.write(f"{os.getpid()}\n")
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        assert "output" not in request, "a served request has no output field"
        number = count(state)
        text = json.dumps(answer_correctly(request))
        if mode == "crash-passive" and request["algorithm"] == "passive":  # every passive request
            os.kill(os.getpid(), signal.SIGSEGV)
        if mode == "stderr":
            print(f"serving request {number}", file=sys.stderr, flush=True)
        if mode == "blank-lines":
            text = f"\n  \n{text}\r\n\n"
        elif number == k:
            if mode == "crash":
                os.kill(os.getpid(), signal.SIGSEGV)
            if mode == "exit":
                return 3
            if mode == "hang":
                subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)  # cral-serving-hang-marker"])
                time.sleep(600)
            if mode == "garbage":
                text = "this is not JSON"
            if mode == "print":
                text = f"computing...\n{text}"
            if mode == "partial":
                out.write(text[: len(text) // 2])
                out.flush()
                os.kill(os.getpid(), signal.SIGSEGV)
            if mode == "missing-field":
                document = json.loads(text)
                document.pop("labels_requested", None)
                text = json.dumps(document)
            if mode == "flood":  # more than the judge reads for one result, and no newline
                out.write("x" * (33 << 20))
                out.flush()
                time.sleep(600)
            if mode == "two-lines":
                text = f"{text}\n{text}"
        out.write(text + "\n")
        out.flush()
        if mode == "exit-after" and number == k:
            return 0
    return 0


def main():
    mode, state, k, last = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[-1]
    if last == "--serve":
        assert os.environ.get("CRAL_SERVE") == "1"
        return serve(mode, state, k)
    with open(last) as handle:
        request = json.load(handle)
    if request["algorithm"] != "describe":
        raise SystemExit("asked for a one-shot call other than describe")
    describe = {
        "format": "cral-describe",
        "version": 1,
        "implements": ["passive", "robust_cal", "robust_cal_vanilla", "calruption", "calruption_epoch", "catoni_root"],
        "arithmetic": "exact",
        "name": f"serving {mode}",
        "serve": True,
    }
    with open(request["output"], "w") as out:
        json.dump(describe, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
