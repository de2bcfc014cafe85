"""Every encoded step, collected from one module per part of the paper."""
from __future__ import annotations

import dataclasses
import importlib

from ..step import ILL_FORMED, REPAIR_SUFFIX, Step

# One module per part of the paper; each defines STEPS, a tuple of Step in paper order.
PART_MODULES = (
    "passive",          # Section 3, Theorem 3.1 and its proof (Appendix B); Appendix A
    "robust_cal",       # Section 4, Theorem 4.1, Lemma C.1 (Appendix C.1); the counter-example (C.2)
    "catoni",           # Appendix D.2-D.3: Catoni's concentration, the choice of alpha, the events
    "calruption_gap",   # Appendix D.4: estimation, upper- and lower-bound lemmas, their induction
    "calruption_main",  # Appendix D.5-D.6: the auxiliary lemma, the main proof's sums and correctness
    "corrected",        # not printed: each theorem's chain re-run from its repaired links (ERRATA.md)
)


def all_steps() -> tuple[Step, ...]:
    steps = []
    for name in PART_MODULES:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{__name__}.{name}":
                continue  # a part not encoded yet; coverage reports what it leaves out
            raise
        steps.extend(module.STEPS)
    seen = set()
    for step in steps:
        if step.id in seen:
            raise ValueError(f"id: duplicate step id {step.id!r}")
        seen.add(step.id)
    from .uses import USES

    steps = [_with_uses(s, USES.get(s.id, ())) for s in steps]
    unknown = sorted(set(USES) - seen)
    if unknown:
        raise ValueError(f"uses: the table names steps that do not exist: {unknown}")
    check_graph(steps)
    return tuple(steps)


def _with_uses(step: Step, extra) -> Step:
    if not extra:
        return step
    if step.uses:
        raise ValueError(f"uses: step {step.id} has uses both inline and in steps/uses.py")
    return dataclasses.replace(step, uses=tuple(extra))


def check_graph(steps) -> None:
    """`uses` and `reading_of` name existing steps, ID#repair only a step with a Repair, no
    step relies on an ill-formed line (only on its repaired reading), and no cycles."""
    by_id = {s.id: s for s in steps}
    for s in steps:
        if s.reading_of and s.reading_of not in by_id:
            raise ValueError(f"reading_of: step {s.id} names no step {s.reading_of!r}")
        for use in s.uses:
            base = use.removesuffix(REPAIR_SUFFIX)
            if base not in by_id:
                raise ValueError(f"uses: step {s.id} names no step {use!r}")
            if use != base and by_id[base].repair is None:
                raise ValueError(f"uses: step {s.id} names {use!r} but {base} has no Repair")
            if by_id[base].kind == ILL_FORMED:
                raise ValueError(f"uses: step {s.id} relies on the ill-formed line {base}; name its repaired reading")
    state: dict[str, int] = {}  # 1 = on the current path, 2 = finished

    def visit(step_id, path):
        if state.get(step_id) == 2:
            return
        if state.get(step_id) == 1:
            raise ValueError(f"uses: cycle {' -> '.join((*path, step_id))}")
        state[step_id] = 1
        for use in by_id[step_id].uses:
            visit(use.removesuffix(REPAIR_SUFFIX), (*path, step_id))
        state[step_id] = 2

    for s in steps:
        visit(s.id, ())


def select(steps, only: str | None):
    """Steps whose id equals `only` or starts with `only` + "." ; or whose lemma is `only`."""
    if not only:
        return tuple(steps)
    return tuple(s for s in steps if s.id == only or s.id.startswith(only + ".") or s.lemma == only)
