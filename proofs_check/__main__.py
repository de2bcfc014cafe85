import sys

try:  # Ctrl-C while the command line's modules load: the same one line as later
    from .cli import main
except KeyboardInterrupt:
    print("interrupted (Ctrl-C): stopped, no verdict", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
