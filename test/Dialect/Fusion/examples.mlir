// RUN: tsmlir-opt %s -verify-roundtrip | tsmlir-opt | FileCheck %s

// What PyTorch's profiling executor makes of a small function once it has
// profiled it, written with the fusion dialect:
//
//   def f(x, y):
//       return torch.clamp((x - y) * x, 0.0, 6.0) / y
//
// The optimised TorchScript graph reads (shortened):
//
//   %xs, %ys, %ok = prim::TypeCheck[types=[Float(64, 128, strides=[128, 1],
//                                   requires_grad=0, device=cpu), ...]](%x, %y)
//   %r = prim::If(%ok)
//     block0():
//       %g = prim::TensorExprGroup_0(%xs, %ys)
//       -> (%g)
//     block1():
//       %f = prim::FallbackGraph_1(%x, %y)
//       -> (%f)
//
// fusion.guarded is the TypeCheck + If + fallback in one op; fusion.group
// "nnc" is the TensorExprGroup.

// CHECK-LABEL: func.func @clamp_scaled_diff(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor, %[[Y:.+]]: !ts.tensor) -> !ts.tensor
func.func @clamp_scaled_diff(%x: !ts.tensor, %y: !ts.tensor) -> !ts.tensor {
  // CHECK: %[[R:.+]] = fusion.guarded(%[[X]], %[[Y]]) : (!ts.tensor, !ts.tensor) -> !ts.tensor specialized {
  // CHECK-NEXT: ^bb0(%[[XS:.+]]: !ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>, %[[YS:.+]]: !ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>):
  // CHECK-NEXT:   %[[G:.+]] = fusion.group nnc (%[[XS]], %[[YS]]) {name = "prim::TensorExprGroup_0"}
  // CHECK-NEXT:   ^bb0(%[[A:.+]]: !ts.tensor<{{.+}}>, %[[B:.+]]: !ts.tensor<{{.+}}>):
  // CHECK:          %[[D:.+]] = ts.aten.sub.Tensor %[[A]], %[[B]], %{{.+}}
  // CHECK-NEXT:     %[[M:.+]] = ts.aten.mul.Tensor %[[D]], %[[A]]
  // CHECK-NEXT:     %[[C:.+]] = ts.aten.clamp %[[M]], %{{.+}}, %{{.+}}
  // CHECK-NEXT:     %[[Q:.+]] = ts.aten.div.Tensor %[[C]], %[[B]]
  // CHECK-NEXT:     fusion.yield %[[Q]] : !ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>
  // CHECK-NEXT:   }
  // CHECK-NEXT:   fusion.yield %[[G]] : !ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>
  // CHECK-NEXT: } fallback {
  // CHECK-NEXT: ^bb0(%[[FX:.+]]: !ts.tensor, %[[FY:.+]]: !ts.tensor):
  // CHECK-NOT:    fusion.group
  // CHECK:        %[[FD:.+]] = ts.aten.sub.Tensor %[[FX]], %[[FY]], %{{.+}} : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
  // CHECK-NEXT:   %[[FM:.+]] = ts.aten.mul.Tensor %[[FD]], %[[FX]]
  // CHECK-NEXT:   %[[FC:.+]] = ts.aten.clamp %[[FM]], %{{.+}}, %{{.+}}
  // CHECK-NEXT:   %[[FQ:.+]] = ts.aten.div.Tensor %[[FC]], %[[FY]]
  // CHECK-NEXT:   fusion.yield %[[FQ]] : !ts.tensor
  // CHECK-NEXT: }
  // CHECK-NEXT: return %[[R]] : !ts.tensor
  %r = fusion.guarded (%x, %y) : (!ts.tensor, !ts.tensor) -> !ts.tensor
  specialized {
  ^bb0(%xs: !ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>,
       %ys: !ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>):
    %g = fusion.group nnc (%xs, %ys) {name = "prim::TensorExprGroup_0"}
        : (!ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>,
           !ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>)
        -> !ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false> {
    ^bb0(%a: !ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>,
         %b: !ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>):
      %one = ts.prim.Constant[1] : !ts.int
      %lo = ts.prim.Constant[0.000000e+00] : !ts.float
      %hi = ts.prim.Constant[6.000000e+00] : !ts.float
      %d = ts.aten.sub.Tensor %a, %b, %one
          : (!ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>,
             !ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>, !ts.int)
          -> !ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>
      %m = ts.aten.mul.Tensor %d, %a
          : (!ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>,
             !ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>)
          -> !ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>
      %c = ts.aten.clamp %m, %lo, %hi
          : (!ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>, !ts.float, !ts.float)
          -> !ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>
      %q = ts.aten.div.Tensor %c, %b
          : (!ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>,
             !ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>)
          -> !ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>
      fusion.yield %q : !ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>
    }
    fusion.yield %g : !ts.tensor<f32, [64, 128], strides = [128, 1], device = "cpu", requires_grad = false>
  } fallback {
  ^bb0(%fx: !ts.tensor, %fy: !ts.tensor):
    %one = ts.prim.Constant[1] : !ts.int
    %lo = ts.prim.Constant[0.000000e+00] : !ts.float
    %hi = ts.prim.Constant[6.000000e+00] : !ts.float
    %d = ts.aten.sub.Tensor %fx, %fy, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
    %m = ts.aten.mul.Tensor %d, %fx : (!ts.tensor, !ts.tensor) -> !ts.tensor
    %c = ts.aten.clamp %m, %lo, %hi : (!ts.tensor, !ts.float, !ts.float) -> !ts.tensor
    %q = ts.aten.div.Tensor %c, %fy : (!ts.tensor, !ts.tensor) -> !ts.tensor
    fusion.yield %q : !ts.tensor
  }
  return %r : !ts.tensor
}

