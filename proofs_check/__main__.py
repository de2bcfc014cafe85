import sys

from reference.interrupts import exit_now

try:  # Ctrl-C while the command line's modules load: the same one line as later
    from .cli import main
except KeyboardInterrupt:
    print("interrupted (Ctrl-C): stopped, no verdict", file=sys.stderr)
    exit_now(130)

exit_now(main())
