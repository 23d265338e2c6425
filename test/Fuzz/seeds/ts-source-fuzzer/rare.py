class Rare(Module):
  __parameters__ = []
  __buffers__ = ["running_mean", ]
  running_mean : Tensor
  training : bool
  _is_full_backward_hook : Optional[bool]
  s : str
  c : complex
  big : List[float]
  neg : int
  impl : __torch__.Twice
  mods : __torch__.torch.nn.modules.container.ModuleDict
  seq : __torch__.torch.nn.modules.container.___torch_mangle_413.Sequential
  eps : Final[float] = 1.0000000000000001e-05
  pad : Final[Tuple[int, int]] = (1, 1)
  def forward(self: __torch__.Rare,
    x: Tensor,
    key: str="a",
    c: complex=1.-2.j,
    t: Tuple[int, float]=(1, 2.)) -> Tensor:
    _0 = __torch__.torch.autograd.grad_mode.no_grad.__new__(__torch__.torch.autograd.grad_mode.no_grad)
    _1 = (_0).__init__()
    with _0:
      x0 = torch.add(x, 1)
    def __forked_function():
      return __torch__.work(x0, )
    fut = fork(__forked_function)
    y = torch.wait(fut)
    y0, n, = (self).helper(y, 2., y, )
    mods = self.mods
    mod : __torch__.ModuleIface = mods[key]
    impl = self.impl
    _2 = (impl).forward((mod).forward(y0, ), )
    seq = self.seq
    y1 = torch.add(_2, (seq).forward(y0, ))
    running_mean = self.running_mean
    _3 = torch.mul(running_mean, 1.0000000000000001e-05)
    y2 = __torch__.torch.nn.functional.relu(torch.add(y1, _3), False, )
    _4 = torch.add(torch.select(torch.slice(y2), 1, 1), torch.slice(y2, -1, 0, 1))
    _5 = torch.add(_4, torch.unsqueeze(y2, 0))
    _6 = annotate(List[Optional[Tensor]], [torch.gt(y2, 0)])
    y3 = torch.add(_5, torch.sum(torch.index(x0, _6)))
    ys = annotate(List[Tensor], [])
    _7 = torch.append(ys, y3)
    _8 = torch.add(torch.add(torch.cat(ys), 1), n)
    _9 = torch.add(_8, (t)[0])
    neg = self.neg
    _10 = torch.add(_9, neg)
    big = self.big
    _11 = torch.add(torch.add(_10, big[0]), torch.imag(torch.tensor(c)))
    s = self.s
    return torch.add(_11, torch.len(s))
  def loops(self: __torch__.Rare,
    xs: List[Tensor],
    d: Dict[str, Tensor]) -> __torch__.Point:
    _12 = uninitialized(Tensor)
    _13 = uninitialized(bool)
    total = torch.zeros([1])
    _14 = torch.len(xs)
    total0 = total
    _15 = 0
    _16 = torch.gt(_14, 0)
    while _16:
      x = xs[_15]
      if torch.gt(torch.dim(x), 2):
        _17 = torch.lt(torch.dim(x), 5)
      else:
        _17 = False
      if _17:
        _18 = True
      else:
        _19 = torch.__not__(ops.prim.is_cuda(x))
        _18 = _19
      if _18:
        total2 = torch.add(total0, torch.sum(x))
        _20, _21, _22, total1 = True, True, total2, total2
      else:
        if torch.eq(torch.dim(x), 7):
          _23, _24, _25, total3 = True, False, total0, total0
        else:
          _23, _24, _25, total3 = False, _13, _12, torch.sub_(total0, 1)
        _20, _21, _22, total1 = _23, _24, _25, total3
      if _20:
        _26, _27 = _21, _22
      else:
        _26, _27 = True, total1
      _28 = torch.add(_15, 1)
      _29 = torch.__and__(torch.lt(_28, _14), _26)
      _16, total0, _15 = _29, _27, _28
    i = 0
    _30 = True
    while _30:
      i0 = torch.add(i, 1)
      _31 = torch.floordiv(torch.__lshift__(i0, 1), 2)
      i1 = torch.__or__(torch.remainder(_31, 7), 0)
      if torch.lt(i1, 10):
        _32 = torch.ne(i1, 3)
      else:
        _32 = False
      _30, i = _32, i1
    _33 = torch.items(d)
    total4 = total0
    for _34 in range(torch.len(_33)):
      k, v, = _33[_34]
      total4 = torch.add(total4, v)
    _35 = [9223372036854775807, torch.len(xs)]
    total5 = total4
    for j in range(ops.prim.min(_35)):
      t = xs[j]
      _36 = torch.slice(torch.select(t, 0, 0), 0, 1, 3)
      _37 = torch.slice(_36, 1, None, None, 2)
      total6 = torch.add_(total5, torch.unsqueeze(_37, -1))
      total5 = total6
    if torch.gt(torch.len(xs), 0):
      pass
    else:
      ops.prim.RaiseException("AssertionError: empty")
    h = __torch__.Holder.__new__(__torch__.Holder)
    _38 = (h).__init__(3, )
    _39 = torch.add((h).run(total5, i, ), nan)
    s = self.s
    return __torch__.Point(_39, torch.len(s))
  def helper(self: __torch__.Rare,
    x: Tensor,
    scale: float=2.,
    mask: Optional[Tensor]=None) -> Tuple[Tensor, int]:
    if torch.__isnot__(mask, None):
      mask0 = unchecked_cast(Tensor, mask)
      x1 = torch.mul(x, mask0)
    else:
      x1 = x
    return (torch.mul(x1, scale), 3)
class Twice(Module):
  __parameters__ = []
  __buffers__ = []
  training : bool
  _is_full_backward_hook : Optional[bool]
  def forward(self: __torch__.Twice,
    x: Tensor) -> Tensor:
    return torch.mul(x, 2)
def work(x: Tensor) -> Tensor:
  return torch.mul(x, 2)
class ModuleIface(ModuleInterface):
  def forward(self, x: Tensor) -> Tensor:
    pass
class Point(NamedTuple):
  x : Tensor
  n : int
class Holder:
  k : int
  items : List[int]
  def __init__(self: __torch__.Holder,
    k: int) -> NoneType:
    self.k = k
    self.items = annotate(List[int], [])
    return None
  def run(self: __torch__.Holder,
    x: Tensor,
    k: int) -> Tensor:
    _40 = torch.add(x, k)
    k0 = self.k
    return torch.add(_40, k0)
