"""Library kernels end to end: each case, a small module with a convolution
or a matrix product and a pointwise chain after it, is scripted, saved,
run by tsmlir-run with library kernels (the default where they are built)
and compared with eager PyTorch at f32 tolerances (rtol 1e-4, atol 1e-5 of
the output's largest magnitude); the module as tsmlir prepared it
(--dump-ir, ts.mlir) must hold the kernel ops and epilogue steps the case
expects, so that a pass which stops fusing an epilogue fails the test.

    run_library_kernels.py OUT_DIR [--threads N]

Prints `NAME: match, kernels ...` per case, then a summary line.
"""
import os
import re
import subprocess
import sys

import numpy as np
import torch
import torch.nn.functional as F

torch.manual_seed(0)


def conv(cin, cout, k, **kw):
    return torch.nn.Conv2d(cin, cout, k, **kw)


class Seq(torch.nn.Module):
    """f(layer(x)) and, with `residual`, f(layer(x) + r) for a second input."""

    def __init__(self, layer, act=None, residual=False, swap=False):
        super().__init__()
        self.layer = layer
        self.act = act if act is not None else torch.nn.Identity()
        self.residual = residual
        self.swap = swap

    def forward(self, x, r):
        y = self.layer(x)
        if self.residual:
            y = r + y if self.swap else y + r
        return self.act(y)


class Lambda(torch.nn.Module):
    def __init__(self, name):
        super().__init__()
        self.name = name

    def forward(self, y):
        if self.name == "scale_shift":
            return y * 0.5 + 2.0
        if self.name == "div_sub":
            return y / 4.0 - 1.0
        if self.name == "clamp":
            return torch.clamp(y, -0.5, 0.75)
        if self.name == "clamp_min":
            return torch.clamp(y, min=0.1)
        if self.name == "gelu_tanh":
            return F.gelu(y, approximate="tanh")
        if self.name == "leaky":
            return F.leaky_relu(y, 0.2)
        if self.name == "elu":
            return F.elu(y, 0.7)
        raise ValueError(self.name)


class MatmulModule(torch.nn.Module):
    def __init__(self, kind, act=None):
        super().__init__()
        self.kind = kind
        self.act = act if act is not None else torch.nn.Identity()

    def forward(self, a, b):
        if self.kind == "mm":
            y = torch.mm(a, b)
        elif self.kind == "bmm":
            y = torch.bmm(a, b)
        elif self.kind == "matmul":
            y = torch.matmul(a, b)
        else:
            y = torch.addmm(b[0], a, b)
        return self.act(y)


