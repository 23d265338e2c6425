# Atoms and literals.
a = name
a = None, True, False, ...
a = 0, 42, 0x_1F, 0o17, 0b101, 1_000_000, 9223372036854775807
a = -9223372036854775808, -1, - 5, -(3), +4, ~5, -x
a = 2., .5, 1e-05, 1.0000000000000001e-05, 1E+20, 1_0.2_5, 0.1
a = -0., 2j, 2.J, -1.5e3j, 1.-2.j
a = 'single', "double", 'it\'s', "q\"", "\\ \n \r \t \a \b \f \v"
a = "\x41\101\0\u00e9\U0001F600", """triple
line""", '''x''', "con" 'cat', ""
a = "line \
continued"
# Operators, by precedence.
a = x + y * z - w / v // u % t @ s
a = (x + y) * z
a = x ** y ** z, -x ** 2, (-2) ** 2, 2 ** -1
a = x << 1 >> 2 | y & z ^ w
a = x < y <= z == w != v > u >= t
a = x is None, x is not None, x in y, x not in y
a = not x and y or z and not w
a = a or b or c, (a or b) or c, a and (b or c)
a = x if c else y if d else z
a = (x if c else y) if d else z
# Postfix: attributes, calls, subscripts and slices.
a = torch.nn.functional.relu(x, False, )
a = (conv).forward(x, )
a = f(), f(x), f(x, y=1), f(dtype=None, k=2)
a = torch.sum(x, [1], True, dtype=None)
a = x[0], x[-1], x[i][j], (x)[1]
a = x[1:], x[:2], x[::2], x[1:2:3], x[:], x[::], x[a:b, c]
a = x[:, 1], x[..., None], x[0,], x[()], x[(1, 2)]
a = 1 .real, (-1).real, "s".join(y)
# Displays.
a = [], [1], [1, 2,], (), (1,), (1, 2), ((1, 2), 3)
a = {}, {"a": t}, {1: [2], "k": {"n": None},}
a = annotate(List[Tensor], []), CONSTANTS.c0, uninitialized(Tensor)
a = isinstance(x, (int, float)), unchecked_cast(Tensor, mask)
a = float("inf"), inf, -inf, nan, -nan
# Implicit line joining and comments.
a = f(x,  # first
      y,

      z)  # last
