class Constants(Module):
  __parameters__ = []
  __buffers__ = []
  def forward(self: __torch__.___torch_mangle_448.Constants,
    x: Tensor) -> Tensor:
    self_s = "tab\t nl\n cr\r q\" sq\' bs\\ ctl\001 del\177"
    self_big = [1.0000000000000001e+300, -0., 9.9999999999999694e-311, 0.10000000000000001, inf, -inf, nan]
    print(self_s, self_big, {"a": (1, 2.5, True, None)}, 1.5-2.j)
    return torch.add(x, -9223372036854775808)
