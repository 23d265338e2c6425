func.func @main(%x: !ts.tensor<i32, [2, 3]>) -> !ts.tensor<i32, [2, 3]> {
  return %x : !ts.tensor<i32, [2, 3]>
}
