"""The plumbing the project's command lines share (`python -m reference | properties |
proofs_check`, the campaign and bench/'s scripts): Ctrl-C and SIGTERM that are never lost,
optional dependencies named when they are missing, and bad input as one line on stderr with
exit status 2. A leaf: it imports the standard library only, so every package may import it.

Ctrl-C that is never lost. Python turns SIGINT into a KeyboardInterrupt wherever the main
thread happens to be, and some places drop it: an exception raised inside a garbage-collector
callback (Hypothesis installs one) is printed as "Exception ignored" and the run goes on to a
verdict. The handler here also records the interrupt, so a command line can stop at its next
checkpoint (`raise_if_interrupted`) and never print a verdict after Ctrl-C.

Optional dependencies. Judging an implementation needs only the core install (`pip install
-e .`). z3-solver (proofs_check), Dask distributed and redis (campaigns) are extras, `proofs`
and `campaign`; the `test` extra installs all of them. A module that needs one imports it
through `require`, so a base install gets one line naming the extra to install instead of a
traceback (`run` prints it and exits with status 2)."""

from __future__ import annotations

import os
import signal
import sys


def _stop_before_anything_is_written(signum, frame):
    """A stop while a command line's modules load: nothing is written or started yet, so
    the process ends here, with the one line and status the command gives later."""
    os.write(2, (MESSAGES[signum] + "\n").encode())
    os._exit(128 + signum)


def stop_early_in_a_command() -> None:
    """Run first thing when `reference` is imported, before any import of its own: if this
    process is one of the project's command lines starting up (`python -m reference |
    properties | proofs_check`; `properties` imports `reference` first when it is run so),
    SIGINT and SIGTERM end it at once with one line and 130 / 143 until the command installs
    its own handlers (install()). Its modules take a second or two to load (z3, Hypothesis,
    numpy); Python's default would print a traceback instead. It runs before this module's
    other imports: only `signal`'s own import (a fraction of a millisecond) comes before it
    in the package. A process that is not such a command, or that set its own handlers, is
    left alone."""
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    # `python -m PACKAGE` imports the package (argv[0] is "-m" meanwhile), then runs PACKAGE.__main__
    starting = getattr(sys, "argv", [])[:1] == ["-m"] or getattr(spec, "name", None) in COMMAND_MODULES
    if not starting:
        return
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _stop_before_anything_is_written)
        if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
            signal.signal(signal.SIGTERM, _stop_before_anything_is_written)
    except ValueError:  # not the main thread: signal handlers live there
        return


COMMAND_MODULES = ("reference.__main__", "properties.__main__", "proofs_check.__main__")
MESSAGES = {
    signal.SIGINT: "interrupted (Ctrl-C): stopped, no verdict",
    signal.SIGTERM: "terminated (SIGTERM): stopped, no verdict",
}
stop_early_in_a_command()

import argparse  # noqa: E402  (after the handler above: see stop_early_in_a_command)
import importlib  # noqa: E402
import threading  # noqa: E402
from pathlib import Path  # noqa: E402

_seen = threading.Event()
_stopped_by: list[int] = []  # the first stopping signal seen (SIGINT or SIGTERM)


def _on_sigint(signum, frame):
    if not _stopped_by:
        _stopped_by.append(signum)
    _seen.set()
    raise KeyboardInterrupt


def status() -> int:
    """The exit status of a stopped run: 128 + the signal that stopped it (130 for
    Ctrl-C, 143 for SIGTERM)."""
    return 128 + (_stopped_by[0] if _stopped_by else signal.SIGINT)


def message() -> str:
    """The one line a stopped run ends with."""
    return MESSAGES.get(_stopped_by[0] if _stopped_by else signal.SIGINT)


