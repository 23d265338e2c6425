# Blank lines, comments at any indentation, tabs, `;` and one-line bodies.

class A:   # a comment after a header

	x : int


	  # an indented comment
	def f(self):
		if x: return 1; y = 2
		z = [1,
  2]  # implicit joining ignores indentation
		w = 1 + \
			2
    # a comment less indented than the block
		return z
def g() -> int: return 0
