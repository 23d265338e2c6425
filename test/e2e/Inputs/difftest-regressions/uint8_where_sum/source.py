def f(a1: Tensor):
    v1 = torch.sum(a1, [-3], False, dtype=torch.float64)
    v3 = torch.where(a1 > 0, v1, a1)
    return v3
