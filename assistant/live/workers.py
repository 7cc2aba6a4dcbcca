"""Heavy work off the server's interpreter: photo analysis in worker processes, each job within
a time budget.

Photo analysis is seconds of CPU in NumPy and OpenCV, and much of it holds Python's GIL: on a
thread of the server it slowed every other phone's answer (issue 29: 71-272 ms waits for a
light request while a 2.2 MB photo was read). Here it runs in a process of its own, started with
``spawn`` (a fresh interpreter: nothing of the server's threads, locks or open game files is
copied into it) when the first photo comes (``serve`` starts as fast as before), and kept for
the next one. A job crosses as plain data (a function named by its module, its arguments
pickled: the position, the photo's bytes) and its answer comes back the same way.

A job over its budget (:data:`BUDGET` seconds, wall clock) is not waited for: its worker is
killed and the next job gets a new one (:class:`Overrun`). A worker that dies mid-job (a crash in
a native library, the system's out-of-memory killer) is :class:`Crashed`; the next job gets a
new one too. A refusal the job raises (:class:`~assistant.errors.AssistantError`: not an image,
too large, ...) comes back as :class:`Refused` with its message; any other error as
:class:`Broken` with its type's name. A worker whose server is gone (even by ``kill -9``) reads
the end of its pipe and exits.
"""

from __future__ import annotations

import importlib
import multiprocessing
import pickle
import threading
import weakref
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from ..errors import AssistantError

#: seconds (wall clock) one job may take: the photo pipeline's own work budget is about 2 CPU-s
#: (photo/budget.py) and decoding a 64 MP photo about as much again; a loaded two-core server
#: runs it at half speed or less, so 30 s is far past any photo that can be read
BUDGET = 30.0
#: seconds a new worker may take to start (a fresh interpreter importing NumPy and OpenCV)
START = 60.0
#: the modules a worker imports before it says it is ready (so that the budget counts the job)
PRELOAD = ("assistant.photo", "assistant.photo.compare", "assistant.photo.reference")


class WorkerError(Exception):
    """A job that gave no answer (the pool's own failures, not the job's refusals)."""


class Overrun(WorkerError):
    """The job ran past its budget: its worker was killed."""

    def __init__(self, budget: float):
        super().__init__(f"the job ran past its budget of {budget:g} s")
        self.budget = budget


class Crashed(WorkerError):
    """The worker died before it answered (its exit code, when it has one)."""

    def __init__(self, exitcode: int | None):
        super().__init__(f"the worker process died (exit code {exitcode})")
        self.exitcode = exitcode


class Refused(Exception):
    """The job refused its input (an :class:`AssistantError` in the worker): its message."""


class Broken(Exception):
    """The job failed with another error: the error's type name (the worker logged nothing)."""


def _serve(conn: Connection, preload: tuple[str, ...]) -> None:
    """A worker's loop: (function, arguments) in, ("ok", answer) / ("refused", text) /
    ("broken", type name) out, until the server closes its end."""

    for name in preload:
        importlib.import_module(name)
    conn.send(("ready", None))
    while True:
        try:
            func, args = conn.recv()
        except (EOFError, OSError):  # the server is gone (or closed the pool)
            return
        try:
            out: tuple[str, Any] = ("ok", func(*args))
        except AssistantError as exc:
            out = ("refused", str(exc))
        except Exception as exc:  # any failure of the job is answered: the worker lives on
            out = ("broken", type(exc).__name__)
        try:
            conn.send(out)
        except (TypeError, ValueError, AttributeError) as exc:  # an answer that does not pickle
            conn.send(("broken", type(exc).__name__))


class _Worker:
    def __init__(self, process: BaseProcess, conn: Connection):
        self.process, self.conn = process, conn

    def kill(self) -> None:
        self.conn.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)


class Pool:
    """Up to ``size`` worker processes, started when first needed; :meth:`run` is blocking
    (call it on a thread: the web app's photo slots bound how many at once)."""

    def __init__(self, size: int = 1, budget: float | None = None, preload: tuple[str, ...] = PRELOAD):
        self.size, self._budget, self.preload = size, budget, preload
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self._lock = threading.Lock()
        self.started = 0  # workers started so far (a test sees a killed one replaced)
        weakref.finalize(self, _kill_all, self._all)

    @property
    def budget(self) -> float:
        return BUDGET if self._budget is None else self._budget

    def _start(self) -> _Worker:
        ctx = multiprocessing.get_context("spawn")
        ours, theirs = ctx.Pipe()
        proc = ctx.Process(target=_serve, args=(theirs, self.preload), daemon=True, name="assistant-photo")
        proc.start()
        theirs.close()  # only the worker holds its end: its death is an EOF here
        worker = _Worker(proc, ours)
        try:
            if not ours.poll(START) or ours.recv()[0] != "ready":
                raise Crashed(proc.exitcode)
        except (EOFError, OSError):
            worker.kill()
            raise Crashed(proc.exitcode) from None
        except Crashed:
            worker.kill()
            raise
        with self._lock:
            self._all.add(worker)
            self.started += 1
        return worker

    def _take(self) -> _Worker:
        with self._lock:
            while self._idle:
                w = self._idle.pop()
                if w.process.is_alive():
                    return w
                self._drop(w)
        return self._start()

    def _drop(self, w: _Worker) -> None:
        self._all.discard(w)
        w.kill()

    def run(self, func: Callable[..., Any], args: tuple[Any, ...], budget: float | None = None) -> Any:
        """``func(*args)`` in a worker: its answer, or :class:`Refused` / :class:`Broken` (the
        job's failure) or :class:`Overrun` / :class:`Crashed` (no answer; the worker is gone)."""
        limit = self.budget if budget is None else budget
        w = self._take()
        try:
            job = pickle.dumps((func, args))
        except (pickle.PicklingError, TypeError, AttributeError) as exc:  # not plain data: the worker never saw it
            with self._lock:
                self._idle.append(w)
            raise Broken(type(exc).__name__) from None
        try:
            w.conn.send_bytes(job)
            if not w.conn.poll(limit):
                with self._lock:
                    self._drop(w)
                raise Overrun(limit)
            kind, value = w.conn.recv()
        except (EOFError, OSError):
            with self._lock:
                self._drop(w)
            raise Crashed(w.process.exitcode) from None
        with self._lock:
            if len(self._idle) < self.size:
                self._idle.append(w)
            else:
                self._drop(w)
        if kind == "refused":
            raise Refused(value)
        if kind == "broken":
            raise Broken(value)
        return value

    def close(self) -> None:
        """Stop every worker (the server is ending)."""
        with self._lock:
            self._idle.clear()
            _kill_all(self._all)


def _kill_all(workers: set[_Worker]) -> None:
    for w in list(workers):
        w.kill()
    workers.clear()
