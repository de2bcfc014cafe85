import sys

if sys.argv[:1] == ["-m"]:
    # `python -m proofs_check` starting: reference first, so that Ctrl-C from here on is one
    # line and 130 (reference.command_line.stop_early_in_a_command)
    import reference.command_line  # noqa: F401
