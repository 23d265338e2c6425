def f(v2: Tensor):
    v4 = torch.select(v2, 1, 6)
    return v4
