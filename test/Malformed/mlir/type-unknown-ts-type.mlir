func.func @main(%x: !ts.tensorr<f32>) -> !ts.tensorr<f32> {
  return %x : !ts.tensorr<f32>
}
