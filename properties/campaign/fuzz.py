"""Property fuzzing as a campaign: every check of the registry, in seed blocks.

A task is (check, block): `run_check` with `examples` generated examples from the seed
task_seed(master seed, "fuzz/CHECK/block=B"), so a block finds the same things on any
worker, in any order. Every block runs the check's known examples (registry.
KNOWN_EXAMPLES) first: an expected failure's finding is then seen in every block, not
only in the one that happens to hold it.

Every task uses one shared Hypothesis example database: a failure a worker finds (shrunk
to its minimal example) is saved there, and every later run of that check -- on any
worker, in this campaign or a fresh one -- replays it first (Hypothesis' reuse phase)
before generating anything. Hypothesis writes the database while it shrinks (each
smaller example replaces the last); a block's writes are held back (DeferredDatabase)
and written when its run ends, so a block started meanwhile never replays a half-shrunk
example. By default the database is a DirectoryBasedExampleDatabase
under the project (`.hypothesis/campaign`); `--database redis://HOST:PORT/DB` uses
Hypothesis' own RedisExampleDatabase, which workers on other machines share.

Hypothesis keys a test's examples by the test function's digest, and `run_check` wraps
every check in the same function: the database is therefore seen through a
`PrefixedDatabase` per check, so one check's failures are replayed for that check
only."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase
from hypothesis.errors import HypothesisDeprecationWarning

# the worker's candidate (tests close it with fuzz._close_candidates)
from properties.campaign.worker import _close_candidates, candidate_for  # noqa: F401
from properties.core.profiles import PrefixedDatabase
from reference.command_line import require
from reference.exact import as_int

DEFAULT_DATABASE = Path(".hypothesis") / "campaign"
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
FUZZ_PROFILES = ("dev", "ci", "fuzz")
FIELDS = {"experiment", "master_seed", "impl", "cmd", "checks", "blocks", "examples", "profile", "timeout"}


class DeferredDatabase(ExampleDatabase):
    """`database` as seen by one run, whose writes reach it only on commit().

    Reads see the run's own writes over what `database` holds; save, delete and move are
    kept as each key's net change (values added, values removed) and applied by commit()
    -- after Hypothesis has finished shrinking -- so what others read of `database` is
    never an intermediate shrink step."""

    def __init__(self, database: ExampleDatabase):
        super().__init__()
        self.database = database
        self.added: dict[bytes, set[bytes]] = {}
        self.removed: dict[bytes, set[bytes]] = {}

    def __repr__(self) -> str:
        return f"DeferredDatabase({self.database!r})"

    def save(self, key: bytes, value: bytes) -> None:
        self.removed.get(key, set()).discard(value)
        self.added.setdefault(key, set()).add(value)

    def delete(self, key: bytes, value: bytes) -> None:
        self.added.get(key, set()).discard(value)
        self.removed.setdefault(key, set()).add(value)

    def move(self, src: bytes, dest: bytes, value: bytes) -> None:
        if src == dest:
            self.save(src, value)
            return
        self.delete(src, value)
        self.save(dest, value)

    def fetch(self, key: bytes):
        removed, added = self.removed.get(key, set()), self.added.get(key, set())
        seen = set()
        for value in self.database.fetch(key):
            if value not in removed and value not in seen:
                seen.add(value)
                yield value
        for value in sorted(added - seen):
            yield value

    def commit(self) -> None:
        """Apply the run's net changes to `database`, deletions first."""
        for key, values in self.removed.items():
            for value in values:
                self.database.delete(key, value)
        for key, values in self.added.items():
            for value in values:
                self.database.save(key, value)
        self.added.clear()
        self.removed.clear()


def is_redis_url(location: str) -> bool:
    return location.startswith(REDIS_SCHEMES)


def database_location(location: str | None) -> str:
    """The location every worker opens: a Redis URL as given, or an absolute folder
    (workers may run elsewhere than the client's working directory)."""
    if location is None:
        return str(DEFAULT_DATABASE.resolve())
    if not isinstance(location, str) or not location.strip():
        raise ValueError(f"--database must be a folder or a redis:// URL, got {location!r}")
    if is_redis_url(location):
        return location
    if "://" in location:
        raise ValueError(f"--database: unsupported URL scheme in {location!r} (a folder, or redis://HOST:PORT/DB)")
    return str(Path(location).expanduser().resolve())


