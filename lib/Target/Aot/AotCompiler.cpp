//===- AotCompiler.cpp - Lower, translate and emit an object --------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Target/Aot/AotCompiler.h"

#include "tsmlir/Pipelines/Pipelines.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace mlir::tsmlir;

LogicalResult mlir::tsmlir::lowerForAot(ModuleOp module,
                                        const PreparedGraph &graph,
                                        const AotOptions &options) {
  MLIRContext *ctx = module.getContext();
  const CompileOptions &compile = options.compile;
  if (options.isCUDA()) {
    LowerToNVVMOptions lowering;
    getLoweringOptions(compile, graph.entry, lowering);
    PassManager kernels(ctx);
    buildTSToGPUPipeline(kernels, lowering);
    if (failed(kernels.run(module)))
      return failure();
    dumpModule(module, compile.dumpDir, "gpu");
    PassManager nvvm(ctx);
    buildGPUToNVVMPipeline(nvvm, lowering);
    if (failed(nvvm.run(module)))
      return failure();
  } else {
    LowerToLLVMOptions lowering;
    getLoweringOptions(compile, graph.entry, lowering);
    PassManager linalg(ctx);
    buildTSToLinalgPipeline(linalg, lowering);
    if (failed(linalg.run(module)))
      return failure();
    dumpModule(module, compile.dumpDir, "linalg");
    PassManager llvm(ctx);
    buildLinalgToLoopsPipeline(llvm, lowering);
    buildLoopsToLLVMPipeline(llvm, lowering);
    if (failed(llvm.run(module)))
      return failure();
  }
  if (failed(buildCAbi(module, graph, options)))
    return failure();
  dumpModule(module, compile.dumpDir, "llvm");
  return success();
}

/// The target machine for the host code.
static FailureOr<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(ModuleOp module, const HostOptions &options,
                    unsigned optLevel) {
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargets();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmPrinters();
  std::string tripleName = options.triple.empty()
                               ? llvm::sys::getDefaultTargetTriple()
                               : options.triple;
  llvm::Triple triple(tripleName);
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return module.emitError() << "unknown target '" << tripleName
                              << "': " << error;
  std::string cpu = options.cpu, features = options.features;
  if (cpu == "native") {
    cpu = llvm::sys::getHostCPUName().str();
    llvm::SubtargetFeatures host;
    for (auto &feature : llvm::sys::getHostCPUFeatures())
      host.AddFeature(feature.first(), feature.second);
    features = host.getString() + (features.empty() ? "" : "," + features);
  }
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, cpu, ""));
  if (!subtarget || !subtarget->isCPUStringValid(cpu))
    return module.emitError() << "unknown CPU '" << cpu << "' for '"
                              << tripleName << "'";
  llvm::CodeGenOptLevel level =
      *llvm::CodeGenOpt::getLevel(std::min(optLevel, 3u));
  // Constructors (a CUDA model's kernel loading) go into .init_array, as
  // clang puts them: linkers and loaders no longer run .ctors.
  llvm::TargetOptions targetOptions;
  targetOptions.UseInitArray = true;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpu, features, targetOptions, llvm::Reloc::PIC_,
      std::nullopt, level));
  if (!machine)
    return module.emitError() << "cannot target '" << tripleName << "'";
  return machine;
}

