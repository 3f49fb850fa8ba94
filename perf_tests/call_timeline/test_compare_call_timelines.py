#!/usr/bin/env python3
"""compare_call_timelines.py on traces whose medians are known (ctest: perf.compare_call_timelines)."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_call_timelines  # noqa: E402

HEADER = "shape,method,call,name,blocks,start_us,end_us,call_us\n"


def trace(calls):
    """CSV text for calls of 64^3 EmulatedFP32, each a list of (name, start, end)."""
    rows = [f"64x64x64,EmulatedFP32,{c},{name},1,{s},{e},0\n"
            for c, call in enumerate(calls) for name, s, e in call]
    return HEADER + "".join(rows)


class CompareCallTimelines(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_medians_differences_and_repeated_kernels(self):
        # The change: split 10, 11, 12 us over two files; the gemm launched twice a call.
        change = [self.write("c1.csv", trace([[("split", 0, 10), ("gemm", 10, 110), ("gemm", 110, 111)],
                                                 [("split", 0, 11), ("gemm", 11, 111), ("gemm", 111, 112)]])),
                  self.write("c2.csv", trace([[("split", 0, 12), ("gemm", 12, 112), ("gemm", 112, 113)]]))]
        # The baseline: split 13 and 14 us, a fixup the change no longer runs.
        baseline = [self.write("b1.csv", trace([[("split", 0, 13), ("gemm", 13, 113), ("gemm", 113, 114),
                                                   ("fixup", 114, 120)]])),
                    self.write("b2.csv", trace([[("split", 0, 14), ("gemm", 14, 114), ("gemm", 114, 115),
                                                   ("fixup", 115, 121)]]))]
        table = compare_call_timelines.compare(change, baseline)
        self.assertIn("| split | 11.0 | 13.5 | -2.5 (-18.5%) | 13.0-14.0 |", table)
        self.assertIn("| gemm | 100.0 | 100.0 | +0.0 (+0.0%) | 100.0-100.0 |", table)
        self.assertIn("| gemm (2) | 1.0 | 1.0 | +0.0 (+0.0%) | 1.0-1.0 |", table)
        self.assertIn("| fixup | - | 6.0 | only in the baseline | |", table)
        self.assertIn("| GPU span | 112.0 | 120.5 | -8.5 (-7.1%) | 120.0-121.0 |", table)
        self.assertIn("2 traces of the change, 2 of the baseline", table)

    def test_a_method_traced_on_one_side_is_named(self):
        change = [self.write("c.csv", trace([[("split", 0, 10)]]))]
        baseline = [self.write("b.csv", HEADER + "64x64x64,Int8Slices,0,split,1,0,9,0\n")]
        table = compare_call_timelines.compare(change, baseline)
        self.assertIn("64x64x64, EmulatedFP32: traced on one side only", table)
        self.assertIn("64x64x64, Int8Slices: traced on one side only", table)


if __name__ == "__main__":
    unittest.main()
