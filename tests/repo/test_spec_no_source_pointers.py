"""The public pages define every rule themselves: docs/spec.md, docs/protocol.md, CONTRACT.md and
the schemas' descriptions never send a reader to a source file as the place a rule or a field
is defined (an implementer in another language has only the pages).

What counts as such a pointer: a `.py` path in docs/spec.md at all; in protocol.md and
CONTRACT.md, a `.py` path of the project's source packages (reference/, properties/, fast/,
proofs_check/) outside HTML comments (a test, a script to run or a template to copy may be
named); in a schema's description, any `.py` path or a dotted name of the project's Python
objects (`reference.Tape`)."""

from __future__ import annotations

import ast
import json
import re

from tests.support import REPO_ROOT

ROOT = REPO_ROOT
SCHEMAS = ROOT / "reference" / "schemas"
PY_PATH = re.compile(r"[\w./-]*\.py\b")
SOURCE_PY_PATH = re.compile(r"\b(?:reference|properties|fast|proofs_check)/[\w./-]*\.py\b")
DOTTED_NAME = re.compile(r"\b(?:reference|properties|fast|proofs_check)\.[A-Za-z_]")


def _without_comments(text: str) -> str:
    return re.sub(r"<!--.*?-->", "", text, flags=re.S)


def _lines_matching(text: str, pattern: re.Pattern) -> list[str]:
    return [f"{number}: {line.strip()}" for number, line in enumerate(text.splitlines(), 1) if pattern.search(line)]


def test_the_spec_names_no_python_file():
    text = (ROOT / "docs" / "spec.md").read_text(encoding="utf-8")
    assert _lines_matching(text, PY_PATH) == []


def test_protocol_and_contract_define_nothing_by_a_source_file():
    found = {}
    for page in (ROOT / "docs" / "protocol.md", ROOT / "CONTRACT.md"):
        hits = _lines_matching(_without_comments(page.read_text(encoding="utf-8")), SOURCE_PY_PATH)
        if hits:
            found[page.name] = hits
    assert found == {}


def _descriptions(node, path="$"):
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("description", "title") and isinstance(value, str):
                yield path, value
            else:
                yield from _descriptions(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _descriptions(value, f"{path}[{i}]")


def _pointer(text: str) -> bool:
    return bool(PY_PATH.search(text) or DOTTED_NAME.search(text))


def test_no_schema_description_points_at_the_source():
    found = [
        f"{path.name} {where}: {text}"
        for path in sorted((SCHEMAS / "v1").glob("*.json"))
        for where, text in _descriptions(json.loads(path.read_text(encoding="utf-8")))
        if _pointer(text)
    ]
    assert found == []


def test_no_description_in_the_schema_source_points_at_the_source():
    """reference/schemas/build.py's description strings (keyword `description=`, key
    "description", and the header texts), where the JSON files come from."""
    tree = ast.parse((SCHEMAS / "build.py").read_text(encoding="utf-8"))
    texts = []
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "description":
            texts.append(node.value)
        elif isinstance(node, ast.Dict):
            texts += [
                v for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant) and k.value == "description"
            ]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("header", "wrapper"):
            texts += node.args[2:]
    found = []
    for value in texts:
        for constant in ast.walk(value):
            if isinstance(constant, ast.Constant) and isinstance(constant.value, str) and _pointer(constant.value):
                found.append(f"line {constant.lineno}: {constant.value}")
    assert found == []


def test_the_checker_finds_a_pointer():
    """The patterns are not vacuous: each kind of pointer is recognised."""
    assert PY_PATH.search("the state (reference/calruption.py)")
    assert SOURCE_PY_PATH.search("judged by `properties/checks/judgement.py`")
    assert not SOURCE_PY_PATH.search("run `python docs/examples/build.py`")
    assert _pointer("reference.Tape.to_json") and not _pointer("a tape (docs/spec.md S7)")
    assert _lines_matching(_without_comments("a <!-- reference/x.py --> b\nc reference/y.py"), SOURCE_PY_PATH) == [
        "2: c reference/y.py"
    ]
