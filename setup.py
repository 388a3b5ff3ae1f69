"""Builds the optional compiled copies of `sim.compiled.MODULES` (Cython, source unchanged) beside
the package; everything else is in pyproject.toml. Without Cython or a C compiler, or with
EMPIRES_PURE_PYTHON=1, the install goes on in pure Python, with a warning for a failed build."""

from __future__ import annotations

import json
import os
import runpy
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent
COMPILED = runpy.run_path(str(HERE / "sim" / "compiled.py"))      # the module list, without importing sim
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False, "infer_types": False}
# after the interpreter's own flags (`-g -O3` here): the same machine code without its debug
# information, which took a third of the compiling time (docs/performance.md)
NO_DEBUG_INFO = "-g0"


def extensions() -> list:
    if os.environ.get(COMPILED["PURE_ENV"]) == "1":
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        print("warning: Cython is missing: sim runs in pure Python")
        return []
    sources = [str(COMPILED["source_path"](m).relative_to(HERE.resolve())) for m in COMPILED["MODULES"]]
    # `build_ext --force` (make passes it when setup.py changed: new directives) translates anew too
    return cythonize(sources, compiler_directives=DIRECTIVES, quiet=True, force="--force" in sys.argv)


class OptionalBuildExt(build_ext):
    """build_ext that records each module it compiled (sim/_compiled.json, with the SHA-256 of its
    source) and warns instead of failing where a module does not compile."""

    def finalize_options(self) -> None:
        super().finalize_options()
        self.parallel = self.parallel or os.cpu_count() or 1

    def run(self) -> None:
        if not self.extensions:            # a pure-Python install: the record stays as it is
            return
        self.built: dict[str, str] = {}
        try:
            super().run()
        except Exception as err:            # no compiler at all: pure Python
            print(f"warning: the compiled modules were not built ({err}): sim runs in pure Python")
        root = Path("" if self.inplace else self.build_lib)
        target = root / "sim" / "_compiled.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(dict(sorted(self.built.items())), indent=1) + "\n")

    def build_extension(self, ext) -> None:
        if self.compiler.compiler_type == "unix" and NO_DEBUG_INFO not in ext.extra_compile_args:
            ext.extra_compile_args = [*ext.extra_compile_args, NO_DEBUG_INFO]
        try:
            super().build_extension(ext)
        except Exception as err:
            print(f"warning: {ext.name} was not compiled ({err}): it runs in pure Python")
            return
        self.built[ext.name] = COMPILED["source_hash"](COMPILED["source_path"](ext.name))


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
