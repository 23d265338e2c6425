"""A torch.nn.Module compiled by tsmlir in process, checked against PyTorch.

    PYTHONPATH=build/python_packages /usr/bin/python3 examples/python/compile_module.py
"""
import torch

import tsmlir


class SmallNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 16, 3, padding=1)
        self.fc = torch.nn.Linear(16, 10)

    def forward(self, x):
        y = torch.nn.functional.gelu(self.conv(x))
        return torch.softmax(self.fc(y.mean(dim=(2, 3))), dim=-1)


def main():
    torch.manual_seed(0)
    model = SmallNet().eval()
    x = torch.randn(4, 3, 32, 32)
    fn = tsmlir.compile(model, example_inputs=(x,))
    with torch.no_grad():
        expected = model(x)
    got = fn(x)
    error = (got - expected).abs().max().item()
    print("max abs difference from PyTorch: %.3g" % error)
    assert error < 1e-5, error
    # A new batch size compiles a second specialisation.
    x2 = torch.randn(1, 3, 32, 32)
    with torch.no_grad():
        assert torch.allclose(fn(x2), model(x2), rtol=1e-4, atol=1e-6)
    print(fn)
    summary = [line for line in tsmlir.fusion_report(model, (x,), strategy="nnc")
               .splitlines() if line.startswith("summary")]
    print(summary[0])


if __name__ == "__main__":
    main()
