"""How a candidate is loaded and run outside the judge's own process: the worker
process that hosts an imported candidate (isolation, worker), a candidate that is a
program speaking docs/protocol.md (command) and its processes (processes), loading any
candidate (load), the suite's own answerer and serve mode (answer), and the conformance
kit for program authors (conformance). May import `reference` and `properties.core`
only: the judge never imports a check, a strategy or a report."""
