#!/usr/bin/env python3
"""SCIP (through PySCIPOpt, which bundles it) as a command: tilekit-scip MODEL SOLUTION SECONDS
(or --version).

Reads an LP or MPS file, solves it within SECONDS of wall clock, and writes SOLUTION in SCIP's
own `write solution` layout: `solution status: ...`, then the best solution's `objective
value:` and `name value (obj:c)` lines, or `no solution available`. PySCIPOpt's statuses are
put back into the words SCIP's shell uses, which is what tilekit's parser reads.
"""
import os
import sys

import pyscipopt

WORDS = {
    "optimal": "optimal solution found",
    "infeasible": "infeasible",
    "unbounded": "unbounded",
    "inforunbd": "infeasible or unbounded",
    "timelimit": "time limit reached",
    "gaplimit": "gap limit reached",
    "nodelimit": "node limit reached",
    "userinterrupt": "user interrupt",
}


def main():
    if sys.argv[1:] == ["--version"]:
        print(f"SCIP {pyscipopt.Model().version()}")
        return
    if len(sys.argv) != 4:
        sys.exit("usage: tilekit-scip MODEL SOLUTION SECONDS")
    model, solution, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    m = pyscipopt.Model()
    m.hideOutput()
    m.readProblem(model)
    m.setParam("limits/time", seconds)
    m.optimize()
    status = m.getStatus()
    partial = solution + ".partial"
    with open(partial, "w") as out:
        out.write(f"solution status: {WORDS.get(status, status)}\n")
    if m.getNSols() > 0:
        m.writeBestSol(partial + ".best")
        with open(partial + ".best") as best, open(partial, "a") as out:
            out.write(best.read())
        os.remove(partial + ".best")
    else:
        with open(partial, "a") as out:
            out.write("no solution available\n")
    os.replace(partial, solution)
    print(f"SCIP {m.version()}: {status}, {m.getNSols()} solutions")
    # SCIP's own statistics line for the bound it proved, which tilekit keeps as the solver's
    # claim (hideOutput silences the statistics SCIP would print).
    print(f"  Dual Bound         : {m.getDualbound():+.14e}")


if __name__ == "__main__":
    main()
