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
//     `mlir-translate --mlir-to-llvmir | llc -mcpu=CHIP -mattr=+ptxNN` does;
//   * give the inline assembly of a translated module back the call
//     attributes MLIR's `llvm.inline_asm` does not keep (see
//     `ptxccRestoreInlineAsmAttributes`).
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

#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/AutoUpgrade.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
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

/// The name `!nvvm.annotations` is parsed under: LLVM's text parser
/// upgrades the annotations while it parses, and crashes on shapes it does
/// not expect (llc too), so ptxcc checks them first and upgrades after.
constexpr const char *kHeldAnnotations = "ptxcc.held.nvvm.annotations";
constexpr const char *kAnnotations = "nvvm.annotations";

/// Whether `source` is LLVM bitcode (raw or in its wrapper).
bool isBitcode(StringRef source) {
  return source.starts_with("BC\xC0\xDE") || source.starts_with("\xDE\xC0\x17\x0B");
}

/// `source` with a top-level `!nvvm.annotations = ...` renamed to
/// `!ptxcc.held.nvvm.annotations` (text only; the definition of named
/// metadata starts a line), and the line it is on (0 if none).
std::pair<std::string, unsigned> holdAnnotations(StringRef source) {
  const StringRef name = kAnnotations;
  std::string held = source.str();
  size_t shift = 0;
  unsigned line = 0, found = 0;
  for (size_t at = 0; at < source.size(); ++line) {
    size_t end = std::min(source.find('\n', at), source.size());
    StringRef code = source.slice(at, end).ltrim(" \t");
    StringRef after = code;
    if (after.consume_front("!") && after.consume_front(name) &&
        (after.empty() || after.front() == ' ' || after.front() == '\t' || after.front() == '=')) {
      held.replace(code.data() - source.data() + 1 + shift, name.size(), kHeldAnnotations);
      shift += StringRef(kHeldAnnotations).size() - name.size();
      found = found ? found : line + 1;
    }
    at = end + 1;
  }
  return {held, found};
}

/// The value of an annotation as an integer, or null.
const llvm::ConstantInt *annotationInteger(const llvm::Metadata *value) {
  return llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(value);
}

/// The properties whose name is a prefix and a dimension (x, y or z).
constexpr const char *kVectorProperties[] = {"maxntid", "reqntid", "cluster_dim_"};

/// Whether LLVM's upgrade of `!nvvm.annotations` turns the property `name`
/// into a function attribute (and so reads its value as an integer, or a
/// tuple of integers for `grid_constant`, and its global as a function):
/// `kernel`, `align`, `maxclusterrank`, `cluster_max_blocks`, `minctasm`,
/// `maxnreg`, `grid_constant`, and `maxntid`, `reqntid`, `cluster_dim_`
/// followed by a dimension. Other properties (`texture`, `surface`,
/// `sampler`, `managed` on variables) stay as they are.
bool upgradedProperty(StringRef name) {
  return name == "kernel" || name == "align" || name == "maxclusterrank" ||
         name == "cluster_max_blocks" || name == "minctasm" || name == "maxnreg" ||
         name == "grid_constant" ||
         llvm::any_of(kVectorProperties, [&](StringRef prefix) { return name.starts_with(prefix); });
}

