#!/usr/bin/env python3
"""Runs small TorchScript functions of the reduction and linear-algebra ops
on the CPU with tsmlir-run and compares their outputs with eager PyTorch's.

Each case is a Python function of tensors, scripted by PyTorch; its graph
(calls inlined) is written out with its inputs as .npy files, compiled and
run by tsmlir-run without fusion groups and with the nnc strategy, and every
output must have PyTorch's dtype and shape and be close to it (the
tolerances by dtype, and why, are in harness.py; others: equal). A run that fails must be
listed in EXPECTED_FAILURES with its reason, and a listed run that passes
fails the test, so the table stays true.

Usage: run_ops.py TMPDIR [--only NAME,...] [--tool tsmlir-run]
"""
import argparse
import os
import sys
from typing import List

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

torch.manual_seed(0)
torch.set_num_threads(1)


def randn(*shape):
    return torch.randn(*shape)


def with_nan(*shape):
    x = torch.randn(*shape)
    x.view(-1)[3] = float("nan")
    return x


def ties(*shape):
    return torch.randint(0, 3, shape).float()


def ints(*shape):
    return torch.randint(-5, 6, shape)


# (name, function, inputs)
CASES = []

# name -> why every run of the case is expected to fail (none today).
EXPECTED_FAILURES = {}


def case(*inputs):
    def register(fn):
        CASES.append((fn.__name__, fn, list(inputs)))
        return fn
    return register


# Reductions.

@case(randn(4, 8, 3))
def sum_all(x):
    return x.sum()


@case(randn(4, 8, 3))
def sum_dims_keepdim(x):
    return x.sum(dim=[0, 2], keepdim=True)


@case(ints(4, 8))
def sum_int(x):
    return x.sum(), x.sum(1)


@case(torch.randint(0, 256, (4, 8), dtype=torch.uint8))
def uint8(x):
    a, b = torch.min(x, 1)
    return x.sum(), torch.amax(x, [1]), a, b, torch.argmax(x, 0)


@case(randn(4, 8))
def sum_bool(x):
    return (x > 0).sum()


@case(randn(4, 8))
def sum_dtype(x):
    return x.sum(dim=1, dtype=torch.float64)


@case(randn(64, 128))
def sum_wide(x):
    return x.sum(), x.sum(0)


@case(randn(4), randn(4))
def two_sums(x, y):
    return x.sum(), y.sum()


@case(randn(4, 8, 3))
def mean(x):
    return (x.mean(), x.mean(dim=[-1], keepdim=True), x.mean([0, 2]),
            x.mean(dtype=torch.float64))


@case(torch.rand(4, 6) + 0.5, torch.randint(1, 3, (3, 4)))
def prod(x, y):
    return x.prod(), y.prod()


@case(with_nan(4, 8, 3))
def amax_amin(x):
    return torch.amax(x, dim=[1]), torch.amin(x, dim=[0, 2], keepdim=True)


@case(randn(4, 8), ints(3, 5))
def max_min_all(x, y):
    return torch.max(x), torch.min(x), torch.max(y), torch.min(y)


@case(ties(4, 8), with_nan(5, 6))
def max_min_dim(x, y):
    a, b = torch.max(x, dim=1)
    c, d = torch.min(x, dim=0, keepdim=True)
    e, f = torch.max(y, dim=1)
    return a, b, c, d, e, f


@case(ints(4, 8))
def max_dim_int(x):
    a, b = torch.max(x, 1)
    return a, b


@case(ties(4, 8))
def argmax_argmin(x):
    return (torch.argmax(x), torch.argmin(x, dim=1),
            torch.argmax(x, dim=0, keepdim=True))


@case(randn(4, 8), torch.tensor([[True, True], [True, False]]))
def all_any(x, b):
    return x.all(), (x > -10).all(), (x > 10).any(), b.all(), b.any()


@case(randn(6, 8, 5))
def var_std(x):
    return (torch.var(x), torch.std(x, unbiased=False),
            x.var(dim=1, unbiased=False, keepdim=True), x.std(dim=[0, 2]),
            torch.var(x, dim=[1], correction=2),
            torch.std(x, dim=None, correction=0))


@case(randn(6, 10))
def softmax(x):
    return (torch.softmax(x, 1), torch.log_softmax(x, 0),
            torch.softmax(x, -1, dtype=torch.float64))


@case(randn(3, 5000))
def softmax_wide(x):
    return torch.softmax(x * 10, 1), torch.log_softmax(x, 1)


@case(randn(4, 7))
def softmax_internal(x):
    return torch._softmax(x, 1, False), torch._log_softmax(x, 0, False)


@case(torch.tensor([[1.0, 2.0, 3.0], [float("-inf")] * 3]))
def logsumexp(x):
    return torch.logsumexp(x, dim=[1]), torch.logsumexp(x, [0, 1], True)


@case(randn(4, 6, 8), randn(8), randn(8))
def layer_norm(x, w, b):
    return (torch.layer_norm(x, [8], w, b, 1e-5),
            torch.layer_norm(x, [6, 8], None, None, 1e-3))


@case(randn(4, 8), randn(8), randn(8))
def native_layer_norm(x, w, b):
    out, mean, rstd = torch.native_layer_norm(x, [8], w, b, 1e-5)
    return out, mean, rstd


@case(randn(2, 6, 4, 3), randn(6), randn(6))
def group_norm(x, w, b):
    return torch.group_norm(x, 3, w, b, 1e-5), torch.group_norm(x, 2)


# Linear algebra.

@case(randn(4, 8), randn(8, 3), randn(2, 4, 8), randn(2, 8, 3))
def mm_bmm(a, b, c, d):
    return torch.mm(a, b), torch.bmm(c, d)


@case(ints(4, 8), ints(8, 3))
def mm_int(a, b):
    return torch.mm(a, b)


@case(randn(8), randn(8), randn(4, 8), randn(8, 3))
def matmul_small(v, w, a, b):
    return (torch.matmul(v, w), torch.matmul(v, b), torch.matmul(a, v),
            torch.matmul(a, b), torch.dot(v, w))


@case(randn(2, 5, 4, 8), randn(8, 3), randn(2, 5, 8, 3), randn(8))
def matmul_batched(a, b, c, v):
    return (torch.matmul(a, b), torch.matmul(a, c), torch.matmul(a, v),
            torch.matmul(v, c))


@case(randn(2, 1, 4, 8), randn(5, 8, 3), randn(4, 8))
def matmul_broadcast(a, b, m):
    return torch.matmul(a, b), torch.matmul(m, b)


@case(randn(2, 4, 8), randn(3, 8), randn(3), randn(8))
def linear(x, w, b, v):
    return F.linear(x, w, b), F.linear(x, w), F.linear(v, w, b)


@case(randn(3), randn(4, 8), randn(8, 3), randn(4, 3), with_nan(4, 3))
def addmm(c, a, b, d, n):
    return (torch.addmm(c, a, b), torch.addmm(d, a, b, beta=0.5, alpha=2.0),
            torch.addmm(n, a, b, beta=0.0))


@case(randn(2, 4, 3), randn(2, 4, 8), randn(2, 8, 3))
def baddbmm(c, a, b):
    return torch.baddbmm(c, a, b), torch.baddbmm(c, a, b, beta=2.0, alpha=0.5)


