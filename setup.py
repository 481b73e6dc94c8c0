"""The one thing pyproject.toml cannot say: the source folder app/ installs under the import name
`threadbench` (nothing named `app` lands in site-packages), and the top-level styles/ folder as
`threadbench.styles`. Everything else about the build is in pyproject.toml."""

from setuptools import find_packages, setup

setup(
    packages=[
        "threadbench",
        *(f"threadbench.{package}" for package in find_packages("app")),
        "threadbench.styles",
    ],
    package_dir={"threadbench": "app", "threadbench.styles": "styles"},
    package_data={"threadbench.styles": ["*.tcss"], "threadbench.embedded.demo": ["*.md"]},
)