/// Why `entry` (an operand of `!nvvm.annotations`) would crash LLVM's
/// upgrade of it, or an empty string for a shape it handles: a tuple whose
/// first operand is a global (or anything else, which LLVM drops), then
/// (name, value) pairs. A property the upgrade turns into an attribute
/// needs a function, an integer value (`grid_constant`: a tuple of 1-based
/// parameter numbers), `align` a power of two in its low 16 bits, and the
/// vector properties (`maxntid`, `reqntid`, `cluster_dim_`) a dimension x,
/// y or z after their prefix.
std::string annotationProblem(const llvm::MDNode *entry) {
  if (!llvm::isa<llvm::MDTuple>(entry))
    return "it is not a tuple (!{...})";
  if (entry->getNumOperands() == 0)
    return "it is empty (the first element must name a global)";
  auto *global =
      llvm::mdconst::dyn_extract_or_null<llvm::GlobalValue>(entry->getOperand(0));
  if (!global)
    return "";
  if (entry->getNumOperands() % 2 != 1)
    return "the elements after the global are not (name, value) pairs";
  auto *function = llvm::dyn_cast<llvm::Function>(global);
  for (unsigned i = 1, e = entry->getNumOperands(); i < e; i += 2) {
    auto *key = llvm::dyn_cast_or_null<llvm::MDString>(entry->getOperand(i));
    if (!key)
      return "element " + std::to_string(i) + " is not a name (!\"...\")";
    StringRef name = key->getString();
    if (!upgradedProperty(name))
      continue;
    if (!function)
      return "'" + name.str() + "' is a property of functions, but '@" +
             global->getName().str() + "' is not one";
    const llvm::Metadata *value = entry->getOperand(i + 1);
    if (name == "grid_constant") {
      auto *indices = llvm::dyn_cast_or_null<llvm::MDTuple>(value);
      if (!indices)
        return "'grid_constant' needs a tuple of parameter numbers";
      for (const llvm::MDOperand &index : indices->operands()) {
        const llvm::ConstantInt *number = annotationInteger(index.get());
        if (!number || number->isNegative() || number->isZero() ||
            number->getZExtValue() > function->arg_size())
          return "'grid_constant' must list parameter numbers of '@" +
                 function->getName().str() + "' (from 1 to " +
                 std::to_string(function->arg_size()) + ")";
      }
      continue;
    }
    const llvm::ConstantInt *number = annotationInteger(value);
    if (!number)
      return "the value of '" + name.str() + "' is not an integer";
    if (name == "align") {
      uint64_t alignment = number->getZExtValue() & 0xFFFF;
      if (alignment == 0 || (alignment & (alignment - 1)) != 0)
        return "the alignment in 'align' (its low 16 bits) is not a power of two";
    }
    for (StringRef prefix : kVectorProperties) {
      StringRef dimension = name;
      if (dimension.consume_front(prefix) && dimension != "x" && dimension != "y" &&
          dimension != "z")
        return "'" + name.str() + "' names no dimension (x, y or z)";
    }
  }
  return "";
}

/// Checks `annotations` (`!nvvm.annotations`, or what holds them), if any:
/// returns false after reporting a malformed entry at `location`.
bool checkAnnotations(llvm::Module &module, llvm::NamedMDNode *annotations,
                      Location location) {
  if (!annotations)
    return true;
  for (unsigned i = 0, e = annotations->getNumOperands(); i < e; ++i) {
    std::string problem = annotationProblem(annotations->getOperand(i));
    if (!problem.empty()) {
      emitError(location) << "malformed !nvvm.annotations entry " << i << ": "
                          << problem
                          << " (LLVM's upgrade of the annotations, llc's too, "
                             "does not handle it: it crashes or misreads it)";
      return false;
    }
  }
  return true;
}

