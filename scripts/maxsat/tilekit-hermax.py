#!/usr/bin/env python3
"""tilekit-hermax: one of the MaxSAT solvers the PyPI package hermax bundles, run on a WCNF
file, answering on stdout the way MaxSAT Evaluation 2022 solvers do.

    tilekit-hermax SOLVER FILE.wcnf     SOLVER: evalmaxsat, uwrmaxsat or open-wbo
    tilekit-hermax --version

hermax ships the solvers as Python extension modules and no command line (its wheel has no
scripts), so tilekit's registry runs them through this wrapper (scripts/install-solvers.sh
installs it with the venv's Python). The formula is read by PySAT, which takes both WCNF
dialects. Output: `c` comments, `o COST`, `s OPTIMUM FOUND` / `s UNSATISFIABLE` and the model
as the 2022 bit string (`v 0110…`, one character per variable of the file); exit codes 30
(optimum) and 20 (unsatisfiable), as in the evaluation. hermax's wrappers of these solvers
take no time limit: the caller's wall-clock limit kills the process, and then nothing but
comments has been printed. A solver error is reported on stderr with exit code 3 and no `s`
line.
"""

import os
import sys

# tilekit's name → hermax.non_incremental class (each rebuilds the formula and solves once).
SOLVERS = {
    "evalmaxsat": "EvalMaxSAT",
    "uwrmaxsat": "UWrMaxSATCompetition",
    "open-wbo": "OpenWBO",
}


def hermax_version():
    from importlib.metadata import version

    return version("hermax")


def main(argv):
    if len(argv) == 2 and argv[1] == "--version":
        print(f"tilekit-hermax: hermax version {hermax_version()}")
        return 0
    if len(argv) != 3 or argv[1] not in SOLVERS:
        print(
            f"usage: tilekit-hermax {{{','.join(SOLVERS)}}} FILE.wcnf | --version",
            file=sys.stderr,
        )
        return 2
    name, path = argv[1], argv[2]
    from pysat.formula import WCNF
    import hermax.non_incremental as solvers
    from hermax.core.ipamir_solver_interface import SolveStatus

    try:
        wcnf = WCNF(from_file=path)
    except Exception as e:  # a file PySAT cannot read: no answer
        print(f"tilekit-hermax: cannot read {path}: {e}", file=sys.stderr)
        return 3
    cls = getattr(solvers, SOLVERS[name])
    print(f"c tilekit-hermax {name}: hermax {hermax_version()} {cls.__name__}", flush=True)
    print(
        f"c formula: {wcnf.nv} variables, {len(wcnf.hard)} hard, {len(wcnf.soft)} soft",
        flush=True,
    )
    solver = cls()
    for clause in wcnf.hard:
        solver.add_clause(list(clause))
    # Non-unit soft clauses get relaxation variables past the file's own.
    relax = wcnf.nv
    for clause, weight in zip(wcnf.soft, wcnf.wght):
        if len(clause) == 1:
            solver.add_soft_unit(clause[0], weight)
        else:
            relax += 1
            solver.add_soft_relaxed(list(clause), weight, relax)
    # The solvers' C++ code prints its own chatter on stdout, not all of it as `c` lines:
    # while it runs, stdout (file descriptor 1) goes to stderr, so that stdout holds only
    # the answer lines below.
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        solver.solve()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
    status = solver.get_status()
    if status == SolveStatus.UNSAT:
        print("s UNSATISFIABLE")
        return 20
    if status not in (SolveStatus.OPTIMUM, SolveStatus.INTERRUPTED_SAT):
        print(f"tilekit-hermax: {name} ended with status {status.name}", file=sys.stderr)
        return 3
    value = {abs(lit): lit > 0 for lit in (solver.get_model() or [])}
    bits = "".join("1" if value.get(v, False) else "0" for v in range(1, wcnf.nv + 1))
    print(f"o {solver.get_cost()}")
    if status == SolveStatus.OPTIMUM:
        print("s OPTIMUM FOUND")
    else:
        print("s SATISFIABLE")
    print(f"v {bits}")
    return 30 if status == SolveStatus.OPTIMUM else 10


if __name__ == "__main__":
    sys.exit(main(sys.argv))
