#!/usr/bin/env python3
"""torch.nn layers end to end: each layer (random weights, seeded, eval
mode) wrapped in a module that calls it as a model does, saved by
torch.jit.save as scripted.pt, frozen.pt and traced.pt, run by tsmlir-run
from the archive and compared with eager PyTorch's outputs (harness.py's
tolerances; nested tuple outputs flattened in order, as tsmlir-run writes
them).

The layers named *_train stay in training mode: normalisation by the
batch's statistics, and the running statistics updated in place, which
the module returns after the call (scripted and traced only: PyTorch
freezes modules in eval mode only).

A run that fails or mismatches fails the test unless EXPECTED_FAILURES
lists it with the same reason (the first error tsmlir prints, or the
mismatch); a listed run that passes, or fails otherwise, fails the test
too, so the table stays true.

Prints one line per archive, sorted, then the total:

  per case:
    LAYER/FORM.pt: N outputs, match|expected failure|FAIL|UNEXPECTED PASS
  nn modules: N archives, M match, F failures, X expected failures

Usage: run_nn_modules.py TMPDIR [--jobs N] [--only LAYER,...]
"""
import argparse
import concurrent.futures
import copy
import os
import sys
import warnings

import numpy as np
import torch
import torch.nn as nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

FORMS = ("scripted", "frozen", "traced")

# (layer, form) -> the reason its run fails, exactly as the driver sees it.
# The layers in training mode write their running statistics, the module's
# state, which the compiled graph keeps (test/e2e/module-state.test calls
# them more than once).
EXPECTED_FAILURES = {}


class Call(nn.Module):
    """Calls `layer` on the inputs, with `kwargs`, as a model's forward
    does (nn.LSTM and others have overloaded forwards that only a caller
    resolves)."""

    def __init__(self, layer, kind):
        super().__init__()
        self.layer = layer
        self.kind = kind


class One(Call):
    def forward(self, x):
        return self.layer(x)


class SelfAttention(Call):
    def forward(self, x):
        return self.layer(x, x, x)


class SelfAttentionNoWeights(Call):
    def forward(self, x, mask):
        return self.layer(x, x, x, need_weights=False, attn_mask=mask)[0]


class SelfAttentionPadding(Call):
    def forward(self, x, padding):
        return self.layer(x, x, x, key_padding_mask=padding)


class EncoderPadding(Call):
    def forward(self, x, padding):
        return self.layer(x, src_key_padding_mask=padding)


class RunningStats(Call):
    """The layer's output and its running statistics after the call."""

    def forward(self, x):
        y = self.layer(x)
        return y, self.layer.running_mean, self.layer.running_var


class Two(Call):
    def forward(self, x, y):
        return self.layer(x, y)


def randn(*shape):
    return torch.randn(*shape)


