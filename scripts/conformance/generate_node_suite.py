# SPDX-License-Identifier: MIT
"""Writes the ONNX node conformance suite of the installed `onnx` package to OUT/<case>/.

Every case of onnx.backend.test.case.node.collect_testcases() is laid out by onnx's own writer
(onnx.backend.test.cmd_tools.generate_data: model.onnx + test_data_set_0/{input,output}_N.pb), so the files are
exactly those the onnx repository ships for its release. That writer collects the *model* cases; it is pointed at the
node cases instead of copying its 100 lines here.
"""
import argparse
import os
import shutil
import sys
import warnings

import onnx
import onnx.backend.test.case.model as model_cases
import onnx.backend.test.case.node as node_cases
from onnx.backend.test import cmd_tools


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", help="folder to write (replaced whole)")
    args = parser.parse_args()
    # Some case generators divide by zero on purpose (inf/nan expectations); their warnings are noise.
    warnings.simplefilter("ignore")
    cases = node_cases.collect_testcases()
    staging = args.out + ".partial"
    shutil.rmtree(staging, ignore_errors=True)
    model_cases.collect_testcases = lambda: cases
    cmd_tools.generate_data(argparse.Namespace(output=staging))
    # The writer nests cases under their kind ("node"); flatten so that OUT/<case>/model.onnx.
    shutil.rmtree(args.out, ignore_errors=True)
    os.rename(os.path.join(staging, "node"), args.out)
    shutil.rmtree(staging)
    print(f"generated {len(cases)} ONNX node cases (onnx {onnx.__version__}) into {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