@case(randn(2, 3, 9, 8), randn(4, 3, 3, 3), randn(4))
def conv2d(x, w, b):
    return (torch.conv2d(x, w, b), torch.conv2d(x, w, b, 2, 1),
            torch.conv2d(x, w, None, [1, 2], [2, 1], [2, 1]))


@case(randn(1, 4, 7, 7), randn(6, 2, 3, 3), randn(4, 1, 3, 3), randn(6))
def conv2d_groups(x, w, dw, b):
    return (torch.conv2d(x, w, b, 1, 1, 1, 2),
            torch.conv2d(x, dw, None, 2, 0, 1, 4))


@case(randn(3, 8, 8), randn(4, 3, 3, 3))
def conv2d_unbatched(x, w):
    return torch.conv2d(x, w)


@case(randn(1, 3, 8, 8), randn(4, 3, 3, 3), randn(4))
def convolution(x, w, b):
    return torch._convolution(x, w, b, [2, 2], [1, 1], [1, 1], False, [0, 0],
                              1, False, False, True, True)


@case(randn(2, 4, 11), randn(6, 2, 3), randn(6), randn(4, 9))
def conv1d(x, w, b, u):
    return (F.conv1d(x, w, b, 2, 1, 1, 2), F.conv1d(x, w, None, 1, 2, 2, 2),
            F.conv1d(x, w, b, 1, "same", 2, 2), F.conv1d(u, w[:, :1].repeat(1, 4, 1)))


@case(randn(2, 4, 5, 6), randn(4, 3, 3, 3), randn(6), randn(4, 1, 2, 4))
def conv_transpose2d(x, w, b, w2):
    return (F.conv_transpose2d(x, w, b[:3]),
            F.conv_transpose2d(x, w, b[:3], 2, 1, 1),
            F.conv_transpose2d(x, w[:, :3], None, [2, 3], [0, 1], [1, 2], 1, [1, 2]),
            F.conv_transpose2d(x, w2, None, 3, 2, 0, 2),
            F.conv_transpose2d(x, w, b[:3], 1, 3))


@case(randn(2, 4, 7), randn(4, 3, 3), randn(3))
def conv_transpose1d(x, w, b):
    return (F.conv_transpose1d(x, w, b, 2, 1, 1),
            torch._convolution(x, w, b, [3], [0], [2], True, [1], 1,
                               False, False, True, True),
            torch._convolution(x, w.transpose(0, 1), b, [2], [1], [1], False,
                               [0], 1, False, False, True, True))


@case(with_nan(2, 3, 11), randn(3, 10))
def pool1d(x, y):
    return (F.max_pool1d(x, 3, 2, 1), F.max_pool1d(y, 2, ceil_mode=True),
            F.avg_pool1d(x, 3, 2, 1), F.avg_pool1d(y, 4, 3, 2, True, False),
            F.adaptive_avg_pool1d(x, 4), F.adaptive_avg_pool1d(y, 1))


@case(randn(3, 4), randn(3, 4), randn(4), torch.tensor(1))
def tensor_bounds(x, lo, hi, start):
    return (torch.clamp(x, lo, hi), torch.clamp(x, min=lo),
            torch.clamp(x, max=hi), torch.narrow(x, 1, start, 2))


@case(randn(2, 6), torch.tensor(7))
def ranges(x, n):
    t = x + torch.arange(6) + torch.arange(1, 13, 2) * 0.5
    for i in range(1, int(n), 2):
        t = t + i
    a, b, c = torch.split_with_sizes(t, [1, 3, 2], 1)
    return a, b * 2, c, torch.arange(0.0, 1.0, 0.25), torch.arange(5, 1, -2)


@case(randn(2, 3))
def list_compare(x):
    # list(): eager's torch.Size is a tuple, which never equals a list.
    a = x * 2 if list(x.size()) != [2, 3] else x + 1
    b = a * 3 if list(x.size()) == [2, 3] else a
    c = b - 1 if [1.5, 2.0] != [1.5, 2.0] else b
    return c


@case(randn(2, 3, 4, 5), randn(3), randn(3), randn(3), torch.rand(3) + 0.5,
      randn(4, 3))
def batch_norm(x, w, b, mean, var, y):
    return (torch.batch_norm(x, w, b, mean, var, False, 0.1, 1e-5, True),
            torch.batch_norm(x, None, None, mean, var, False, 0.1, 1e-3,
                             True),
            torch.batch_norm(y, w, None, mean, var, False, 0.1, 1e-5, True))


@case(with_nan(2, 3, 9, 8), randn(3, 8, 8))
def max_pool2d(x, y):
    return (torch.max_pool2d(x, 3, 2, 1), torch.max_pool2d(x, [2, 3]),
            torch.max_pool2d(x, 3, 1, 0, 2), torch.max_pool2d(y, 2),
            torch.max_pool2d(y, 2, 2, 0, 1, True))


@case(randn(2, 3, 9, 8), randn(3, 8, 8))
def avg_pool2d(x, y):
    return (F.avg_pool2d(x, 3, 2, 1),
            F.avg_pool2d(x, 3, 2, 1, False, False),
            F.avg_pool2d(x, [2, 3], [2, 3], 0, False, True, 5),
            F.avg_pool2d(y, 2))


@case(randn(2, 3, 8, 6), randn(3, 4, 4))
def adaptive_avg_pool2d(x, y):
    return (F.adaptive_avg_pool2d(x, [1, 1]),
            F.adaptive_avg_pool2d(x, [2, 3]),
            F.adaptive_avg_pool2d(y, 2))


@case(randn(10, 4), torch.randint(0, 10, (2, 3)), torch.randint(0, 10, (5,)))
def embedding(w, i, j):
    return torch.embedding(w, i), torch.embedding(w, j, 0)



# Writes at indices read from a tensor (Scatter.cpp): repeated indices
# (later writes win; reductions see every one), scalar sources, each
# reduction with and without self, negative indices in index_put.
@case(randn(3, 5), torch.tensor([[0, 1, 2, 0, 0], [2, 0, 0, 1, 2]]),
      randn(2, 5))
def scatter(x, index, src):
    return (torch.scatter(x, 0, index, src), torch.scatter(x, 0, index, 1.5),
            torch.scatter_add(x, 0, index, src),
            torch.scatter(x, 0, index, src, reduce="multiply"),
            torch.scatter(x, 1, index[:, :3], src, reduce="add"))


@case(randn(3, 4), torch.tensor([[0, 0, 2, 1], [2, 0, 2, 2]]),
      randn(2, 4), torch.tensor([[3, 1, 4], [1, 5, 9], [2, 6, 5]]))
def scatter_reduce(x, index, src, n):
    outs = []
    for reduce in ["sum", "prod", "mean", "amax", "amin"]:
        outs.append(torch.scatter_reduce(x, 0, index, src, reduce))
        outs.append(torch.scatter_reduce(x, 0, index, src, reduce,
                                         include_self=False))
    # Integer mean divides with floor, as PyTorch does.
    return torch.stack(outs), torch.scatter_reduce(n, 1, index[:, :3],
                                                   n[:2] * 7, "mean")


@case(randn(4, 3), randn(5, 2))
def scatter_inplace(x, src):
    y = x.clone()
    y.scatter_(1, torch.tensor([[2], [0], [1], [0]]), src[:4])
    y.scatter_add_(0, torch.tensor([[3, 3, 0]]), src[:1, :1].expand(1, 3))
    return y


