"""``python -m tfr_viewer`` runs the command line."""

import sys

from .cli import main

if __name__ == "__main__":  # also keeps child processes from re-running the command
    sys.exit(main())
