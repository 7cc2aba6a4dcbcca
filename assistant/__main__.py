"""``python -m assistant``: the command line (:func:`.cli.fast.main`).

Run by a Python that lacks the project's dependencies (a system ``python3`` beside the virtual
environment the project was installed in, or a checkout never installed), the first import of one
ended in a traceback that told a newcomer nothing about what to do; it now says which package is
missing, for which Python, and the README's install line, exit 2. A missing module that is none of
the dependencies is a defect of the project and still raises.
"""

from __future__ import annotations

import sys

#: the import names of pyproject.toml's dependencies (``pyyaml`` is imported as ``yaml``, and so on)
DEPENDENCIES = frozenset(
    {"typer", "rich", "pydantic", "yaml", "numpy", "cv2", "fastapi", "uvicorn", "jinja2", "multipart", "segno", "prompt_toolkit", "platformdirs", "click"}
)


def run() -> None:
    """The command line, or the plain word on a missing dependency."""
    try:
        from .cli.fast import main  # inside the guard: its imports are what may be missing

        main()
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in DEPENDENCIES:
            raise
        from . import i18n  # only on the refusal; the standard library's gettext alone

        i18n.set_language(i18n.choose(_asked_language(sys.argv[1:])))
        print(
            i18n._(
                "assistant: the package {name} is not installed for this Python ({python}); install the project first:"
                " pip install . (the README's first line), in the virtual environment you run it from"
            ).format(name=exc.name, python=sys.executable),
            file=sys.stderr,
        )
        sys.exit(2)


def _asked_language(argv: list[str]) -> str | None:
    """The language a line asks for first (``--lang L`` or ``--lang=L``), None where it asks none."""
    for at, word in enumerate(argv):
        if word == "--lang" and at + 1 < len(argv):
            return argv[at + 1]
        if word.startswith("--lang="):
            return word.removeprefix("--lang=")
    return None


if __name__ == "__main__":
    run()
