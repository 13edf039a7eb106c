"""tilekit from Python: solve, export and verify tile puzzles.

The functions here run the ``tilekit`` command that this package installs (the Rust binary
itself, built from the same checkout), so every option is the command's flag of the same
name, parsed and checked by the command: ``time_limit=60`` is ``--time-limit 60``,
``via="sat"`` is ``--via sat``, ``certify=True`` is ``--certify``, a list repeats its flag
(``set=["beam.width=64", "seed=3"]``), and ``output=`` is ``-o``. Messages are the command's
own, so they name options by their flags.

Each call is one run of the command in a child process: the GIL is free while it runs, a
``KeyboardInterrupt`` stops it the way Ctrl-C stops the command (its solver processes killed,
its temporary files removed) and is raised again, and nothing of the Rust side (a panic
included) can bring down the interpreter.

>>> import tilekit
>>> report = tilekit.solve("models/sliding/neos_case_study.txt")
>>> report["objective"], report["moves"], report["verified"]
(11.0, 'LLUUURRRDDD', True)
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

from ._mps import Milp, read_mps

__all__ = [
    "TilekitError",
    "InputError",
    "SolverError",
    "solve",
    "export",
    "export_set",
    "verify",
    "command",
    "binary",
    "version",
    "Milp",
    "read_mps",
    "to_scipy",
    "to_highspy",
]

#: A file on disk, as a string or a path.
PathLike = Union[str, "os.PathLike[str]"]
#: An instance: a path, a built-in set's member (``"korf100:1"``, ``"meta2010:5"``), the
#: instance file's text, a sliding board as rows of tiles (0 the blank), or, with
#: ``family="edge"``, the pieces as rows of four colours (bottom, left, top, right).
Instance = Union[PathLike, Sequence[Sequence[int]]]
#: A solution: a path, the solution file's text (a raw solver output, a move file or a board),
#: a plan as a sequence of moves (``["L", "L", "U"]``), or an edge board as rows of cells,
#: each ``(piece, rotation)`` or ``None`` for an empty cell.
Solution = Union[PathLike, Sequence[Any]]


class TilekitError(Exception):
    """A failed tilekit command: its message, its exit code, and the file and line the
    message names, when it names one."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        #: The command's message, as it prints it after ``tilekit:``.
        self.message: str = message
        #: The command's exit code (2 input or usage, 3 solver or system failure).
        self.exit_code: int = exit_code
        where = re.match(r"([^\s:][^:\n]*):(\d+):", message)
        #: The file the message names (``None`` when it names none).
        self.file: Optional[str] = where.group(1) if where else None
        #: The line of that file (``None`` when the message names none).
        self.line: Optional[int] = int(where.group(2)) if where else None


class InputError(TilekitError, ValueError):
    """A bad input or option (the command's exit code 2): the message names the file and
    line, or the option.

    >>> try:
    ...     tilekit.solve([[1, 2], [3, 9]])
    ... except tilekit.InputError as e:
    ...     print(e.line, "tile 9" in e.message)
    3 True
    """


class SolverError(TilekitError, RuntimeError):
    """A solver or system failure (the command's exit code 3), including an answer that
    fails tilekit's checks, a crash of the command, and a command that cannot be run."""


_BIN_ENV = "TILEKIT_BIN"
_binary: Optional[str] = None


def binary() -> str:
    """The ``tilekit`` command these functions run: ``$TILEKIT_BIN`` when set, else the one
    this package installed beside the interpreter, else the first on ``PATH``.

    >>> os.path.basename(tilekit.binary())
    'tilekit'
    """
    global _binary
    chosen = os.environ.get(_BIN_ENV)
    if chosen:
        return chosen
    if _binary is not None:
        return _binary
    dirs = [sysconfig.get_path("scripts"), os.path.dirname(sys.executable)]
    try:
        dirs.append(sysconfig.get_path("scripts", f"{os.name}_user"))
    except KeyError:
        pass
    for d in dirs:
        if not d:
            continue
        exe = os.path.join(d, "tilekit")
        if os.path.isfile(exe) and os.access(exe, os.X_OK):
            _binary = exe
            return exe
    found = shutil.which("tilekit")
    if found is None:
        raise SolverError(
            "the tilekit command is not installed beside this Python nor on PATH: "
            "reinstall the package, or set TILEKIT_BIN to the command",
            3,
        )
    _binary = found
    return found


def version() -> str:
    """The command's version, as ``tilekit --version`` prints it.

    >>> tilekit.version().startswith("tilekit ")
    True
    """
    return command(["--version"]).stdout.strip()


