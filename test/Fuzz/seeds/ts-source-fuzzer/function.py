class PlaceholderModule(Module):
  __parameters__ = []
  __buffers__ = []
  training : bool
  def forward(self: __torch__.PlaceholderModule,
    x: Tensor,
    n: int) -> Tensor:
    x0 = x
    for _0 in range(n):
      if torch.gt(n, 2):
        x1 = torch.relu(x0)
      else:
        x1 = torch.clone(x0)
      x0 = x1
    return torch.sum(x0, [0, 1])
