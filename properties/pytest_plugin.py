"""The pytest plugin `cral` (the package's pytest11 entry point): any repository that
installs this package runs the property suite on its own implementation from its own
pytest run.

    pytest --cral-impl mypkg          # an importable module, in a worker process of its own
    pytest --cral-cmd './my_impl'     # a program in any language (docs/protocol.md)

Each registered check becomes one test item named after the check, under a collector
named `cral` (node ids `cral::check_...`; JUnit classname `cral`), collected even where
the repository has no tests of its own; `-k` and `-m cral` select among them as among
any tests. The candidate is loaded once, when collection is over and a check is among the
items selected (a candidate that cannot be loaded is a usage error: `ERROR: cral: ...` on
stderr and pytest's exit status 4, before any test runs), and closed when the session ends. A check's result becomes:

    passed                pass
    failed                failure: the violations, the reproducer, the candidate's output
    expected failure      xfail with the finding (FINDINGS.md) the candidate reproduces
    unexpectedly passed   on a candidate, a pass with a note (the paper's counterexample
                          did not arise: not the candidate's failure, as on the command
                          line); on the reference, a failure (the finding's record is stale)
    not applicable        skip with the reason

The candidate's own expected failures and skips (--cral-xfails FILE, --cral-skips FILE;
properties/reports/xfails_file.py) become pytest's own xfail and skip markers on the items they
list, with the reason "yours: <reason> (FILE:LINE)", so pytest reports them as any xfail:
a listed check that fails is XFAIL, one that passes XPASS. XPASS fails the run when the
project sets pytest's `xfail_strict = true` (as for its own tests) or --cral-strict-xfail
is given (for the suite's checks alone). A bad file is a usage error (pytest's exit 4)
naming the file and line.

The examples tried, the seconds and Hypothesis's statistics of each check are user
properties of its item (so `--junitxml` records them) and a report section ("cral
statistics", shown with a failure or by `-rA`).

Without --cral-impl or --cral-cmd the plugin only adds its options: no items, no header,
no hooks that do anything. It imports nothing but pytest until then (pytest loads it in
every run of every project that installs the package). --cral-timeout,
--cral-memory-limit and --cral-in-process also serve this repository's own tests
(tests/conftest.py's `impl` fixture, through candidate_options)."""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

import pytest

PLUGIN_NAME = "cral"  # the entry point's name: `-p no:cral` disables the plugin
COLLECTOR_NAME = "cral"
MARKER = "cral"
# properties.core.profiles.PROFILES, spelled out so that loading the plugin does not import
# Hypothesis (tests/properties/test_pytest_plugin.py keeps the two equal)
PROFILES = ("dev", "ci", "fuzz")
OUTPUT_LINES = 20  # of each captured stream, in a report
_SUITE = pytest.StashKey["_Suite"]()


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not (seconds > 0 and math.isfinite(seconds)):
        raise argparse.ArgumentTypeError(f"must be a number of seconds > 0, got {text!r}")
    return seconds


def _seed(text: str):
    """--cral-seed: as `check --seed` (properties/core/seeds.py; it imports no Hypothesis)."""
    from properties.core.seeds import parse_seed

    try:
        return parse_seed(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error).replace("--seed ", "")) from None


def default_profile() -> str:
    """properties.core.profiles' rule: ci when $CI is set, else dev; $HYPOTHESIS_PROFILE when it
    names one of the suite's profiles (another project's may name its own)."""
    named = os.environ.get("HYPOTHESIS_PROFILE")
    if named in PROFILES:
        return named
    # properties.core.profiles.under_ci, spelled out for the same reason: CI=false / CI=0 is not CI
    return "ci" if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no", "off") else "dev"


