# importing reference first makes Ctrl-C and SIGTERM one line and 130 / 143 while the
# command line's modules load (reference.command_line.stop_early_in_a_command)
import sys

from reference.command_line import MissingExtra, exit_now

try:
    from .cli import main
except MissingExtra as error:  # z3 (the `proofs` extra) not installed: one line, not a traceback
    print(f"error: {error}", file=sys.stderr)
    exit_now(2)

exit_now(main())
