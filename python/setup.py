"""`pip install python/`: the tsmlir package. Its in-process compiler (the
_native extension) is taken from a tsmlir build, $TSMLIR_BUILD_DIR or
../build, when it has one (scripts/setup.sh and ninja build it); without
it, tsmlir.load of shared models (.so) works and tsmlir.compile says what
is missing.

    python3 -m pip install --no-build-isolation --target DIR python/
"""
import glob
import os

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


class BuildPy(build_py):
    """The modules, and the extension from the build beside them."""

    def run(self):
        super().run()
        build = os.environ.get("TSMLIR_BUILD_DIR", os.path.join(HERE, "..", "build"))
        target = os.path.join(self.build_lib, "tsmlir")
        for extension in glob.glob(os.path.join(build, "python_packages",
                                                "tsmlir", "_native*.so")):
            self.copy_file(extension, target)


setup(name="tsmlir",
      version="0.1.0",
      description="TorchScript compiled with MLIR: PyTorch functions, modules, "
                  "graphs and .pt archives compiled in process, shared models loaded",
      packages=["tsmlir"],
      python_requires=">=3.9",
      install_requires=["numpy"],
      cmdclass={"build_py": BuildPy})
