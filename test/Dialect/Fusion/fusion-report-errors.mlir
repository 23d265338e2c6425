// RUN: not tsmlir-opt %s --ts-fusion-report=svg 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not tsmlir-opt %s --ts-fusion-report=format=xml 2>&1 | FileCheck %s --check-prefix=FORMAT-OPTION
// RUN: not tsmlir-opt %s --ts-fusion-report=strategy=fast 2>&1 | FileCheck %s --check-prefix=STRATEGY
// RUN: not tsmlir-opt %s --ts-fusion-report="json bogus=1" 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not tsmlir-opt %s --ts-fusion-report=output=%t.missing/report.txt 2>&1 | FileCheck %s --check-prefix=OUTPUT

// Bad options fail before the pass runs, with the values allowed.

// FORMAT: error: ts-fusion-report: unknown format 'svg': expected text, json or dot
// FORMAT-OPTION: error: ts-fusion-report: unknown format 'xml': expected text, json or dot
// STRATEGY: error: ts-fusion-report: unknown fusion strategy 'fast': expected pointwise, nnc, nvfuser, aggressive or all
// OPTION: error: {{.*}}no such option bogus
// OUTPUT: error: ts-fusion-report: cannot open output file '{{.*}}report.txt'

func.func @f(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %r = ts.aten.relu %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %r : !ts.tensor<f32, [4]>
}