/// Checks the annotations the text parser was kept from upgrading (held
/// under kHeldAnnotations), then upgrades them as the parser would have.
/// Returns false after reporting a malformed entry at `location`.
bool checkAndUpgradeAnnotations(llvm::Module &module, Location location) {
  llvm::NamedMDNode *held = module.getNamedMetadata(kHeldAnnotations);
  if (!checkAnnotations(module, held, location))
    return false;
  if (held) {
    llvm::NamedMDNode *named = module.getOrInsertNamedMetadata(kAnnotations);
    for (llvm::MDNode *entry : held->operands())
      named->addOperand(entry);
    held->eraseFromParent();
  }
  llvm::UpgradeNVVMAnnotations(module);
  return true;
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
  // A copy: the text parser needs a terminating NUL. In text, the
  // annotations are held from the parser's own upgrade (see
  // checkAndUpgradeAnnotations).
  StringRef input = unwrap(source);
  unsigned annotationsLine = 0;
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module;
  if (isBitcode(input)) {
    // The bitcode reader upgrades the annotations when it materializes the
    // module: its metadata is read lazily first and checked.
    buffer = llvm::MemoryBuffer::getMemBufferCopy(input, name);
    auto lazy = llvm::getLazyBitcodeModule(buffer->getMemBufferRef(), llvmContext);
    if (!lazy) {
      emitError(fileLoc) << "invalid bitcode: " << llvm::toString(lazy.takeError());
      return MlirOperation{nullptr};
    }
    module = std::move(*lazy);
    if (llvm::Error failed = module->materializeMetadata()) {
      emitError(fileLoc) << "invalid bitcode: " << llvm::toString(std::move(failed));
      return MlirOperation{nullptr};
    }
    if (!checkAnnotations(*module, module->getNamedMetadata(kAnnotations), fileLoc))
      return MlirOperation{nullptr};
    if (llvm::Error failed = module->materializeAll()) {
      emitError(fileLoc) << "invalid bitcode: " << llvm::toString(std::move(failed));
      return MlirOperation{nullptr};
    }
  } else {
    auto [held, line] = holdAnnotations(input);
    annotationsLine = line;
    buffer = llvm::MemoryBuffer::getMemBufferCopy(held, name);
    module = llvm::parseIR(buffer->getMemBufferRef(), error, llvmContext);
  }
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
  Location annotationsAt =
      annotationsLine > 0
          ? Location(FileLineColLoc::get(ctx, name, annotationsLine, 1))
          : fileLoc;
  if (!checkAndUpgradeAnnotations(*module, annotationsAt))
    return MlirOperation{nullptr};
  std::string problems;
  llvm::raw_string_ostream problemStream(problems);
  if (llvm::verifyModule(*module, &problemStream)) {
    emitError(fileLoc) << "the LLVM IR is invalid: " << StringRef(problems).trim();
    return MlirOperation{nullptr};
  }
  // Unnamed globals (`@0`) would import with an empty symbol name, which
  // MLIR prints as `@<<INVALID EMPTY SYMBOL>>` and cannot read back: they
  // get the names llc gives them in PTX (`__unnamed_N`; `setName` makes a
  // taken name unique).
  unsigned unnamed = 0;
  for (llvm::GlobalValue &global : module->global_values())
    if (!global.hasName())
      global.setName("__unnamed_" + std::to_string(++unnamed));
  // The importer drops string parameter attributes; note where the grid
  // constants are before it runs. Only a kernel's count (LLVM ignores the
  // attribute elsewhere, and the NVVM dialect refuses it there).
  std::vector<std::pair<std::string, std::vector<unsigned>>> gridConstants;
  for (llvm::Function &function : *module) {
    if (function.getCallingConv() != llvm::CallingConv::PTX_Kernel)
      continue;
    std::vector<unsigned> indices;
    for (unsigned i = 0, e = function.arg_size(); i < e; ++i) {
      if (!function.getAttributes().hasParamAttr(i, kGridConstant))
        continue;
      // Only a byval parameter can be a grid constant (the NVVM dialect
      // rejects it elsewhere; llc ignores it).
      if (!function.getArg(i)->hasByValAttr()) {
        emitWarning(fileLoc) << "'" << kGridConstant << "' on parameter " << i
                             << " of '@" << function.getName()
                             << "', which is not byval, is dropped (llc ignores it)";
        continue;
      }
      indices.push_back(i);
    }
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

/// MLIR's `llvm.inline_asm` keeps none of the call's attributes: imported
/// from clang's CUDA device code and translated back, a conversion such as
/// `cvt.f32.f16` became a call LLVM must assume reads and writes any memory
/// and may be moved across control flow, where clang's is `convergent
/// nounwind memory(none)`; llc merged two conversions of one value in the
/// input and no longer did (Warp's float16 kernels: 3 registers more). Puts back what MLIR's semantics of the op allow: `convergent`
/// always (clang marks all device inline assembly so, and it only forbids
/// moves), `nounwind` where the assembly cannot unwind, and `memory(none)`
/// where it has no side effects, no memory operand and no memory clobber
/// (MLIR: "only the operands of the op may be read, written").
void ptxccRestoreInlineAsmAttributes(llvm::Module &module) {
  for (llvm::Function &function : module) {
    for (llvm::Instruction &instruction : llvm::instructions(function)) {
      auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
      if (!call || !call->isInlineAsm())
        continue;
      auto *assembly = llvm::cast<llvm::InlineAsm>(call->getCalledOperand());
      call->addFnAttr(llvm::Attribute::Convergent);
      if (!assembly->canThrow())
        call->addFnAttr(llvm::Attribute::NoUnwind);
      if (assembly->hasSideEffects())
        continue;
      bool memory = false;
      for (const llvm::InlineAsm::ConstraintInfo &info :
           assembly->ParseConstraints()) {
        if (info.isIndirect)
          memory = true;
        for (const std::string &code : info.Codes) {
          // Registers (NVPTX's classes and named ones), immediates and
          // tied operands; anything else may name memory.
          bool registerOrImmediate =
              (code.size() == 1 && StringRef("hrlfdcbqni").contains(code[0])) ||
              (!code.empty() && llvm::all_of(code, llvm::isDigit)) ||
              (code.size() > 2 && code.front() == '{' && code != "{memory}");
          if (!registerOrImmediate)
            memory = true;
        }
      }
      if (!memory)
        call->setDoesNotAccessMemory();
    }
  }
}

/// Receives a chunk of text.
typedef void (*PtxccLLVMStringCallback)(MlirStringRef text, void *userData);

/// Translates `module` to LLVM IR and compiles it with LLVM's NVPTX backend
/// for `cpu` with `features` (what `llc -mcpu -mattr` take, applied the way
/// llc applies them), handing the PTX text to `callback`. Returns false after
/// reporting the problem as a diagnostic.
bool ptxccEmitPTX(MlirOperation module, MlirStringRef cpu,
                  MlirStringRef features, unsigned optLevel,
                  PtxccLLVMStringCallback callback, void *userData) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
  Operation *op = unwrap(module);
  // A gpu.module (its translation interface is not registered): its ops
  // are translated from a builtin.module that holds copies of them, as
  // gpu-module-to-binary translates each gpu.module on its own.
  OwningOpRef<ModuleOp> copy;
  if (!isa<ModuleOp>(op)) {
    copy = ModuleOp::create(op->getLoc());
    for (Operation &inner : op->getRegion(0).front())
      copy->getBody()->push_back(inner.clone());
  }
  llvm::LLVMContext llvmContext;
  ScopedLLVMDiagnostics diagnostics(llvmContext, op->getLoc());
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(copy ? copy.get() : op, llvmContext);
  if (!llvmModule)
    return false;
  ptxccRestoreInlineAsmAttributes(*llvmModule);
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
  // As gpu-module-to-binary does for an #nvvm.target's O level: LLVM's
  // default pipeline at that level before code generation (0: none, as
  // llc alone).
  if (optLevel > 0) {
    const llvm::OptimizationLevel &level =
        optLevel == 1   ? llvm::OptimizationLevel::O1
        : optLevel == 2 ? llvm::OptimizationLevel::O2
                        : llvm::OptimizationLevel::O3;
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder builder(machine.get());
    builder.registerModuleAnalyses(mam);
    builder.registerCGSCCAnalyses(cgam);
    builder.registerFunctionAnalyses(fam);
    builder.registerLoopAnalyses(lam);
    builder.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager optimizer = builder.buildPerModuleDefaultPipeline(level);
    optimizer.run(*llvmModule, mam);
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
