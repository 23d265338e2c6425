func.func @main(%x: !ts.tensor<f32, [2, -3]>) -> !ts.tensor<f32, [2, -3]> {
  return %x : !ts.tensor<f32, [2, -3]>
}
