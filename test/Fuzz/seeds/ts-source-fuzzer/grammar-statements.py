class Block(Module):
  __parameters__ = []
  __buffers__ = ["running_mean", ]
  __annotations__ = []
  __annotations__["0"] = __torch__.torch.nn.modules.conv.Conv2d
  training : bool
  eps : Final[float] = 1.0000000000000001e-05
  padding : Final[Tuple[int, int]] = (1, 1)
  def forward(self: __torch__.Block,
    x: Tensor,
    scale: float=2.,
    mask: Optional[Tensor]=None) -> Tuple[Tensor, int]:
    _0 = __torch__.torch.nn.functional.batch_norm
    y, n, = (self).helper(x, )
    a, = f(x)
    (b, c), d = e
    [p, q] = r
    u = v = w
    self.k = 1
    x[0] = 2
    mod : __torch__.Iface = mods[key]
    total += 1
    total -= 1; total *= 2; total /= 2
    i //= 2
    i %= 3
    i **= 2
    i <<= 1
    i >>= 1
    i &= 1
    i |= 1
    i ^= 1
    m @= m
    if torch.__isnot__(mask, None):
      mask0 = unchecked_cast(Tensor, mask)
    else:
      pass
    if a:
      pass
    elif b:
      pass
    elif c: pass
    else:
      pass
    while _13:
      break
    for i in range(torch.len(xs)):
      continue
    for k, v, in items:
      pass
    with _0 as g, h:
      pass
    def __forked_function():
      return __torch__.work(x0, )
    fut = fork(__forked_function)
    assert x
    assert x, "AssertionError: msg"
    del ys[0], d["k"]
    raise builtins.ValueError("bad")
    ops.prim.RaiseException("AssertionError: ", "builtins.ValueError")
    torch.set_grad_enabled(False)
    return (out, (torch.size(z))[1])
  def helper(self: __torch__.Block) -> NoneType:
    return
class Pt(NamedTuple):
  x : Tensor
  y : int
class Color(Enum):
  RED = 1
  GREEN = "g"
class Iface(ModuleInterface):
  def forward(self, x: Tensor) -> Tensor:
    pass
class Holder:
  a : int
@decorator
@torch.jit.unused(arg=1)
def free(x: Tensor, y=2) -> Tensor:
  return x, y