def make_layers():
    """name -> (module, inputs). Seeded: the same weights and inputs each
    run."""
    torch.manual_seed(0)
    layers = {
        "lstm": (One(nn.LSTM(8, 16, num_layers=2, batch_first=True), 0),
                 [randn(2, 5, 8)]),
        "gru_bidirectional": (One(nn.GRU(8, 12, bidirectional=True), 0),
                              [randn(5, 2, 8)]),
        "rnn_relu": (One(nn.RNN(8, 12, nonlinearity="relu"), 0),
                     [randn(4, 3, 8)]),
        "multihead_attention": (SelfAttention(
            nn.MultiheadAttention(16, 4, batch_first=True), 0), [randn(2, 5, 16)]),
        # The fast path's key-padding mask, and weights per head.
        "multihead_attention_padding": (SelfAttentionPadding(
            nn.MultiheadAttention(16, 4, batch_first=True), 0),
            [randn(2, 5, 16), torch.tensor([[False] * 5, [False] * 3 + [True] * 2])]),
        "multihead_attention_mask": (SelfAttentionNoWeights(
            nn.MultiheadAttention(16, 4), 0),
            [randn(5, 2, 16), torch.triu(torch.full((5, 5), float("-inf")), 1)]),
        "transformer_encoder_layer": (One(nn.TransformerEncoderLayer(
            16, 4, 32, dropout=0.0, batch_first=True), 0), [randn(2, 5, 16)]),
        "transformer_encoder_gelu_norm_first": (EncoderPadding(
            nn.TransformerEncoderLayer(16, 4, 32, dropout=0.0, activation="gelu",
                                       batch_first=True, norm_first=True), 0),
            [randn(2, 5, 16), torch.tensor([[False] * 5, [False] * 4 + [True]])]),
        "transformer_decoder_layer": (Two(nn.TransformerDecoderLayer(
            16, 4, 32, dropout=0.0, batch_first=True), 0),
            [randn(2, 4, 16), randn(2, 6, 16)]),
        "group_norm": (One(nn.GroupNorm(2, 6), 0), [randn(2, 6, 4, 4)]),
        "instance_norm": (One(nn.InstanceNorm2d(3, affine=True), 0),
                          [randn(2, 3, 5, 5)]),
        "layer_norm": (One(nn.LayerNorm([4, 5]), 0), [randn(3, 4, 5)]),
        "batch_norm1d": (One(nn.BatchNorm1d(6), 0), [randn(4, 6)]),
        "batch_norm2d_train": (RunningStats(nn.BatchNorm2d(3, momentum=0.3), 0),
                               [randn(2, 3, 4, 5)]),
        "instance_norm_train": (RunningStats(nn.InstanceNorm1d(
            4, affine=True, track_running_stats=True), 0), [randn(3, 4, 6)]),
        "embedding": (One(nn.Embedding(10, 4, padding_idx=0), 0),
                      [torch.randint(0, 10, (2, 3))]),
        "embedding_bag": (One(nn.EmbeddingBag(10, 4, mode="mean"), 0),
                          [torch.randint(0, 10, (2, 3))]),
        "embedding_bag_max": (One(nn.EmbeddingBag(10, 4, mode="max"), 0),
                              [torch.randint(0, 10, (3, 4))]),
        # Padding entries leave the sum and the mean (a bag of only padding
        # gives 0).
        "embedding_bag_padding": (One(nn.EmbeddingBag(
            10, 4, mode="mean", padding_idx=0), 0),
            [torch.tensor([[0, 3, 0, 5], [0, 0, 0, 0], [1, 2, 3, 4]])]),
        "upsample_nearest": (One(nn.Upsample(scale_factor=2), 0),
                             [randn(1, 2, 3, 4)]),
        "upsample_bilinear": (One(nn.Upsample(scale_factor=2, mode="bilinear"), 0),
                              [randn(1, 2, 3, 4)]),
        "pixel_shuffle": (One(nn.PixelShuffle(2), 0), [randn(1, 8, 3, 3)]),
        "conv1d": (One(nn.Conv1d(4, 6, 3, stride=2, padding=1, groups=2), 0),
                   [randn(2, 4, 9)]),
        "conv_transpose1d": (One(nn.ConvTranspose1d(4, 3, 3, stride=2, padding=1), 0),
                             [randn(2, 4, 7)]),
        "conv_transpose2d": (One(nn.ConvTranspose2d(
            4, 6, 3, stride=2, padding=1, output_padding=1, groups=2), 0),
            [randn(2, 4, 5, 5)]),
        "conv3d": (One(nn.Conv3d(2, 3, 3, padding=1), 0), [randn(1, 2, 4, 4, 4)]),
        "max_pool1d": (One(nn.MaxPool1d(3, 2, 1), 0), [randn(2, 3, 10)]),
        "avg_pool1d": (One(nn.AvgPool1d(3, 2, 1), 0), [randn(2, 3, 10)]),
        "adaptive_avg_pool1d": (One(nn.AdaptiveAvgPool1d(4), 0), [randn(2, 3, 10)]),
        "adaptive_max_pool2d": (One(nn.AdaptiveMaxPool2d(2), 0), [randn(2, 3, 5, 5)]),
        # Uneven windows, with the indices of the maxima.
        "adaptive_max_pool2d_indices": (One(nn.AdaptiveMaxPool2d(
            (3, 2), return_indices=True), 0), [randn(2, 3, 7, 5)]),
        "max_pool2d_indices": (One(nn.MaxPool2d(
            3, 2, 1, ceil_mode=True, return_indices=True), 0), [randn(2, 3, 8, 7)]),
        "hardtanh_relu6": (One(nn.Sequential(nn.Hardtanh(-0.5, 0.5), nn.ReLU6()), 0),
                           [randn(3, 4) * 4]),
    }
    for name, (module, _) in layers.items():
        module.train(name.endswith("_train"))
    return layers


