func.func @main(%x: !ts.tensor<f32, [2, 3]>) -> !ts.tensor {
  %n = ts.prim.Constant[0x7FF8000000000000 : f64] : !ts.float
  %s = ts.prim.ListConstruct %n : (!ts.float) -> !ts.list<!ts.float>
  %0 = ts.aten.view %x, %s : (!ts.tensor<f32, [2, 3]>, !ts.list<!ts.float>) -> !ts.tensor
  return %0 : !ts.tensor
}