LogicalResult mlir::tsmlir::emitObject(ModuleOp module,
                                       const AotOptions &options,
                                       AotOutput kind, StringRef path) {
  FailureOr<std::unique_ptr<llvm::TargetMachine>> machine = createTargetMachine(
      module, options.compile.host, options.compile.optLevel);
  if (failed(machine))
    return failure();

  DialectRegistry registry;
  registerAllToLLVMIRTranslations(registry);
  module.getContext()->appendDialectRegistry(registry);
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return module.emitError() << "cannot translate the module to LLVM IR";
  llvmModule->setDataLayout((*machine)->createDataLayout());
  llvmModule->setTargetTriple((*machine)->getTargetTriple());

  // Only the ABI is exported: the compiled function (often `main`), its
  // globals and its helpers are internal, so objects of several models and
  // the program that links them never clash.
  std::string exported = options.name + "_";
  for (llvm::GlobalValue &value : llvmModule->global_values()) {
    if (value.isDeclaration() || value.hasAppendingLinkage() ||
        value.getName().starts_with("llvm."))
      continue;
    StringRef name = value.getName();
    bool isAbi = (name.starts_with(exported) && !name.starts_with("__")) ||
                 name == "tsmlir_shared_model";
    if (!isAbi)
      value.setLinkage(llvm::GlobalValue::InternalLinkage);
  }

  std::function<llvm::Error(llvm::Module *)> optimize =
      makeOptimizingTransformer(options.compile.optLevel, 0, machine->get());
  if (llvm::Error error = optimize(llvmModule.get()))
    return module.emitError() << "cannot optimise: "
                              << llvm::toString(std::move(error));

  std::error_code ec;
  llvm::ToolOutputFile out(path, ec,
                           kind == AotOutput::Object
                               ? llvm::sys::fs::OF_None
                               : llvm::sys::fs::OF_Text);
  if (ec)
    return module.emitError() << "cannot write '" << path
                              << "': " << ec.message();
  if (kind == AotOutput::LLVMIR) {
    llvmModule->print(out.os(), nullptr);
  } else {
    llvm::legacy::PassManager codegen;
    if ((*machine)->addPassesToEmitFile(
            codegen, out.os(), nullptr,
            kind == AotOutput::Object ? llvm::CodeGenFileType::ObjectFile
                                      : llvm::CodeGenFileType::AssemblyFile))
      return module.emitError() << "the target cannot emit this file type";
    codegen.run(*llvmModule);
  }
  out.keep();
  return success();
}

LogicalResult mlir::tsmlir::linkSharedObject(StringRef objectPath,
                                             StringRef path,
                                             StringRef runtimeDir,
                                             StringRef cc,
                                             const AotOptions &options,
                                             llvm::raw_ostream &errs) {
  llvm::SmallString<256> runtime(runtimeDir);
  llvm::sys::path::append(runtime, "libtsmlir_runtime.a");
  if (!llvm::sys::fs::exists(runtime)) {
    errs << "cannot link '" << path << "': no " << runtime << "\n";
    return failure();
  }
  SmallVector<std::string> args{cc.str(), "-shared", "-o", path.str(),
                                objectPath.str(), runtime.str().str()};
  if (!options.compile.host.triple.empty())
    args.push_back("--target=" + options.compile.host.triple);
  if (llvm::sys::path::filename(cc).contains("clang") &&
      llvm::sys::findProgramByName(
          "ld.lld", {llvm::sys::path::parent_path(cc)}))
    args.push_back("-fuse-ld=lld");
  if (options.isCUDA()) {
    args.push_back("-L" + runtimeDir.str());
    args.push_back("-ltsmlir_cuda_runtime");
    args.push_back("-Wl,-rpath," + runtimeDir.str());
  } else if (options.compile.libraryKernels) {
    // The products call libtsmlir_kernels (oneDNN), found beside the
    // runtime when the model is loaded.
    llvm::SmallString<256> kernels(runtimeDir);
    llvm::sys::path::append(kernels, "libtsmlir_kernels.so");
    if (!llvm::sys::fs::exists(kernels)) {
      errs << "cannot link '" << path << "': no " << kernels
           << " (library kernels need a build with oneDNN)\n";
      return failure();
    }
    args.push_back("-L" + runtimeDir.str());
    args.push_back("-ltsmlir_kernels");
    args.push_back("-Wl,-rpath," + runtimeDir.str());
  }
  args.push_back("-lm");
  args.push_back("-lpthread");
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  std::string error;
  int status = llvm::sys::ExecuteAndWait(cc, argRefs, std::nullopt, {}, 0, 0,
                                         &error);
  if (status != 0) {
    errs << "cannot link '" << path << "': `";
    for (auto [i, arg] : llvm::enumerate(args))
      errs << (i ? " " : "") << arg;
    errs << "` " << (error.empty() ? "failed" : error) << " (exit " << status
         << ")\n";
    return failure();
  }
  return success();
}
