"""A candidate written in any language: a program that answers run requests
(docs/protocol.md), run once per call.

For each call the judge writes the request into a fresh directory, runs the command
(a shell command line, the request's path appended or put where `{request}` stands; the
request also on stdin and in $CRAL_REQUEST), reads the result document from the
request's `output` file or from stdout, validates it against the published schema
(reference/schemas/) and hands it to the same decoders as a Python module's result
(properties/core/contract.py). So the verdict is the same as for a module, and the process
boundary is the one of properties/judge/isolation.py: only data crosses, the program runs in a
session and process group of its own with an address-space limit, and a timeout kills
the whole group.

A call that fails as a program keeps its request directory as the reproducer (its path
in the violation); so does every call of the minimal example of a failing check
(`keep_requests`, called by the runner).

A program whose describe says `"serve": true` is started once (_Server, docs/protocol.md
"Serve mode"): the command with `--serve` in place of the request path, `CRAL_SERVE=1`;
one request per line on its stdin, one result per line on its stdout. The same process
group, limits and outcomes hold per call; a call that fails as a program (crash, exit,
hang, a line that is not a valid result) stops that process and the next call starts a
new one. The processes themselves (process group, limits, the serving process) are in
properties/judge/processes.py."""

from __future__ import annotations

import collections
import json
import os
import selectors
import shlex
import shutil
import stat
import subprocess
import tempfile
import time
from fractions import Fraction

from properties.core import candidate as impl
from properties.core import representations
from properties.core.candidate import Candidate, CandidateFault
from properties.core.contract import ARITHMETICS, PROTOCOL_ALGORITHMS, TRACE_MODES, Decoded, function_of
from properties.core.plain import NotPlain, to_plain
from properties.core.violation import clip
from properties.judge.either_forms import read_either_forms
from properties.judge.isolation import _signal_name, _Stream, take_streams
from properties.judge.plain_trace import plain_trace
from properties.judge.processes import (
    FAULT_OUTPUT_CHARS,
    MAX_RESULT_BYTES,
    SERVE_ARGUMENT,
    _argv,
    _child_setup,
    _exit_message,
    _kill_group,
    _pidfd,
    _Server,
    _tail,
)
from reference import documents
from reference.exact import fraction_text
from reference.serialization import to_jsonable
from reference.tape import Tape

PROTOCOL_VERSION = 1
REQUEST_FORMAT = "cral-run-request"
RESULT_KINDS = {  # algorithm -> (result document format, schema kind)
    **{mode: ("cral-trace", "trace") for mode in TRACE_MODES},
    "calruption_epoch": ("cral-epoch-result", "epoch-result"),
    "catoni_root": ("cral-catoni-root", "catoni-root"),
    "sample_tape": ("cral-tape", "tape"),
    "loss_difference_samples": ("cral-samples", "samples"),
    "describe": ("cral-describe", "describe"),
}
RECENT_CALLS = 8  # request directories kept until the next check, for keep_requests
MAX_KEPT = 500  # request directories kept in all; the oldest go first
NPY_MIN_ROUNDS = 4096  # "auto": a tape this long goes as .npy files when the program reads them
TAPE_FORMATS = ("auto", "json", "npy")


def _algorithm(name: str, kwargs: dict) -> str:
    if name == "robust_cal":
        return "robust_cal_vanilla" if kwargs.get("vanilla") else "robust_cal"
    return name


