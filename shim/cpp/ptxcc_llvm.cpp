//===- ptxcc_llvm.cpp - LLVM IR in, PTX out, in process -------------------===//
//
// What `ptxcc-opt` needs from LLVM itself, which the MLIR C API does not
// reach:
//   * import LLVM IR (text or bitcode) into the LLVM dialect the way
//     `mlir-translate --import-llvm` does, but keeping the
//     `"nvvm.grid_constant"` parameter attribute that `__grid_constant__`
//     produces (the importer drops string parameter attributes) and kernels
//     marked the old way, through `!nvvm.annotations` (LLVM's parser upgrades
//     those to `ptx_kernel` and parameter attributes, which we then keep);
//   * run LLVM's NVPTX backend on the translated module, as
//     `mlir-translate --mlir-to-llvmir | llc -mcpu=CHIP -mattr=+ptxNN` does.
// Errors become MLIR diagnostics with locations; nothing here aborts on bad
// input.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Target/LLVMIR/Import.h"

#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdlib>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

using namespace mlir;

namespace {

/// The attribute clang puts on a `__grid_constant__` kernel parameter, and
/// the one the NVVM dialect reads and writes back.
constexpr const char *kGridConstant = "nvvm.grid_constant";

/// Routes the errors and warnings of an LLVM context to MLIR diagnostics at
/// `location` (LLVM's default handler exits the process on an error).
struct ScopedLLVMDiagnostics {
  ScopedLLVMDiagnostics(llvm::LLVMContext &context, Location location)
      : location(location) {
    context.setDiagnosticHandlerCallBack(
        [](const llvm::DiagnosticInfo *info, void *self) {
          auto *me = static_cast<ScopedLLVMDiagnostics *>(self);
          std::string text;
          llvm::raw_string_ostream os(text);
          llvm::DiagnosticPrinterRawOStream printer(os);
          info->print(printer);
          switch (info->getSeverity()) {
          case llvm::DS_Error:
            me->failed = true;
            emitError(me->location) << text;
            break;
          case llvm::DS_Warning:
            emitWarning(me->location) << text;
            break;
          default:
            break;
          }
        },
        this);
  }
  Location location;
  bool failed = false;
};

/// Swallows the importer's warning about a data layout token `vN:N` (an
/// N-bit vector aligned to N bits): clang writes `v16:16-v32:32` on every
/// NVPTX module, DLTI cannot hold them, and they say what the default says
/// anyway. Every other diagnostic goes on to the handlers.
LogicalResult dropNaturalVectorAlignments(Diagnostic &diagnostic) {
  if (diagnostic.getSeverity() != DiagnosticSeverity::Warning)
    return failure();
  std::string message = diagnostic.str();
  StringRef token = StringRef(message);
  if (!token.consume_front("unhandled data layout token: v"))
    return failure();
  auto [size, alignment] = token.split(':');
  unsigned sizeBits = 0, alignmentBits = 0;
  if (size.getAsInteger(10, sizeBits) || alignment.getAsInteger(10, alignmentBits))
    return failure();
  return success(sizeBits == alignmentBits);
}

} // namespace

extern "C" {

/// Parses `source` (LLVM IR text or bitcode) read from `filename`, verifies
/// it and imports it into a `builtin.module` of the LLVM dialect, keeping
/// `"nvvm.grid_constant"` parameters as `nvvm.grid_constant`. Returns a null
/// operation after reporting the problem as a diagnostic.
MlirOperation ptxccImportLLVMIR(MlirContext context, MlirStringRef source,
                                MlirStringRef filename) {
  MLIRContext *ctx = unwrap(context);
  StringRef name = unwrap(filename);
  Location fileLoc = FileLineColLoc::get(ctx, name, 0, 0);
  llvm::LLVMContext llvmContext;
  ScopedLLVMDiagnostics diagnostics(llvmContext, fileLoc);
  // A copy: the text parser needs a terminating NUL.
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      llvm::MemoryBuffer::getMemBufferCopy(unwrap(source), name);
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module =
      llvm::parseIR(buffer->getMemBufferRef(), error, llvmContext);
  if (!module) {
    Location at = error.getLineNo() > 0
                      ? Location(FileLineColLoc::get(
                            ctx, name, error.getLineNo(),
                            error.getColumnNo() + 1))
                      : fileLoc;
    emitError(at) << error.getMessage();
    return MlirOperation{nullptr};
  }
  if (diagnostics.failed)
    return MlirOperation{nullptr};
  std::string problems;
  llvm::raw_string_ostream problemStream(problems);
  if (llvm::verifyModule(*module, &problemStream)) {
    emitError(fileLoc) << "the LLVM IR is invalid: " << StringRef(problems).trim();
    return MlirOperation{nullptr};
  }
  // The importer drops string parameter attributes; note where the grid
  // constants are before it runs. Only a kernel's count (LLVM ignores the
  // attribute elsewhere, and the NVVM dialect refuses it there).
  std::vector<std::pair<std::string, std::vector<unsigned>>> gridConstants;
  for (llvm::Function &function : *module) {
    if (function.getCallingConv() != llvm::CallingConv::PTX_Kernel)
      continue;
    std::vector<unsigned> indices;
    for (unsigned i = 0, e = function.arg_size(); i < e; ++i)
      if (function.getAttributes().hasParamAttr(i, kGridConstant))
        indices.push_back(i);
    if (!indices.empty() && function.hasName())
      gridConstants.emplace_back(function.getName().str(), std::move(indices));
  }
  OwningOpRef<ModuleOp> imported;
  {
    ScopedDiagnosticHandler quiet(ctx, dropNaturalVectorAlignments);
    imported = translateLLVMIRToModule(std::move(module), ctx,
                                       /*emitExpensiveWarnings=*/false);
  }
  if (!imported)
    return MlirOperation{nullptr};
  for (auto &[functionName, indices] : gridConstants) {
    auto function = imported->lookupSymbol<LLVM::LLVMFuncOp>(functionName);
    if (!function)
      continue;
    // The NVVM dialect accepts grid constants on functions marked
    // `nvvm.kernel` (the calling convention alone is not enough for it).
    function->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(),
                      UnitAttr::get(ctx));
    for (unsigned index : indices)
      if (index < function.getNumArguments())
        function.setArgAttr(index, kGridConstant, UnitAttr::get(ctx));
  }
  return wrap(imported.release().getOperation());
}

