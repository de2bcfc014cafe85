"""Saved failures and `python -m properties replay`: a failure found once can be
run again from its file alone.

Every failing case of `check` is written as one JSON file under a results folder
(default `cral-results/` in the working directory; nothing is written when no check
fails): the check's id and verdict, the candidate that failed (import path or command),
the case itself (its own JSON form, or a pickle for the few example types without one),
the one-line Python reproducer, the violations, and the candidate's trace on the case or
the error it raised. `replay FILE` (properties/run/replay.py) re-runs exactly that check on exactly that case -- on
the recorded candidate, or on another given with --impl / --candidate-cmd -- and prints
the verdict: exit 1 while the case still fails, 0 once it passes.

The file's `kind` says which command wrote it: "check" (the above) or "crosscheck" (one
failing run of the cross-check on one case, properties/reports/crosscheck_failures.py).
Its `case` is `{"type": TAG, "data": ...}`: TAG is the example's stable type tag
("cral-case/v1" for a whole run; reference/report_vocabulary.py: EXAMPLE_TAGS), which
replay reads to rebuild the example; a missing or unknown tag is refused.

A failure file holds a pickle only when the example has no JSON form; like any pickle
it runs code when loaded, so replay only files you or your CI wrote."""

from __future__ import annotations

import base64
import json
import os
import pickle
import re
import time
from pathlib import Path

from properties.core.example_types import EXAMPLE_TYPES, type_tag
from properties.core.jsonfile import read_json
from reference.report_vocabulary import EXAMPLE_TAGS, PICKLE_TAG

FORMAT, VERSION = "cral-failure", 2
KINDS = ("check", "crosscheck")
# $CRAL_RESULTS_DIR moves the default (the test suite points it at a temporary folder so that
# runs with the repository as working directory leave nothing in it)
RESULTS_DIR_ENV = "CRAL_RESULTS_DIR"
DEFAULT_RESULTS_DIR = "cral-results"


def default_results_dir() -> str:
    """Where `check` saves failing cases when --results-dir is not given (read at call time).
    Set but empty ($CRAL_RESULTS_DIR=$UNSET_VAR) is a mistake, not a request for the default."""
    if RESULTS_DIR_ENV in os.environ and not os.environ[RESULTS_DIR_ENV].strip():
        raise ValueError(f"${RESULTS_DIR_ENV} is set but empty: give a folder, or unset it for {DEFAULT_RESULTS_DIR}/")
    return os.environ.get(RESULTS_DIR_ENV) or DEFAULT_RESULTS_DIR


def results_dir(given: str | None) -> str:
    """--results-dir as given (an empty one is a ValueError), else the default; checked before
    the run: the folder exists, or the nearest existing folder above it can take it (nothing
    is created until a failure is saved)."""
    if given is not None and not given.strip():
        raise ValueError("--results-dir is empty: give a folder")
    folder = given if given is not None else default_results_dir()
    path = Path(folder).absolute()
    if path.exists() and not path.is_dir():
        raise ValueError(f"--results-dir {folder}: is not a folder")
    above = path
    while not above.exists():
        above = above.parent
    if not above.is_dir():
        raise ValueError(f"--results-dir {folder}: {above} is not a folder")
    if not os.access(above, os.W_OK | os.X_OK):
        raise ValueError(f"--results-dir {folder}: {above} is not writable")
    return folder


def write_new(root: Path, stem: str, doc: dict) -> str:
    """Write `doc` to root/stem.json, or stem-2.json, stem-3.json, ... -- never over a file
    another run saved (two runs in the same second, a CI matrix sharing the folder)."""
    text = json.dumps(doc, indent=1) + "\n"
    for attempt in range(1, 10_000):
        path = root / (f"{stem}.json" if attempt == 1 else f"{stem}-{attempt}.json")
        try:
            with open(path, "x") as handle:
                handle.write(text)
            return str(path)
        except FileExistsError:
            continue
    raise ValueError(f"--results-dir {root}: 10,000 files named {stem}*.json already")


def recorded_candidate(doc: dict, path: str, impl: str | None, cmd: str | None, options: str) -> tuple:
    """The candidate to replay on: the one given, else the one the file records (an object
    with an `impl` or a `cmd` string); anything else is a ValueError naming the file."""
    if impl is not None or cmd is not None:
        return impl, cmd
    recorded = doc.get("candidate")
    if recorded is None:
        recorded = {}
    if not isinstance(recorded, dict) or any(
        recorded.get(k) is not None and not isinstance(recorded.get(k), str) for k in ("impl", "cmd")
    ):
        raise ValueError(
            f"replay: {path}: candidate must be an object with an 'impl' or 'cmd' string, got {recorded!r}"[:300]
        )
    impl, cmd = recorded.get("impl"), recorded.get("cmd")
    if impl is None and cmd is None:
        raise ValueError(f"replay: {path} names no candidate: give {options}")
    return impl, cmd


# the modes whose trace the failure file records (the candidate's own output on the case)
TRACE_MODES = ("passive", "robust_cal", "robust_cal_vanilla", "calruption")


def encode_example(example) -> dict:
    """The example as JSON-ready data that decode_example turns back into it: its type tag
    (properties/core/example_types.py) and its JSON form, or a pickle for a type without one."""
    tag = type_tag(type(example))
    if tag is not None:
        return {"type": tag, "data": example.to_json()}
    return {"type": PICKLE_TAG, "data": base64.b64encode(pickle.dumps(example)).decode("ascii")}


def _expected(tags) -> str:
    return f'"{tags[0]}"' if len(tags) == 1 else "one of " + ", ".join(f'"{t}"' for t in tags)