@case(randn(5, 3), torch.tensor([0, 4, 0, 2]), randn(4, 3))
def index_add(x, index, src):
    return (torch.index_add(x, 0, index, src),
            torch.index_add(x, 0, index, src, alpha=-2.5),
            torch.index_add(x.t(), 1, index, src.t()))


@case(randn(4, 5), torch.tensor([0, -1, 2]), torch.tensor([1, 3, 3]),
      randn(3), torch.tensor([True, False, True, True]))
def index_put(x, rows, cols, v, mask):
    a = x.clone()
    a[rows, cols] = v
    b = x.clone()
    b.index_put_((rows, cols), v, accumulate=True)
    c = x.clone()
    c[rows] = 2.0
    d = x.clone()
    d[mask] = torch.arange(15.0).view(3, 5)
    e = x.clone()
    e[mask] = x[0]
    f = x.clone()
    f[:, cols] = 0.5
    return a, b, c, d, e, f


@case(randn(2, 3, 4, 8), randn(2, 3, 5, 8), randn(4, 6), randn(6))
def einsum(q, k, m, v):
    return (torch.einsum("bhid,bhjd->bhij", q, k),
            torch.einsum("B H I D, B H J D -> B H I J", [q, k]),
            torch.einsum("ij,j->i", m, v), torch.einsum("ij->ji", m),
            torch.einsum("ij", m), torch.einsum("ij,kj", m, m),
            torch.einsum("...d,...d->...", q, q),
            torch.einsum("i,j->ij", v, v), torch.einsum("bhid->", q))


@case(torch.tensor([1.0, 2.0, 2.0, 3.5, 7.0]),
      torch.tensor([[0.5, 2.0, 9.0], [3.5, 1.0, 2.5]]),
      torch.sort(torch.randn(2, 6)).values, randn(2, 3))
def searchsorted(seq, v, rows, w):
    return (torch.searchsorted(seq, v), torch.searchsorted(seq, v, right=True),
            torch.searchsorted(seq, v, side="right", out_int32=True),
            torch.searchsorted(rows, w), torch.searchsorted(seq, 2.0),
            torch.searchsorted(seq.flip(0), v,
                               sorter=torch.tensor([4, 3, 2, 1, 0])))


@case(randn(5, 3), randn(4, 3), randn(2, 3, 4))
def cdist(a, b, c):
    return (torch.cdist(a, b), torch.cdist(a, b, 1.0), torch.cdist(a, b, 0.0),
            torch.cdist(a, b, float("inf")), torch.cdist(a, b, 3.0),
            torch.cdist(c, c))


@case(randn(2, 3, 6, 8))
def max_unpool2d(x):
    pooled, indices = F.max_pool2d(x, 2, return_indices=True)
    return (F.max_unpool2d(pooled, indices, 2),
            F.max_unpool2d(pooled, indices, 2, output_size=[7, 9]))


@case(randn(2, 3), ints(4))
def new_factories(x, n):
    return (x.new_zeros([2, 2]), x.new_ones([3]), n.new_full([2], 7),
            x.new_full([1, 2], 2, dtype=torch.float64),
            n.new_zeros([3], dtype=torch.bool))


# Ordering (Sort.cpp): NaN last ascending and first descending, every dim,
# ints and bools. Equal elements are compared through stable=True, the one
# order PyTorch specifies for them (run_opinfo checks the others by what
# their indices select).
@case(with_nan(4, 6), ints(3, 5), ties(5, 4), torch.randn(3, 4) > 0)
def sort(x, n, t, b):
    return (torch.sort(x), torch.sort(x, 0, descending=True),
            torch.sort(n, stable=True, dim=0),
            torch.sort(t, stable=True, dim=-1, descending=True),
            torch.sort(b, stable=True), torch.argsort(x, dim=0),
            torch.argsort(t, stable=True, dim=0, descending=True),
            torch.msort(x), torch.sort(x[0, 0]))


@case(with_nan(4, 6), torch.randperm(20).view(4, 5))
def topk(x, n):
    return (torch.topk(x, 3), torch.topk(x, 2, dim=0, largest=False),
            torch.topk(n, 5, 1), torch.topk(n, 1, 0, True, False),
            torch.topk(n, 0))


# Views that move dims, fill, and the in-place changes of sizes
# (RemoveMutation rewrites transpose_, unsqueeze_... to their views).
@case(randn(2, 3, 4), torch.tensor(2.5))
def move_and_fill(x, v):
    y = x.clone()
    y.transpose_(0, 2)
    y.unsqueeze_(1)
    z = x.clone()
    z.fill_(v)
    w = x[0].clone()
    w.t_()
    w.mul_(2.0)
    return (torch.swapaxes(x, 0, 1), torch.swapdims(x, -1, 0),
            torch.movedim(x, 0, -1), torch.movedim(x, [0, 1], [2, 0]),
            torch.moveaxis(x, (2,), (0,)), y, z, w, torch.fill(x, 3.0))


# torch.nn's losses (DecomposeLosses.cpp), each reduction a case; nll_loss
# and cross_entropy with weights, an ignored target, spatial dims and label
# smoothing, cross_entropy with probabilities for targets.
def classification_losses(reduction: str, x, t, w, p, s, st):
    logp = F.log_softmax(x, 1)
    return (F.nll_loss(logp, t, reduction=reduction),
            F.nll_loss(logp, t, w, reduction=reduction),
            F.cross_entropy(x, t, reduction=reduction),
            F.cross_entropy(x, t, w, reduction=reduction, label_smoothing=0.2),
            F.cross_entropy(x, p, reduction=reduction),
            F.cross_entropy(x, p, w, reduction=reduction,
                            label_smoothing=0.1),
            F.cross_entropy(s, st, reduction=reduction),
            F.nll_loss(logp[0], t[0], reduction=reduction))


CLASSIFICATION_INPUTS = (randn(4, 5), torch.tensor([1, 0, -100, 4]),
                         randn(5).abs(), torch.softmax(randn(4, 5), 1),
                         randn(2, 5, 3), torch.tensor([[0, 4, 2], [1, 1, 3]]))


@case(*CLASSIFICATION_INPUTS)
def classification_losses_none(x, t, w, p, s, st):
    return classification_losses("none", x, t, w, p, s, st)


@case(*CLASSIFICATION_INPUTS)
def classification_losses_mean(x, t, w, p, s, st):
    return classification_losses("mean", x, t, w, p, s, st)


@case(*CLASSIFICATION_INPUTS)
def classification_losses_sum(x, t, w, p, s, st):
    return classification_losses("sum", x, t, w, p, s, st)