def open_database(location: str) -> ExampleDatabase:
    """The database at `location` (database_location's form). A Redis server that does not
    answer is a ValueError naming the URL, found before any task runs."""
    if not is_redis_url(location):
        return DirectoryBasedExampleDatabase(location)
    redis = require("redis", package="redis", extra="campaign", needed_by="--database redis://...")
    from hypothesis.extra.redis import RedisExampleDatabase

    try:
        client = redis.Redis.from_url(location)
        client.ping()
    except (ValueError, redis.RedisError) as error:
        raise ValueError(
            f"--database {location!r}: cannot use this Redis server ({type(error).__name__}: {error})"
        ) from None
    return RedisExampleDatabase(client)


# -- per worker process: one candidate and one database connection, reused by its tasks --
_DATABASES: dict = {}


def database_for(location: str) -> ExampleDatabase:
    if location not in _DATABASES:
        _DATABASES[location] = open_database(location)
    return _DATABASES[location]


# -- the spec ------------------------------------------------------------------------------
def fuzz_spec(
    *,
    master_seed: int,
    impl: str | None,
    cmd: str | None,
    checks: list[str] | None,
    blocks: int,
    examples: int,
    profile: str,
    timeout: float | None,
) -> dict:
    """A validated fuzz spec; checks=None means every registered check."""
    from properties.checks.registry import all_checks

    registered = list(all_checks())
    spec = {
        "experiment": "fuzz",
        "master_seed": master_seed,
        "impl": impl,
        "cmd": cmd,
        "checks": registered if checks is None else list(checks),
        "blocks": blocks,
        "examples": examples,
        "profile": profile,
        "timeout": timeout,
    }
    return validate_fuzz_spec(spec, registered)


def validate_fuzz_spec(spec: dict, registered=None) -> dict:
    if registered is None:
        from properties.checks.registry import all_checks

        registered = list(all_checks())
    unknown, missing = sorted(set(spec) - FIELDS), sorted(FIELDS - set(spec))
    if unknown or missing:
        raise ValueError(f"spec for 'fuzz': unknown fields {unknown}, missing fields {missing}")
    as_int(spec["master_seed"], "spec.master_seed", minimum=0)
    as_int(spec["blocks"], "spec.blocks", minimum=1)
    as_int(spec["examples"], "spec.examples", minimum=1)
    if spec["impl"] is not None and spec["cmd"] is not None:
        raise ValueError("spec: give impl or cmd, not both")
    for field in ("impl", "cmd"):
        if spec[field] is not None and (not isinstance(spec[field], str) or not spec[field].strip()):
            raise ValueError(f"spec.{field} must be a non-empty string or null, got {spec[field]!r}")
    checks = spec["checks"]
    if not isinstance(checks, list) or not checks or len(set(checks)) < len(checks):
        raise ValueError(f"spec.checks must be a non-empty list of distinct check names, got {checks!r}")
    strangers = [name for name in checks if name not in registered]
    if strangers:
        raise ValueError(f"spec.checks names unknown checks: {', '.join(map(str, strangers))}")
    if spec["profile"] not in FUZZ_PROFILES:
        raise ValueError(f"spec.profile must be one of {FUZZ_PROFILES}, got {spec['profile']!r}")
    timeout = spec["timeout"]
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0):
        raise ValueError(f"spec.timeout must be a number of seconds > 0 or null, got {timeout!r}")
    return spec


def fuzz_tasks(spec: dict):
    from properties.campaign.experiments import Task

    return [
        Task(f"fuzz/{check}/block={block}", {"check": check, "block": block}, 1.0)
        for block in range(spec["blocks"])
        for check in spec["checks"]
    ]


def run_fuzz_task(spec: dict, params: dict, seed: int, database: str) -> dict:
    """One (check, block) on this worker: the check's CheckResult as JSON, minus what the
    candidate printed (kept short: the status, counterexample and violations say it)."""
    from properties.checks.registry import all_checks
    from properties.run.runner import FAILED, run_check

    check = all_checks()[params["check"]]
    candidate = candidate_for(spec["impl"], spec["cmd"], spec["timeout"])
    with warnings.catch_warnings():
        # Hypothesis warns when the global `random` state moves while a strategy draws;
        # on a Dask worker the worker's own threads use it meanwhile (the strategies use
        # seeded random.Random instances only: properties/strategies/)
        warnings.filterwarnings(
            "ignore", message="Do not use the `random` module inside strategies", category=HypothesisDeprecationWarning
        )
        deferred = DeferredDatabase(PrefixedDatabase(database_for(database), check.name))
        result = run_check(
            check,
            candidate,
            max_examples=spec["examples"],
            profile=spec["profile"],
            seed=seed,
            known=True,
            database=deferred,
        )
    deferred.commit()  # shrinking is over: the minimal failure, and only it, becomes visible
    found = result.to_json()
    found.pop("candidate_output", None)
    if result.status == FAILED and result.case is not None:
        # the replay file `check` would save, made here where the candidate is (its trace
        # on the case); the client writes it (save_fuzz_failures)
        from properties.reports.saved import failure_document

        found["failure_file"] = failure_document(result, check, candidate, spec["cmd"], spec["profile"])
    return found


