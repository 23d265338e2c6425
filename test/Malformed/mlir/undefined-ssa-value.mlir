func.func @main(%x: !ts.tensor<f32, [2, 3]>) -> !ts.tensor<f32, [2, 3]> {
  %0 = ts.aten.tanh %y : (!ts.tensor<f32, [2, 3]>) -> !ts.tensor<f32, [2, 3]>
  return %0 : !ts.tensor<f32, [2, 3]>
}
