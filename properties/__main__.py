import sys

if sys.argv[1:2] == ["answer"]:
    # a program answering one request per process (docs/protocol.md) starts often: it
    # skips the command line's imports (Hypothesis, the strategies, the checks)
    from .answer import command_line

    sys.exit(command_line(sys.argv[2:]))

from .cli import main

sys.exit(main())
