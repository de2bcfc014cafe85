import sys

if sys.argv[1:2] == ["answer"]:
    # a program answering one request per process (docs/protocol.md) starts often: it
    # skips the command line's imports (Hypothesis, the strategies, the checks)
    from .answer import command_line

    sys.exit(command_line(sys.argv[2:]))

from reference.interrupts import exit_now

try:  # Ctrl-C while the command line's modules load: the same one line as later
    from .cli import main
except KeyboardInterrupt:
    print("interrupted (Ctrl-C): stopped, no verdict", file=sys.stderr)
    exit_now(130)

exit_now(main())