def decode_example(doc, where: str, tags: tuple = (*EXAMPLE_TAGS, PICKLE_TAG)):
    """The example `doc` (encode_example's form) holds; a ValueError naming `where`, the
    field and its value when its type tag is missing or not one of `tags`."""
    if not isinstance(doc, dict) or "data" not in doc:
        raise ValueError(f'{where}: field "case" must be an object with "type" and "data"')
    tag = doc.get("type")
    if tag not in tags:
        shown = "missing" if "type" not in doc else "is " + json.dumps(tag)[:80]
        raise ValueError(f'{where}: field "case.type" {shown}, expected {_expected(tags)}')
    if tag == PICKLE_TAG:
        try:
            return pickle.loads(base64.b64decode(doc["data"]))
        except Exception as error:
            raise ValueError(f"{where}: case.data is not a readable pickle: {type(error).__name__}: {error}") from None
    kind = EXAMPLE_TYPES.get(tag)
    if kind is None:  # a tag of the vocabulary whose type's module was not imported
        raise ValueError(f'{where}: field "case.type" is "{tag}", whose example type is not loaded')
    try:
        return kind.from_json(doc["data"])
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"{where}: case.data does not rebuild a {tag}: {type(error).__name__}: {error}") from None


def short_form(example) -> str:
    """One line that says what the example is (the full reproducer is in --verbose,
    --json and the saved failure file)."""
    name = type(example).__name__
    instance, tape, params = (getattr(example, key, None) for key in ("instance", "tape", "params"))
    parts = []
    if instance is not None:
        m, k = instance.num_points, instance.num_hypotheses
        parts.append(f"{m} point{'s' * (m != 1)} x {k} hypothes{'i' if k == 1 else 'e'}s")
    if tape is not None:
        parts.append(f"n = {tape.n}" + (f", seed {tape.seed}" if getattr(tape, "seed", None) is not None else ""))
    if params is not None and getattr(params, "regime", None):
        parts.append(f"{params.regime} constants")
    if not parts:
        text = " ".join(repr(example).split())
        return text if len(text) <= 80 else text[:77] + "..."
    return f"{name}: {', '.join(parts)}"


def _candidate_trace(check, candidate, example) -> dict:
    """The candidate's own output on the case, for a check of one algorithm's trace;
    its error if the call fails."""
    from properties.core.candidate import run_algorithm
    from properties.core.violation import CallFailed
    from reference.trace import trace_to_json

    modes = [mode for mode in check.covers if mode in TRACE_MODES]
    if len(modes) != 1 or not hasattr(example, "tape"):
        return {}
    try:
        return {"candidate_trace": trace_to_json(run_algorithm(check.name, candidate, modes[0], example))}
    except CallFailed as failure:
        return {"candidate_error": str(failure.violation)}
    except Exception as error:  # decoding or serialising the candidate's result
        return {"candidate_error": f"{type(error).__name__}: {error}"}


def failure_document(result, check, candidate, cmd: str | None, profile: str) -> dict:
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "kind": "check",
        "check": result.name,
        "cites": result.cites,
        "verdict": result.status,
        "reason": result.reason,
        "violations": result.violations,
        "candidate": {
            "impl": None if cmd else candidate.path,
            "cmd": cmd,
            "arithmetic": getattr(candidate, "arithmetic", None),
        },
        "profile": profile,
        "unshrunk": result.unshrunk,
        "case": result.case,
        "reproducer": result.counterexample,
        "reproducer_call": result.reproducer_call,
        "requests": result.requests,
        "saved_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    # a call that cost the worker (a hang, a crash) is not made again just to record it
    if result.case is not None and not (result.unshrunk and "worker" in result.unshrunk):
        doc.update(_candidate_trace(check, candidate, decode_example(result.case, result.name)))
    return doc


def results_folder(folder: str) -> tuple[Path, str]:
    """The results folder, created (a ValueError naming --results-dir if it cannot be),
    and the run's time stamp for the file names."""
    root = Path(folder)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"--results-dir {folder}: cannot create it: {error.strerror}") from None
    return root, time.strftime("%Y%m%d-%H%M%S")


def save_failures(results, checks: dict, candidate, cmd: str | None, profile: str, folder: str) -> dict:
    """Write one file per failed check that has a case; {check name: path}. Nothing is
    written (not even the folder) when none failed."""
    from properties.core.outcomes import FAILED

    failed = [r for r in results if r.status == FAILED and r.case is not None]
    if not failed:
        return {}
    root, stamp = results_folder(folder)
    written = {}
    for result in failed:
        doc = failure_document(result, checks[result.name], candidate, cmd, profile)
        written[result.name] = write_new(root, f"{result.name}-{stamp}", doc)
    return written


def replay_command(path: str) -> str:
    shown = path if re.fullmatch(r"[\w./-]+", path) else repr(path)
    return f"python -m properties replay {shown}"


def load_failure(path: str) -> dict:
    doc = read_json(path, ValueError, f"replay: {path}")
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError(f"replay: {path}: not a failure file (format is not {FORMAT!r})")
    if doc.get("version") != VERSION:
        raise ValueError(f"replay: {path}: version {doc.get('version')!r}, this suite reads version {VERSION}")
    if doc.get("kind") not in KINDS:
        raise ValueError(f"replay: {path}: kind {doc.get('kind')!r} is not one of {', '.join(KINDS)}")
    return doc


__all__ = [
    "DEFAULT_RESULTS_DIR",
    "RESULTS_DIR_ENV",
    "decode_example",
    "default_results_dir",
    "encode_example",
    "load_failure",
    "recorded_candidate",
    "replay_command",
    "results_dir",
    "results_folder",
    "save_failures",
    "short_form",
    "write_new",
]
