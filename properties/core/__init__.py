"""The suite's shared vocabulary, below every other part: what a violation is
(violation), the candidate contract and its decoding (contract, plain, representations),
what a candidate is and how a check calls it in this process (candidate), a case
(case), the one-epoch helpers (epochs), Hypothesis steering and profiles (steering,
profiles), the run's time budget (budget), check outcomes (outcomes), JSON files
(jsonfile) and the progress line (progress). May import `reference` and third-party
packages only -- never another part of `properties`; a constant two parts share moves
down here instead of sideways."""
