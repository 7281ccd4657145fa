"""Refresh the German translation of the window.

    python scripts/update_translations.py          # lupdate: collect new strings into the .ts file
    python scripts/update_translations.py --release  # also lrelease: compile the .qm the app loads
    python scripts/update_translations.py --carry-from HEAD  # strings that moved to another class keep
                                                             # their translation (-no-obsolete drops it)

Translators edit ``resources/translations/rabbithole_de.ts`` (Qt Linguist: ``pyside6-linguist``);
existing translations are kept when strings are collected again. English needs only its plural forms
("%n warning(s)" → "1 warning" / "2 warnings"): ``rabbithole_en.ts`` holds just those, filled in here
by rule (with the exceptions in ``ENGLISH_SINGULAR``). Run both steps after changing a ``self.tr(...)``
string in ``desktop/ui`` and commit the .ts and .qm files.
"""

from __future__ import annotations

import argparse
import re
import shutil
import xml.etree.ElementTree as ET
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TS = ROOT / "resources" / "translations" / "rabbithole_de.ts"
TS_EN = TS.with_name("rabbithole_en.ts")
# Singulars the "(s)" rule gets wrong: the verb agrees with the count.
ENGLISH_SINGULAR = {"%n field(s) need correcting (marked in red).": "%n field needs correcting (marked in red)."}


def tool(name: str) -> str:
    """The PySide6 wrapper next to this interpreter (a venv), else on PATH."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} not found: install the project (pip install -e .) into this interpreter's environment")
    return found


def english_forms(source: str) -> tuple[str, str]:
    singular = ENGLISH_SINGULAR.get(source) or re.sub(r"\((?:e?s)\)", "", source)
    return singular, re.sub(r"\((e?s)\)", r"\1", source)


def fill_english_plurals(ts: Path) -> int:
    """Give every plural message of the English file its singular and plural form; returns how many."""
    tree = ET.parse(ts)
    filled = 0
    for message in tree.iter("message"):
        if message.get("numerus") != "yes":
            continue
        translation = message.find("translation")
        for child in list(translation):
            translation.remove(child)
        translation.attrib.pop("type", None)
        for form in english_forms(message.findtext("source") or ""):
            ET.SubElement(translation, "numerusform").text = form
        filled += 1
    tree.write(ts, encoding="utf-8", xml_declaration=True)
    return filled


def lupdate(sources: list[str], ts: Path, language: str, *extra: str) -> None:
    subprocess.run([tool("pyside6-lupdate"), *sources, "-no-obsolete", *extra, "-source-language", "en",
                    "-target-language", language, "-ts", str(ts.relative_to(ROOT))], cwd=ROOT, check=True)


def carry_translations(ts: Path, old_text: str) -> list[str]:
    """Fill the unfinished messages of ``ts`` whose source text ``old_text`` (a .ts file's text) translated,
    in whichever class it stood: a string moved with its code keeps its words. Returns what is left."""
    known: dict[str, ET.Element] = {}
    for message in ET.fromstring(old_text).iter("message"):
        translation = message.find("translation")
        if translation is not None and translation.get("type") is None:
            known.setdefault(message.findtext("source") or "", translation)
    tree, left = ET.parse(ts), []
    for message in tree.iter("message"):
        translation = message.find("translation")
        if translation is None or translation.get("type") != "unfinished":
            continue
        source = message.findtext("source") or ""
        if (old := known.get(source)) is None:
            left.append(source)
            continue
        for child in list(translation):
            translation.remove(child)
        translation.text = old.text
        for form in old:
            ET.SubElement(translation, form.tag).text = form.text
        translation.attrib.pop("type")
    tree.write(ts, encoding="utf-8", xml_declaration=True)
    return left


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--release", action="store_true", help="also compile the .qm files")
    ap.add_argument("--carry-from", metavar="REV", help="fill moved strings from the German file at this git revision")
    args = ap.parse_args()
    sources = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "desktop" / "ui").glob("*.py"))
    TS.parent.mkdir(parents=True, exist_ok=True)
    before = TS.read_text(encoding="utf-8") if TS.exists() else ""
    lupdate(sources, TS, "de")
    if args.carry_from:
        old = subprocess.run(["git", "show", f"{args.carry_from}:{TS.relative_to(ROOT).as_posix()}"], cwd=ROOT,
                             check=True, capture_output=True, text=True).stdout
        for text in (old, before):
            left = carry_translations(TS, text) if text else []
        lupdate(sources, TS, "de")  # lupdate's own layout again, for a readable diff
        print(f"still to translate: {left}")
    lupdate(sources, TS_EN, "en", "-pluralonly")
    print(f"English plural forms: {fill_english_plurals(TS_EN)}")
    if args.release:
        for ts in (TS, TS_EN):
            subprocess.run([tool("pyside6-lrelease"), str(ts), "-qm", str(ts.with_suffix(".qm"))], cwd=ROOT, check=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
