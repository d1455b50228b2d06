"""``python -m tfr_viewer`` runs the command line."""

import sys

from .cli import main

sys.exit(main())
