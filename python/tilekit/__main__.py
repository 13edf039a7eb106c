"""``python -m tilekit ARGS...`` is ``tilekit ARGS...``: the installed command, run in this
process's place (its output, its exit code and its handling of Ctrl-C)."""

import os
import sys

from . import binary


def main() -> None:
    """Replace this process with the ``tilekit`` command."""
    exe = binary()
    os.execv(exe, [exe, *sys.argv[1:]])


if __name__ == "__main__":
    main()
