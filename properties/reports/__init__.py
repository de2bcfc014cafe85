"""What a run leaves behind, as documents: check and cross-check reports (report,
crosscheck_report), JUnit XML (junit), comparing two reports (compare), saved failures
(saved, crosscheck_failures), the xfails and skips files (xfails_file), the report files
(report_files), and what a first run says: the short form of failures (failure_lines), the
declared arithmetic (declared_arithmetic, float_evidence) and the import-path hint
(import_hints). May import `reference`, `properties.core`, the list of check ids
(`properties.checks.registry`) and the free-choice table (`properties.checks.free_choices`);
never a check's or the judge's internals -- a constant shared with them lives in
`properties.core`."""
