"""A generated test case: instance, adversary, seed and parameters (the tape follows)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property

from reference import Adversary, Instance, Params, sample_tape
from reference.serialization import from_jsonable, to_jsonable


@dataclass(frozen=True)
class Case:
    instance: Instance
    adversary: Adversary
    seed: int
    params: Params

    @cached_property
    def tape(self):
        return sample_tape(self.instance, self.adversary, self.seed)

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
        """A line of Python that rebuilds this case. It names the module as before issue 32
        (`properties.case`, which still imports as this module: properties.MOVED) so that the
        reproducers in reports, and `compare` between reports, stay as they were."""
        return f"properties.case.Case.from_json(json.loads({json.dumps(json.dumps(self.to_json()))}))"

    def __repr__(self) -> str:  # what Hypothesis prints for a falsifying example
        return f"Case.from_json({json.dumps(self.to_json())})"
