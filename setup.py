"""Builds the optional compiled core, ``tfr_viewer.core._fast``.

Everything else is in pyproject.toml. Without a working C compiler the build warns and
the package installs without it: tfr-viewer then runs its pure-Python path, which gives
the same results more slowly (``tfr-viewer --version`` says which path is in use).
"""

from __future__ import annotations

import sys
from glob import glob

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

WARNING = """
WARNING: the compiled core of tfr-viewer could not be built ({reason}).
tfr-viewer is installed and works, on its slower pure-Python path. Install a C
compiler (gcc, clang or MSVC) and the Python headers, then reinstall, to build it.
"""


class OptionalBuildExt(build_ext):
    """Build extensions, but let a missing compiler degrade to a warning."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - any failure means: no compiled core
            self._warn(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001
            self._warn(exc)

    @staticmethod
    def _warn(exc: Exception) -> None:
        sys.stderr.write(WARNING.format(reason=str(exc).strip() or type(exc).__name__))


FLAGS = [] if sys.platform == "win32" else ["-O3", "-fvisibility=hidden", "-Wall"]

setup(
    ext_modules=[
        Extension(
            "tfr_viewer.core._fast",
            sources=sorted(glob("native/*.c")),
            depends=sorted(glob("native/*.h")),
            extra_compile_args=FLAGS,
        )
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
