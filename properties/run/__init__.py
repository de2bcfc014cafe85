"""Running checks against a candidate: one check under Hypothesis (runner) and the
replay of a saved failure (replay). The layer that joins the parts: may import
`reference`, `properties.core`, `properties.strategies`, `properties.checks`,
`properties.judge` and `properties.reports`; only the CLI, the plugin, the Python API
and the campaigns import it."""