def install() -> None:
    """Record every SIGINT from now on (main thread only: signal handlers live there), and
    keep Python's "Exception ignored in ..." report of a swallowed KeyboardInterrupt off
    stderr: the interrupt is recorded, and the one-line message says it."""
    if threading.current_thread() is threading.main_thread():
        # SIGTERM (a CI timeout, `kill`) stops the run as Ctrl-C does: the same clean-up
        # (the candidate's worker, a campaign's cluster), no verdict, its own line and 143
        signal.signal(signal.SIGINT, _on_sigint)
        signal.signal(signal.SIGTERM, _on_sigint)
        if sys.unraisablehook is not _quiet_unraisable:
            _previous_hook[:] = [sys.unraisablehook]
            sys.unraisablehook = _quiet_unraisable


_previous_hook: list = []


def _quiet_unraisable(unraisable) -> None:
    # after Ctrl-C, objects it cut short complain as they are collected: not news
    if isinstance(unraisable.exc_value, KeyboardInterrupt) or _seen.is_set():
        return
    (_previous_hook[0] if _previous_hook else sys.__unraisablehook__)(unraisable)


def ignore_more() -> None:
    """From now on SIGINT and SIGTERM do nothing: the run is already stopping."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)


def note() -> None:
    """Record an interrupt that a library caught before our handler saw it (z3 does)."""
    _seen.set()


def interrupted() -> bool:
    return _seen.is_set()


def raise_if_interrupted() -> None:
    """A checkpoint between units of work: an interrupt swallowed on the way stops here."""
    if _seen.is_set():
        raise KeyboardInterrupt


def exit_now(status: int) -> None:
    """Exit with `status`. After Ctrl-C or SIGTERM (130, 143) the interpreter's shutdown is skipped
    once every `atexit` handler has run: objects a SIGINT cut short while they were being
    built (z3's contexts) would otherwise print "Exception ignored" tracebacks as they are
    collected, and a SIGINT re-delivered by a library that caught it would turn the exit
    status into a signal."""
    if status not in (130, 143):
        sys.exit(status)
    ignore_more()
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # a closed pipe: nothing more can be said
            pass
    os._exit(status)


# -- optional dependencies -------------------------------------------------------------------
DISTRIBUTION = "cral-verify"  # pyproject.toml's [project] name (tests/reference/test_version.py)


class MissingExtra(ImportError):
    """An optional dependency is not installed; the message says which extra installs it."""


def require(module: str, *, package: str, extra: str, needed_by: str):
    """`module`, imported; MissingExtra naming `package` and `extra` when it is not installed.
    An ImportError from inside an installed package (a broken install) is not hidden."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name is None or error.name.split(".")[0] != module.split(".")[0]:
            raise
        raise MissingExtra(
            f"{needed_by} needs {package}, which is not installed: pip install "
            f"'{DISTRIBUTION}[{extra}]' (in a clone: pip install -e '.[{extra}]')"
        ) from None


# -- command-line input and the run of a subcommand -----------------------------------------
class UsageError(Exception):
    """Bad command-line input: reported on one line, exit status 2."""


def positive_number(option: str, unit: str):
    """An argparse type: a finite number > 0 of `unit`, else a UsageError naming the option."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = float("nan")
        if not value > 0 or value == float("inf"):
            raise UsageError(f"{option} must be a number of {unit} > 0, got {text!r}")
        return value

    return parse


def output_file(option: str, path: str | None) -> None:
    """Before any work: a file an option names for output (--csv, --markdown, ...) that
    cannot be written there is bad input now, not a traceback or a lost file at the end.
    The one rule for output folders on every command line: a file option's folder must
    exist (it is never made), so a mistyped folder is named, not silently created."""
    if path is None:
        return
    if not path.strip():
        raise UsageError(f"{option} is empty: give a file path")
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"{option} {path}: is a folder, give a file path")
    folder = target.resolve().parent
    if not folder.is_dir():
        raise UsageError(f"{option} {path}: its folder does not exist")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise UsageError(f"{option} {path}: cannot be written (permission denied)")


def bytes_text(amount: float) -> str:
    """An estimate of memory for a one-line message: "11.7 GB", "330 MB"."""
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6)):
        if amount >= size:
            return f"{amount / size:.3g} {unit}"
    return f"{amount:.3g} bytes"


def seconds_text(amount: float) -> str:
    """An estimate of time for a one-line message: "16.8 minutes", "3.1 days"."""
    for unit, size in (("days", 86400), ("hours", 3600), ("minutes", 60)):
        if amount >= size:
            return f"{amount / size:.3g} {unit}"
    return f"{amount:.3g} s"


def within_limit(option: str, given, amount: float, limit: float, estimate: str, *, yes: bool) -> None:
    """Before any work: `amount` of what `option` = `given` asks for (rounds, tasks,
    entries) above `limit` runs only with --yes; without it, one line with the estimate of
    what the run would take."""
    if amount > limit and not yes:
        raise UsageError(
            f"{option} {given}: {estimate}, above the limit of {limit:,} without --yes; give --yes to run it"
        )


# options whose value may start with '-' ("--eta -,1/2,-", "--delta -1/2": the latter is
# then refused by the value's own check, naming it); argparse would take such a value for
# an option and report the option's value as missing
DASH_VALUE_OPTIONS = frozenset({"--eta", "--delta", "--gamma"})


def join_dash_values(argv: list[str]) -> list[str]:
    """'--eta', '-,1/2,-' -> '--eta=-,1/2,-' (argparse's own spelling for such values)."""
    out, i = [], 0
    while i < len(argv):
        token = argv[i]
        if (
            token in DASH_VALUE_OPTIONS
            and i + 1 < len(argv)
            and argv[i + 1].startswith("-")
            and argv[i + 1] not in ("-h", "--help")
            and not argv[i + 1].startswith("--")
        ):
            out.append(f"{token}={argv[i + 1]}")
            i += 2
        else:
            out.append(token)
            i += 1
    return out


class OneLineParser(argparse.ArgumentParser):
    def error(self, message):  # argparse would print the usage block too
        raise UsageError(message)

    def parse_known_args(self, args=None, namespace=None):
        args = sys.argv[1:] if args is None else list(args)
        return super().parse_known_args(join_dash_values(args), namespace)


EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a command Ctrl-C stopped
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as `yes | head` reports for `yes`


def _interrupted() -> int:
    ignore_more()  # a second SIGINT (z3 re-delivers the one it caught) must not undo this exit
    print(message(), file=sys.stderr)
    return status()  # 130 after Ctrl-C (EXIT_INTERRUPTED), 143 after SIGTERM


def _subcommands(parser: argparse.ArgumentParser) -> list[str]:
    return [
        name for action in parser._actions if isinstance(action, argparse._SubParsersAction) for name in action.choices
    ]


def run(parser: argparse.ArgumentParser, argv=None) -> int:
    """Parse, run the chosen subcommand's handler, and turn bad input (a UsageError or
    the library's ValueError) into one line on stderr and exit status 2. Ctrl-C stops at
    once with one line and exit status 130 (no verdict is printed); a reader that closes
    the pipe early (`| head`) ends the run quietly. Shared by the project's command lines."""
    install()
    if not (sys.argv[1:] if argv is None else list(argv)) and _subcommands(parser):
        # no subcommand at all: a newcomer's first try; the usage and the subcommands with
        # what each does, on stderr, exit 2 (argparse's status for a missing argument)
        print(parser.format_help().rstrip(), file=sys.stderr)
        return 2
    try:
        args = parser.parse_args(argv)
        status = args.handler(args)
        raise_if_interrupted()  # an interrupt something swallowed: still no clean exit
        return status
    except KeyboardInterrupt:
        return _interrupted()
    except BrokenPipeError:
        # whatever is still buffered for the closed pipe must not raise again at exit
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except MissingExtra as error:  # an optional dependency not installed: which extra to install
        print(f"error: {error}", file=sys.stderr)
        return 2
    except (UsageError, ValueError) as error:
        if interrupted():  # the interrupt, wrapped by a library: not bad input
            return _interrupted()
        message = " ".join(str(error).split())
        print(f"error: {message}", file=sys.stderr)
        return 2
    except Exception:
        # a library that wraps the KeyboardInterrupt it was given (ctypes under z3 raises
        # ArgumentError) is still Ctrl-C, not a crash
        if interrupted():
            return _interrupted()
        raise