def save_fuzz_failures(spec: dict, rows: list[dict], folder: str, digest: str) -> dict[str, str]:
    """Per failing check, the replay file of its first failing block (the failure the
    summary shows), under `folder` as `check` saves its own (properties/reports/saved.py):
    {check: path}. Named CHECK-fuzz-DIGEST-blockB.json, so running the same campaign again
    (to resume it) finds the file there and writes no second copy; nothing is written, not
    even the folder, when no block failed."""
    from properties.reports.saved import results_folder

    first: dict[str, tuple[int, dict]] = {}
    for row in sorted(
        (r for r in rows if "error" not in r), key=lambda r: (r["params"]["check"], r["params"]["block"])
    ):
        document = row["result"].get("failure_file")
        if document is not None and row["params"]["check"] not in first:
            first[row["params"]["check"]] = (row["params"]["block"], document)
    if not first:
        return {}
    root, _ = results_folder(folder)
    saved = {}
    for check, (block, document) in first.items():
        path = root / f"{check}-fuzz-{digest[:8]}-block{block}.json"
        try:
            with open(path, "x") as handle:
                handle.write(json.dumps(document, indent=1) + "\n")
        except FileExistsError:  # this campaign's earlier run saved it
            pass
        saved[check] = str(path)
    return saved


def _on_reference(spec: dict) -> bool:
    from properties.core.candidate import DEFAULT_IMPL

    return spec["cmd"] is None and spec["impl"] in (None, DEFAULT_IMPL)


def is_failing_row(spec: dict, row: dict) -> bool:
    """A row that fails the campaign by itself: a task's error or a failed check. An
    expected failure that passes in one block is no verdict yet: it is judged over the
    whole campaign (summarize_fuzz), since it need only fail somewhere."""
    from properties.run.runner import FAILED

    return "error" in row or row["result"]["status"] == FAILED


def check_verdict(check: str, statuses: dict) -> str | None:
    """One check's verdict over every finished block: failed if any block failed; for an
    expected failure, "expected failure" if any block found it, and "unexpectedly passed"
    only if no block did; otherwise the blocks' common status (passed, not applicable,
    not run; "passed" when they differ) or None before any block finished."""
    from properties.checks.registry import EXPECTED_FAILURES
    from properties.run.runner import FAILED, PASSED, XFAIL, XPASS

    if not statuses:
        return None
    if FAILED in statuses:
        return FAILED
    if check in EXPECTED_FAILURES:
        if XFAIL in statuses:
            return XFAIL
        if XPASS in statuses:
            return XPASS
    if len(statuses) == 1:
        return next(iter(statuses))
    return PASSED if PASSED in statuses else sorted(statuses)[0]


def summarize_fuzz(spec: dict, rows: list[dict]) -> dict:
    """Per check: blocks finished, examples run, statuses per block, the verdict over the
    whole campaign (check_verdict), and the first failing block's counterexample (sorted:
    the same rows give the same summary). On the reference an expected failure that no
    block found is failing (its finding's record is stale), as `properties check` judges."""
    from properties.run.runner import FAILED, XPASS

    on_reference = _on_reference(spec)
    per_check: dict[str, dict] = {
        name: {"check": name, "blocks": 0, "examples": 0, "statuses": {}, "verdict": None, "failure": None}
        for name in spec["checks"]
    }
    errors = sorted(row["task"] for row in rows if "error" in row)
    for row in sorted(
        (r for r in rows if "error" not in r), key=lambda r: (r["params"]["check"], r["params"]["block"])
    ):
        entry, result = per_check[row["params"]["check"]], row["result"]
        entry["blocks"] += 1
        entry["examples"] += result["examples"]
        entry["statuses"][result["status"]] = entry["statuses"].get(result["status"], 0) + 1
        if result["status"] == FAILED and entry["failure"] is None:
            entry["failure"] = {
                "block": row["params"]["block"],
                "status": FAILED,
                "counterexample": result["counterexample"],
                "violations": result["violations"][:3],
            }
    for entry in per_check.values():
        entry["verdict"] = check_verdict(entry["check"], entry["statuses"])
    table = list(per_check.values())
    failing = sorted(e["check"] for e in table if e["verdict"] == FAILED or (e["verdict"] == XPASS and on_reference))
    return {
        "experiment": "fuzz",
        "tasks": len(spec["checks"]) * spec["blocks"],
        "finished": sum(e["blocks"] for e in table),
        "errors": errors,
        "rows": table,
        "failing_checks": failing,
    }
