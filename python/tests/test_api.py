"""The Python API against the installed package: the case study by SAT and MILP, a model
solved by highspy and SciPy, an edge board verified, bad inputs, an interrupted solve."""

import doctest
import importlib.metadata
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import tilekit
from conftest import CASE


def test_the_command_is_installed_and_is_the_packages_version():
    exe = tilekit.binary()
    assert Path(exe).name == "tilekit"
    out = subprocess.run([exe, "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"tilekit {importlib.metadata.version('tilekit')}"
    assert tilekit.version() == out.stdout.strip()


def test_the_command_keeps_the_binarys_exit_codes(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("4 4\n1 2 3 4\n")
    done = subprocess.run([tilekit.binary(), "solve", str(bad)], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.startswith(f"tilekit: {bad}")


def test_the_case_study_by_sat_is_eleven_verified_moves():
    r = tilekit.solve(CASE, via="sat")
    assert r["status"] == "solved"
    assert r["verified"] is True
    assert r["objective"] == 11.0
    assert len(r["moves"]) == 11
    # The report is the command's --json report, key for key.
    cli = tilekit.command(["solve", str(CASE), "--via", "sat", "--json"])
    assert list(r) == list(json.loads(cli.stdout))


def test_the_case_study_by_milp_is_eleven_verified_moves():
    r = tilekit.solve(str(CASE), via="milp", time_limit=300)
    assert (r["status"], r["objective"], r["verified"]) == ("solved", 11.0, True)
    assert len(r["moves"]) == 11
    assert r["model"] == "tight"


def test_a_plan_is_written_with_output(tmp_path):
    plan = tmp_path / "plan.txt"
    tilekit.solve(CASE, output=plan)
    assert "LLUUURRRDDD" in plan.read_text()
    assert tilekit.verify(CASE, plan)["valid"] is True


def test_a_board_as_rows_is_an_instance():
    r = tilekit.solve([[1, 2, 3], [4, 5, 6], [7, 0, 8]])
    assert (r["objective"], r["moves"]) == (1.0, "R")


def test_the_tight_lp_at_horizon_13_is_solved_to_11_by_highspy(tmp_path):
    import highspy

    lp = tilekit.export(CASE, model="tight", format="lp", horizon=13)
    assert isinstance(lp, str)
    # The text is the file the command writes, byte for byte.
    path = tmp_path / "case13.lp"
    tilekit.command(["export", str(CASE), "--model", "tight", "--horizon", "13", "-o", str(path)])
    assert path.read_text() == lp
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    assert h.readModel(str(path)) == highspy.HighsStatus.kOk
    h.run()
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    assert round(h.getInfo().objective_function_value) == 11
    # highspy's own model of the same MILP, from tilekit's MPS.
    h2 = tilekit.to_highspy(CASE, model="tight", horizon=13)
    h2.run()
    assert round(h2.getInfo().objective_function_value) == 11


def test_an_export_takes_the_models_own_format_by_default():
    assert tilekit.export(CASE, horizon=3).startswith("\\ tilekit LP")
    assert "p cnf " in tilekit.export(CASE, model="sat", horizon=3)


def test_python_m_tilekit_is_the_command():
    out = subprocess.run(
        [sys.executable, "-m", "tilekit", "--version"], capture_output=True, text=True
    )
    assert out.returncode == 0 and out.stdout.strip() == tilekit.version()


def test_to_scipy_gives_milps_arguments_and_its_optimum():
    from scipy.optimize import milp

    args = tilekit.to_scipy(CASE, model="tight", horizon=13)
    assert set(args) == {"c", "integrality", "bounds", "constraints"}
    res = milp(**args)
    assert res.success, res.message
    assert round(res.fun) == 11
    # The model's own size, as the LP export states it.
    m = tilekit.read_mps(tilekit.export(CASE, model="tight", format="mps", horizon=13))
    assert len(m.columns) == len(args["c"]) and len(m.rows) == args["constraints"].A.shape[0]


def test_a_wrong_plan_is_not_valid():
    r = tilekit.verify(CASE, "LLUUURRRDD")
    assert r["valid"] is False and r["errors"]
    assert tilekit.verify(CASE, list("LLUUURRRDDD"))["valid"] is True
    assert tilekit.verify(CASE, "LLUUURRRDDD\n")["valid"] is True


def _board_grid(path: Path):
    """A board file as rows of (piece, rotation) cells."""
    lines = [ln.split("#")[0].split() for ln in path.read_text().splitlines()]
    lines = [ln for ln in lines if ln]
    rows, cols = map(int, lines[0])
    grid = [[None] * cols for _ in range(rows)]
    for r, c, piece, rot, *_ in (map(int, ln) for ln in lines[1:]):
        grid[r][c] = (piece, rot)
    return grid


def test_an_edge_board_is_verified(tmp_path):
    inst = tmp_path / "e4.txt"
    tilekit.command(
        [
            "generate",
            "edge",
            "--rows",
            "4",
            "--cols",
            "4",
            "--frame-colours",
            "2",
            "--inner-colours",
            "3",
            "--seed",
            "7",
            "-o",
            str(inst),
        ]
    )
    sol = Path(f"{inst}.solution")
    r = tilekit.verify(inst, sol)
    assert r["valid"] is True and r["matched"] == r["max"] == 24
    grid = _board_grid(sol)
    assert tilekit.verify(inst, grid)["valid"] is True
    # Two inner pieces swapped (rotations kept): still a legal board, with fewer matches.
    grid[1][1], grid[1][2] = grid[1][2], grid[1][1]
    swapped = tilekit.verify(inst, grid)
    assert swapped["valid"] is True and swapped["matched"] < 24
    # One piece placed twice: not a legal board.
    grid[1][1] = grid[1][2]
    assert tilekit.verify(inst, grid)["valid"] is False
    # The board solved from Python is verified the same way.
    solved = tilekit.solve(inst, output=tmp_path / "board.txt")
    assert solved["verified"] is True
    assert tilekit.verify(inst, tmp_path / "board.txt")["valid"] is True


def test_tile_99_on_a_4x4_board_names_the_file_and_line(tmp_path):
    bad = tmp_path / "tile99.txt"
    bad.write_text(
        "# a 4x4 board with a tile out of range\n4 4\n 5  1  2  3\n 9  6  7  4\n"
        "13 10 99  8\n14 15  0 12\n"
    )
    with pytest.raises(tilekit.InputError) as e:
        tilekit.solve(bad, via="sat")
    assert isinstance(e.value, ValueError)
    assert e.value.exit_code == 2
    assert (e.value.file, e.value.line) == (str(bad), 5)
    assert "99" in e.value.message
    # The command says the same.
    cli = tilekit.command(["solve", str(bad), "--via", "sat"], check=False)
    assert cli.returncode == 2 and cli.stderr.strip() == f"tilekit: {e.value.message}"


def test_a_board_value_error_names_the_board():
    with pytest.raises(tilekit.InputError) as e:
        tilekit.solve([[1, 2], [3, 9]])
    assert e.value.file == "<board>" and e.value.line == 3


def test_options_are_checked_as_the_commands_flags_are():
    for kwargs, flags in [
        ({"time_limit": -1}, ["--time-limit", "-1"]),
        ({"via": "nowhere"}, ["--via", "nowhere"]),
        ({"no_such_option": 1}, ["--no-such-option", "1"]),
        ({"horizon": 13, "family": "edge"}, ["--horizon", "13", "--family", "edge"]),
    ]:
        with pytest.raises(tilekit.InputError) as e:
            tilekit.solve(CASE, **kwargs)
        cli = tilekit.command(["solve", str(CASE), *flags, "--json"], check=False)
        assert cli.returncode == 2
        assert json.loads(cli.stdout)["error"] in e.value.message, kwargs
    with pytest.raises(TypeError):
        tilekit.solve(CASE, json=True)


def test_a_solver_failure_is_a_solver_error(monkeypatch, tmp_path):
    # A command that dies the way a Rust panic ends it (exit 101, the message on stderr).
    fake = tmp_path / "tilekit"
    fake.write_text("#!/bin/sh\necho \"thread 'main' panicked at src/x.rs:1:1\" >&2\nexit 101\n")
    fake.chmod(0o755)
    monkeypatch.setenv("TILEKIT_BIN", str(fake))
    with pytest.raises(tilekit.SolverError) as e:
        tilekit.solve(CASE)
    assert e.value.exit_code == 101 and "panicked" in e.value.message
    # An unknown solver is the command's usage error; a registered one that cannot run, a
    # failure (exit 3).
    monkeypatch.delenv("TILEKIT_BIN")
    registry = tmp_path / "solvers.toml"
    registry.write_text(
        '[solver.broken]\nkind = "milp"\ncommand = "/nonexistent/broken"\ninput = "lp"\n'
        'args = ["{model}"]\nsolution = "cbc"\n'
    )
    with pytest.raises(tilekit.TilekitError) as e:
        tilekit.solve(CASE, via="milp", solver="broken", solvers_file=registry)
    assert e.value.exit_code in (2, 3)
    assert isinstance(
        e.value, tilekit.SolverError if e.value.exit_code == 3 else tilekit.InputError
    )


def test_set_members_are_instances_by_name():
    edge = tilekit.solve("meta2010:5")
    assert edge["family"] == "edge" and edge["verified"] is True
    lp = tilekit.export("korf100:1", model="tight", format="lp", horizon=2)
    assert "Minimize" in lp
    with pytest.raises(tilekit.InputError):
        tilekit.solve("korf100:1000")


def test_export_set_returns_the_manifest(tmp_path):
    m = tilekit.export_set(
        "meta2010:3-4", tmp_path / "set", models=["milp"], formats="lp", compress="xz"
    )
    assert len(m["files"]) == 2
    for f in m["files"]:
        data = (tmp_path / "set" / f["path"]).read_bytes()
        assert data.startswith(b"\xfd7zXZ")


def test_a_campaigns_runs_csv_reads_as_a_table(tmp_path):
    import csv

    m = tilekit.export_set("short8:1-2", tmp_path / "s8", models="sat", formats="cnf")
    assert len(m["files"]) == 2
    tilekit.command(
        [
            "run",
            str(tmp_path / "s8" / "manifest.json"),
            "--solvers",
            "varisat",
            "--time-limit",
            "60",
            "--db",
            str(tmp_path / "r.sqlite"),
            "--quiet",
        ]
    )
    tilekit.command(
        ["report", str(tmp_path / "r.sqlite"), "-o", str(tmp_path / "report"), "--quiet"]
    )
    with open(tmp_path / "report" / "runs.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 2 and all(r["solver"] == "varisat" for r in rows)
    try:
        import pandas
    except ImportError:
        return
    table = pandas.read_csv(tmp_path / "report" / "runs.csv")
    assert list(table.columns) == list(rows[0]) and len(table) == 2


def _leftovers(tmp: Path):
    """Processes whose command line names `tmp`, and the files left in it."""
    procs = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if str(tmp).encode() in cmd:
                procs.append(pid)
    return procs, sorted(p.name for p in tmp.iterdir())


@pytest.mark.parametrize("solver", ["embedded", "cbc"])
def test_an_interrupted_solve_raises_keyboard_interrupt_and_cleans_up(
    solver, monkeypatch, tmp_path
):
    if solver == "cbc":
        import shutil

        if shutil.which("cbc") is None:
            # Skipped on a developer's machine without it; CI installs it, so there a
            # missing CBC is a failure, never a quiet skip.
            missing = "CBC is not installed (scripts/install-solvers.sh installs it)"
            if os.environ.get("CI"):
                pytest.fail(missing)
            pytest.skip(missing)
        # Far from solved in minutes: the case study's model at the instance's horizon.
        options = {"via": "milp", "model": "neos", "horizon": 56, "solver": "cbc"}
    else:
        options = {"via": "sat", "horizon": 80}
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    # The command's temporary files go to $TMPDIR: a directory of the test's own.
    monkeypatch.setenv("TMPDIR", str(scratch))
    seen = []
    finished = threading.Event()

    def interrupt():
        # With CBC, once CBC runs on the command's model (in $TMPDIR); else after 3 s.
        deadline = time.monotonic() + (120 if solver == "cbc" else 3)
        while time.monotonic() < deadline and not seen:
            if solver == "cbc" and _leftovers(scratch)[0]:
                seen.append(True)
            else:
                time.sleep(0.2)
        # Never after the solve: the interrupt would land in pytest itself.
        if not finished.is_set():
            os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Thread(target=interrupt, daemon=True)
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            tilekit.solve("korf100:1", time_limit=600, **options)
    finally:
        finished.set()
        timer.join()
    assert time.monotonic() - start < 180
    assert seen or solver == "embedded"
    procs, files = _leftovers(scratch)
    assert procs == [] and files == []


def test_the_documented_examples_run():
    # Every docstring's example, run against the installed package.
    for module in (tilekit, tilekit._mps):
        result = doctest.testmod(
            module, extraglobs={"tilekit": tilekit}, optionflags=doctest.ELLIPSIS
        )
        assert result.failed == 0, module.__name__
        assert result.attempted > 0
