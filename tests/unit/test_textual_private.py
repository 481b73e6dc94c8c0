"""Textual's private parts are reached only in threadbench.ui.textual_compat, in at most 20 lines.

import-linter sees an external package as one module (`textual`), so it cannot tell
`textual._time` from `textual.widgets`: this check reads the code instead. A private name is
one that starts with `_` (not a dunder) and that Textual's source defines; an attribute of that
name counts unless our own code defines it too (a widget's own `_query`). A class of ours that
subclasses a Textual class may not define a private name its Textual bases define (an
override of a private method, found by importing every module).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from functools import cache
from pathlib import Path

import textual
import threadbench
from textual.widget import Widget

APP = Path(threadbench.__file__).parent
COMPAT = APP / "ui" / "textual_compat"
COMPAT_LIMIT = 20
NOT_TEXTUAL = {"os._exit"}  # (a private name of Python's, not Textual's)


@cache
def textual_private_names() -> frozenset[str]:
    names: set[str] = set()
    for path in Path(textual.__file__).parent.rglob("*.py"):
        names.update(re.findall(r"(?:def |self\.|^\s+)(_[a-zA-Z]\w*)\b", path.read_text(), re.MULTILINE))
    return frozenset(names)


@cache
def our_names() -> frozenset[str]:
    names: set[str] = set()
    for path in APP.rglob("*.py"):
        if COMPAT in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
    return frozenset(names)


def private_lines(path: Path, ours: frozenset[str]) -> dict[int, str]:
    """Line -> what on it reaches into Textual's private parts."""
    found: dict[int, str] = {}
    private = textual_private_names()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("textual"):
            module = node.module or ""
            names = [alias.name for alias in node.names]
            if any(part.startswith("_") for part in module.split(".")) or any(n.startswith("_") for n in names):
                found[node.lineno] = f"from {module} import {', '.join(names)}"
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            if node.attr in private and node.attr not in ours and ast.unparse(node) not in NOT_TEXTUAL:
                found[node.lineno] = ast.unparse(node)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in private:
            if COMPAT in path.parents:  # (a name given to setattr; elsewhere strings are data)
                found[node.lineno] = repr(node.value)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in private:
            if COMPAT in path.parents:  # (elsewhere: the overrides are found by importing, below)
                found[node.lineno] = f"def {node.name}"
    return found


def test_no_module_outside_textual_compat_names_a_private_textual_name() -> None:
    found = {
        f"{path.relative_to(APP)}:{line}": what
        for path in sorted(APP.rglob("*.py"))
        if COMPAT not in path.parents
        for line, what in private_lines(path, our_names()).items()
    }
    assert not found, "\n".join(f"{where}: {what}" for where, what in found.items())


def test_no_class_outside_textual_compat_overrides_a_private_textual_method() -> None:
    made_for_every_class = {name for name in type("Probe", (Widget,), {}).__dict__ if name.startswith("_")}
    made_for_every_class.add("_abc_impl")  # (Python's, for an abstract class)
    found = []
    for module_info in pkgutil.walk_packages(threadbench.__path__, "threadbench."):
        if module_info.name.startswith("threadbench.ui.textual_compat") or module_info.name.startswith(
            "threadbench.embedded.demo"
        ):
            continue
        module = importlib.import_module(module_info.name)
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                continue
            bases = [base for base in cls.__mro__[1:] if base.__module__.split(".")[0] == "textual"]
            for name in cls.__dict__:
                if name.startswith("_") and not name.startswith("__") and name not in made_for_every_class:
                    if any(name in base.__dict__ for base in bases):
                        found.append(f"{module.__name__}.{cls.__name__}.{name}")
    assert not found, "\n".join(found)


def test_textual_compat_reaches_in_at_most_twenty_lines() -> None:
    lines = {
        f"{path.name}:{line}": what
        for path in sorted(COMPAT.glob("*.py"))
        for line, what in private_lines(path, frozenset()).items()
    }
    assert len(lines) <= COMPAT_LIMIT, "\n".join(f"{where}: {what}" for where, what in lines.items())
