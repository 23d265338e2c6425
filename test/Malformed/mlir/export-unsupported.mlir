func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = arith.addf %x, %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
