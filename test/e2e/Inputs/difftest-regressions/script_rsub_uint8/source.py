def f(a0: Tensor, a1: Tensor):
    v0 = 3.0 - a0
    v2 = torch.div(v0, a1, rounding_mode='trunc')
    return v2
