"""Every encoded step, collected from one module per part of the paper."""
from __future__ import annotations

import importlib

from ..step import Step

# One module per part of the paper; each defines STEPS, a tuple of Step in paper order.
PART_MODULES = (
    "passive",          # Section 3, Theorem 3.1 and its proof (Appendix B); Appendix A
    "robust_cal",       # Section 4, Theorem 4.1, Lemma C.1 (Appendix C.1); the counter-example (C.2)
    "catoni",           # Appendix D.2-D.3: Catoni's concentration, the choice of alpha, the events
    "calruption_gap",   # Appendix D.4: estimation, upper- and lower-bound lemmas, their induction
    "calruption_main",  # Appendix D.5-D.6: the auxiliary lemma, the main proof's sums and correctness
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
    return tuple(steps)


def select(steps, only: str | None):
    """Steps whose id equals `only` or starts with `only` + "." ; or whose lemma is `only`."""
    if not only:
        return tuple(steps)
    return tuple(s for s in steps if s.id == only or s.id.startswith(only + ".") or s.lemma == only)
