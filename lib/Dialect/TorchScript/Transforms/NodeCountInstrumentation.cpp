//===- NodeCountInstrumentation.cpp - Nodes removed per pass --------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A pass instrumentation that counts the TorchScript nodes (ops of the `ts`
// dialect) before and after every pass, nested pipelines included, and prints
// per pass how often it ran and how many nodes it removed (or added).
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h"

#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace mlir;
using namespace mlir::tsmlir;

namespace {
class NodeCountInstrumentation : public PassInstrumentation {
public:
  explicit NodeCountInstrumentation(llvm::raw_ostream &os) : os(os) {}
  ~NodeCountInstrumentation() override { print(); }

  /// The adaptor that runs a nested pipeline (`func.func(...)`) is not a
  /// pass of its own: the passes it runs are counted. Its class is private to
  /// MLIR, so it is known by name.
  static bool isNestedPipeline(Pass *pass) {
    return pass->getArgument().empty() &&
           pass->getName().ends_with("OpToOpPassAdaptor");
  }

  void runBeforePass(Pass *pass, Operation *op) override {
    if (isNestedPipeline(pass))
      return;
    int64_t n = ts::countNodes(op);
    std::lock_guard<std::mutex> lock(mutex);
    before[{pass, op}] = n;
  }

  void runAfterPass(Pass *pass, Operation *op) override {
    int64_t n = ts::countNodes(op);
    std::lock_guard<std::mutex> lock(mutex);
    auto it = before.find({pass, op});
    if (it == before.end())
      return;
    Row &row = rows[pass->getArgument().empty() ? pass->getName()
                                                : pass->getArgument()];
    ++row.runs;
    row.before += it->second;
    row.after += n;
    before.erase(it);
  }

  void runAfterPassFailed(Pass *pass, Operation *op) override {
    std::lock_guard<std::mutex> lock(mutex);
    before.erase({pass, op});
  }

private:
  struct Row {
    int64_t runs = 0, before = 0, after = 0;
  };

  void print() {
    if (rows.empty())
      return;
    os << "===- TorchScript nodes per pass -===\n";
    os << llvm::format("%6s %12s %12s %10s  %s\n", "runs", "nodes before",
                       "nodes after", "removed", "pass");
    for (auto &[name, row] : rows)
      os << llvm::format("%6lld %12lld %12lld %10lld  ", (long long)row.runs,
                         (long long)row.before, (long long)row.after,
                         (long long)(row.before - row.after))
         << name << "\n";
    os.flush();
  }

  llvm::raw_ostream &os;
  std::mutex mutex;
  llvm::DenseMap<std::pair<Pass *, Operation *>, int64_t> before;
  llvm::MapVector<StringRef, Row> rows;
};
} // namespace

void ts::addNodeCountInstrumentation(PassManager &pm, llvm::raw_ostream &os) {
  pm.addInstrumentation(std::make_unique<NodeCountInstrumentation>(os));
}
