"""A child job run here, in a thread, over a real pipe: the messages it sends."""

from __future__ import annotations

import multiprocessing
import threading


def collect(target, payload=None, args=()):
    parent, child = multiprocessing.Pipe(duplex=True)
    if payload is not None:
        parent.send(payload)
    worker = threading.Thread(target=target, args=(child, *args))
    worker.start()
    messages = []
    while True:
        try:
            messages.append(parent.recv())
        except EOFError:
            break
    worker.join()
    return messages
