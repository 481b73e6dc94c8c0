"""The .tcss files, one home for all of them (installed as `threadbench.styles`).

STYLES is their folder, found through importlib.resources so it is right in a wheel and in an
editable install alike."""

from importlib.resources import files
from pathlib import Path

STYLES = Path(str(files(__name__)))
