"""Every command over a few hundred hostile inputs (the full cross product is
``make fuzz``): no traceback, no hang, exit 1 only where it means "problems found",
and an exit 2 says why in one line."""

from __future__ import annotations

from dataclasses import replace

from tests.hostile.commands import COMMANDS, run


def test_every_command_over_hostile_inputs_fails_cleanly():
    summary = run(seed=11, inputs=300)
    assert summary["runs"] >= 600
    assert summary["failures"] == []


def test_the_runner_catches_a_traceback(monkeypatch):
    """A command that raises is a failure of the run, not a pass."""
    import tfr_viewer.commands.records as records

    def broken(args):  # noqa: ANN001, ANN202
        raise RuntimeError("a bug")

    monkeypatch.setitem(records.COMMANDS, "info", replace(records.COMMANDS["info"], run=broken))
    summary = run(seed=11, inputs=2)
    assert any("RuntimeError: a bug" in f for f in summary["failures"])
    assert COMMANDS[0][0] == ("info",)
