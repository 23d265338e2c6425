// RUN: tsmlir-opt %s --split-input-file --verify-diagnostics

func.func @residual_without_operand(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>, %e: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  // expected-error @+1 {{has 1 residual steps and no residual operand}}
  %0 = kernel.conv2d %x, %w outs(%e : tensor<1x4x8x8xf32>) {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64, epilogue = [#kernel.step<residual, 0.0, 0.0>]} : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

func.func @wrong_output(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>, %e: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{outs has shape [1, 4, 6, 6], expected [1, 4, 8, 8]}}
  %0 = kernel.conv2d %x, %w outs(%e : tensor<1x4x6x6xf32>) {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64, epilogue = []} : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @groups_mismatch(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>, %e: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  // expected-error @+1 {{has channels that do not match the weight and groups}}
  %0 = kernel.conv2d %x, %w outs(%e : tensor<1x4x8x8xf32>) {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 2 : i64, epilogue = []} : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

func.func @inner_mismatch(%a: tensor<4x8xf32>, %w: tensor<7x3xf32>, %e: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{has a's columns not matching w's rows}}
  %0 = kernel.matmul %a, %w outs(%e : tensor<4x3xf32>) {epilogue = []} : tensor<4x8xf32>, tensor<7x3xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// expected-error @+1 {{unknown epilogue step 'softplus'}}
func.func @unknown_step() attributes {step = #kernel.step<softplus, 0.0, 0.0>} {
  return
}
