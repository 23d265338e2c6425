#!/usr/bin/env python3
"""Writes the bundled real model of scripts/run-example.sh: torchvision's
SqueezeNet 1.1 (random weights from a fixed seed; no download), scripted in
eval mode and saved by torch.jit.save as PyTorch users hold it, with one
input image and PyTorch's output for it.

    /usr/bin/python3 examples/squeezenet/make_model.py examples/squeezenet

Needs Debian's python3-torch and python3-torchvision. The outputs are
committed, so the example needs neither.
"""
import os
import sys

import numpy as np
import torch
import torchvision

out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__)
torch.manual_seed(0)
model = torchvision.models.squeezenet1_1().eval()
scripted = torch.jit.script(model)
scripted.save(os.path.join(out, "squeezenet1_1.pt"))
image = torch.randn(1, 3, 224, 224)
with torch.no_grad():
    expected = torch.jit.load(os.path.join(out, "squeezenet1_1.pt"))(image)
np.save(os.path.join(out, "input.npy"), image.numpy())
np.save(os.path.join(out, "output.npy"), expected.numpy())
print("wrote squeezenet1_1.pt, input.npy, output.npy; output", tuple(expected.shape))
