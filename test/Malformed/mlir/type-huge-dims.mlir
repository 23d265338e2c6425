func.func @main(%x: !ts.tensor<f32, [2, 3]>) -> !ts.tensor<f32, [9223372036854775807, 9223372036854775807]> {
  %none = ts.prim.Constant : !ts.none
  %big = ts.prim.Constant[9223372036854775807] : !ts.int
  %s = ts.prim.ListConstruct %big, %big : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.zeros %s, %none, %none, %none, %none : (!ts.list<!ts.int>, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor<f32, [9223372036854775807, 9223372036854775807]>
  return %0 : !ts.tensor<f32, [9223372036854775807, 9223372036854775807]>
}
