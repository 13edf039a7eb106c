"""A reader of the free MPS files tilekit writes, into plain lists and, for SciPy, arrays.

tilekit's MPS (``export --format mps``) is free MPS: one objective row, integer columns between
``MARKER`` lines, right-hand sides and bounds (``UP``, ``LO``, ``FX``, ``FR``, ``MI``, ``PL``,
``BV``), no ``RANGES`` and no ``OBJSENSE`` (a maximising model is written negated, with a
comment saying so). This reader takes that and the common rest of free MPS (``RANGES``,
``LI``, ``UI``, ``OBJSENSE``), and refuses what it does not know rather than guess.
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Tuple

__all__ = ["Milp", "read_mps"]


class Milp:
    """A MILP in plain Python values: minimise ``c·x`` subject to ``row_lower ≤ A x ≤
    row_upper`` and ``lower ≤ x ≤ upper``, with ``integer[j]`` for integer columns.
    ``A`` is given as (row, column, value) triples."""

    def __init__(self) -> None:
        #: The column names, in the file's order.
        self.columns: List[str] = []
        #: The row names (the objective excluded), in the file's order.
        self.rows: List[str] = []
        #: The objective coefficient of each column (as minimised).
        self.c: List[float] = []
        #: Whether each column is integer.
        self.integer: List[bool] = []
        #: Column bounds (``-inf``/``inf`` where there is none).
        self.lower: List[float] = []
        self.upper: List[float] = []
        #: Row bounds (``-inf``/``inf`` where there is none).
        self.row_lower: List[float] = []
        self.row_upper: List[float] = []
        #: The constraint matrix as (row, column, value) triples.
        self.entries: List[Tuple[int, int, float]] = []
        #: True when the file says the model maximises (its objective then is negated here,
        #: as in the file: the maximum is minus the minimum of ``c·x``).
        self.maximise: bool = False

    def to_scipy(self) -> Dict[str, Any]:
        """The arguments of ``scipy.optimize.milp``: ``c``, ``integrality``, ``bounds``
        (``scipy.optimize.Bounds``) and ``constraints`` (a ``LinearConstraint`` over a
        sparse matrix).

        >>> m = read_mps(
        ...     "NAME t FREE\\nROWS\\n N obj\\n G r\\nCOLUMNS\\n x obj 1 r 1\\n"
        ...     " MARKER 'MARKER' 'INTORG'\\n y obj 2 r 1\\n MARKER 'MARKER' 'INTEND'\\n"
        ...     "RHS\\n RHS r 1.5\\nBOUNDS\\n UP BND y 3\\nENDATA\\n")
        >>> from scipy.optimize import milp
        >>> r = milp(**m.to_scipy())
        >>> [round(float(v), 6) for v in r.x], round(float(r.fun), 6)
        ([1.5, 0.0], 1.5)
        """
        import numpy as np
        from scipy.optimize import Bounds, LinearConstraint  # type: ignore[import-untyped]
        from scipy.sparse import csr_array  # type: ignore[import-untyped]

        n, m = len(self.columns), len(self.rows)
        if self.entries:
            r, j, v = zip(*self.entries)
        else:
            r, j, v = (), (), ()
        # 32-bit indices where they fit: older SciPy's HiGHS wrapper (1.13, the last for
        # Python 3.9) takes nothing else.
        index = np.int32 if max(m, n, len(self.entries)) < 2**31 else np.int64
        a = csr_array(
            (np.asarray(v, dtype=float), (np.asarray(r, dtype=index), np.asarray(j, dtype=index))),
            shape=(m, n),
        )
        args: Dict[str, Any] = {
            "c": np.asarray(self.c, dtype=float),
            "integrality": np.asarray(self.integer, dtype=np.uint8),
            "bounds": Bounds(
                np.asarray(self.lower, dtype=float), np.asarray(self.upper, dtype=float)
            ),
        }
        if m:
            args["constraints"] = LinearConstraint(
                a, np.asarray(self.row_lower, dtype=float), np.asarray(self.row_upper, dtype=float)
            )
        return args


class MpsError(ValueError):
    """An MPS file this reader does not take: the message names the line."""


def read_mps(text: str) -> Milp:
    """Read free MPS text (as ``tilekit.export(..., format="mps")`` returns it) into a
    :class:`Milp`.

    >>> m = read_mps("NAME t FREE\\nROWS\\n N obj\\n L r\\nCOLUMNS\\n x obj -1 r 2\\n"
    ...              "RHS\\n RHS r 4\\nENDATA\\n")
    >>> m.columns, m.c, m.row_upper, m.entries
    (['x'], [-1.0], [4.0], [(0, 0, 2.0)])
    """
    milp = Milp()
    objective: Optional[str] = None
    row_index: Dict[str, int] = {}
    sense: List[str] = []
    rhs: List[float] = []
    ranges: Dict[int, float] = {}
    col_index: Dict[str, int] = {}
    section = ""
    integer = False
    maximise_section = False
    lo_set: List[bool] = []

    def fail(lineno: int, why: str) -> MpsError:
        return MpsError(f"MPS line {lineno}: {why}")

    for lineno, raw in enumerate(text.splitlines(), start=1):
        if raw.startswith("*"):
            if "objective negated: model maximises" in raw:
                milp.maximise = True
            continue
        if not raw.strip():
            continue
        f = raw.split()
        if not raw[0].isspace():
            section = f[0].upper()
            if section == "OBJSENSE" and len(f) > 1:
                milp.maximise = f[1].upper() in ("MAX", "MAXIMIZE")
                maximise_section = milp.maximise
            if section == "ENDATA":
                break
            if section not in ("NAME", "ROWS", "COLUMNS", "RHS", "RANGES", "BOUNDS", "OBJSENSE"):
                raise fail(lineno, f"unknown section {section}")
            continue
        if section == "OBJSENSE":
            milp.maximise = f[0].upper() in ("MAX", "MAXIMIZE")
            maximise_section = milp.maximise
        elif section == "ROWS":
            kind, name = f[0].upper(), f[1]
            if kind == "N":
                if objective is None:
                    objective = name
                continue
            if kind not in ("L", "G", "E"):
                raise fail(lineno, f"unknown row type {kind}")
            row_index[name] = len(milp.rows)
            milp.rows.append(name)
            sense.append(kind)
            rhs.append(0.0)
        elif section == "COLUMNS":
            if len(f) >= 3 and f[1].strip("'").upper() == "MARKER":
                integer = f[2].strip("'").upper() == "INTORG"
                continue
            name = f[0]
            j = col_index.get(name)
            if j is None:
                j = col_index[name] = len(milp.columns)
                milp.columns.append(name)
                milp.c.append(0.0)
                milp.integer.append(integer)
                milp.lower.append(0.0)
                milp.upper.append(math.inf)
                lo_set.append(False)
            pairs = f[1:]
            if len(pairs) % 2:
                raise fail(lineno, "a column entry is a row name and a value")
            for k in range(0, len(pairs), 2):
                row, value = pairs[k], float(pairs[k + 1])
                if row == objective:
                    milp.c[j] += value
                elif row in row_index:
                    milp.entries.append((row_index[row], j, value))
                else:
                    raise fail(lineno, f"unknown row {row}")
        elif section in ("RHS", "RANGES"):
            pairs = f[1:] if len(f) % 2 else f
            for k in range(0, len(pairs), 2):
                row, value = pairs[k], float(pairs[k + 1])
                if row == objective:
                    if section == "RHS":
                        raise fail(lineno, "a right-hand side on the objective row")
                    continue
                if row not in row_index:
                    raise fail(lineno, f"unknown row {row}")
                if section == "RHS":
                    rhs[row_index[row]] = value
                else:
                    ranges[row_index[row]] = value
        elif section == "BOUNDS":
            kind = f[0].upper()
            name = f[2] if len(f) >= 3 else f[1]
            bound = float(f[3]) if len(f) >= 4 else None
            j = col_index.get(name)
            if j is None:
                raise fail(lineno, f"unknown column {name}")
            if kind in ("UP", "UI", "LO", "LI", "FX") and bound is None:
                raise fail(lineno, f"a {kind} bound needs a value")
            if kind in ("UP", "UI"):
                milp.upper[j] = float(bound or 0.0)
                if milp.upper[j] < 0 and not lo_set[j]:
                    milp.lower[j] = -math.inf
            elif kind in ("LO", "LI"):
                milp.lower[j] = float(bound or 0.0)
                lo_set[j] = True
            elif kind == "FX":
                milp.lower[j] = milp.upper[j] = float(bound or 0.0)
                lo_set[j] = True
            elif kind == "FR":
                milp.lower[j], milp.upper[j] = -math.inf, math.inf
                lo_set[j] = True
            elif kind == "MI":
                milp.lower[j] = -math.inf
                lo_set[j] = True
            elif kind == "PL":
                milp.upper[j] = math.inf
            elif kind == "BV":
                milp.lower[j], milp.upper[j] = 0.0, 1.0
                milp.integer[j] = True
                lo_set[j] = True
            else:
                raise fail(lineno, f"unknown bound type {kind}")
            if kind in ("LI", "UI"):
                milp.integer[j] = True
    if maximise_section:
        # OBJSENSE MAX keeps the objective as written: minimise its negation.
        milp.c = [-x for x in milp.c]
    for i, kind in enumerate(sense):
        b, r = rhs[i], ranges.get(i)
        if kind == "E":
            lo, hi = b, b
            if r is not None:
                lo, hi = (b, b + r) if r >= 0 else (b + r, b)
        elif kind == "L":
            lo, hi = (-math.inf if r is None else b - abs(r)), b
        else:
            lo, hi = b, (math.inf if r is None else b + abs(r))
        milp.row_lower.append(lo)
        milp.row_upper.append(hi)
    return milp
