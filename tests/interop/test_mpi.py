"""Arrays handed to MPI through mpi4py without a copy: two ranks under
`mpiexec -n 2` (tests/interop/mpi_ranks.py) exchange and reduce arrays of every USM
kind.  Skipped where mpiexec or mpi4py is missing, unless
USMARRAY_REQUIRE_MPI=1 (as CI sets it), which makes their absence a
failure."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

RANKS = Path(__file__).with_name("mpi_ranks.py")
REQUIRED = os.environ.get("USMARRAY_REQUIRE_MPI") == "1"


def missing():
    if shutil.which("mpiexec") is None:
        return "no mpiexec here"
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        return "no mpi4py here"
    return None


def mpi_environment():
    env = dict(os.environ)
    # Open MPI refuses root and more ranks than cores unless told; its
    # single-copy shared-memory transport needs ptrace rights that
    # containers often lack.  Other MPIs ignore these variables.
    env.update(
        OMPI_ALLOW_RUN_AS_ROOT="1",
        OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
        OMPI_MCA_rmaps_base_oversubscribe="1",
        OMPI_MCA_btl_vader_single_copy_mechanism="none",
    )
    return env


def test_two_ranks_exchange_and_reduce_every_usm_kind_without_a_copy():
    why = missing()
    if why is not None:
        if REQUIRED:
            pytest.fail(f"USMARRAY_REQUIRE_MPI=1 but {why}")
        pytest.skip(why)
    run = subprocess.run(
        ["mpiexec", "-n", "2", sys.executable, str(RANKS)],
        env=mpi_environment(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    for rank in (0, 1):
        assert f"rank {rank}: " in out and "checks passed" in out, out
    counts = {
        line.split(":")[1].split()[0] for line in run.stdout.splitlines() if "checks passed" in line
    }
    assert len(counts) == 1 and int(counts.pop()) >= 64, out


def test_the_mpi_example_runs_under_mpiexec():
    why = missing()
    if why is not None:
        if REQUIRED:
            pytest.fail(f"USMARRAY_REQUIRE_MPI=1 but {why}")
        pytest.skip(why)
    example = Path(__file__).parents[2] / "examples" / "mpi_allreduce.py"
    run = subprocess.run(
        ["mpiexec", "-n", "2", sys.executable, str(example)],
        env=mpi_environment(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "rank 0/2: [3. 3. 3. 3. 3. 3. 3. 3.]" in run.stdout