def regression_losses(reduction: str, x, y, p, q, sign, w):
    s = sign[:, None].expand(3, 4)
    return (F.mse_loss(x, y, reduction=reduction),
            F.l1_loss(x, y, reduction=reduction),
            F.smooth_l1_loss(x, y, reduction=reduction, beta=0.5),
            F.smooth_l1_loss(x, y, reduction=reduction, beta=0.0),
            F.huber_loss(x, y, reduction=reduction, delta=0.7),
            F.soft_margin_loss(x, s, reduction=reduction),
            F.hinge_embedding_loss(x, s, margin=0.5, reduction=reduction),
            F.margin_ranking_loss(x[:, 0], y[:, 0], sign, margin=0.2,
                                  reduction=reduction),
            F.binary_cross_entropy(p, q, reduction=reduction),
            F.binary_cross_entropy(p, q, w, reduction=reduction),
            F.binary_cross_entropy_with_logits(x, q, reduction=reduction),
            F.binary_cross_entropy_with_logits(x, q, w, pos_weight=w,
                                               reduction=reduction),
            F.kl_div(F.log_softmax(x, 1), p, reduction=reduction),
            F.kl_div(x, y, reduction=reduction, log_target=True),
            F.cosine_embedding_loss(x, y, sign, margin=0.1,
                                    reduction=reduction),
            F.triplet_margin_loss(x, y, p, margin=0.5, reduction=reduction),
            F.triplet_margin_loss(x, y, p, p=1.0, swap=True,
                                  reduction=reduction),
            F.poisson_nll_loss(x, q, reduction=reduction),
            F.poisson_nll_loss(p, q * 3, log_input=False, full=True,
                               reduction=reduction))


REGRESSION_INPUTS = (randn(3, 4), randn(3, 4), torch.rand(3, 4),
                     torch.rand(3, 4), torch.tensor([1.0, -1.0, 1.0]),
                     randn(4).abs())


@case(*REGRESSION_INPUTS)
def regression_losses_none(x, y, p, q, sign, w):
    return regression_losses("none", x, y, p, q, sign, w)


@case(*REGRESSION_INPUTS)
def regression_losses_mean(x, y, p, q, sign, w):
    return regression_losses("mean", x, y, p, q, sign, w)


@case(*REGRESSION_INPUTS)
def regression_losses_sum(x, y, p, q, sign, w):
    return regression_losses("sum", x, y, p, q, sign, w)


# Decompositions of the shape and comparison families: im2col
# (nn.functional.unfold), Tensor.unfold, combinations, broadcast_tensors,
# bucketize, isclose, vecdot, pairwise_distance.
@case(randn(2, 3, 5, 6), randn(7), torch.tensor([1, 2, 3, 4]),
      torch.tensor([0.0, float("nan"), 1.0, 2.0]),
      torch.tensor([1e-9, float("nan"), 1.1, float("inf")]))
def shape_and_compare(x, v, n, a, b):
    p, q = torch.broadcast_tensors(v[:3, None], v[None, :4])
    return (F.unfold(x, 2), F.unfold(x, (2, 3), dilation=(1, 2), padding=1,
                                     stride=(2, 1)),
            F.unfold(x[0], 3, padding=(0, 1)), v.unfold(0, 3, 2),
            x.unfold(2, 2, 1), torch.combinations(n),
            torch.combinations(n, 3, with_replacement=True),
            torch.combinations(n, 1), p, q,
            torch.bucketize(v, torch.tensor([-1.0, 0.0, 0.5])),
            torch.bucketize(v, torch.tensor([-1.0, 0.0, 0.5]), right=True,
                            out_int32=True),
            torch.isclose(a, b), torch.isclose(a, b, equal_nan=True),
            torch.isclose(a, b, rtol=0.2, atol=0.0),
            torch.isclose(n, n + 1, rtol=0.3),
            torch.linalg.vecdot(x, x), F.pairwise_distance(x, x.flip(0)),
            F.pairwise_distance(v, v * 2, p=1.0, keepdim=True))


# Results sized by the data: computed at their largest size and sliced to a
# run-time count (DecomposeSelection.cpp); returned at that count.
@case(torch.tensor([[3., 1., 3., 2.], [2., 1., 5., 3.], [3., 1., 3., 2.]]),
      torch.tensor([[True, False], [True, True], [True, False]]),
      torch.tensor([4, 4, 1, 1, 1, 4, 2]))
def unique(x, b, n):
    return (torch.unique(x),
            torch.unique(x, return_inverse=True, return_counts=True),
            torch.unique(x, dim=0, return_inverse=True, return_counts=True),
            torch.unique(x, dim=1), torch.unique(b, dim=0, return_counts=True),
            torch.unique(b), torch.unique_consecutive(n, return_counts=True),
            torch.unique_consecutive(x, return_inverse=True, dim=1),
            torch.unique_consecutive(x[0]),
            torch.unique(n, sorted=True, return_inverse=True))


@case(randn(3, 4), randn(4), torch.tensor([[0, 2, 0], [1, 0, 0]]))
def select_by_value(x, y, n):
    return (torch.masked_select(x, x > 0), torch.masked_select(x, y > 0),
            torch.masked_select(y, x < -5), torch.nonzero(x > 0.5),
            torch.nonzero(n), torch.argwhere(y < 0), x[x > 0], x.t()[y > 0.2],
            n[n.sum(1) > 1])


# Order statistics, histograms and covariance (DecomposeStatistics.cpp).
@case(with_nan(3, 5), randn(4, 6), torch.tensor([[3, 1, 2], [2, 2, 5]]),
      torch.tensor([0.1, 0.5, 0.95]))
def statistics(x, y, n, q):
    return (torch.median(y), torch.median(x), torch.nanmedian(x),
            torch.median(n), torch.median(y, 1), torch.nanmedian(x, 0, True),
            torch.median(x, 1), torch.kthvalue(y, 2, 0),
            torch.kthvalue(y, 6, -1, True), torch.quantile(y, q),
            torch.quantile(y, 0.3, dim=1, keepdim=True),
            torch.nanquantile(x, q, dim=0), torch.quantile(x, q, dim=1),
            torch.quantile(y, q, dim=0, interpolation="lower"),
            torch.quantile(y, 0.5, dim=-1, interpolation="higher"),
            torch.quantile(y, q, interpolation="nearest"),
            torch.nanquantile(x, 0.25, interpolation="midpoint"),
            torch.histc(y, 5), torch.histc(y, 4, -1.0, 1.0),
            torch.histc(torch.ones(3), 3), torch.cov(y),
            torch.cov(y, correction=0, fweights=torch.tensor([1, 2, 1, 3, 1, 1]),
                      aweights=torch.tensor([0.5, 1.0, 2.0, 0.25, 1.5, 0.75])),
            torch.cov(y[0]), torch.corrcoef(y), torch.corrcoef(y[1]))


# mode's index among equal elements is PyTorch's to choose: each row here
# holds its most frequent value once per run, so the values match and the
# indices are checked through what they select.
@case(torch.tensor([[3.0, 1.0, 3.0, 2.0, 2.0], [0.5, 0.5, 4.0, 4.0, 1.0]]),
      torch.tensor([[2, 7, 7], [5, 5, 1], [9, 8, 9]]))
def mode(x, n):
    v0, i0 = torch.mode(x)
    v1, i1 = torch.mode(n, 0, True)
    v2, i2 = torch.mode(x[1, 2])
    return (v0, x.gather(1, i0.unsqueeze(1)), v1, n.gather(0, i1), v2,
            torch.mode(x[:, :1], 1).values)


# Indexing and scattering (DecomposeIndexing.cpp).
@case(randn(3, 4), ints(3, 4), torch.tensor([[0, -1], [5, -11]]),
      torch.tensor([True, False, False, True, False]))
