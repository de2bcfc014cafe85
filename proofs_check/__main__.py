# importing reference first makes Ctrl-C and SIGTERM one line and 130 / 143 while the
# command line's modules load (reference.interrupts.stop_early_in_a_command)
import sys

from reference.extras import MissingExtra
from reference.interrupts import exit_now

try:
    from .cli import main
except MissingExtra as error:  # z3 (the `proofs` extra) not installed: one line, not a traceback
    print(f"error: {error}", file=sys.stderr)
    exit_now(2)

exit_now(main())
