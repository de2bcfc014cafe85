"""Campaigns: property fuzzing and Monte-Carlo experiments as many independent tasks on
Dask distributed (an embedded LocalCluster by default, or an existing cluster), with a
shared Hypothesis example database and a results file that a re-run resumes.

    python -m properties campaign fuzz ...        # (check, seed block) tasks
    python -m properties campaign experiment ...  # (experiment, setting, n, replicate) tasks
    python -m properties campaign summary ...     # aggregate a results file (and plot it)

Modules: `seeds` (task randomness from (master seed, task key) only), `results` (the JSON
lines file, resume), `experiments` (the Monte-Carlo specs and their tasks), `fuzz`
(checks as tasks, the example database), `worker` (the candidate a worker process's tasks
share), `cluster` (Dask: submit, collect, stop), `plots` (matplotlib, the optional `plots`
extra), `cli`. May import every other part of `properties` (core, strategies, checks,
judge, reports, run); only the CLI on top imports a campaign."""
