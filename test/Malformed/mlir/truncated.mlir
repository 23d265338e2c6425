func.func @main(%x: !ts.tensor<f32, [2, 3]>) -> !ts.tensor<f32, [2, 3]> {
  %0 = ts.aten.tanh %x : (!ts.tensor<f32, [2, 3]>) -> !ts.ten