def take_and_put(x, n, i, b):
    dup = torch.tensor([1, 1, -1, 0])
    flat = i.flatten()
    return (torch.take(x, i), torch.take(n, flat), torch.take(x, i[0, 1]),
            torch.take(x[1, 2], torch.tensor([0, -1])),
            torch.take(x, torch.zeros(0, 2, dtype=torch.long)),
            x.put(flat, x[0], False), torch.put(x, i, x[1:3, 1:3]),
            torch.put(x, dup, x[2], accumulate=True),
            n.put(dup, n[0], True), n.put(dup[:1], n[2, 1:2]),
            torch.put(b, dup[:2], b[3:5], accumulate=True),
            torch.put(b, dup[2:], b[:2]),
            torch.put(x[0, 0], torch.tensor(0), x[2, 2]),
            x.put(dup[:0], x[0, :0], True))


@case(randn(3, 4), ints(3, 4), torch.tensor([[0, 3], [1, 2], [3, 0]]),
      torch.tensor([[2], [0], [1]]))
def take_along_dim(x, n, idx, col):
    b = n > 0
    return (torch.take_along_dim(x, idx, 1),
            torch.take_along_dim(x, idx, dim=-1),
            torch.take_along_dim(x, idx),
            torch.take_along_dim(x, torch.tensor([[2, 0, 1, 2]]), 0),
            torch.take_along_dim(x[:1], col, 1),
            torch.take_along_dim(x, col[:1], 0),
            torch.take_along_dim(x, x.argsort(1), 1),
            torch.take_along_dim(n, idx, 1), torch.take_along_dim(b, col, -1),
            torch.take_along_dim(x[0, 0], torch.tensor([0, 0])))


@case(randn(3, 4), ints(3, 4), torch.tensor([-1, 0]),
      torch.tensor(2.75, dtype=torch.float64))
def index_fill(x, n, i, v):
    b = n > 0
    return (x.index_fill(1, i, -2.5), x.index_fill(0, i, 7),
            n.index_fill(-1, i, -2.7), n.index_fill(0, i[:1], v),
            x.index_fill(0, torch.tensor(-2), v), x.index_fill(1, i, v),
            b.index_fill(1, i, 1), b.index_fill(0, i, 0.5),
            b.index_fill(1, i[1:], b[0, 0].logical_not()),
            b.index_fill(-1, torch.tensor([2]), 0),
            x.index_fill(1, torch.zeros(0, dtype=torch.long), 3.0),
            x[0, 0].index_fill(0, torch.tensor([0]), 3.0),
            x[1, 1].index_fill(-1, torch.tensor(-1), v),
            x.index_fill(0, torch.tensor([1, 1, -3]), float("nan")))


@case(randn(3, 4), ints(3, 4), randn(3, 2), torch.tensor([3, 0]))
def index_copy(x, n, s, i):
    b = n > 0
    return (x.index_copy(1, i, s), x.index_copy(-1, i, s),
            x.index_copy(0, torch.tensor([2, 0]), x[1:3].flip(1)),
            x.index_copy(0, torch.tensor([1, 1]), x[:2] * 10),
            n.index_copy(1, i, n[:, :2] * 3),
            b.index_copy(0, torch.tensor([1]), b[:1].logical_not()),
            x.index_copy(1, torch.tensor(2), s[:, :1]),
            x[0].index_copy(0, torch.tensor(1), x[1, 1]),
            x[0].index_copy(0, torch.tensor([3]), x[1, 2:3]),
            x[0, 0].index_copy(0, torch.tensor([0]), x[2, 2]),
            x[0, 0].index_copy(0, torch.tensor([0]), x[2, :1]),
            x.index_copy(0, torch.zeros(0, dtype=torch.long), x[:0]))


@case(randn(3, 4), randn(3, 2), torch.tensor([2, 0]), ints(3, 4))
def index_reduce(x, s, i, n):
    dup = torch.tensor([1, 1, 0])
    y = x.clone()
    y.index_reduce_(1, i, s, "amax")
    return (x.index_reduce(1, i, s, "prod"), x.index_reduce(1, i, s, "mean"),
            x.index_reduce(1, i, s, "amax", include_self=False),
            x.index_reduce(0, dup, x, "amin"),
            x.index_reduce(0, dup, x, "mean", include_self=False),
            n.index_reduce(0, dup, n, "mean"),
            n.index_reduce(1, i, n[:, :2], "prod", include_self=False), y)


@case(randn(6, 3), torch.tensor([2, 0, 3, 1]), randn(2, 5),
      torch.tensor([[0, 1, 5], [0, 0, 2]]))
def segment_reduce(x, lengths, y, offsets):
    batched = torch.tensor([[1, 4, 0], [0, 2, 3]])
    return (torch.segment_reduce(x, "sum", lengths=lengths),
            torch.segment_reduce(x, "max", lengths=lengths),
            torch.segment_reduce(x, "min", lengths=lengths, initial=0.5),
            torch.segment_reduce(x, "mean", lengths=lengths),
            torch.segment_reduce(x, "mean", lengths=lengths, initial=2),
            torch.segment_reduce(x, "prod",
                                 offsets=torch.tensor([0, 2, 2, 5, 6])),
            torch.segment_reduce(y, "sum", lengths=batched, axis=1),
            torch.segment_reduce(y, "max", offsets=offsets, axis=-1),
            torch.segment_reduce(y, "mean", offsets=offsets, axis=1))


@case(randn(20), randn(3, 4), torch.tensor([-1.0, 0.0, 0.5, 2.0]))
def histogram(x, y, edges):
    w = x.abs()
    return (torch.histogram(x, 5), torch.histogram(x, 4, range=[-1.0, 1.0],
                                                   weight=w),
            torch.histogram(y, 3, density=True), torch.histogram(x, edges),
            torch.histogram(x, edges, weight=w, density=True),
            torch.histogram(torch.ones(3), 2),
            torch.histogram(y, 2, range=[0.5, 0.5]))


@case(randn(2, 3), ints(2, 3), torch.tensor([True, False, True]),
      torch.tensor([[True], [False]]), randn(10))
def masked_scatter(x, n, m, rows, s):
    return (x.masked_scatter(m, s), x.masked_scatter(x > 0, s),
            x[0].masked_scatter(rows, s.view(2, 5)),
            n.masked_scatter(n < 0, n.flatten().flip(0) * 10),
            (n > 0).masked_scatter(m, (n < 0).flatten()),
            x.masked_scatter(m.logical_not().logical_and(m), s[:0]),
            x.masked_scatter(rows, s[:8]),
            x[0, 0].masked_scatter(torch.tensor(True), s[3:]),
            x.masked_scatter(torch.ones(2, 3, dtype=torch.bool), s[4:]),
            x.masked_scatter(m.to(torch.uint8), s),
            x[:0].masked_scatter(m, s))


# Splitting and reshaping.
@case(randn(7, 2), ints(2, 12))
def tensor_split(x, n):
    a, b, c = torch.tensor_split(x, 3)
    p = torch.tensor_split(x, [1, -2, 10, 3])
    q = torch.tensor_split(x, 4, dim=-1)
    r = torch.tensor_split(n, [5], 1)
    s = torch.tensor_split(x, [], 1)
    return (a, b, c, p[0], p[1], p[2], p[3], p[4], q[0], q[1], q[2], q[3],
            r[0], r[1], s[0], torch.tensor_split(x, [-10, 5])[0],
            torch.tensor_split(n, 5, dim=1)[4])


