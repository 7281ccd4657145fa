"""Collect the licence texts of everything Rabbithole's runtime depends on, for the installers.

    python packaging/third_party_licenses.py OUT_DIR

Walks the installed ``rabbithole`` distribution's requirements (extras left out, environment markers
evaluated) recursively and, for each package, copies the licence files its wheel ships (LICENSE*,
LICENCE*, COPYING*, NOTICE*, AUTHORS*) into ``OUT_DIR/<name>-<version>/`` and lists it with its
declared licence in ``OUT_DIR/README.txt``. A package without a licence file is listed with what its
metadata declares, and the script says so; Python's own licence is added from the interpreter.
Collecting more than the bundle ends up holding is harmless; less is not.
"""

from __future__ import annotations

import argparse
import importlib.metadata as md
import re
import shutil
import sys
import sysconfig
from pathlib import Path

from packaging.requirements import Requirement

# Texts a package names but does not ship (the Qt for Python wheels ship none), from the build system.
COMMON_LICENSES = Path("/usr/share/common-licenses")
NAMED_TEXTS = {"LGPL-3.0": ("LGPL-3", "GPL-3")}  # the LGPL-3.0 is the GPL-3.0 plus permissions: both
LICENCE_FILE = re.compile(r"(^|/)(LICEN[CS]E|COPYING|NOTICE|AUTHORS)[^/]*$", re.IGNORECASE)


def closure(root: str) -> dict[str, md.Distribution]:
    """The installed distributions ``root`` needs at run time, by normalised name."""
    found: dict[str, md.Distribution] = {}
    todo = [root]
    while todo:
        name = re.sub(r"[-_.]+", "-", todo.pop()).lower()
        if name in found:
            continue
        try:
            dist = md.distribution(name)
        except md.PackageNotFoundError:
            continue  # an optional dependency that is not installed is not bundled either
        found[name] = dist
        for spec in dist.requires or []:
            req = Requirement(spec)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return found


def declared_licence(dist: md.Distribution) -> str:
    meta = dist.metadata
    expression = meta.get("License-Expression")
    if expression:
        return expression
    classifiers = [c.split(" :: ")[-1] for c in meta.get_all("Classifier") or [] if c.startswith("License ::")]
    text = (meta.get("License") or "").strip().splitlines()
    return "; ".join(classifiers) or (text[0][:100] if text else "not declared")


def _named_texts(licence: str, folder: Path) -> int:
    """Copy the standard texts of a licence the package declares but does not ship."""
    copied = 0
    for spdx, files in NAMED_TEXTS.items():
        if spdx in licence:
            for file in files:
                if (COMMON_LICENSES / file).is_file():
                    folder.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(COMMON_LICENSES / file, folder / file)
                    copied += 1
    return copied


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    args = ap.parse_args()
    out: Path = args.out
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    lines = ["Third-party software bundled with Rabbithole and the licences it is distributed under.",
             "Each folder holds the licence files the package ships.", ""]
    without = []
    for name, dist in sorted(closure("rabbithole").items()):
        if name == "rabbithole":
            continue
        folder = out / f"{name}-{dist.version}"
        copied = 0
        for file in dist.files or []:
            if LICENCE_FILE.search(str(file)):
                source = Path(str(dist.locate_file(file)))
                if source.is_file():
                    target = folder / str(file).replace("/", "__")
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(source, target)
                    copied += 1
        if not copied:
            copied = _named_texts(declared_licence(dist), folder)
        if not copied:
            without.append(name)
        lines.append(f"{name} {dist.version}: {declared_licence(dist)}" + ("" if copied else " (no licence file shipped)"))
    python_licence = Path(sysconfig.get_path("stdlib")) / "LICENSE.txt"
    if python_licence.is_file():
        (out / "python").mkdir()
        shutil.copyfile(python_licence, out / "python" / "LICENSE.txt")
        lines.append(f"python {sys.version.split()[0]}: PSF-2.0")
    (out / "README.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines) - 3} packages listed in {out / 'README.txt'}"
          + (f"; no licence file in: {', '.join(without)}" if without else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