def pytest_addoption(parser):
    group = parser.getgroup("cral", "property suite of Corruption Robust Active Learning (the cral plugin)")
    group.addoption(
        "--cral-impl",
        metavar="MODULE",
        default=None,
        help="run every check of the property suite on the implementation at this import path "
        "(in a worker process of its own unless it is the built-in 'reference')",
    )
    group.addoption(
        "--cral-cmd",
        metavar="CMD",
        default=None,
        help="run every check on a program of any language that speaks docs/protocol.md, e.g. "
        "'./my_impl' (run once per call)",
    )
    group.addoption(
        "--cral-timeout",
        metavar="S",
        type=_seconds,
        default=None,
        help="seconds one call of the implementation may take (default 60)",
    )
    group.addoption(
        "--cral-budget",
        metavar="S",
        type=_seconds,
        default=None,
        help="seconds the whole suite may take (default: no limit): a check that has not started "
        "when they are spent fails as 'not run' (incomplete is not a pass)",
    )
    group.addoption(
        "--cral-memory-limit",
        metavar="SIZE",
        default=None,
        help="address space of the implementation's process (RLIMIT_AS), e.g. 4G or 'none' (default 16G)",
    )
    group.addoption(
        "--cral-in-process",
        action="store_true",
        default=False,
        help="run the implementation in pytest's own process, for a debugger (the verdict is then "
        "not protected from it; not with --cral-cmd)",
    )
    group.addoption(
        "--cral-tape-format",
        choices=("auto", "json", "npy"),
        default="auto",
        help="--cral-cmd: tapes inline as JSON, as .npy files, or auto (.npy from 4096 rounds on, when "
        "the program reads them)",
    )
    group.addoption(
        "--cral-keep-requests",
        metavar="DIR",
        default=None,
        help="--cral-cmd: keep the request files of failing calls under DIR (default: a new temporary folder)",
    )
    group.addoption(
        "--cral-xfails",
        metavar="FILE",
        default=None,
        help="the implementation's own expected failures: one check id or glob per line, '# reason'",
    )
    group.addoption(
        "--cral-skips",
        metavar="FILE",
        default=None,
        help="the implementation's checks not to run, same format as --cral-xfails",
    )
    group.addoption(
        "--cral-strict-xfail",
        action="store_true",
        default=False,
        help="a check of --cral-xfails that passes fails the run (as xfail_strict = true does)",
    )
    group.addoption(
        "--cral-html",
        metavar="PATH",
        default=None,
        help="also write the suite's report as one self-contained HTML file to PATH (the verdict, each "
        "failure with its terms and reproducer, every check)",
    )
    group.addoption(
        "--cral-profile",
        choices=PROFILES,
        default=None,
        help="Hypothesis profile of the checks (default: ci when $CI is set, else dev; "
        "$HYPOTHESIS_PROFILE if it names one of these)",
    )
    group.addoption(
        "--cral-seed",
        type=_seed,
        default=None,
        metavar="N|random",
        help="the run's base seed, as `check --seed`: each check draws from (N, its id) alone; 'random' draws "
        "a fresh one (shown in the header). Default: a fixed one under dev and ci, fresh under fuzz",
    )


def _memory_limit(config):
    """--cral-memory-limit in bytes (None: no limit); the default when not given."""
    from properties.core.candidate import DEFAULT_MEMORY_LIMIT

    text = config.getoption("cral_memory_limit")
    if text is None:
        return DEFAULT_MEMORY_LIMIT
    from properties.cli import parse_size
    from reference.command_line import UsageError

    try:
        return parse_size(text)
    except UsageError as error:
        raise pytest.UsageError(str(error).replace("--memory-limit", "--cral-memory-limit")) from None


def candidate_options(config) -> dict:
    """load_candidate's keyword arguments from --cral-timeout, --cral-memory-limit and
    --cral-in-process (isolate None: the default, isolated unless it is the reference),
    and, for a command, --cral-tape-format and --cral-keep-requests."""
    return {
        "isolate": False if config.getoption("cral_in_process") else None,
        "timeout": config.getoption("cral_timeout"),
        "memory_limit": _memory_limit(config),
        "tape_format": config.getoption("cral_tape_format"),
        "keep_dir": config.getoption("cral_keep_requests"),
    }


