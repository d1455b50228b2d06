"""Implementations of the CLI subcommands over the core (no Qt)."""