class Completed:
    """One run of the command: its exit code and what it printed."""

    def __init__(self, returncode: int, stdout: str, stderr: str) -> None:
        #: The exit code.
        self.returncode = returncode
        #: Standard output.
        self.stdout = stdout
        #: Standard error.
        self.stderr = stderr


def command(args: Sequence[str], *, check: bool = True) -> Completed:
    """Run ``tilekit ARGS...`` and return what it printed. With ``check`` (the default), an
    exit code of 2 raises :class:`InputError` and any other failure but 1 (the answer is
    "no") raises :class:`SolverError`. A ``KeyboardInterrupt`` meanwhile interrupts the
    command as Ctrl-C does and is raised again once it has cleaned up.

    >>> print(tilekit.command(["solve", "models/sliding/neos_case_study.txt"]).stdout, end="")
    11 moves, optimal (native via ida*, ...): LLUUURRRDDD
    """
    try:
        proc = subprocess.Popen(
            [binary(), *map(os.fspath, args)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    except OSError as e:
        raise SolverError(f"cannot run {binary()}: {e}", 3) from e
    try:
        out, err = proc.communicate()
    except BaseException:
        _interrupt(proc)
        raise
    done = Completed(
        proc.returncode,
        out.decode("utf-8", "replace"),
        err.decode("utf-8", "replace"),
    )
    if check:
        _check(done)
    return done


def _interrupt(proc: "subprocess.Popen[bytes]") -> None:
    """Stop the command as Ctrl-C does: it kills its solvers' process groups, removes its
    temporary files and exits. Killed outright only if it has not exited within 30 s."""
    try:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        try:
            proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
    except BaseException:
        # A second interrupt while the command cleans up: end it now, never leave it behind.
        proc.kill()
        proc.wait()
        raise


def _message(done: Completed) -> str:
    """The command's error message: the last ``tilekit:`` block on stderr."""
    lines = done.stderr.rstrip("\n").split("\n")
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].startswith("tilekit: "):
            text = "\n".join([lines[i][len("tilekit: ") :], *lines[i + 1 :]])
            return text.strip()
    return done.stderr.strip() or f"tilekit exited with code {done.returncode}"


def _check(done: Completed) -> None:
    code = done.returncode
    if code in (0, 1):
        return
    if code == 128 + signal.SIGINT:
        raise KeyboardInterrupt
    message = _message(done)
    if code == 2:
        raise InputError(message, code)
    if code < 0:
        message = f"tilekit was killed by signal {-code}: {message}"
    raise SolverError(message, code)


def _flags(options: Mapping[str, Any], reserved: Iterable[str] = ()) -> List[str]:
    """Options as the command's flags: ``name=value`` is ``--name value`` (underscores as
    dashes), ``True`` the bare flag, ``False`` and ``None`` nothing, a list or tuple the flag
    once per item, and ``output`` is ``-o``."""
    argv: List[str] = []
    for key, value in options.items():
        if key in reserved:
            raise TypeError(f"{key}= is not an option here: the function sets it itself")
        flag = "-o" if key == "output" else "--" + key.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            argv.append(flag)
            continue
        values = value if isinstance(value, (list, tuple)) else [value]
        for v in values:
            argv += [flag, os.fspath(v) if isinstance(v, os.PathLike) else str(v)]
    return argv


class _Scratch:
    """A temporary directory for the files a call hands the command (an instance given as a
    value or by a set's name, a solution given as text), removed afterwards."""

    def __init__(self) -> None:
        self._dir: Optional[tempfile.TemporaryDirectory[str]] = None
        #: Temporary files and what to call them in messages.
        self.labels: Dict[str, str] = {}

    def __enter__(self) -> "_Scratch":
        return self

    def __exit__(self, *exc: object) -> None:
        if self._dir is not None:
            self._dir.cleanup()

    @property
    def path(self) -> Path:
        if self._dir is None:
            self._dir = tempfile.TemporaryDirectory(prefix="tilekit-py-")
        return Path(self._dir.name)

    def write(self, name: str, text: str, label: str) -> str:
        p = self.path / name
        p.write_text(text, encoding="utf-8")
        self.labels[str(p)] = label
        return str(p)

    def relabel(self, e: TilekitError) -> TilekitError:
        """The error with its temporary file names replaced by what the caller gave."""
        message = e.message
        for p, label in self.labels.items():
            message = message.replace(p, label)
        if message == e.message:
            return e
        return type(e)(message, e.exit_code)


def _instance(inst: Instance, scratch: _Scratch, options: Dict[str, Any]) -> str:
    """The instance as the command takes it: a path, or a built-in set's member
    (``korf100:1``), which the command reads with the set's goal convention; text and
    board values are written to a temporary file."""
    if isinstance(inst, os.PathLike):
        return os.fspath(inst)
    if isinstance(inst, str):
        if "\n" in inst:
            return scratch.write("instance.txt", inst, "<instance text>")
        return inst
    rows = [list(r) for r in inst]
    if not rows or not all(isinstance(x, int) for r in rows for x in r):
        raise TypeError(
            "an instance value is rows of whole numbers: a sliding board's tiles, or with "
            "family='edge' the pieces' four colours"
        )
    if options.get("family") == "edge":
        text = "".join(" ".join(map(str, r)) + "\n" for r in rows)
    else:
        header = f"{len(rows)} {len(rows[0])}\n"
        text = header + "".join(" ".join(map(str, r)) + "\n" for r in rows)
    return scratch.write("instance.txt", text, "<board>")


def _solution(sol: Solution, scratch: _Scratch) -> str:
    """The solution as a file for the command: a path as it is, text or a value written to a
    temporary file."""
    if isinstance(sol, os.PathLike):
        return os.fspath(sol)
    if isinstance(sol, bytes):
        sol = sol.decode("utf-8")
    if isinstance(sol, str):
        if "\n" not in sol and os.path.isfile(sol):
            return sol
        return scratch.write("solution.txt", sol, "<solution text>")
    items = list(sol)
    if all(isinstance(m, str) for m in items):
        return scratch.write("solution.txt", "".join(items) + "\n", "<plan>")
    grid = [list(r) for r in items]
    lines = [f"{len(grid)} {len(grid[0]) if grid else 0}"]
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if cell is not None:
                piece, rot = cell
                lines.append(f"{r} {c} {int(piece)} {int(rot)}")
    return scratch.write("solution.txt", "\n".join(lines) + "\n", "<board>")


def _json_run(argv: List[str], scratch: _Scratch) -> Dict[str, Any]:
    """Run a ``--json`` command and return its object; errors raised as exceptions."""
    try:
        done = command([*argv, "--json", "--quiet"])
    except TilekitError as e:
        raise scratch.relabel(e) from None
    if done.stderr:
        sys.stderr.write(done.stderr)
    try:
        value = json.loads(done.stdout)
    except ValueError as e:
        raise SolverError(f"tilekit printed no JSON: {done.stdout[:200]!r}", 3) from e
    if not isinstance(value, dict):
        raise SolverError(f"tilekit printed no JSON object: {done.stdout[:200]!r}", 3)
    return value


def solve(instance: Instance, **options: Any) -> Dict[str, Any]:
    """Solve an instance and verify the answer: ``tilekit solve INSTANCE --json``'s report,
    with the same keys ("status", "objective", "optimal", "verified", "moves" for a sliding
    puzzle, ...: docs/src/reference/json.md). An answer of "no" (infeasible, nothing within
    the time limit) is a report too, with its status; ``output="plan.txt"`` also writes the
    verified solution there.

    >>> r = tilekit.solve("models/sliding/neos_case_study.txt", via="sat")
    >>> r["status"], r["objective"], r["moves"], r["verified"]
    ('solved', 11.0, 'LLUUURRRDDD', True)
    >>> tilekit.solve([[1, 2, 3], [4, 5, 6], [7, 0, 8]])["moves"]
    'R'
    """
    options = dict(options)
    with _Scratch() as scratch:
        path = _instance(instance, scratch, options)
        return _json_run(["solve", path, *_flags(options, ("json",))], scratch)


def verify(instance: Instance, solution: Solution, **options: Any) -> Dict[str, Any]:
    """Check a solution against an instance: ``tilekit verify --json``'s report. The solution
    is a path, the solution file's text (a raw solver output, a move file or a board), a
    plan as a sequence of moves, or an edge board as rows of ``(piece, rotation)`` cells.
    A wrong solution is a report with ``"valid": False`` and the errors found, not an
    exception.

    >>> tilekit.verify("models/sliding/neos_case_study.txt", "LLUUURRRDDD")["valid"]
    True
    >>> r = tilekit.verify("models/sliding/neos_case_study.txt", "LLUUURRRDD")
    >>> r["valid"], len(r["errors"]) > 0
    (False, True)
    """
    options = dict(options)
    with _Scratch() as scratch:
        inst = _instance(instance, scratch, options)
        sol = _solution(solution, scratch)
        return _json_run(["verify", inst, sol, *_flags(options, ("json",))], scratch)


def export(
    instance: Instance,
    model: Optional[str] = None,
    format: Optional[str] = None,
    **options: Any,
) -> str:
    """A model of the instance, as ``tilekit export`` writes it, as text. ``model`` and
    ``format`` are the command's (``format`` defaults to the model's own: lp for a MILP,
    cnf, wcnf, dimacs). Every format of a single export is text; compressed model files
    (gzip, xz) are what :func:`export_set` writes with ``compress="gz"`` or ``"xz"``.

    >>> lp = tilekit.export("models/sliding/neos_case_study.txt", model="tight",
    ...                     format="lp", horizon=13)
    >>> lp.startswith("\\\\") and "Minimize" in lp
    True
    """
    options = dict(options)
    with _Scratch() as scratch:
        path = _instance(instance, scratch, options)
        # Written to standard output, where the format is the one asked for, else the
        # model's own (a file's would come from its extension).
        argv = ["export", path, "--quiet"]
        if model is not None:
            argv += ["--model", model]
        if format is not None:
            argv += ["--format", format]
        try:
            done = command([*argv, *_flags(options, ("output",))])
        except TilekitError as e:
            raise scratch.relabel(e) from None
        if done.stderr:
            sys.stderr.write(done.stderr)
        return done.stdout


def export_set(
    set: str,
    output: PathLike,
    models: Union[str, Sequence[str]],
    formats: Union[str, Sequence[str]],
    **options: Any,
) -> Dict[str, Any]:
    """Write a whole set × models × formats into the directory ``output``, as
    ``tilekit export-set`` does, and return its manifest (``manifest.json``) as a dict.
    ``set`` is a built-in set (``"korf100:1-3"``, ``"meta2010:3-5"``), a generator spec,
    a directory or a list file; ``models`` and ``formats`` a name or a list of names.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     m = tilekit.export_set("meta2010:5", d, models="milp", formats="lp")
    ...     [f["model"] for f in m["files"]]
    ['milp']
    """

    def names(v: Union[str, Sequence[str]]) -> str:
        return v if isinstance(v, str) else ",".join(v)

    argv = [
        "export-set",
        set,
        "-o",
        os.fspath(output),
        "--models",
        names(models),
        "--formats",
        names(formats),
        "--quiet",
    ]
    done = command([*argv, *_flags(options, ("output",))])
    if done.stderr:
        sys.stderr.write(done.stderr)
    manifest = Path(os.fspath(output)) / "manifest.json"
    value: Dict[str, Any] = json.loads(manifest.read_text(encoding="utf-8"))
    return value


def _milp(instance: Instance, model: Optional[str], options: Dict[str, Any]) -> Milp:
    return read_mps(export(instance, model=model, format="mps", **options))


def to_scipy(instance: Instance, model: Optional[str] = None, **options: Any) -> Dict[str, Any]:
    """A MILP of the instance as the arguments of ``scipy.optimize.milp`` (``c``,
    ``integrality``, ``bounds``, ``constraints``): tilekit's MPS export, read into arrays
    (:func:`read_mps`; a maximising model's objective is negated, as in the file). Needs
    numpy and scipy.

    >>> from scipy.optimize import milp
    >>> args = tilekit.to_scipy("models/sliding/neos_case_study.txt", model="tight",
    ...                         horizon=13)
    >>> round(milp(**args).fun)
    11
    """
    return _milp(instance, model, dict(options)).to_scipy()


def to_highspy(instance: Instance, model: Optional[str] = None, **options: Any) -> Any:
    """A MILP of the instance loaded into a new ``highspy.Highs`` (from tilekit's MPS
    export), ready to ``run()``. Needs highspy.

    >>> h = tilekit.to_highspy("models/sliding/neos_case_study.txt", model="tight",
    ...                        horizon=13)
    >>> _ = h.run()
    >>> round(h.getInfo().objective_function_value)
    11
    """
    import highspy

    text = export(instance, model=model, format="mps", **options)
    h = highspy.Highs()  # type: ignore[no-untyped-call]
    with tempfile.TemporaryDirectory(prefix="tilekit-py-") as d:
        path = os.path.join(d, "model.mps")
        with open(path, "wb") as f:
            f.write(text.encode("utf-8"))
        h.setOptionValue("output_flag", False)
        status = h.readModel(path)
    if status != highspy.HighsStatus.kOk:
        raise SolverError(f"highspy could not read tilekit's MPS export ({status})", 3)
    return h