x4 = lambda *s: torch.randn(*s)
# name, module, inputs, the kernel op and epilogue steps ts.mlir must hold
CASES = [
    ("conv3x3_relu", Seq(conv(8, 16, 3, padding=1), torch.nn.ReLU()), (x4(2, 8, 12, 12), x4(1)), "conv2d", ["relu"]),
    ("conv1x1_nobias", Seq(conv(16, 8, 1, bias=False)), (x4(2, 16, 9, 9), x4(1)), "conv2d", []),
    # 1x1 over 14x14 outputs and more run on NCHW as it is (no reorders).
    ("conv1x1_nchw_residual_relu", Seq(conv(8, 16, 1), torch.nn.ReLU(), residual=True), (x4(2, 8, 16, 16), x4(2, 16, 16, 16)), "conv2d", ["residual", "relu"]),
    ("conv1x1_nchw_gelu", Seq(conv(16, 8, 1, bias=False), torch.nn.GELU()), (x4(1, 16, 14, 14), x4(1)), "conv2d", ["gelu_erf"]),
    ("conv_strided_relu6", Seq(conv(8, 8, 3, stride=2, padding=1), torch.nn.ReLU6()), (x4(1, 8, 15, 15), x4(1)), "conv2d", ["clip"]),
    ("conv_grouped_hardswish", Seq(conv(8, 12, 3, padding=1, groups=4), torch.nn.Hardswish()), (x4(2, 8, 10, 10), x4(1)), "conv2d", ["hardswish"]),
    ("conv_depthwise_silu", Seq(conv(16, 16, 3, padding=1, groups=16), torch.nn.SiLU()), (x4(2, 16, 14, 14), x4(1)), "conv2d", ["swish"]),
    ("conv_dilated_sigmoid", Seq(conv(4, 8, 3, padding=2, dilation=2), torch.nn.Sigmoid()), (x4(1, 4, 11, 11), x4(1)), "conv2d", ["sigmoid"]),
    ("conv_7x7_s2_tanh", Seq(conv(3, 8, 7, stride=2, padding=3), torch.nn.Tanh()), (x4(2, 3, 32, 32), x4(1)), "conv2d", ["tanh"]),
    ("conv_residual_relu", Seq(conv(8, 8, 3, padding=1), torch.nn.ReLU(), residual=True), (x4(2, 8, 10, 10), x4(2, 8, 10, 10)), "conv2d", ["residual", "relu"]),
    ("conv_residual_swapped", Seq(conv(8, 8, 1), None, residual=True, swap=True), (x4(2, 8, 10, 10), x4(2, 8, 10, 10)), "conv2d", ["residual"]),
    ("conv_scale_shift", Seq(conv(8, 8, 3), Lambda("scale_shift")), (x4(1, 8, 9, 9), x4(1)), "conv2d", ["linear"]),
    ("conv_div_sub", Seq(conv(8, 8, 3), Lambda("div_sub")), (x4(1, 8, 9, 9), x4(1)), "conv2d", ["linear"]),
    ("conv_clamp", Seq(conv(8, 8, 3), Lambda("clamp")), (x4(1, 8, 9, 9), x4(1)), "conv2d", ["clip"]),
    ("conv_clamp_min", Seq(conv(8, 8, 3), Lambda("clamp_min")), (x4(1, 8, 9, 9), x4(1)), "conv2d", ["clip"]),
    ("conv_leaky", Seq(conv(8, 8, 3), Lambda("leaky")), (x4(1, 8, 9, 9), x4(1)), "conv2d", ["relu"]),
    ("conv_elu", Seq(conv(8, 8, 3), Lambda("elu")), (x4(1, 8, 9, 9), x4(1)), "conv2d", ["elu"]),
    ("linear_gelu", Seq(torch.nn.Linear(32, 48), torch.nn.GELU()), (x4(6, 32), x4(1)), "matmul", ["gelu_erf"]),
    ("linear_3d_gelu_tanh", Seq(torch.nn.Linear(32, 16), Lambda("gelu_tanh")), (x4(2, 5, 32), x4(1)), "matmul", ["gelu_tanh"]),
    ("linear_nobias_residual", Seq(torch.nn.Linear(16, 16, bias=False), torch.nn.ReLU(), residual=True), (x4(4, 16), x4(4, 16)), "matmul", ["residual", "relu"]),
    ("mm", MatmulModule("mm"), (x4(7, 33), x4(33, 5)), "matmul", []),
    ("bmm_relu", MatmulModule("bmm", torch.nn.ReLU()), (x4(3, 7, 9), x4(3, 9, 4)), "matmul", ["relu"]),
    ("matmul_3d_2d", MatmulModule("matmul"), (x4(3, 7, 9), x4(9, 4)), "matmul", []),
    ("addmm_sigmoid", MatmulModule("addmm", torch.nn.Sigmoid()), (x4(7, 9), x4(9, 9)), "matmul", ["sigmoid"]),
]


def main():
    out = sys.argv[1]
    threads = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--threads" else "1"
    os.makedirs(out, exist_ok=True)
    failures = 0
    for name, module, inputs, op, steps in CASES:
        case = os.path.join(out, name)
        os.makedirs(case, exist_ok=True)
        module = module.eval()
        scripted = torch.jit.script(module)
        scripted.save(os.path.join(case, "model.pt"))
        args = []
        for i, t in enumerate(inputs):
            np.save(os.path.join(case, f"in{i}.npy"), t.numpy())
            args += ["--input", os.path.join(case, f"in{i}.npy")]
        with torch.no_grad():
            expected = module(*inputs).numpy()
        proc = subprocess.run(["tsmlir-run", os.path.join(case, "model.pt"), *args,
                               "--threads", threads, "--output-dir", case,
                               "--dump-ir", os.path.join(case, "ir")],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            print(f"{name}: FAIL: tsmlir-run: {proc.stderr.strip()}")
            failures += 1
            continue
        got = np.load(os.path.join(case, "out0.npy"))
        scale = float(np.abs(expected).max()) or 1.0
        if got.shape != expected.shape or not np.allclose(got, expected, rtol=1e-4, atol=1e-5 * scale):
            print(f"{name}: FAIL: max difference {np.abs(got - expected).max()}")
            failures += 1
            continue
        with open(os.path.join(case, "ir", "ts.mlir")) as f:
            ir = f.read()
        ops = re.findall(r"kernel\.(conv2d|matmul) ", ir)
        found = re.findall(r"#kernel\.step<([a-z_]+),", ir)
        if ops != [op] or found != steps:
            print(f"{name}: FAIL: kernels {ops} with steps {found}, expected [{op}] with {steps}")
            failures += 1
            continue
        print(f"{name}: match, kernel.{op} [{', '.join(steps)}]")
    print(f"library kernels: {len(CASES)} cases, {len(CASES) - failures} match, {failures} failures")


if __name__ == "__main__":
    main()
