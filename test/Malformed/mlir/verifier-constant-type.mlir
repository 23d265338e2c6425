func.func @main() -> !ts.int {
  %0 = ts.prim.Constant["seven"] : !ts.int
  return %0 : !ts.int
}