// With an input that requires grad, the profiling executor first cuts out a
// prim::DifferentiableGraph, whose forward autodiff differentiates and which
// saves what its backward needs (here the sigmoid's output and the input),
// and then fuses and guards inside the forward:
//
//   def g(x):
//       return torch.sigmoid(x) * x
//
// CHECK-LABEL: func.func @sigmoid_times_input(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor) -> !ts.tensor
func.func @sigmoid_times_input(%x: !ts.tensor) -> !ts.tensor {
  // CHECK: %[[Y:.+]] = fusion.differentiable_graph(%[[X]]) {num_saved = 2 : i64} : (!ts.tensor) -> !ts.tensor {
  // CHECK-NEXT: ^bb0(%[[A:.+]]: !ts.tensor):
  // CHECK-NEXT:   %[[F:.+]]:2 = fusion.guarded(%[[A]]) : (!ts.tensor) -> (!ts.tensor, !ts.tensor) specialized {
  // CHECK:          fusion.group nnc
  // CHECK:            ts.aten.sigmoid
  // CHECK:            ts.aten.mul.Tensor
  // CHECK:        } fallback {
  // CHECK:          ts.aten.sigmoid
  // CHECK:        }
  // CHECK-NEXT:   fusion.yield %[[F]]#0, %[[F]]#1, %[[A]] : !ts.tensor, !ts.tensor, !ts.tensor
  // CHECK-NEXT: } backward {
  // CHECK-NEXT: ^bb0(%[[GRAD:.+]]: !ts.tensor, %[[S:.+]]: !ts.tensor, %[[XSAVED:.+]]: !ts.tensor):
  // CHECK:        %[[DX:.+]] = ts.aten.mul.Tensor %[[GRAD]], %{{.+}}
  // CHECK-NEXT:   fusion.yield %[[DX]] : !ts.tensor
  // CHECK-NEXT: }
  // CHECK-NEXT: return %[[Y]] : !ts.tensor
  %y = fusion.differentiable_graph (%x) {num_saved = 2} : (!ts.tensor) -> !ts.tensor {
  ^bb0(%a: !ts.tensor):
    // Yields the result, sigmoid(x) * x, then the saved values sigmoid(x)
    // and x.
    %f:2 = fusion.guarded (%a) : (!ts.tensor) -> (!ts.tensor, !ts.tensor)
    specialized {
    ^bb0(%as: !ts.tensor<f32, [1024], strides = [1], device = "cuda:0", requires_grad = true>):
      %g:2 = fusion.group nnc (%as) {name = "prim::TensorExprGroup_1"}
          : (!ts.tensor<f32, [1024], strides = [1], device = "cuda:0", requires_grad = true>)
          -> (!ts.tensor<f32, [1024], strides = [1], device = "cuda:0", requires_grad = true>,
              !ts.tensor<f32, [1024], strides = [1], device = "cuda:0", requires_grad = false>) {
      ^bb0(%p: !ts.tensor<f32, [1024], strides = [1], device = "cuda:0", requires_grad = true>):
        %s = ts.aten.sigmoid %p
            : (!ts.tensor<f32, [1024], strides = [1], device = "cuda:0", requires_grad = true>)
            -> !ts.tensor<f32, [1024], strides = [1], device = "cuda:0", requires_grad = false>
        %o = ts.aten.mul.Tensor %s, %p
            : (!ts.tensor<f32, [1024], strides = [1], device = "cuda:0", requires_grad = false>,
               !ts.tensor<f32, [1024], strides = [1], device = "cuda:0", requires_grad = true>)
            -> !ts.tensor<f32, [1024], strides = [1], device = "cuda:0", requires_grad = true>
        fusion.yield %o, %s
            : !ts.tensor<f32, [1024], strides = [1], device = "cuda:0", requires_grad = true>,
              !ts.tensor<f32, [1024], strides = [1], device = "cuda:0", requires_grad = false>
      }
      fusion.yield %g#0, %g#1
          : !ts.tensor<f32, [1024], strides = [1], device = "cuda:0", requires_grad = true>,
            !ts.tensor<f32, [1024], strides = [1], device = "cuda:0", requires_grad = false>
    } fallback {
    ^bb0(%af: !ts.tensor):
      %s = ts.aten.sigmoid %af : (!ts.tensor) -> !ts.tensor
      %o = ts.aten.mul.Tensor %s, %af : (!ts.tensor, !ts.tensor) -> !ts.tensor
      fusion.yield %o, %s : !ts.tensor, !ts.tensor
    }
    fusion.yield %f#0, %f#1, %a : !ts.tensor, !ts.tensor, !ts.tensor
  } backward {
  ^bb0(%grad: !ts.tensor, %s: !ts.tensor, %xsaved: !ts.tensor):
    // d/dx (s * x) = s + x * s * (1 - s), with s = sigmoid(x).
    %one = ts.prim.Constant[1] : !ts.int
    %oneminus = ts.aten.rsub.Scalar %s, %one, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
    %ds = ts.aten.mul.Tensor %s, %oneminus : (!ts.tensor, !ts.tensor) -> !ts.tensor
    %xds = ts.aten.mul.Tensor %xsaved, %ds : (!ts.tensor, !ts.tensor) -> !ts.tensor
    %d = ts.aten.add.Tensor %s, %xds, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
    %dx = ts.aten.mul.Tensor %grad, %d : (!ts.tensor, !ts.tensor) -> !ts.tensor
    fusion.yield %dx : !ts.tensor
  }
  return %y : !ts.tensor
}
