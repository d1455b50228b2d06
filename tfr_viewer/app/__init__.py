"""The application layer: one operation per verb, under every front end.

An operation takes a frozen request and a :class:`~.task_state.TaskState` (how it tells
its progress, and how a front end stops it) and returns a typed report with one
``to_json()``: what the command line prints with ``--json``, what the Python API
returns, what the window shows. The front ends build requests (from arguments, keyword
arguments or a dialog) and render reports; the policies they share (how a dataset is
indexed for a purpose) live here once. Qt-free: the core below, the front ends above.
"""
