"""``python -m tfr_viewer`` runs the command line."""

from .cli import run

if __name__ == "__main__":  # also keeps child processes from re-running the command
    run()
