"""Entry point of the frozen bundle: the same command line as the ``tfr-viewer`` script."""

import sys

from tfr_viewer.cli import main

if __name__ == "__main__":  # child processes of a frozen bundle must not re-run the command
    sys.exit(main())
