"""modelarts-kit: spec-first toolkit for the ModelArts training-job API (command-line face)."""

__all__ = ["__version__"]

__version__ = "0.1.0"
