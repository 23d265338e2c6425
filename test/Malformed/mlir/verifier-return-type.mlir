func.func @main(%x: !ts.tensor<f32, [2, 3]>) -> !ts.int {
  return %x : !ts.tensor<f32, [2, 3]>
}