def pytest_configure(config):
    if config.getoption("cral_memory_limit") is not None:
        _memory_limit(config)  # a bad size is a usage error now, not when the first check runs
    impl, cmd = config.getoption("cral_impl"), config.getoption("cral_cmd")
    if impl is None and cmd is None:
        return
    if impl is not None and cmd is not None:
        raise pytest.UsageError("--cral-impl and --cral-cmd exclude each other: give one implementation")
    if not (impl if cmd is None else cmd).strip():
        raise pytest.UsageError(f"{'--cral-impl' if cmd is None else '--cral-cmd'} is empty")
    if cmd is None and (
        config.getoption("cral_tape_format") != "auto" or config.getoption("cral_keep_requests") is not None
    ):
        raise pytest.UsageError("--cral-tape-format and --cral-keep-requests apply to --cral-cmd only")
    if cmd is not None and config.getoption("cral_in_process"):
        raise pytest.UsageError(
            "--cral-in-process does not apply to --cral-cmd: a command always runs in processes of its own"
        )
    if impl is not None:  # a file path, or a module of the current folder pytest cannot import: say how
        from reference.command_line import UsageError

        from .reports.import_hints import current_folder_hint, file_path_hint

        try:
            file_path_hint(impl, "--cral-impl", command_line="pytest")
        except UsageError as error:
            raise pytest.UsageError(f"cral: {error}") from None
        hint = current_folder_hint(impl, "--cral-impl", "pytest")
        if hint:
            raise pytest.UsageError(f"cral: {hint}")
    html = config.getoption("cral_html")
    if html is not None:  # a report that cannot be written is bad input now, not a lost report at the end
        from reference.command_line import UsageError, output_file

        try:
            output_file("--cral-html", html)
        except UsageError as error:
            raise pytest.UsageError(f"cral: {error}") from None
    config.addinivalue_line("markers", f"{MARKER}: a check of the property suite (the cral plugin)")
    suite = _Suite(config, impl, cmd, config.getoption("cral_profile") or default_profile())
    from properties.reports.xfails_file import load

    try:
        suite.lists = load(
            config.getoption("cral_xfails"),
            config.getoption("cral_skips"),
            strict_xfail=config.getoption("cral_strict_xfail") or config.getini("xfail_strict"),
        )
    except ValueError as error:  # ListFileError: FILE:LINE: what is wrong
        raise pytest.UsageError(f"cral: {error}") from None
    config.stash[_SUITE] = suite


def pytest_report_header(config):
    suite = config.stash.get(_SUITE, None)
    if suite is not None:
        return [
            f"cral: implementation under test: {suite.describe()}; hypothesis profile {suite.profile}, "
            f"seed {suite.seed}"
        ]
    return None


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    """The suite's collector joins the session's own children (whatever the project's
    tests are, none included), so its items pass through -k, -m and --deselect as any do."""
    report = yield
    if isinstance(collector, pytest.Session) and report.passed and _SUITE in collector.config.stash:
        # nodeid given: a child of the session would otherwise get "::cral"
        report.result.append(Checks.from_parent(collector, name=COLLECTOR_NAME, nodeid=COLLECTOR_NAME))
    return report


def pytest_collection_finish(session):
    """The candidate, loaded once the selection is known (none when -k or -m leave no
    check): one that cannot be loaded is a usage error here, in pytest's own form
    (`ERROR: cral: ...`, exit 4), not a stop from inside the first check."""
    suite = session.config.stash.get(_SUITE, None)
    if (
        suite is not None
        and not session.config.option.collectonly
        and any(isinstance(i, CheckItem) for i in session.items)
    ):
        suite.candidate()


def pytest_sessionfinish(session):
    suite = session.config.stash.get(_SUITE, None)
    if suite is not None:
        html = session.config.getoption("cral_html")
        if html is not None and suite.results and suite._candidate is not None:
            try:
                suite.write_html(html)
            except ValueError as error:  # the folder went away during the run: one line, no traceback
                print(f"cral: {error}", file=sys.stderr)
                session.exitstatus = pytest.ExitCode.USAGE_ERROR
        suite.close()


def pytest_unconfigure(config):
    suite = config.stash.get(_SUITE, None)
    if suite is not None:  # an interrupted session may skip pytest_sessionfinish
        suite.close()


def pytest_terminal_summary(terminalreporter, config):
    suite = config.stash.get(_SUITE, None)
    if suite is None or not suite.results:
        return
    results = list(suite.results.values())
    counts = {}
    for result in results:
        counts[result.status] = counts.get(result.status, 0) + 1
    seconds = sum((r.statistics or {}).get("seconds", 0.0) for r in results)
    terminalreporter.write_sep("-", "cral property suite")
    terminalreporter.write_line(
        f"{suite.describe()}, profile {suite.profile}, seed {suite.seed}: {len(results)} checks, "
        f"{sum(r.examples for r in results)} examples, {seconds:.1f} s of checking; "
        + ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
    )
    for name, note in suite.notes:
        terminalreporter.write_line(f"note: {name}: {note}")
    from reference.version import code_version, suite_line

    terminalreporter.write_line(suite_line(code_version(), suite.profile, suite.seed))  # which judge gave it


