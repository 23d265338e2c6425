func.func @main(%x: !ts.tensor) -> !ts.tensor {
  %0 = ts.prim.If %x -> (!ts.tensor) {
    ts.prim.Yield %x : !ts.tensor
  } else {
    ts.prim.Yield %x : !ts.tensor
  }
  return %0 : !ts.tensor
}