@case(randn(2, 12), ints(2, 3, 4))
def unflatten_and_sum_to_size(x, n):
    b = n > 0
    return (x.unflatten(-1, (3, -1)), x.unflatten(0, [1, 2]),
            torch.unflatten(x, 1, (2, 3, 2)), x.unflatten(1, [-1]),
            x[:, :0].unflatten(1, (3, -1)),
            n.sum_to_size(3, 1), n.sum_to_size([4]), n.sum_to_size([]),
            n.sum_to_size(2, 3, 4), b.sum_to_size(3, 1), b.sum_to_size(1, 4),
            b.sum_to_size(2, 3, 4), x.sum_to_size(1, 12), x.sum_to_size(12),
            x[0, 0].sum_to_size([]), n[:1].sum_to_size(3, 4),
            n.to(torch.int32).sum_to_size(1, 1, 1))


# Element-wise.
@case(randn(2, 3, 2, 2), torch.tensor([0.1, -0.2, 0.3]), torch.tensor([0.25]),
      torch.tensor([float("nan"), -0.0, 0.0, -1.5, 2.0]))
def prelu_and_allclose(x, w, w1, special):
    return (torch.prelu(x, w), F.prelu(x, w1), torch.prelu(x[:, :, 0, 0], w),
            torch.prelu(x[0, 0, 0], w1), torch.prelu(x[0, 0, 0, 0], w1),
            torch.prelu(special, w1), torch.prelu(special, -w1),
            torch.prelu(x.double(), w.double()),
            torch.prelu(x[:, :1], w1[0]),
            torch.tensor(torch.allclose(x, x + 1e-9)),
            torch.tensor(torch.allclose(x, x + 1e-3)),
            torch.tensor(torch.allclose(x, x + 1e-3, rtol=0.0, atol=1e-2)),
            torch.tensor(torch.allclose(special, special)),
            torch.tensor(torch.allclose(special, special, equal_nan=True)),
            torch.tensor(torch.allclose(x[:0], x[:0])))


@case(torch.tensor([0., 0., 0., 1., float("nan"), 2., 0., -1., 3., -0.0]),
      torch.tensor([float("nan"), -1., -2., -1., 1., 1., float("inf"),
                    float("inf"), -float("inf"), 0.5]),
      ints(2, 5), randn(2, 5))
def xlog1py(x, y, n, r):
    b = n > 0
    return (torch.special.xlog1py(x, y), torch.special.xlog1py(n, n.abs()),
            torch.special.xlog1py(n, 2), torch.special.xlog1py(x, 0.5),
            torch.special.xlog1py(2.5, y), torch.special.xlog1py(3, n.abs()),
            torch.special.xlog1py(b, b), torch.special.xlog1py(r, n.abs()),
            torch.special.xlog1py(n, torch.tensor(2.5, dtype=torch.float64)),
            torch.special.xlog1py(x.double(), y),
            torch.special.xlog1py(r[0, 0], r.abs().double()),
            torch.special.xlog1py(r.half(), r.abs().half()),
            torch.special.xlog1py(r.half(), torch.tensor(0.3)),
            torch.special.xlog1py(x[:0], y[:0]))


# Reductions and scans.
@case(with_nan(3, 4), ints(3, 4), ties(4, 6), randn(3, 4))
def aminmax(x, n, t, r):
    a, b = torch.aminmax(r)
    c, d = torch.aminmax(x, dim=1)
    e, f = torch.aminmax(r, dim=-1, keepdim=True)
    g, h = torch.aminmax(r, keepdim=True)
    k, l = torch.aminmax(n, dim=0)
    m, o = torch.aminmax(n > 0)
    p, q = torch.aminmax(t, dim=-2)
    u, v = torch.aminmax(r[0, 0])
    w, y = torch.aminmax(r[0, 0], dim=0, keepdim=True)
    z, zz = torch.aminmax(x)
    return (a, b, c, d, e, f, g, h, k, l, m, o, p, q, u, v, w, y, z, zz,
            torch.aminmax(r[:0], dim=1))


@case(torch.tensor([[3., 1., 3., float("nan"), 2., 1.],
                    [1., 1., 1., 0., 2., 2.],
                    [float("nan"), 1., float("nan"), 3., -0.0, 0.0],
                    [-float("inf"), -float("inf"), 1., float("inf"), 0., 5.]]),
      ties(4, 6), ints(3, 5), randn(3, 5))
def cummax_cummin(x, t, n, r):
    a = torch.cummax(x, 1)
    b = torch.cummin(x, -1)
    c = torch.cummax(t, 0)
    d = torch.cummin(t, 1)
    e = torch.cummax(n, 1)
    f = torch.cummin(n, 0)
    g = torch.cummax(n > 0, 1)
    h = torch.cummin(n > 0, 0)
    k = torch.cummax(r, -2)
    m = torch.cummin(r.double(), 1)
    o = torch.cummax(r[0, 0], 0)
    p = torch.cummin(r[:0], 1)
    return (a, b, c, d, e, f, g, h, k, m, o, p,
            torch.cummax(r[0], 0), torch.cummin(x.t(), 0))


@case(torch.tensor([[1., 2., -float("inf"), float("inf"), 3.],
                    [1., float("nan"), 2., 0., 1.],
                    [-float("inf"), -float("inf"), 2., -1., 1000.],
                    [float("inf"), float("inf"), 2., 1000., 1000.]]),
      randn(3, 5, 2))
def logcumsumexp(x, r):
    return (torch.logcumsumexp(x, 1), torch.logcumsumexp(x, -2),
            torch.logcumsumexp(r, 1), torch.logcumsumexp(r, -1),
            r.logcumsumexp(0), torch.logcumsumexp(r.double(), 1),
            torch.logcumsumexp(r[0, 0, 0], 0), torch.logcumsumexp(r[:0], 1),
            torch.logcumsumexp(x * 100, 1))


@case(randn(2, 3, 4), ints(3, 5), randn(4, 4) > 0)
def diagonal(x, m, b):
    return (torch.diagonal(x), torch.diagonal(x, 1, -1, 0),
            torch.diagonal(x, -2, 2, 1), m.diagonal(-1), torch.diagonal(m, 2, 1, 0), b.diagonal(1))


@case(randn(2, 3), ints(3), randn(2) > 0)
def diag_embed(v, i, b):
    return (torch.diag_embed(v), torch.diag_embed(v, 1, 2, 0),
            torch.diag_embed(v, -2, 0, -1), torch.diag_embed(v, 0, -1, 1),
            torch.diag_embed(i, 1), torch.diag_embed(b, -1))


@case(randn(4), randn(3, 5), ints(3), randn(2) > 0)
def diag(v, m, i, b):
    return (torch.diag(v), torch.diag(v, 2), torch.diag(v, -1), torch.diag(m),
            torch.diag(m, 2), torch.diag(m, -2), torch.diag(i, -1),
            torch.diag(b, 1), m.diag(-1))


@case(randn(3, 4), randn(3), ints(2), randn(2, 3, 4), randn(3, 2),
      randn(3, 3) > 0, randn(2) > 0)
def diagonal_scatter(x, s3, s2, y, s32, b, bs):
    return (torch.diagonal_scatter(x, s3), torch.diagonal_scatter(x, s3, 1),
            torch.diagonal_scatter(x, s2, -1),
            torch.diagonal_scatter(x, s3, 0, 1, 0),
            torch.diagonal_scatter(y, s32, 1, 0, 2),
            torch.diagonal_scatter(y, s32, -1, -1, 0),
            torch.diagonal_scatter(y, s32.t(), 1, 1, -1),
            torch.diagonal_scatter(b, bs, 1))