/// Receives a chunk of text.
typedef void (*PtxccLLVMStringCallback)(MlirStringRef text, void *userData);

/// Translates `module` to LLVM IR and compiles it with LLVM's NVPTX backend
/// for `cpu` with `features` (what `llc -mcpu -mattr` take, applied the way
/// llc applies them), handing the PTX text to `callback`. Returns false after
/// reporting the problem as a diagnostic.
bool ptxccEmitPTX(MlirOperation module, MlirStringRef cpu,
                  MlirStringRef features, PtxccLLVMStringCallback callback,
                  void *userData) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
  Operation *op = unwrap(module);
  llvm::LLVMContext llvmContext;
  ScopedLLVMDiagnostics diagnostics(llvmContext, op->getLoc());
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(op, llvmContext);
  if (!llvmModule)
    return false;
  llvm::Triple triple = llvmModule->getTargetTriple();
  if (triple.getArch() == llvm::Triple::UnknownArch)
    triple = llvm::Triple("nvptx64-nvidia-cuda");
  if (!triple.isNVPTX()) {
    emitError(op->getLoc())
        << "--emit=ptx compiles for NVPTX, but the module's target triple is '"
        << triple.str() << "'";
    return false;
  }
  llvmModule->setTargetTriple(triple);
  std::string lookupError;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, lookupError);
  if (!target) {
    emitError(op->getLoc()) << lookupError;
    return false;
  }
  StringRef cpuName = unwrap(cpu), featureText = unwrap(features);
  llvm::TargetOptions options;
  // llc's default (-asm-verbose): the comments that name each function
  // and block, so that the output equals llc's.
  options.MCOptions.AsmVerbose = true;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpuName, featureText, options, std::nullopt,
      std::nullopt, llvm::CodeGenOptLevel::Default));
  if (!machine) {
    emitError(op->getLoc()) << "cannot create an NVPTX target machine for "
                            << cpuName;
    return false;
  }
  // As llc: the target's data layout, and -mcpu/-mattr on every function
  // (a function's own target-cpu wins; features are appended to its own).
  llvmModule->setDataLayout(machine->createDataLayout());
  for (llvm::Function &function : *llvmModule) {
    llvm::AttrBuilder attributes(llvmContext);
    if (!cpuName.empty() && !function.hasFnAttribute("target-cpu"))
      attributes.addAttribute("target-cpu", cpuName);
    if (!featureText.empty()) {
      StringRef old =
          function.getFnAttribute("target-features").getValueAsString();
      attributes.addAttribute("target-features",
                              old.empty() ? featureText.str()
                                          : (old + "," + featureText).str());
    }
    function.addFnAttrs(attributes);
  }
  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream os(ptx);
  llvm::legacy::PassManager passes;
  llvm::TargetLibraryInfoImpl libraryInfo(triple);
  passes.add(new llvm::TargetLibraryInfoWrapperPass(libraryInfo));
  if (machine->addPassesToEmitFile(passes, os, nullptr,
                                   llvm::CodeGenFileType::AssemblyFile)) {
    emitError(op->getLoc()) << "the NVPTX target cannot emit assembly";
    return false;
  }
  passes.run(*llvmModule);
  if (diagnostics.failed)
    return false;
  callback(MlirStringRef{ptx.data(), ptx.size()}, userData);
  return true;
}

/// For drivers: LLVM's fatal errors (a backend that cannot select an
/// instruction, an unsupported library call), which abort the process with a
/// stack dump, become `<prefix>error: <reason>` on standard error and exit
/// status 1. Process-wide; call once, before any work.
void ptxccExitOnFatalError(MlirStringRef prefix) {
  static std::string fatalPrefix;
  fatalPrefix = unwrap(prefix).str();
  llvm::install_fatal_error_handler(
      [](void *, const char *reason, bool) {
        llvm::errs() << fatalPrefix << "error: " << reason << "\n";
        llvm::errs().flush();
        // No destructors: other threads may hold LLVM's locks.
        std::_Exit(1);
      },
      nullptr);
}

} // extern "C"
