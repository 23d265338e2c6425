//===- PtImportBench.cpp - .pt archive import speed -----------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// How the time to import a torch.jit.save archive grows with the bytes of
// its parameters, measured against the least any reader must do, in the same
// run:
//
//   BM_ImportPt             archive -> module (importPtArchive: zip, pickles,
//                           code, storages into dense resources, emitter)
//   BM_ReadArchiveBaseline  every member of the same archive read into
//                           memory with the same zip reader (the baseline)
//
// The archives are written here with libzip, as torch.jit.save lays them out
// (members stored, a module with 16 float parameters and a forward that adds
// them to its input), for 1 to 256 MB of parameters; bench/run.sh prints the
// ratio and the cost per MB.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Support/ZipArchive.h"
#include "tsmlir/Target/PtArchive/Import.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <benchmark/benchmark.h>
#include <zip.h>

#include <map>
#include <string>
#include <vector>

using namespace mlir;

namespace {

constexpr int kParameters = 16;

/// Pickle opcodes for data.pkl (protocol 2, as torch writes it).
class PickleWriter {
public:
  void op(char c) { bytes.push_back(c); }
  void str(llvm::StringRef s) {
    op('X');
    uint32_t n = s.size();
    for (int i = 0; i < 4; ++i)
      bytes.push_back(char((n >> (8 * i)) & 0xff));
    bytes.append(s.begin(), s.end());
  }
  void global(llvm::StringRef module, llvm::StringRef name) {
    op('c');
    bytes += module.str() + "\n" + name.str() + "\n";
  }
  void integer(uint32_t v) {
    op('J');
    for (int i = 0; i < 4; ++i)
      bytes.push_back(char((v >> (8 * i)) & 0xff));
  }
  std::string bytes;
};

/// Writes an archive with `megabytes` MB of float parameters; returns its
/// path.
std::string writeArchive(int64_t megabytes) {
  llvm::SmallString<128> path;
  llvm::sys::path::system_temp_directory(/*erasedOnReboot=*/true, path);
  llvm::sys::path::append(path, "tsmlir-bench-" + std::to_string(megabytes) +
                                    "mb.pt");
  int64_t elements = megabytes * (1 << 20) / 4 / kParameters;

  // data.pkl: __torch__.M with parameters w0..w15 and `training`.
  PickleWriter p;
  p.op('\x80');
  p.op(2);
  p.global("__torch__", "M");
  p.op(')');
  p.op('\x81');
  p.op('}');
  p.op('(');
  p.str("training");
  p.op('\x89');
  for (int i = 0; i < kParameters; ++i) {
    p.str("w" + std::to_string(i));
    p.global("torch._utils", "_rebuild_tensor_v2");
    p.op('(');
    p.op('(');
    p.str("storage");
    p.global("torch", "FloatStorage");
    p.str(std::to_string(i));
    p.str("cpu");
    p.integer(elements);
    p.op('t');
    p.op('Q');
    p.integer(0);
    p.op('(');
    p.integer(elements);
    p.op('t');
    p.op('(');
    p.integer(1);
    p.op('t');
    p.op('\x89');
    p.global("collections", "OrderedDict");
    p.op(')');
    p.op('R');
    p.op('t');
    p.op('R');
  }
  p.op('u');
  p.op('b');
  p.op('.');

  std::string code = "class M(Module):\n  __parameters__ = [";
  for (int i = 0; i < kParameters; ++i)
    code += "\"w" + std::to_string(i) + "\", ";
  code += "]\n  __buffers__ = []\n  training : bool\n";
  for (int i = 0; i < kParameters; ++i)
    code += "  w" + std::to_string(i) + " : Tensor\n";
  code += "  def forward(self: __torch__.M,\n    x: Tensor) -> Tensor:\n";
  for (int i = 0; i < kParameters; ++i)
    code += "    x = torch.add(x, self.w" + std::to_string(i) + ")\n";
  code += "    return x\n";

  std::vector<float> data(elements, 0.5f);
  int error = 0;
  zip_t *zip = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  if (!zip)
    return "";
  auto add = [&](const std::string &name, const void *bytes, size_t size) {
    zip_source_t *source = zip_source_buffer(zip, bytes, size, 0);
    zip_int64_t index =
        zip_file_add(zip, name.c_str(), source, ZIP_FL_OVERWRITE);
    zip_set_file_compression(zip, index, ZIP_CM_STORE, 0);
  };
  std::string version = "3\n";
  add("m/version", version.data(), version.size());
  add("m/data.pkl", p.bytes.data(), p.bytes.size());
  add("m/code/__torch__.py", code.data(), code.size());
  for (int i = 0; i < kParameters; ++i)
    add("m/data/" + std::to_string(i), data.data(), data.size() * 4);
  if (zip_close(zip) != 0)
    return "";
  return std::string(path);
}

const std::string &getArchive(int64_t megabytes) {
  static std::map<int64_t, std::string> archives;
  auto it = archives.find(megabytes);
  if (it == archives.end())
    it = archives.emplace(megabytes, writeArchive(megabytes)).first;
  return it->second;
}

void setCounters(benchmark::State &state, const std::string &path) {
  uint64_t size = 0;
  llvm::sys::fs::file_size(path, size);
  state.SetBytesProcessed(state.iterations() * int64_t(size));
  state.SetComplexityN(state.range(0));
  state.counters["nodes"] = double(state.range(0)); // MB, for bench/run.sh
  state.counters["archive_bytes"] = double(size);
}

void BM_ImportPt(benchmark::State &state) {
  const std::string &path = getArchive(state.range(0));
  if (path.empty())
    return state.SkipWithError("cannot write the archive");
  MLIRContext context;
  std::string firstError;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (firstError.empty())
      firstError = diag.str();
    return success();
  });
  OwningOpRef<ModuleOp> module = tsmlir::importPtArchive(path, &context);
  if (!module)
    return state.SkipWithError(("the archive does not import: " + firstError)
                                   .c_str());
  for (auto _ : state) {
    // Freeing the previous module (and its resources) is not timed.
    state.PauseTiming();
    module = nullptr;
    state.ResumeTiming();
    module = tsmlir::importPtArchive(path, &context);
    benchmark::DoNotOptimize(module.get());
  }
  setCounters(state, path);
}

void BM_ReadArchiveBaseline(benchmark::State &state) {
  const std::string &path = getArchive(state.range(0));
  if (path.empty())
    return state.SkipWithError("cannot write the archive");
  for (auto _ : state) {
    auto zip = tsmlir::ZipArchive::open(path);
    if (!zip) {
      llvm::consumeError(zip.takeError());
      return state.SkipWithError("cannot open the archive");
    }
    for (const std::string &member : (*zip)->getMemberNames()) {
      auto bytes = (*zip)->readMember(member);
      if (!bytes) {
        llvm::consumeError(bytes.takeError());
        return state.SkipWithError("cannot read a member");
      }
      benchmark::DoNotOptimize((*bytes)->getBufferStart());
    }
  }
  setCounters(state, path);
}

} // namespace

BENCHMARK(BM_ImportPt)
    ->RangeMultiplier(4)
    ->Range(1, 256)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);
BENCHMARK(BM_ReadArchiveBaseline)
    ->RangeMultiplier(4)
    ->Range(1, 256)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);