class _Suite:
    """The session's candidate (loaded on first use, closed at the end) and the results."""

    def __init__(self, config, impl, cmd, profile):
        self.config, self.impl, self.cmd, self.profile = config, impl, cmd, profile
        from properties.core.profiles import explores
        from properties.core.seeds import resolve_seed

        # one base seed for the session: every check's examples follow from it and its id
        self.seed = resolve_seed(config.getoption("cral_seed"), explores(profile))
        self._candidate = None
        self.results = {}  # check name -> CheckResult, in the order run
        self.notes = []  # (check name, note) for passes that are worth a word
        self.lists = None  # the candidate's xfails and skips (xfails_file.CandidateLists)
        from properties.core.budget import deadline_in

        self.deadline = deadline_in(config.getoption("cral_budget"))  # from the session's start, as the CLI's --budget
        self.started = time.perf_counter()

    def describe(self) -> str:
        if self.cmd is not None:
            return f"command {self.cmd!r} (a process of its own per call, docs/protocol.md)"
        if self.config.getoption("cral_in_process"):
            return f"{self.impl} (in pytest's process: --cral-in-process, the verdict is not protected)"
        from properties.core.candidate import DEFAULT_IMPL

        return f"{self.impl} ({'in-process' if self.impl == DEFAULT_IMPL else 'isolated worker process'})"

    def candidate(self):
        if self._candidate is None:
            from properties.judge.load import load_candidate

            try:
                self._candidate = load_candidate(self.impl, self.cmd, **candidate_options(self.config))
            except ValueError as error:  # cannot be imported, lacks a required name, ...: bad input
                raise pytest.UsageError(f"cral: {' '.join(str(error).split())}") from None
        return self._candidate

    def run(self, check):
        from properties.reports.xfails_file import apply
        from properties.run.runner import run_check

        result = apply(
            run_check(check, self.candidate(), profile=self.profile, seed=self.seed, deadline=self.deadline), self.lists
        )
        self.results[check.name] = result
        return result

    def write_html(self, path: str) -> None:
        """--cral-html: the report of the checks run, as `check --html` writes it."""
        from properties.reports.html_report import write_html
        from properties.reports.report import check_report

        report = check_report(
            self._candidate,
            self.profile,
            None,
            time.perf_counter() - self.started,
            list(self.results.values()),
            self.lists,
        )
        write_html(report, path, "--cral-html")

    def close(self):
        if self._candidate is not None:
            candidate, self._candidate = self._candidate, None
            candidate.close()


class CheckFailure(AssertionError):
    """A failing check; its message is the whole report (no traceback of the plugin)."""


class Checks(pytest.Collector):
    """Every registered check, one item each, in registry order."""

    def collect(self):
        from properties.checks.registry import all_checks

        lists = self.config.stash[_SUITE].lists
        # --cral-strict-xfail sets strict; else pytest's xfail_strict ini decides
        strict = {"strict": True} if self.config.getoption("cral_strict_xfail") else {}
        for name, check in all_checks().items():
            item = CheckItem.from_parent(self, name=name, check=check)
            skip, xfail = lists.skip_of(name), lists.xfail_of(name)
            if skip is not None:
                item.add_marker(pytest.mark.skip(reason=f"yours: {skip.describe()}"))
            elif xfail is not None:
                item.add_marker(pytest.mark.xfail(reason=f"yours: {xfail.describe()}", **strict))
            yield item


