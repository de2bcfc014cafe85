# importing reference first makes Ctrl-C and SIGTERM one line and 130 / 143 while the
# command line's modules load (reference.command_line.stop_early_in_a_command)
from reference.command_line import exit_now

from .cli import main

exit_now(main())
