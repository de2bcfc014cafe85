"""What the paper says, as checks: one module per part of the paper -- RobustCAL
(robust_cal), CALruption's trace (calruption), its events and one epoch
(calruption_events), Catoni's estimator (catoni), the lemmas (lemmas), the conditional
statements about passive learning and Theorem 4.1 (conditional), the corruption
population (corruption_population), the sampler (sampler), boundary cases (boundary)
and the cross-check against the reference (crosscheck) -- with the registry that
collects them, the causes of expected failures, the free-choice table, and the
judgement of float candidates (judgement, formulas, tolerances, catoni_sign). May import
`reference`, `properties.core` and `properties.strategies`; never the judge's process
machinery (`properties.judge`), the reports or the runner."""