class CheckItem(pytest.Item):
    def __init__(self, *, check, **kwargs):
        super().__init__(**kwargs)
        self.check = check
        self.add_marker(MARKER)

    def setup(self):
        self.config.stash[_SUITE].candidate()

    def runtest(self):
        from properties.api import describe_failure
        from properties.core.candidate import DEFAULT_IMPL
        from properties.reports.xfails_file import YOUR_XFAIL
        from properties.run.runner import FAILED, NOT_APPLICABLE, NOT_RUN, XFAIL, XPASS

        suite = self.config.stash[_SUITE]
        result = suite.run(self.check)
        self.user_properties.extend(result_properties(result) + suite_properties())
        self.add_report_section("call", "cral statistics", statistics_text(result, suite.profile))
        path = suite.candidate().path
        if result.listed:
            self.user_properties.append(("listed", f"{result.listed['file']}:{result.listed['line']}"))
        # the candidate's expected failure: its xfail marker turns the failure into XFAIL
        if result.status in (FAILED, YOUR_XFAIL):  # the message carries the candidate's output
            raise CheckFailure(failure_text(result, path))
        if result.status == NOT_RUN:  # --cral-budget spent: no verdict, so not a pass
            raise CheckFailure(describe_failure(result))
        self.add_report_section("call", "cral candidate output", "\n".join(output_lines(result.output)))
        if result.status == XPASS and path == DEFAULT_IMPL:
            raise CheckFailure(describe_failure(result))
        if result.status == XPASS:
            note = (
                f"passed, but it is an expected failure on the reference ({result.reason}): the paper's "
                f"counterexample did not arise with {path}, which is not its failure"
            )
            self.user_properties.append(("note", note))
            self.add_report_section("call", "cral note", note)
            suite.notes.append((self.name, note))
        elif result.status == XFAIL:
            pytest.xfail(f"shows where the paper is wrong: {result.reason}")
        elif result.status == NOT_APPLICABLE:
            pytest.skip(result.reason)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CheckFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"{COLLECTOR_NAME}::{self.name} ({self.check.cites})"


def failure_text(result, path: str) -> str:
    """A failed check for pytest's report: every violation, the reproducer, the
    candidate's captured output."""
    lines = [f"{result.name} ({result.cites}; {result.kind}) failed on {path} after {result.examples} examples:"]
    lines += [f"  {violation}" for violation in result.violations]
    if result.counterexample:
        lines.append(f"reproduce{f' ({result.unshrunk})' if result.unshrunk else ''}: {result.counterexample}")
    # a command candidate's request files of that example (docs/protocol.md), where the
    # harness keeps them: a reproducer in the candidate's own language
    lines += [f"request file: {path}" for path in result.requests or ()]
    return "\n".join(lines + output_lines(result.output))


def output_lines(output) -> list[str]:
    """What the candidate wrote to stdout and stderr during the check (kept by the
    harness: its first 8 KiB per stream), at most OUTPUT_LINES lines each."""
    lines = []
    for stream in ("stdout", "stderr"):
        total = (output or {}).get(f"{stream}_bytes", 0)
        if not total:
            continue
        shown = output.get(stream, "").rstrip("\n").splitlines()
        more = " (first lines)" if output.get(f"{stream}_truncated") or len(shown) > OUTPUT_LINES else ""
        lines.append(f"candidate {stream}, {total} bytes{more}:")
        lines += [f"  | {line}" for line in shown[:OUTPUT_LINES]]
    return lines


def result_properties(result) -> list[tuple[str, object]]:
    """(name, value) pairs for item.user_properties, so JUnit XML has them."""
    stats = result.statistics or {}
    found = [
        ("status", result.status),
        ("cites", result.cites),
        ("kind", result.kind),
        ("examples", result.examples),
        ("seconds", stats.get("seconds", 0.0)),
    ]
    for phase in ("reuse", "generate", "shrink"):
        for key, value in stats.get(phase, {}).items():
            found.append((f"hypothesis_{phase}_{key}", value))
    if "stopped_because" in stats:
        found.append(("hypothesis_stopped_because", stats["stopped_because"]))
    return found


def suite_properties() -> list[tuple[str, str]]:
    """The judge that gave the verdict (reference/version.py), on each case of pytest's JUnit XML,
    as `check --junitxml` writes them on its suite."""
    from reference.version import code_version

    code = code_version()
    dirty = {True: "true", False: "false", None: ""}[code["dirty"]]
    return [("package", code["package"] or ""), ("commit", code["commit"] or ""), ("dirty", dirty)]


def statistics_text(result, profile: str) -> str:
    stats = result.statistics or {}
    lines = [f"{result.status}: {result.examples} examples in {stats.get('seconds', 0.0):.2f} s (profile {profile})"]
    for phase in ("reuse", "generate", "shrink"):
        data = stats.get(phase)
        if data:
            extra = f", {data['successful']} successful" if "successful" in data else ""
            lines.append(
                f"hypothesis {phase} phase: {data['examples']} examples ({data['passing']} passing, "
                f"{data['failing']} failing, {data['invalid']} invalid{extra}) in {data['seconds']:.2f} s"
            )
    if "stopped_because" in stats:
        lines.append(f"hypothesis stopped because {stats['stopped_because']}")
    return "\n".join(lines)
