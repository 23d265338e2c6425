def f(a0: Tensor, a1: Tensor):
    v9 = torch.where(a0 > 1, a0, torch.sigmoid(a1))
    return v9