def forms(name):
    return ("scripted", "traced") if name.endswith("_train") else FORMS


def flatten(value):
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in flatten(v)]
    return [value]


def save(name, module, inputs, tmp):
    """The archives of one layer and its inputs and outputs; the forms
    PyTorch cannot make are left out with the reason."""
    directory = os.path.join(tmp, name)
    os.makedirs(directory, exist_ok=True)
    with torch.no_grad():
        # A copy runs: a layer in training mode updates its statistics, and
        # the archives keep the ones before the call.
        outputs = flatten(copy.deepcopy(module)(*inputs))
    for i, x in enumerate(inputs):
        np.save(os.path.join(directory, "in%d.npy" % i), x.numpy())
    made = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scripted = torch.jit.script(module)
        made["scripted"] = scripted
        if "frozen" in forms(name):
            made["frozen"] = torch.jit.freeze(torch.jit.script(module))
        traced = torch.jit.trace(copy.deepcopy(module), tuple(inputs),
                                 check_trace=False)
        # Tracing ran the call: the statistics go back to the ones before.
        with torch.no_grad():
            before = dict(module.named_buffers())
            for key, buffer in traced.named_buffers():
                buffer.copy_(before[key])
        made["traced"] = traced
    for form, m in made.items():
        torch.jit.save(m, os.path.join(directory, form + ".pt"))
    return directory, [o.detach().numpy() for o in outputs]


def run_one(job):
    name, form, directory, n_inputs, refs = job
    cmd = ["tsmlir-run", os.path.join(directory, form + ".pt")] + [
        "--input=" + os.path.join(directory, "in%d.npy" % i) for i in range(n_inputs)]
    out_dir = os.path.join(directory, "out-" + form)
    why = harness.run_tool(cmd, out_dir)
    return job, why or harness.compare_dir(out_dir, refs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tmp")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    jobs = []
    for name, (module, inputs) in sorted(make_layers().items()):
        if only and name not in only:
            continue
        directory, refs = save(name, module, inputs, args.tmp)
        for form in forms(name):
            jobs.append((name, form, directory, len(inputs), refs))
    lines, counts = [], {"match": 0, "fail": 0, "xfail": 0, "xpass": 0}
    problems = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for (name, form, _, _, refs), why in pool.map(run_one, jobs):
            expected = EXPECTED_FAILURES.get((name, form))
            if why is None:
                outcome = "UNEXPECTED PASS" if expected else "match"
                counts["xpass" if expected else "match"] += 1
            elif expected and why == expected:
                outcome = "expected failure"
                counts["xfail"] += 1
            else:
                outcome = "FAIL"
                counts["fail"] += 1
                problems.append("FAIL: %s/%s.pt: %s" % (name, form, why))
            if outcome == "UNEXPECTED PASS":
                problems.append("UNEXPECTED PASS: %s/%s.pt (listed: %s)" %
                                (name, form, expected))
            lines.append("  %s/%s.pt: %d outputs, %s" % (name, form, len(refs), outcome))
    for p in problems:
        print(p)
    print("per case:")
    for line in sorted(lines):
        print(line)
    print("nn modules: %d archives, %d match, %d failures, %d expected failures, "
          "%d unexpected passes" % (len(jobs), counts["match"], counts["fail"],
                                    counts["xfail"], counts["xpass"]))
    return 1 if counts["fail"] or counts["xpass"] else 0


if __name__ == "__main__":
    sys.exit(main())