@case(randn(3, 4), ints(4, 4), torch.randint(0, 9, (3, 2), dtype=torch.int32),
      torch.randint(0, 200, (3, 3), dtype=torch.uint8))
def trace(x, n, i, u):
    return (torch.trace(x), torch.trace(x.t()), torch.trace(n), torch.trace(i),
            torch.trace(u), x.trace())


@case(randn(2, 3), randn(4), ints(2, 2),
      torch.randint(-5, 6, (3,), dtype=torch.int32), randn(3) > 0)
def kron(a, v, n, i, b):
    return (torch.kron(a, v), torch.kron(v, a), torch.kron(a, a),
            torch.kron(n, i), torch.kron(a, b), torch.kron(b, b),
            torch.kron(a.sum(), v.sum()), torch.kron(v.sum(), a))


@case(randn(4, 3), randn(4, 3), randn(3, 5), randn(3, 5), randn(2, 1, 3),
      randn(1, 4, 3), ints(2, 3))
def cross(a, b, c, d, e, f, n):
    return (torch.cross(a, b), torch.cross(c, d), torch.cross(c, d, dim=0),
            torch.cross(a, b, -1), torch.linalg.cross(a, b),
            torch.linalg.cross(e, f), torch.linalg.cross(c, d, dim=-2),
            torch.cross(n, n.flip(1)), torch.linalg.cross(n, n * 2 + 1))


@case(randn(2))
def triangle_indices(x):
    return (torch.triu_indices(3, 4, 1), torch.tril_indices(4, 3, -1),
            torch.triu_indices(3, 3), torch.tril_indices(3, 5),
            torch.triu_indices(3, 3, dtype=torch.int32),
            torch.tril_indices(2, 3, 10), torch.triu_indices(2, 2, 5),
            torch.tril_indices(3, 2, -4, dtype=torch.int32), x * 2)


@case(randn(2, 3), torch.randint(-5, 6, (2,), dtype=torch.int32),
      torch.tensor(3), randn(1, 2) > 0, torch.tensor(2.5))
def block_diag(a, v, s, b, f):
    return (torch.block_diag(a, v, b), torch.block_diag(v, s),
            torch.block_diag(v, f), torch.block_diag(b, s),
            torch.block_diag(b, b), torch.block_diag(a),
            torch.block_diag(s, a.t()))


@case(randn(3), randn(4), randn(2), ints(3), randn(2) > 0)
def meshgrid(a, b, c, n, m):
    p, q = torch.meshgrid(a, b)
    r, s, t = torch.meshgrid(a, b, c, indexing="xy")
    u, w = torch.meshgrid(n, n.flip(0), indexing="ij")
    k, l = torch.meshgrid(m, m[:1], indexing="xy")
    y, z = torch.meshgrid(a.sum(), b, indexing="xy")
    (o,) = torch.meshgrid([c], indexing="xy")
    return p, q, r, s, t, u, w, k, l, y, z, o


@case(ints(3), ints(2), ints(4), randn(3), randn(2) > 0)
def cartesian_prod(a, b, c, f, m):
    return (torch.cartesian_prod(a, b), torch.cartesian_prod(a, b, c),
            torch.cartesian_prod(a), torch.cartesian_prod(f, f),
            torch.cartesian_prod(m, m, m))


@case(randn(4, 3), randn(4, 5), randn(2, 3, 5), randn(2), randn(2, 4, 3),
      randn(2, 4, 5), randn(3), randn(5))
def bilinear(x1, x2, w, b, y1, y2, v1, v2):
    return (F.bilinear(x1, x2, w, b), F.bilinear(x1, x2, w),
            F.bilinear(y1, y2, w, b), F.bilinear(v1, v2, w),
            # A float64 bias on a float32 product: the product is computed in
            # float32, so the result is compared at float32's tolerance.
            F.bilinear(v1, v2, w, b.double()).float())


@case(ints(4, 3), ints(4, 5), ints(2, 3, 5))
def bilinear_int(x1, x2, w):
    return F.bilinear(x1, x2, w), F.bilinear(x1, x2, w, x2[0, :2])


@case(randn(3, 4), randn(5), randn(2, 3, 4))
def linalg_norm_vector(x, v, t):
    return (torch.linalg.norm(v), torch.linalg.norm(t),
            torch.linalg.norm(x, keepdim=True), torch.linalg.norm(v, 3.0),
            torch.linalg.norm(v, float("inf")), torch.linalg.norm(v, 0),
            torch.linalg.norm(v, -1.5), torch.linalg.norm(t, 1, dim=[1]),
            torch.linalg.norm(t, 2.5, dim=[-1], keepdim=True),
            torch.linalg.norm(t, float("-inf"), dim=[0]),
            torch.linalg.norm(t, dim=[0, 2]),
            torch.linalg.norm(x, dtype=torch.float64),
            torch.linalg.norm(v, 1, dtype=torch.float64))


@case(randn(3, 4), randn(2, 3, 4))
def linalg_norm_matrix(x, t):
    return (torch.linalg.norm(x, 1), torch.linalg.norm(x, -1),
            torch.linalg.norm(x, float("inf")),
            torch.linalg.norm(x, float("-inf"), keepdim=True),
            torch.linalg.norm(t, 1, dim=[2, 0]),
            torch.linalg.norm(t, float("inf"), dim=[-1, -2], keepdim=True),
            torch.linalg.norm(t, -1, dim=[1, 2]),
            torch.linalg.norm(x, "fro"),
            torch.linalg.norm(t, "fro", dim=[0, 2], keepdim=True),
            torch.linalg.norm(x, 1, dtype=torch.float64),
            torch.linalg.norm(x, "fro", dtype=torch.float64))


@case(randn(3, 4), randn(2, 3, 4))
def matrix_norm(x, t):
    return (torch.linalg.matrix_norm(t), torch.linalg.matrix_norm(t, 1),
            torch.linalg.matrix_norm(t, -1, dim=[0, 2]),
            torch.linalg.matrix_norm(t, float("inf"), keepdim=True),
            torch.linalg.matrix_norm(t, float("-inf"), dim=[2, 1]),
            torch.linalg.matrix_norm(t, 1, dim=[-1, 0], keepdim=True),
            torch.linalg.matrix_norm(x, "fro", keepdim=True,
                                     dtype=torch.float64),
            torch.linalg.matrix_norm(x, float("inf"), dtype=torch.float64),
            torch.linalg.matrix_norm(x))


# Vector norms of any order: PyTorch's CPU kernels round the order to
# float, in float64 too.
@case(randn(3, 5).double(), randn(3, 5))
def vector_norms(x, y):
    return (torch.linalg.vector_norm(x, 0.9),
            torch.linalg.vector_norm(x, -2.1, dim=1),
            torch.norm(x, 3.3, dim=0, keepdim=True),
            torch.dist(x, x.flip(0), 1.7),
            torch.linalg.vector_norm(y, 0.7), torch.norm(y, 2.5))


# Two scans of the same shape, each concatenated after a column of ones
# (linalg.vander's form): the scans' loops start from tensors of their own.
@case(randn(5), randn(5))
def scans_concatenated(a, c):
    x = torch.cumprod(a.unsqueeze(1).expand(5, 4), 1)
    y = torch.cumsum(c.unsqueeze(1).expand(5, 4), 1)
    return torch.cat([torch.ones(5, 1), x], 1), torch.cat([torch.ones(5, 1), y], 1)


