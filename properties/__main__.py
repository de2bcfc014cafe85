import sys

if sys.argv[1:2] == ["answer"]:
    # a program answering one request per process (docs/protocol.md) starts often: it
    # skips the command line's imports (Hypothesis, the strategies, the checks)
    from properties.judge.answer import command_line

    sys.exit(command_line(sys.argv[2:]))

# importing reference first makes Ctrl-C and SIGTERM one line and 130 / 143 while the
# command line's modules load (reference.command_line.stop_early_in_a_command)
from properties.cli import main
from reference.command_line import exit_now

exit_now(main())
