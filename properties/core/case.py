"""A generated test case: instance, adversary, seed and parameters (the tape follows)."""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass
from functools import cached_property

from properties.core.example_types import tagged
from reference import Adversary, Instance, Params, sample_tape
from reference.report_vocabulary import CASE_TAG
from reference.serialization import from_jsonable, to_jsonable

# the last tapes sampled, by the identity of their (immutable) instance and adversary: the
# cases of one experiment that differ only in their parameters (Appendix C.2's
# counter-example runs RobustCAL under Params.paper and CALruption under Params.scaled on
# the same tape) sample it once
TAPES_KEPT = 8
_tapes: OrderedDict = OrderedDict()


def shared_tape(instance: Instance, adversary: Adversary, seed: int):
    """sample_tape(instance, adversary, seed), sampled once for the same instance and
    adversary objects among the last TAPES_KEPT."""
    key = (id(instance), id(adversary), seed)
    kept = _tapes.get(key)
    if kept is not None and kept[0] is instance and kept[1] is adversary:
        _tapes.move_to_end(key)
        return kept[2]
    tape = sample_tape(instance, adversary, seed)
    _tapes[key] = (instance, adversary, tape)  # the objects themselves: their ids stay theirs
    while len(_tapes) > TAPES_KEPT:
        _tapes.popitem(last=False)
    return tape


@tagged(CASE_TAG)
@dataclass(frozen=True)
class Case:
    instance: Instance
    adversary: Adversary
    seed: int
    params: Params

    @cached_property
    def tape(self):
        return shared_tape(self.instance, self.adversary, self.seed)

    def with_params(self, params: Params) -> Case:
        """The same instance, adversary and seed under other parameters: the same tape
        (it does not depend on the parameters), sampled once for both."""
        other = Case(self.instance, self.adversary, self.seed, params)
        other.__dict__["tape"] = self.tape  # where cached_property keeps it
        return other

    def to_json(self) -> dict:
        return {
            "instance": self.instance.to_json(),
            "adversary": self.adversary.to_json(),
            "seed": self.seed,
            "params": to_jsonable(self.params),
        }

    @classmethod
    def from_json(cls, data) -> Case:
        return cls(
            Instance.from_json(data["instance"]),
            Adversary.from_json(data["adversary"]),
            data["seed"],
            from_jsonable(Params, data["params"], "params"),
        )

    def reproducer(self) -> str:
        """A line of Python that rebuilds this case (after `import json, properties.core.case`)."""
        return f"properties.core.case.Case.from_json(json.loads({json.dumps(json.dumps(self.to_json()))}))"

    def __repr__(self) -> str:  # what Hypothesis prints for a falsifying example
        return f"Case.from_json({json.dumps(self.to_json())})"