class CommandCandidate(Candidate):
    """A program speaking docs/protocol.md; see the module notes."""

    isolated = True
    declares_modes = True

    def __init__(
        self,
        command: str,
        *,
        timeout: float | None = None,
        memory_limit: int | None = None,
        tape_format: str = "auto",
        keep_dir: str | None = None,
        serve: bool | None = None,
        described: dict | None = None,
    ):
        if not isinstance(command, str) or not command.strip():
            raise ValueError(f"the candidate's command is empty: {command!r}")
        if tape_format not in TAPE_FORMATS:
            raise ValueError(f"tape_format must be one of {TAPE_FORMATS}, got {tape_format!r}")
        self.command, self.path = command, f"command {command!r}"
        self.timeout, self.memory_limit, self.tape_format = timeout, memory_limit, tape_format
        try:
            self._root = tempfile.mkdtemp(prefix="cral-requests-", dir=keep_dir)
        except OSError as error:  # a folder that is missing or not writable is bad input, not a traceback
            raise ValueError(
                f"cannot keep request files under {keep_dir!r} (--keep-requests): {error.strerror}"
            ) from None
        self._calls = 0
        self._recent: collections.deque = collections.deque()
        self._unwritten: dict[str, bytes] = {}  # serve mode: request files not written yet (_new_directory)
        self._example: list[str] = []  # the request directories of the current example
        self._kept: collections.deque = collections.deque()
        self._streams = {"stdout": _Stream(), "stderr": _Stream()}  # as a worker's (isolation.py)
        self.normalised: collections.Counter = collections.Counter()  # representations read as the reference's
        self._tapes: collections.OrderedDict = collections.OrderedDict()
        try:
            # `described`: what this program answered to describe when the judge asked it
            # before (check -j N: the judge's own candidate; properties/run/parallel.py)
            described = self._describe() if described is None else described
        except (CandidateFault, ValueError) as error:
            self.close()
            shutil.rmtree(self._root, ignore_errors=True)  # a describe request reproduces nothing worth keeping
            if isinstance(error, ValueError):
                raise
            stderr = error.values.get("stderr", "").strip().splitlines()
            said = f"; its stderr ends: {clip(stderr[-1], 300)}" if stderr else ""
            raise ValueError(f"{self.path} cannot describe itself: {error.message}{said}") from None
        self.description = described
        self.modes = frozenset(described["implements"])
        self.names = frozenset(function_of(mode) for mode in self.modes)
        self.arithmetic = described["arithmetic"]
        self.arithmetic_declared = True  # describe's schema requires it
        self.tape_formats = tuple(described.get("tape_formats", ("json",)))
        self.program_name = described.get("name")
        # serve mode when the program declares it, unless the caller asks for one process per call
        self.serving = described.get("serve") is True and serve is not False
        self._server: _Server | None = None

    @property
    def runs_in(self) -> str:
        if self.serving:
            return "one serving process of its own, restarted after a failing call, docs/protocol.md"
        return "a process of its own per call, docs/protocol.md"

    # -- what it implements ------------------------------------------------------------
    def implements(self, mode: str) -> bool:
        return mode in self.modes

    def _describe(self) -> dict:
        document = self._run("describe", {}, impl.DEFAULT_TIMEOUT_S if self.timeout is None else self.timeout)
        if document.get("format") == "cral-error":
            raise CandidateFault(f"answered describe with an error: {clip(str(document.get('message')), 300)}")
        if document["arithmetic"] not in ARITHMETICS:  # the schema requires it
            raise ValueError(
                f"{self.path} declares arithmetic {document.get('arithmetic')!r}, not one of {ARITHMETICS}"
            )
        implemented = [mode for mode in document["implements"] if mode in PROTOCOL_ALGORITHMS]
        if not implemented:
            raise ValueError(
                f"{self.path} implements none of {', '.join(PROTOCOL_ALGORITHMS)} "
                f"(its describe lists {document['implements']})"
            )
        return {**document, "implements": implemented}

    # -- calls ---------------------------------------------------------------------------
    def invoke(self, name, args, kwargs, timeout):
        algorithm = _algorithm(name, kwargs)
        if algorithm not in self.modes:
            raise CandidateFault(
                f"the program does not implement {algorithm!r} (its describe lists {', '.join(sorted(self.modes))})"
            )
        inputs = self._inputs(algorithm, args, kwargs)
        document = self._run(algorithm, inputs, timeout)
        if algorithm in TRACE_MODES and document.get("format") == "cral-trace" and type(document) is not Decoded:
            document = self._normalised(document, inputs)
        return self._plain_result(algorithm, name, document)

    def _normalised(self, document: dict, inputs: dict) -> dict:
        """docs/protocol.md section 6's *either* representations (`read_either_forms`),
        counted in `normalised` for the report."""
        document, read = read_either_forms(document, inputs["params"], self.arithmetic)
        self.normalised.update(read)
        return document

    def invoke_many(self, name, calls, timeout):
        """loss_difference_samples' calls (the checks ask hundreds at once) in one request;
        every other name one request per call."""
        if name != "loss_difference_samples" or len(calls) <= 1 or any(args[0] != calls[0][0][0] for args, _ in calls):
            return [self.invoke(name, args, kwargs, timeout) for args, kwargs in calls]
        if name not in self.modes:
            raise CandidateFault(
                f"the program does not implement {name!r} (its describe lists {', '.join(sorted(self.modes))})"
            )
        try:
            inputs = _samples_request(calls)
        except NotPlain as error:
            raise CandidateFault(f"the judge cannot write this call as a request: {error}") from None
        document = self._run(name, inputs, timeout)
        if document.get("format") == "cral-error":
            self._plain_result(name, name, document)  # raises the program's error
        results = document["results"]
        if len(results) != len(calls):
            raise CandidateFault(
                f"answered {len(results)} of {len(calls)} loss_difference_samples calls",
                values={"request": self._keep_path(os.path.dirname(self._last_request))},
            )
        return [[r["values"], r["counts"]] for r in results]

    def _inputs(self, algorithm: str, args: tuple, kwargs: dict) -> dict:
        """The request's inputs for the call (docs/protocol.md, section 2)."""
        try:
            if algorithm in TRACE_MODES:
                hypotheses, tape, params = args[:3]
                return {
                    "hypotheses": [list(h) for h in hypotheses],
                    "tape": self._tape(tape),
                    "params": to_jsonable(params),
                }
            if algorithm == "calruption_epoch":
                hypotheses, state, counts, params = args
                return {
                    "hypotheses": [list(h) for h in hypotheses],
                    "state": to_plain(state, "state"),
                    "counts": to_plain(counts, "counts"),
                    "params": to_jsonable(params),
                }
            if algorithm == "catoni_root":
                names = ("values", "counts", "alpha")
                bound = dict(zip(names, args), **kwargs)
                # bad-input checks send what the contract forbids (floats, negative counts);
                # they go as they are, for the program to refuse
                return {key: to_plain(bound[key], key) for key in names if key in bound}
            if algorithm == "sample_tape":
                instance, adversary, seed = args
                return {"instance": instance.to_json(), "adversary": adversary.to_json(), "seed": seed}
            if algorithm == "loss_difference_samples":  # one call; invoke_many sends a batch
                return _samples_request([(args, kwargs)])
        except NotPlain as error:
            raise CandidateFault(f"the judge cannot write this call as a request: {error}") from None
        raise CandidateFault(f"no request form for {algorithm!r}")

    def _tape(self, tape: Tape) -> dict:
        """The tape, inline or as .npy files (written once per tape and kept while it is
        among the last few used: the checks run several algorithms on one tape)."""
        key = id(tape)
        if key in self._tapes and self._tapes[key][0] is tape:
            self._tapes.move_to_end(key)
            return self._tapes[key][1]
        npy = self.tape_format == "npy" or (self.tape_format == "auto" and tape.n >= NPY_MIN_ROUNDS)
        document = None
        if npy and "npy" in self.tape_formats:
            directory = os.path.join(self._root, f"tape-{len(self._tapes)}-{self._calls}")
            os.makedirs(directory)
            try:
                document = documents.write_tape_npy(tape, directory)
            except ValueError:  # a coin that is not a multiple of 2^-64: only the inline form holds it
                shutil.rmtree(directory, ignore_errors=True)
        if document is None:
            document = tape.to_json()
        # its JSON text too: every request on this tape carries it (_request_bytes)
        self._tapes[key] = (tape, document, json.dumps(document, separators=(",", ":")).encode())
        while len(self._tapes) > 4:
            _, (_, old, _) = self._tapes.popitem(last=False)
            if old.get("format") == "cral-tape-npy":
                shutil.rmtree(os.path.dirname(old["x"]), ignore_errors=True)
        return document

    def _request_bytes(self, request: dict) -> bytes:
        """json.dumps(request) in its compact form, a cached tape's part taken as encoded
        when its tape was (_tape): the same bytes."""
        tape = request.get("tape")
        encoded = next((text for _, document, text in self._tapes.values() if document is tape), None)
        if encoded is None:
            return json.dumps(request, separators=(",", ":")).encode()
        parts = (
            json.dumps(key).encode()
            + b":"
            + (encoded if key == "tape" else json.dumps(value, separators=(",", ":")).encode())
            for key, value in request.items()
        )
        return b"{" + b",".join(parts) + b"}"

    def accept_result(self, name: str, plain):
        return plain  # read by properties/core/representations.py in _read, before its schema judged it

    def _plain_result(self, algorithm: str, name: str, document: dict):
        """The result document as the plain data the contract's decoders take."""
        if document.get("format") == "cral-error":
            kind = document["error"]
            raise CandidateFault(
                f"crashed: {kind}: {clip(str(document.get('message', '')))} (in {name})",
                values={"exception": kind, "request": self._last_request},
            )
        if algorithm in TRACE_MODES:
            return document
        if algorithm == "calruption_epoch":
            return [document["record"], document["state"]]
        if algorithm == "catoni_root":
            return [document["lo"], document["hi"]]
        if algorithm == "loss_difference_samples":
            return [document["results"][0]["values"], document["results"][0]["counts"]]
        if algorithm == "sample_tape":
            try:
                tape = documents.load_tape(document)
            except ValueError as error:
                raise CandidateFault(
                    f"wrote an invalid result document (in sample_tape): {clip(str(error))}",
                    values={"request": self._keep_path(os.path.dirname(self._last_request))},
                ) from None
            return Decoded(_tape_plain(tape), tape)  # decode_tape would build the same tape again
        raise CandidateFault(f"no result form for {algorithm!r}")

    # -- one run of the program ------------------------------------------------------------
    def _new_directory(self, request: bytes | None = None) -> str:
        """A new call's request directory; with `request` (serve mode) it is written only
        when it is kept (_keep), the request held in memory until then."""
        self._calls += 1
        directory = os.path.join(self._root, f"call-{self._calls:06d}")
        if request is None:
            os.makedirs(directory)
        else:
            self._unwritten[directory] = request
        self._recent.append(directory)
        self._example.append(directory)
        while len(self._recent) > RECENT_CALLS:
            old = self._recent.popleft()
            self._unwritten.pop(old, None)
            shutil.rmtree(old, ignore_errors=True)
        return directory

    def _keep(self, directory: str) -> str:
        """Keep a request directory past the recent ones (the oldest kept go first). A
        request whose tape is .npy files gets copies of them beside it (the tape's own
        files go when the tape leaves the cache), its paths rewritten to the copies."""
        if directory in self._recent:
            self._recent.remove(directory)
        if directory in self._unwritten:
            os.makedirs(directory, exist_ok=True)
            with open(os.path.join(directory, "request.json"), "wb") as handle:
                handle.write(self._unwritten.pop(directory))
        self._keep_tape_files(directory)
        self._kept.append(directory)
        while len(self._kept) > MAX_KEPT:
            shutil.rmtree(self._kept.popleft(), ignore_errors=True)
        return directory

    @staticmethod
    def _keep_tape_files(directory: str) -> None:
        path = os.path.join(directory, "request.json")
        try:
            with open(path) as handle:
                request = json.load(handle)
        except (OSError, ValueError):
            return
        tape = request.get("tape")
        if not isinstance(tape, dict) or tape.get("format") != "cral-tape-npy":
            return
        if all(os.path.dirname(tape[k]) == directory for k in ("x", "y", "u_words")):
            return
        for key in ("x", "y", "u_words"):
            copy = os.path.join(directory, os.path.basename(tape[key]))
            try:
                shutil.copyfile(tape[key], copy)
            except OSError:
                return  # the tape's files are gone already: the request is kept as it is
            tape[key] = copy
        with open(path, "w") as handle:
            json.dump(request, handle, separators=(",", ":"))

    def keep_requests(self) -> list[str]:
        """The request files of the last example's calls (of a failing check, the minimal
        example: Hypothesis runs it last), kept for the report."""
        directories = self._example[-RECENT_CALLS:]
        return [os.path.join(d if d in self._kept else self._keep(d), "request.json") for d in directories]

    def _run(self, algorithm: str, inputs: dict, timeout: float | None) -> dict:
        if getattr(self, "serving", False) and algorithm != "describe":
            return self._run_served(algorithm, inputs, timeout)
        directory = self._new_directory()
        self._last_request = os.path.join(directory, "request.json")
        request_path, output_path = self._last_request, os.path.join(directory, "result.json")
        request = {
            "format": REQUEST_FORMAT,
            "version": PROTOCOL_VERSION,
            "algorithm": algorithm,
            "output": output_path,
            **inputs,
        }
        payload = self._request_bytes(request)
        with open(request_path, "wb") as handle:
            handle.write(payload)
        command = (
            self.command.replace("{request}", shlex.quote(request_path))
            if "{request}" in self.command
            else f"{self.command} {shlex.quote(request_path)}"
        )
        where = f"in {algorithm}"
        try:
            code, stdout, stderr_tail = self._execute(
                command, payload, directory, timeout, where, {"CRAL_REQUEST": request_path, "CRAL_OUTPUT": output_path}
            )
        except CandidateFault as fault:
            fault.values["request"] = self._keep_path(directory)
            raise
        values = {"request": request_path}
        if stderr_tail.strip():
            values["stderr"] = stderr_tail
        if os.path.lexists(output_path):
            if not stat.S_ISREG(os.lstat(output_path).st_mode):  # a FIFO would block the judge, a link lead anywhere
                self._fail(directory, f"left something other than a regular file as its result ({where})", values)
            size = os.path.getsize(output_path)
            if size > MAX_RESULT_BYTES:
                self._fail(
                    directory, f"wrote a result of {size} bytes, over the limit of {MAX_RESULT_BYTES} ({where})", values
                )
            with open(output_path, "rb") as handle:
                data = handle.read()
            self._streams["stdout"].add(stdout)
            source = "the result file"
        else:
            data, source = stdout, "stdout"
        if code < 0:
            self._fail(directory, f"crashed: {_signal_name(-code)} ({where})", values)
        document = self._read(
            data, source, algorithm, _exit_message(code, command, where), code, directory, where, values
        )
        if code != 0 and document.get("format") != "cral-error":
            self._fail(directory, _exit_message(code, command, where), values)
        return document

    def _keep_path(self, directory: str) -> str:
        return os.path.join(self._keep(directory), "request.json")

    def _fail(self, directory: str, message: str, values: dict, fatal: bool = False):
        values["request"] = self._keep_path(directory)
        raise CandidateFault(message, fatal=fatal, values=values)

    def _read(
        self,
        data: bytes,
        source: str,
        algorithm: str,
        exit_message: str,
        code: int,
        directory: str,
        where: str,
        values: dict,
    ) -> dict:
        """The result document: one JSON document of the expected format (or an error
        document), valid against its schema."""
        if code == 0 and algorithm in TRACE_MODES and getattr(self, "arithmetic", "exact") == "exact":
            decoded = self._plain_trace(data)
            if decoded is not None:
                return decoded
        if not data.strip():
            if code != 0:
                self._fail(directory, exit_message, values)
            self._fail(directory, f"wrote no result document ({where}; neither the output file nor stdout)", values)
        try:
            document = documents.parse_json(data, source)
        except documents.DocumentError as error:
            if code != 0:
                self._fail(directory, exit_message, values)
            self._fail(directory, f"wrote an invalid result document ({where}): {error}", values)
        if not isinstance(document, dict):
            self._fail(
                directory,
                f"wrote an invalid result document ({where}): {source} holds a JSON "
                f"{type(document).__name__}, not an object",
                values,
            )
        expected, kind = RESULT_KINDS[algorithm]
        if document.get("format") == "cral-error":
            kind = "error"
        elif document.get("format") != expected:
            self._fail(
                directory,
                f"wrote an invalid result document ({where}): asked for {algorithm}, the document's "
                f"format is {clip(repr(document.get('format')), 100)}, not {expected!r}",
                values,
            )
        arithmetic = getattr(self, "arithmetic", "exact")
        if kind != "error" and algorithm in representations.RESULT_ALGORITHMS:
            # read for its meaning first, by the import route's rule (properties/core/representations.py):
            # integers (and a float program's numbers) where rationals belong become "p/q", unknown
            # fields are dropped and noted; the schema then judges what the contract names
            try:
                document, ignored = representations.accept_document(algorithm, document, arithmetic)
            except representations.MissingField as error:
                self._fail(directory, f"wrote an invalid result document ({where}): {error}", values)
            self.note_ignored(ignored)
        try:
            documents.validate(document, kind, arithmetic=arithmetic, source=source)
        except documents.DocumentError as error:
            self._fail(directory, f"wrote an invalid result document ({where}): {error}", values)
        if algorithm == "loss_difference_samples" and kind != "error" and isinstance(document.get("results"), list):
            document = _samples_as_text(document)
        return document

    def _plain_trace(self, data: bytes) -> Decoded | None:
        """plain_trace's reading of an exact program's trace, its either forms counted in
        `normalised` (as _normalised counts them); None for the general reading (_read)."""
        read = plain_trace(data)
        if read is None:
            return None
        decoded, counts = read
        self.normalised.update(counts)
        return decoded

    def _execute(
        self, command: str, payload: bytes, directory: str, timeout: float | None, where: str, extra_env: dict
    ) -> tuple[int, bytes, str]:
        """Run the command; (exit status, stdout up to MAX_RESULT_BYTES, stderr's tail).
        stderr goes to the check's captured output; a hang kills the process group."""
        in_child = _child_setup(self.memory_limit)
        try:
            process = subprocess.Popen(
                _argv(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                env={**os.environ, **extra_env},
                preexec_fn=in_child,
            )
        except OSError as error:
            raise CandidateFault(f"cannot be started: {error} ({where})", fatal=True) from None
        stdout, stderr_tail = bytearray(), bytearray()
        pending = memoryview(payload)
        deadline = None if timeout is None else time.monotonic() + timeout
        streams = {process.stdout.fileno(): "stdout", process.stderr.fileno(): "stderr"}
        stdin_fd = process.stdin.fileno()
        for fd in (stdin_fd, *streams):
            os.set_blocking(fd, False)
        # the program's exit, not the end of its output, ends the call: a child it left
        # behind may hold the pipes open (it is killed with the group below)
        exit_fd = _pidfd(process.pid)
        code = None
        try:
            with selectors.DefaultSelector() as selector:
                selector.register(stdin_fd, selectors.EVENT_WRITE)
                for fd in streams:
                    selector.register(fd, selectors.EVENT_READ)
                if exit_fd is not None:
                    selector.register(exit_fd, selectors.EVENT_READ)
                while code is None:
                    remaining = None if deadline is None else deadline - time.monotonic()
                    if remaining is not None and remaining <= 0:
                        self._kill(process)
                        raise CandidateFault(
                            f"hung after {timeout:g} s ({where})", fatal=True, values=_tail(stderr_tail)
                        )
                    wait = remaining if exit_fd is not None else min(0.05, remaining or 0.05)
                    for key, _ in selector.select(wait):
                        fd = key.fd
                        if fd == stdin_fd:
                            try:
                                pending = pending[os.write(fd, pending) :]
                            except (BrokenPipeError, BlockingIOError) as error:
                                if isinstance(error, BrokenPipeError):
                                    pending = memoryview(b"")  # the program reads the file, not stdin
                            if not pending:
                                selector.unregister(fd)
                                process.stdin.close()
                        elif fd in streams:
                            if not self._take(fd, streams, stdout, stderr_tail, selector):
                                continue
                            if len(stdout) > MAX_RESULT_BYTES:
                                self._kill(process)
                                raise CandidateFault(
                                    f"wrote more than {MAX_RESULT_BYTES} bytes to stdout ({where})", fatal=True
                                )
                    code = process.poll()
                # what it wrote before it exited is in the pipes; its group goes first, so
                # no writer is left and each pipe ends
                self._kill(process)
                for fd in list(streams):
                    while self._take(fd, streams, stdout, stderr_tail, None):
                        if len(stdout) > MAX_RESULT_BYTES:
                            raise CandidateFault(
                                f"wrote more than {MAX_RESULT_BYTES} bytes to stdout ({where})", fatal=True
                            )
        finally:
            self._kill(process)  # children it left in its group go with it
            if exit_fd is not None:
                os.close(exit_fd)
            for stream in (process.stdin, process.stdout, process.stderr):
                try:
                    stream.close()
                except OSError:
                    pass
        return code, bytes(stdout), bytes(stderr_tail).decode("utf-8", "replace")[-FAULT_OUTPUT_CHARS:]

    def _take(self, fd: int, streams: dict, stdout: bytearray, stderr_tail: bytearray, selector) -> bool:
        """Read what is there on one of the program's outputs; False once it has ended
        (or, with no selector, when nothing more is there now)."""
        try:
            data = os.read(fd, 1 << 16)
        except BlockingIOError:
            return selector is not None
        if not data:
            if selector is not None:
                selector.unregister(fd)
            del streams[fd]
            return False
        if streams[fd] == "stderr":
            self._streams["stderr"].add(data)
            stderr_tail[:] = (stderr_tail + data)[-4 * FAULT_OUTPUT_CHARS :]
        else:
            stdout += data
        return True

    @staticmethod
    def _kill(process: subprocess.Popen) -> None:
        _kill_group(process)

    def take_output(self):
        return take_streams(self._streams)

    def begin_example(self) -> None:
        """A new example of a check begins (the runner says so): the requests of the last
        one are no longer needed."""
        for directory in list(self._recent):
            shutil.rmtree(directory, ignore_errors=True)
        self._recent.clear()
        self._unwritten.clear()
        self._example.clear()

    def close(self) -> None:
        """Stop the serving process; remove the request directories, except the kept
        reproducers."""
        self._stop_server()
        for directory in list(getattr(self, "_recent", ())):
            shutil.rmtree(directory, ignore_errors=True)
        self._recent.clear()
        for _, (_, document, _) in getattr(self, "_tapes", {}).items():
            if document.get("format") == "cral-tape-npy":
                shutil.rmtree(os.path.dirname(document["x"]), ignore_errors=True)
        self._tapes.clear()
        if not self._kept and os.path.isdir(self._root):
            shutil.rmtree(self._root, ignore_errors=True)

    @property
    def kept_root(self) -> str | None:
        """Where the kept request files are (None when nothing was kept)."""
        return self._root if self._kept else None

    # -- serve mode (docs/protocol.md, "Serve mode") ----------------------------------------
    def _serve_command(self) -> str:
        if "{request}" in self.command:
            return self.command.replace("{request}", SERVE_ARGUMENT)
        return f"{self.command} {SERVE_ARGUMENT}"

    def _stop_server(self) -> None:
        server, self._server = getattr(self, "_server", None), None
        if server is not None:
            server.stop()

    @property
    def server_starts(self) -> int:
        """How many serving processes were started (for tests and reports)."""
        return getattr(self, "_starts", 0)

    def _run_served(self, algorithm: str, inputs: dict, timeout: float | None) -> dict:
        """One call through the serving process: the request as one line, the result as
        one line; the request file (the reproducer, in the one-shot form) is written only
        when it is kept -- a failing call, the minimal example of a failing check."""
        line = self._request_bytes(
            {"format": REQUEST_FORMAT, "version": PROTOCOL_VERSION, "algorithm": algorithm, **inputs}
        )
        directory = self._new_directory(b"")
        # the request file, written if it is kept, is the one-shot form: `CMD request.json` reproduces the call
        self._unwritten[directory] = (
            line[:-1] + b',"output":' + json.dumps(os.path.join(directory, "result.json")).encode() + b"}"
        )
        self._last_request = request_path = os.path.join(directory, "request.json")
        where = f"in {algorithm}"
        command = self._serve_command()
        try:
            data, code, stderr_tail = self._served_call(line + b"\n", timeout, where, command)
        except CandidateFault as fault:
            self._stop_server()
            fault.values["request"] = self._keep_path(directory)
            raise
        values = {"request": request_path}
        if stderr_tail.strip():
            values["stderr"] = stderr_tail
        try:
            if code is not None:  # it ended before a whole line: the one-shot rules, on what it wrote
                if code < 0:
                    self._fail(directory, f"crashed: {_signal_name(-code)} ({where})", values)
                document = self._read(
                    data, "stdout", algorithm, _exit_message(code, command, where), code, directory, where, values
                )
                if code != 0 and document.get("format") != "cral-error":
                    self._fail(directory, _exit_message(code, command, where), values)
                self._stop_server()
                return document
            return self._read(data, "a line of stdout", algorithm, "", 0, directory, where, values)
        except CandidateFault:
            self._stop_server()  # its state is unknown: the next call starts a new process
            raise

    def _served_call(self, line: bytes, timeout: float | None, where: str, command: str):
        """(data, exit status or None, stderr's tail) of one call through the serving
        process, by rules that do not depend on timing: a process that ended after its
        last answer with a status other than 0 (or a signal) fails this call; one that
        ended with 0 -- found before the call, or ending on it with nothing written after
        at least one answer -- is replaced and the call goes to the new one; one that wrote
        out of turn is replaced."""
        server = self._server
        if server is not None:
            state = server.state()
            if state != "ready":
                self._stop_server()
                if isinstance(state, int) and state != 0:
                    return b"", state, server.tail_text()
        for attempt in (1, 2):
            if self._server is None:
                self._server = _Server(command, self.memory_limit, self._streams, where)
                self._starts = self.server_starts + 1
            answered = self._server.answered
            data, code, stderr_tail = self._server.call(line, timeout, where)
            if code == 0 and answered and not data.strip() and attempt == 1:
                self._stop_server()
                continue
            return data, code, stderr_tail


def _tape_plain(tape: Tape) -> dict:
    """A tape as the plain data contract.decode_tape takes: its coins as 64-bit words
    u_t * 2^64 where each is a multiple of 2^-64 (a sampled tape's are; ~4x cheaper to
    decode than "p/q" text), else as the tape's JSON."""
    scale, words = 1 << 64, []
    for u in tape.u:
        if scale % u.denominator:
            return tape.to_json()
        words.append(u.numerator * (scale // u.denominator))
    return {"x": list(tape.x), "y": list(tape.y), "u_words": words, "seed": tape.seed, "generator": tape.generator}


def _samples_request(calls) -> dict:
    """loss_difference_samples(H, h, h', q, counts, length) calls of one H as a request."""
    hypotheses = calls[0][0][0]
    entries = []
    for args, _ in calls:
        _, h, h2, q, counts, length = args
        entries.append(
            {
                "h": h,
                "h2": h2,
                "q": [to_plain(v, "q") for v in q],
                "counts": to_plain(counts, "counts"),
                "length": length,
            }
        )
    return {"hypotheses": [list(row) for row in hypotheses], "calls": entries}


def _samples_as_text(document: dict) -> dict:
    """loss_difference_samples' values with a float program's numbers (and integers) written
    as their exact rationals "p/q", for the decoders (as properties/core/representations.py does
    for the other results)."""

    def text(v):
        return fraction_text(Fraction(v)) if isinstance(v, (int, float)) and not isinstance(v, bool) else v

    return {
        **document,
        "results": [
            {**r, "values": [text(v) for v in r["values"]]} if isinstance(r, dict) else r for r in document["results"]
        ],
    }


__all__ = ["CommandCandidate", "PROTOCOL_VERSION", "TAPE_FORMATS"]
