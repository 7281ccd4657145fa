"""The frozen program's entry script: the same as the `rabbithole` console script (desktop.app:main).

desktop.app.main calls multiprocessing.freeze_support() first, so the worker processes that a frozen
build starts through this same program (PDF extraction, the window's vector store) divert there.

One addition: `rabbithole -c CODE [ARG...]` runs CODE the way `python -c` does. In a frozen program
sys.executable is Rabbithole itself, not a Python interpreter, so a child started as
[sys.executable, "-c", CODE] would otherwise land in Rabbithole's command line ("unrecognized
arguments"); `rabbithole doctor` starts its Qt check that way (a separate process, so that a broken Qt
cannot take the command line down), and packaging/smoke_test.sh runs its checks with the bundle's
Python so. Rabbithole has no `-c` option of its own. multiprocessing's helper processes, which also
arrive with -c, are left to PyInstaller's freeze_support. This runs here, after PyInstaller's runtime
hooks (Qt's plugin path among them), not as a runtime hook of its own, which would run before them.
"""

import sys


def _python_c() -> None:
    if not getattr(sys, "frozen", False) or len(sys.argv) < 3 or sys.argv[1] != "-c":
        return
    code = sys.argv[2]
    if "multiprocessing" in code.split(";", 1)[0].split("\n", 1)[0]:
        return  # the resource tracker or forkserver: PyInstaller's freeze_support runs those
    sys.argv = ["-c", *sys.argv[3:]]
    exec(compile(code, "<string>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})  # noqa: S102 - as `python -c`
    sys.exit(0)


if __name__ == "__main__":
    _python_c()
    from desktop.app import main

    raise SystemExit(main())
