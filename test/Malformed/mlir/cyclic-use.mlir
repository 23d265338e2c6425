func.func @main(%x: !ts.tensor<f32, [2, 3]>) -> !ts.tensor<f32, [2, 3]> {
  %0 = ts.aten.tanh %1 : (!ts.tensor<f32, [2, 3]>) -> !ts.tensor<f32, [2, 3]>
  %1 = ts.aten.relu %0 : (!ts.tensor<f32, [2, 3]>) -> !ts.tensor<f32, [2, 3]>
  return %1 : !ts.tensor<f32, [2, 3]>
}
