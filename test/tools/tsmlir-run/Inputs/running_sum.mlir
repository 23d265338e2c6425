// A module's state: a count of the calls, and a total to which each call
// adds the count; the output is the input times the total.
ts.module_state @count : !ts.tensor<si64, []> = dense<0> : tensor<si64>
ts.module_state @total : !ts.tensor<f32, []> = dense<0.5> : tensor<f32>
func.func @forward(%x: !ts.tensor) -> (!ts.tensor, !ts.tensor<si64, []>) {
  %count = ts.module_state.read @count : !ts.tensor<si64, []>
  %total = ts.module_state.read @total : !ts.tensor<f32, []>
  %one = ts.prim.Constant[1] : !ts.int
  %next = ts.aten.add.Scalar %count, %one, %one : (!ts.tensor<si64, []>, !ts.int, !ts.int) -> !ts.tensor<si64, []>
  %sum = ts.aten.add.Tensor %total, %next, %one : (!ts.tensor<f32, []>, !ts.tensor<si64, []>, !ts.int) -> !ts.tensor<f32, []>
  %y = ts.aten.mul.Tensor %x, %sum : (!ts.tensor, !ts.tensor<f32, []>) -> !ts.tensor
  ts.module_state.write @count = %next : !ts.tensor<si64, []>
  ts.module_state.write @total = %sum : !ts.tensor<f32, []>
  return %y, %next : !ts.tensor, !ts.tensor<si64, []>
}
