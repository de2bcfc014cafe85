"""Which results of the paper have encoded steps: every lemma, theorem, proposition and
corollary environment of the .tex, keyed by its \\label (or, for the few without one, by
"unlabeled: " and its first words), must have a step or a written reason in NO_STEPS."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

ENVIRONMENTS = ("lemma", "theorem", "proposition", "corollary")
_BEGIN = re.compile(r"\\begin\{(" + "|".join(ENVIRONMENTS) + r")\}")
_LABEL = re.compile(r"\\label\{([^}]*)\}")


def paper_path() -> Path:
    """The paper's .tex: $CRAL_PAPER, else ../shared/paper/ beside the checkout."""
    if os.environ.get("CRAL_PAPER"):
        return Path(os.environ["CRAL_PAPER"])
    return Path(__file__).resolve().parents[2] / "shared" / "paper" / "corruption_robust_active_learning.tex"


@dataclass(frozen=True)
class Result:
    key: str
    environment: str
    line: int


def _first_words(body: str, count: int = 6) -> str:
    body = re.sub(r"^\s*(\[[^\]]*\]|\([^)]*\))", "", body)  # an optional title
    text = re.sub(r"\s+", " ", body).strip()
    return " ".join(text.split(" ")[:count])


def paper_results(text: str | None = None) -> list[Result]:
    text = paper_path().read_text(encoding="utf-8") if text is None else text
    results = []
    for match in _BEGIN.finditer(text):
        env = match.group(1)
        end = text.index(f"\\end{{{env}}}", match.end())
        body = text[match.end() : end]
        label = _LABEL.search(body)
        line = text.count("\n", 0, match.start()) + 1
        key = label.group(1) if label else UNLABELED.get(_first_words(body), "unlabeled: " + _first_words(body))
        results.append(Result(key, env, line))
    return results


# The paper's results without a \label, by their first words, named for readers.
UNLABELED = {
    "When $R^* \\gg 0$ and the": "unlabeled: Proposition (Why vanilla Robust CAL does not work?)",
    "$\\fP(\\calE_{est}) \\geq 1-\\delta/3$": "unlabeled: P(E_est) >= 1 - delta/3",
    "$\\fP(\\calE_{gap1}) \\geq 1-\\delta/3,\\fP(\\calE_{gap2}) \\geq 1-\\delta/3$": "unlabeled: P(E_gap1) >= 1 - delta/3, P(E_gap2) >= 1 - delta/3",
}
SNAPSHOT = Path(__file__).with_name("paper_results.json")


def paper_labels(text: str | None = None) -> list[str]:
    """Every \\label of the paper (results, algorithms, lines): a step about an algorithm's
    line (e.g. condition (1)) names that line's label."""
    text = paper_path().read_text(encoding="utf-8") if text is None else text
    return sorted(set(_LABEL.findall(text)))


def snapshot() -> tuple[list[Result], list[str]]:
    """The results and labels as extracted when the paper was last at hand (CI clones
    the repo without ../shared): `python -m proofs_check.coverage` rewrites it."""
    data = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    return [Result(**r) for r in data["results"]], data["labels"]


def write_snapshot() -> None:
    data = {"results": [r.__dict__ for r in paper_results()], "labels": paper_labels()}
    SNAPSHOT.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


# Results with no encoded step, each with the reason. Filled in as the parts are encoded.
NO_STEPS: dict[str, str] = {}


if __name__ == "__main__":
    write_snapshot()
    print(f"wrote {SNAPSHOT}")
