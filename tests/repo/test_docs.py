"""The README and docs/ as a newcomer meets them: every relative link
resolves, to a file of the repository and, with #anchor, to one of its headings; every
shell block either names the test that runs it or says why it is not run; the README
stays a front door; and no module cites a file the repository does not have."""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest

from tests.support import REPO_ROOT

REPO = REPO_ROOT
PAGES = sorted(
    [REPO / "README.md", REPO / "FINDINGS.md", REPO / "ERRATA.md", REPO / "CONTRACT.md", *(REPO / "docs").glob("*.md")]
)
SHELL = ("bash", "sh", "shell", "console")
# a shell block's first line is preceded (blank lines aside) by one of these comments
RUN_BY = re.compile(r"<!-- shell: run by ((?:[\w./-]+::\w+|\.ci/run)(?:, (?:[\w./-]+::\w+|\.ci/run))*) -->")
NOT_RUN = re.compile(r"<!-- shell: not run: (.{10,}?) -->")
README_WORDS = 1500


def fenced_blocks(text: str):
    """(line number, info string, indentation, the lines before it) of every fenced block."""
    lines = text.splitlines()
    inside = None
    for number, line in enumerate(lines, start=1):
        match = re.match(r"^(\s*)(`{3,})(.*)$", line)
        if not match:
            continue
        if inside is None:
            inside = match.group(2)
            yield number, match.group(3).strip(), match.group(1), lines[: number - 1]
        elif match.group(2) == inside:
            inside = None


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: markup dropped, lower case, punctuation removed but for
    hyphens and underscores, spaces as hyphens."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = text.replace("\\", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The targets a link `path#anchor` may name: its headings' slugs and its HTML anchors
    (`<a id="S7"></a>`, the numbered conventions of docs/spec.md)."""
    seen: dict[str, int] = {}
    text = path.read_text(encoding="utf-8")
    found = set(re.findall(r'<a id="([\w-]+)"></a>', text))
    in_block = False
    for line in text.splitlines():
        if re.match(r"^\s*`{3,}", line):
            in_block = not in_block
            continue
        match = None if in_block else re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if match:
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(text: str):
    """Markdown links and images outside code: (target, line number)."""
    in_block = False
    for number, line in enumerate(text.splitlines(), start=1):
        if re.match(r"^\s*`{3,}", line):
            in_block = not in_block
            continue
        if in_block:
            continue
        line = re.sub(r"`[^`]*`", "", line)
        for match in re.finditer(r"(?<!\\)!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", line):
            yield match.group(1), number


def broken_links(page: Path, root: Path = REPO) -> list[str]:
    wrong = []
    for target, number in links(page.read_text(encoding="utf-8")):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        path_part, _, anchor = target.partition("#")
        resolved = (page.parent / path_part).resolve() if path_part else page
        where = f"{page.relative_to(root)}:{number}: {target}"
        if not resolved.exists():
            wrong.append(f"{where} (no such file)")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            wrong.append(f"{where} (no heading with anchor #{anchor})")
    return wrong


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_relative_links_resolve(page):
    assert not broken_links(page), "\n".join(broken_links(page))


def test_a_broken_link_is_found(tmp_path):
    (tmp_path / "a.md").write_text("# Top\n\n## A section\n\ntext\n")
    page = tmp_path / "b.md"
    page.write_text(
        "[ok](a.md#a-section) [gone](missing.md) [bad](a.md#no-such) [self](#here)\n\n## Here\n"
        "```bash\n[not a link](nowhere.md)\n```\n"
    )
    wrong = broken_links(page, tmp_path)
    assert [w.split(": ", 1)[1] for w in wrong] == [
        "missing.md (no such file)",
        "a.md#no-such (no heading with anchor #no-such)",
    ]


def test_slugs_follow_github():
    assert slug("Check your own implementation (five minutes)") == "check-your-own-implementation-five-minutes"
    assert slug("The pieces (`reference/`)") == "the-pieces-reference"
    assert (
        slug("proofs_check: the paper's algebra, decided by machine")
        == "proofs_check-the-papers-algebra-decided-by-machine"
    )
    assert slug("CALruption at |H| in the thousands") == "calruption-at-h-in-the-thousands"


def _marker(before: list[str]) -> str | None:
    for line in reversed(before):
        if line.strip():
            return line.strip()
    return None


def shell_blocks():
    for page in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        for number, info, _, before in fenced_blocks(page.read_text(encoding="utf-8")):
            if info.split()[:1] and info.split()[0] in SHELL:
                yield page, number, _marker(before)


@pytest.mark.parametrize(
    "page, number, marker",
    [pytest.param(*block, id=f"{block[0].relative_to(REPO)}:{block[1]}") for block in shell_blocks()],
)
def test_every_shell_block_is_run_or_says_why_not(page, number, marker):
    """The marker right above a block names the tests that run its commands (each must
    exist), or says why it is not run (a placeholder for the reader's own module, minutes
    of work, a file it would rewrite)."""
    where = f"{page.relative_to(REPO)}:{number}"
    run_by = RUN_BY.fullmatch(marker or "")
    if run_by is None:
        assert NOT_RUN.fullmatch(marker or ""), (
            f"{where}: a shell block needs '<!-- shell: run by tests/FILE.py::TEST -->' or "
            f"'<!-- shell: not run: REASON -->' on the line above it, found {marker!r}"
        )
        return
    for name in run_by.group(1).split(", "):
        if name == ".ci/run":
            assert (REPO / ".ci" / "run").is_file()
            continue
        file, test = name.split("::")
        tree = ast.parse((REPO / file).read_text(encoding="utf-8"))
        defined = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        assert test in defined, f"{where}: {file} has no test {test}"


def test_readme_is_a_front_door():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    words = len(re.sub(r"<!--.*?-->", "", text, flags=re.S).split())
    assert words <= README_WORDS, f"README.md has {words} words, over {README_WORDS}"
    linked = {target.partition("#")[0] for target, _ in links(text)}
    for page in (REPO / "docs").glob("*.md"):
        assert f"docs/{page.name}" in linked, f"docs/{page.name} is not reachable from README.md"
    assert "docs/dependencies.md" in linked  # the project's rules: a dependency table reachable from README


def test_modules_cite_only_files_the_repository_has():
    """A check or module that cites a document names one a reader of the repository can open
    (DESIGN.md and TOOLING.md live outside it; CONTRACT.md carries the design)."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    tracked = set(filter(None, listed.decode().split("\0")))
    names = {Path(name).name for name in tracked}
    missing = []
    for name in sorted(tracked):
        if name.endswith(".py") and name.split("/")[0] in ("properties", "reference", "fast", "proofs_check"):
            for cited in set(re.findall(r"\b([\w./-]*[A-Za-z]\.md)\b", (REPO / name).read_text(encoding="utf-8"))):
                if cited not in tracked and Path(cited).name not in names:
                    missing.append(f"{name}: {cited}")
    assert not missing, "cited files not in the repository:\n" + "\n".join(missing)
