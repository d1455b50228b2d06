"""Entry point of the frozen bundle: the same command line as the ``tfr-viewer`` script."""

from tfr_viewer.cli import run

if __name__ == "__main__":  # child processes of a frozen bundle must not re-run the command
    run()
