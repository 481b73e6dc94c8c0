"""The wheel: the source folder app/ installs as `threadbench` (nothing named `app`, which other
projects' wheels also install, e.g. DeerFlow's backend), and the top-level styles/ folder ships
inside it, found at run time through importlib.resources."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILD_INPUTS = ("app", "styles", "setup.py", "pyproject.toml", "README.md")


def build_wheel(out: Path) -> Path:
    # From a copy of what the build reads: an in-tree build/ keeps modules deleted since.
    source = out / "source"
    for name in BUILD_INPUTS:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(ROOT / name, source / name)
    pip = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]
    subprocess.run([*pip, "--wheel-dir", str(out), str(source)], check=True, capture_output=True, timeout=300)
    (wheel,) = out.glob("threadbench-*.whl")
    return wheel


def test_the_wheel_installs_threadbench_with_its_styles_and_nothing_named_app(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    assert {top for top in tops if not top.endswith(".dist-info")} == {"threadbench"}
    for shipped in (
        "threadbench/styles/app.tcss",
        "threadbench/styles/human_input.tcss",
        "threadbench/styles/compare.tcss",
        "threadbench/ui/app.py",
        "threadbench/backends/langgraph/client.py",
        "threadbench/embedded/demo/agent.py",
        "threadbench/embedded/demo/TRIGGERS.md",
    ):
        assert shipped in names
    entry_points = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("entry_points.txt")))
    assert b"threadbench = threadbench.__main__:main" in entry_points

    # Unpacked alone (-S: no site-packages, so not the editable install), the styles are found.
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); from threadbench.styles import STYLES; "
        "print((STYLES / 'app.tcss').is_file(), STYLES)"
    )
    found = subprocess.run(
        [sys.executable, "-S", "-c", script, str(site)], check=True, capture_output=True, text=True, timeout=60
    ).stdout.split()
    assert found == ["True", str(site / "threadbench" / "styles")]
