"""Builds butterfly's extension module with CMake for pip (see pyproject.toml).

The extension is the CMake target _butterfly of -DBUTTERFLY_PYTHON=ON, configured for the
interpreter pip runs. Environment: CMAKE_ARGS (e.g. "-DBACKEND=openmp"), and
BUTTERFLY_CMAKE_BUILD_DIR, a CMake build tree to build in and keep (CI then builds the tests
in the same tree and runs them with ctest) instead of one under build-pip/.
"""
import os
import shlex
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        target = Path(self.get_ext_fullpath(ext.name)).resolve()
        build_dir = Path(os.environ.get("BUTTERFLY_CMAKE_BUILD_DIR") or Path(self.build_temp) / "cmake").resolve()
        configure = ["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
                     "-DBUTTERFLY_PYTHON=ON", "-DBUTTERFLY_BUILD_TESTS=OFF", "-DBUTTERFLY_BUILD_APPS=OFF",
                     f"-DPython_EXECUTABLE={sys.executable}", *shlex.split(os.environ.get("CMAKE_ARGS", ""))]
        subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "_butterfly", "-j",
                        os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")], check=True)
        built = next((build_dir / "python" / "butterfly").glob("_butterfly*.so"))
        target.parent.mkdir(parents=True, exist_ok=True)
        self.copy_file(str(built), str(target))


# build-pip/, not setuptools' build/: that is the default CMake preset's build tree.
setup(ext_modules=[Extension("butterfly._butterfly", sources=[])], cmdclass={"build_ext": CMakeBuild},
      options={"build": {"build_base": "build-pip"}})
