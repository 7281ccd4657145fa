#!/usr/bin/env python3
"""Collect the numbers of a Linux build and its smoke tests into .bench/packaging_results.json.

    packaging/build_linux.sh OUT
    packaging/smoke_test.sh OUT/rabbithole --json OUT/smoke-folder.json --fallback
    packaging/smoke_test.sh OUT/rabbithole_*.deb --json OUT/smoke-deb.json
    packaging/smoke_test.sh OUT/rabbithole-*.tar.gz --json OUT/smoke-tarball.json
    python packaging/record_results.py OUT

Reads OUT/build-info.json and OUT/smoke-*.json and adds the machine they ran on.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def machine() -> dict[str, object]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = None
    try:
        kib = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal"))
        memory = round(kib / 1024 / 1024, 1)
    except (OSError, StopIteration):
        pass
    os_name = platform.platform()
    try:
        release = dict(line.split("=", 1) for line in Path("/etc/os-release").read_text().splitlines() if "=" in line)
        os_name = release.get("PRETTY_NAME", os_name).strip('"')
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "memory_gib": memory, "os": os_name, "kernel": platform.release(),
            "python": platform.python_version()}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    out = Path(argv[0])
    results = {
        "recorded_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": machine(),
        "build": json.loads((out / "build-info.json").read_text()),
        "smoke": {f.stem.removeprefix("smoke-"): json.loads(f.read_text()) for f in sorted(out.glob("smoke-*.json"))},
    }
    prebuilt = out / "rabbithole" / "_internal" / "kb" / "prebuilt" / "Sample.json"
    if prebuilt.is_file():
        results["prebuilt_sample"] = json.loads(prebuilt.read_text())
    target = ROOT / ".bench" / "packaging_results.json"
    target.parent.mkdir(exist_ok=True)
    target.write_text(json.dumps(results, indent=2) + "\n")
    print(target)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
