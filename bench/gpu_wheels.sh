#!/usr/bin/env bash
# The wheels bench/gpu_scaling.py needs on a GPU machine that reaches no package index.
# Its image has Python 3.12 with numpy, scipy, torch and CuPy; fast/
# also imports array-api-compat, and line 9's fallback (row generation) highspy. Run here,
# where pip reaches PyPI; the wheels land in .whl/ (git ignores it: .gitignore), 3 MB.
#
#     bash bench/gpu_wheels.sh            # then, on the GPU machine, from the repository root:
#     python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
#         --target /tmp/site .whl/*.whl && PYTHONPATH=/tmp/site:$PWD python3 bench/gpu_scaling.py
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .whl
for spec in "array-api-compat==1.16.0" "highspy==1.16.0"; do
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
        --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
        --platform manylinux2014_x86_64 -d .whl "$spec"
done
ls -l .whl