def pivoted(n):
    """A float64 matrix whose first column's largest element is not on the
    diagonal, and whose leading element is 0: LU must exchange rows."""
    a = torch.randn(n, n, dtype=torch.float64)
    a[0, 0] = 0.0
    a[n - 1, 0] = 3.0
    return a


def spd(n):
    a = torch.randn(n, n, dtype=torch.float64)
    return a @ a.T + n * torch.eye(n, dtype=torch.float64)


# Factorizations and the solves built on them, in float64 and (batched)
# float32: LU with its row exchanges, Cholesky, Householder QR (R's signs
# as LAPACK's), triangular, LU and Cholesky solves, inverse, determinants.
@case(pivoted(4), randn(2, 4, 4), randn(4, 2).double(), spd(4))
def factorizations(a, b, rhs, s):
    lu, pivots = torch.linalg.lu_factor(a)
    p, l, u = torch.linalg.lu(b)
    q, r = torch.linalg.qr(a)
    c = torch.linalg.cholesky(s)
    sign, logabsdet = torch.linalg.slogdet(b)
    return (lu, pivots, p, l, u, q, r, c, torch.linalg.det(a), sign,
            logabsdet, torch.linalg.solve(a, rhs), torch.linalg.inv(b),
            torch.linalg.solve_triangular(c, rhs, upper=False),
            torch.linalg.lu_solve(lu, pivots, rhs, adjoint=True),
            torch.cholesky_solve(rhs, c), torch.linalg.matrix_power(a, -3),
            torch.linalg.multi_dot([a, rhs, rhs.t(), a]))


# Jacobi SVD and eigendecomposition, through what does not depend on the
# vectors' signs: singular values, eigenvalues, pseudo-inverses, rank,
# spectral norms and condition numbers; a rank-2 matrix among them.
@case(randn(5, 3).double(), randn(2, 3, 4), spd(4),
      torch.randn(5, 2, dtype=torch.float64)
      @ torch.randn(2, 4, dtype=torch.float64))
def spectral(a, b, s, low):
    return (torch.linalg.svdvals(a), torch.linalg.svdvals(b),
            torch.linalg.eigvalsh(s), torch.linalg.pinv(a),
            torch.linalg.pinv(s, hermitian=True), torch.linalg.matrix_rank(low),
            torch.linalg.matrix_rank(b), torch.linalg.matrix_norm(a, "nuc"),
            torch.linalg.matrix_norm(b, 2), torch.linalg.cond(a),
            torch.linalg.pinv(low))


@case(randn(2, 3, 4), randn(5), torch.randn(3, 4, dtype=torch.float64))
def frobenius_norm(t, v, d):
    return (torch.frobenius_norm(t, [0, 2]),
            torch.frobenius_norm(t, [-1, 1], True),
            torch.frobenius_norm(t, [1]), torch.frobenius_norm(v, [0], True),
            torch.frobenius_norm(t, [], False), torch.frobenius_norm(d, [0, 1]),
            torch.frobenius_norm(v.sum(), [0]))


@case(randn(2, 3, 4))
def norm_fro(t):
    return torch.norm(t, "fro", [0, 2]), torch.norm(t, "fro", [1], True)


@case(randn(3, 4, 2) * 2, torch.randn(3, 4, dtype=torch.float64) * 3,
      (torch.randn(4, 3) * 2).half())
def renorm(x, d, h):
    return (torch.renorm(x, 2, 0, 1.0), torch.renorm(x, 1, -1, 2.5),
            torch.renorm(x, float("inf"), 1, 0.5), x.renorm(3, 2, 100.0),
            torch.renorm(x, 2.5, 1, 0), torch.renorm(d, 2, 1, 2),
            torch.renorm(h, 2, 0, 1.5))


# Blocks under `with torch.no_grad():` compute what they compute without
# one (nested, and around an in-place op).
@case(randn(3, 4))
def grad_mode_blocks(x):
    y = x * 2
    with torch.no_grad():
        a = y.relu()
        a.add_(1)
        with torch.no_grad():
            b = a.exp()
    return y, a, b


# Inputs or results without elements.
@case(randn(3, 5), randn(2, 3), randn(4), randn(3, 4), randn(3), randn(2, 3),
      torch.tensor(3), randn(4, 3), randn(4, 5), randn(2, 3, 5))
def matrices_empty(m, v, w, x, s3, a, s, x1, x2, wt):
    return (m.diagonal(offset=5), torch.diag(m, 5), torch.diag(m, -3),
            torch.diag_embed(v[:, :0], 2), torch.diag(w[:0]),
            torch.diagonal_scatter(x, s3[:0], 4),
            torch.block_diag(a[:0], v), torch.block_diag(w[:0], a, s),
            torch.trace(x[:0]), torch.kron(a[:0], w),
            torch.linalg.matrix_norm(x[:0], 1),
            torch.linalg.matrix_norm(x[:, :0], float("inf")),
            F.bilinear(x1[:0], x2[:0], wt))


def graph_text(fn):
    scripted = torch.jit.script(fn)
    graph = scripted.graph.copy()
    torch._C._jit_pass_inline(graph)
    return str(graph)


def as_tuple(x):
    """The tensors of a result, nested tuples (sort's values and indices)
    flattened in order, as tsmlir-run numbers its outputs."""
    if isinstance(x, (tuple, list)):
        return tuple(t for item in x for t in as_tuple(item))
    return (x,)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tmp")
    parser.add_argument("--only", default="")
    parser.add_argument("--tool", default="tsmlir-run")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    tally = harness.Tally()
    for name, fn, inputs in CASES:
        if only and name not in only:
            continue
        case_dir = os.path.join(args.tmp, name)
        os.makedirs(case_dir, exist_ok=True)
        with open(os.path.join(case_dir, "graph.txt"), "w") as f:
            f.write(graph_text(fn))
        input_args = []
        for i, x in enumerate(inputs):
            path = os.path.join(case_dir, "in%d.npy" % i)
            np.save(path, x.numpy())
            input_args.append("--input=" + path)
        expected = [t.numpy() for t in as_tuple(fn(*inputs))]
        for variant, flags in [("no-fusion", ["--no-fusion"]),
                               ("nnc", ["--strategy", "nnc"])]:
            out_dir = os.path.join(case_dir, variant)
            why = harness.run_tool(
                [args.tool, os.path.join(case_dir, "graph.txt")] +
                input_args + flags, out_dir)
            why = why or harness.compare_dir(out_dir, expected)
            tally.record(name, "%s [%s]" % (name, variant), why,
                         EXPECTED_FAILURES.get(name))
    tally.print_problems()
    for name, reason in sorted(EXPECTED_FAILURES.items()):
        if not only or name in only:
            print("expected failure: %s: %s" % (name, reason))
    tally.print("per case")
    print("ops: %d runs, %d match PyTorch, %d failures, %d expected "
          "failures, %d unexpected passes" %
          (tally.total(), tally.total("match"), tally.total("fail"),
           tally.total("xfail"), tally.total("xpass")))
    return 1 if tally.failures or tally.unexpected_passes else 0


if __name__ == "__main__":
    sys.exit(main())
