//===- ptxcc_shim.cpp - what the MLIR C API lacks, and nothing more -------===//
//
// The MLIR 22 C API cannot:
//   * register a pass pipeline by name, so that MLIR's own pipeline parser
//     (`builtin.module(lower-struct-args{opt-byval=false},cse)`) knows ours;
//   * register only the dialects and translations ptxcc uses (the C API
//     offers only "all of them", which triples the binary);
//   * parse a buffer under a file name *into a module* (implicit module);
//   * find the file/line/column inside a nested location;
//   * turn off the "see current operation" note on diagnostics;
//   * say which op a (nested) pass manager is anchored on;
//   * translate to LLVM IR text without crashing on failure;
//   * print an op into one buffer (melior's printer calls back per token);
//   * dump a pass pipeline the way mlir-opt's --dump-pass-pipeline does;
//   * run a loop on the context's thread pool (`mlir::parallelFor`, which
//     runs in order on the calling thread when the context is not
//     multi-threaded);
//   * read an `!llvm.array`'s length, a `#llvm.memory_effects`' levels or a
//     `#llvm.target_features`' list (without them, those facts were read
//     from printed IR);
//   * check diagnostics against `expected-*` directives the way mlir-opt's
//     `--verify-diagnostics` does (`SourceMgrDiagnosticVerifierHandler`);
//   * build or read an integer attribute wider than 64 bits (the C API goes
//     through `int64_t`: an `i128` -4 became 2^64 - 4, 2^65 read as 0);
//   * verify one op without reporting what is wrong to the user (an
//     optimization checks its own output and falls back on failure);
//   * run MLIR's mem2reg on chosen slots of one function (the pass runs on
//     every slot of every function under its anchor, and only as a pass).
// (LLVM IR input and PTX output, which need LLVM itself, are in
// ptxcc_llvm.cpp.)
// Each function below does one of those and calls back into Rust. No
// lowering logic lives here.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Async/IR/Async.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/IRDL/IR/IRDL.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Threading.h"
#include "mlir/IR/Verifier.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/MemorySlotInterfaces.h"
#include "mlir/Transforms/Mem2Reg.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMIRToLLVMTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/LLVMIRToNVVMTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <string>
#include <thread>

using namespace mlir;

extern "C" {
/// Receives a chunk of text.
typedef void (*PtxccStringCallback)(MlirStringRef text, void *userData);
}

namespace {
using UpstreamPass = std::unique_ptr<Pass> (*)();

/// The upstream MLIR passes `ptxcc-opt` offers by name, in the order
/// `--help` lists them: the one list (registration and help both read it).
const UpstreamPass upstreamPasses[] = {
    [] { return createCanonicalizerPass(); },
    [] { return createCSEPass(); },
    [] { return createInlinerPass(); },
    [] { return createLoopInvariantCodeMotionPass(); },
    [] { return createMem2Reg(); },
    [] { return createPrintIRPass(); },
    [] { return createSCCPPass(); },
    [] { return createSROA(); },
    [] { return createStripDebugInfoPass(); },
    [] { return createSymbolDCEPass(); },
    [] { return createTopologicalSortPass(); },
};
} // namespace

namespace {
/// A stream that hands its buffer to a callback each time it fills: the
/// printed module is held once, by the receiver.
class ChunkStream : public llvm::raw_ostream {
public:
  ChunkStream(PtxccStringCallback callback, void *userData)
      : callback(callback), userData(userData) {
    SetBufferSize(1 << 16);
  }
  ~ChunkStream() override { flush(); }

private:
  void write_impl(const char *data, size_t size) override {
    callback(MlirStringRef{data, size}, userData);
    position += size;
  }
  uint64_t current_pos() const override { return position; }

  PtxccStringCallback callback;
  void *userData;
  uint64_t position = 0;
};
} // namespace

extern "C" {

/// Builds a registered pipeline into `pm`. `anchor` is the op name `pm` is
/// anchored on; `options` is the text between the braces (empty when none).
/// On failure the builder may set `*error` (a malloc'ed C string, freed here).
typedef bool (*PtxccPipelineBuilder)(void *userData, MlirOpPassManager pm,
                                     MlirStringRef anchor,
                                     MlirStringRef options, char **error);

/// Registers a pipeline named `name` with MLIR's global pass registry.
void ptxccRegisterPassPipeline(MlirStringRef name, MlirStringRef description,
                               PtxccPipelineBuilder builder, void *userData) {
  std::string arg(name.data, name.length);
  std::string desc(description.data, description.length);
  registerPassPipeline(
      arg, desc,
      [builder, userData](OpPassManager &pm, StringRef options,
                          function_ref<LogicalResult(const Twine &)> onError)
          -> LogicalResult {
        std::string anchor = pm.getOpAnchorName().str();
        char *error = nullptr;
        bool ok = builder(userData, wrap(&pm),
                          MlirStringRef{anchor.data(), anchor.size()},
                          MlirStringRef{options.data(), options.size()},
                          &error);
        if (!ok) {
          LogicalResult reported =
              onError(error ? error : "invalid pass options");
          free(error);
          return reported;
        }
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)>) {});
}

/// The op name `pm` is anchored on (`builtin.module`, `gpu.module`,
/// `llvm.func`, `any`); valid while `pm` lives.
MlirStringRef ptxccOpPassManagerAnchor(MlirOpPassManager pm) {
  StringRef name = unwrap(pm)->getOpAnchorName();
  return MlirStringRef{name.data(), name.size()};
}

/// Registers the upstream passes ptxcc-opt offers by name.
void ptxccRegisterUpstreamPasses() {
  for (UpstreamPass create : upstreamPasses)
    registerPass(create);
}

/// Hands the name and summary of each upstream pass that
/// `ptxccRegisterUpstreamPasses` registers to `callback`, in order (what
/// `ptxcc-opt --help` lists).
void ptxccForEachUpstreamPass(void (*callback)(MlirStringRef name,
                                               MlirStringRef summary,
                                               void *userData),
                              void *userData) {
  for (UpstreamPass create : upstreamPasses) {
    std::unique_ptr<Pass> pass = create();
    callback(wrap(pass->getArgument()), wrap(pass->getDescription()),
             userData);
  }
}

/// Inserts the dialects ptxcc uses, and their LLVM IR translations.
void ptxccRegisterDialects(MlirDialectRegistry registry) {
  DialectRegistry &r = *unwrap(registry);
  // DLTI carries the data layout that `mlir-translate --import-llvm` puts
  // on modules it imports from clang. `gpu` holds the kernels of MLIR GPU
  // programs (`gpu.module`, `gpu.launch_func`, `gpu.binary`); `arith`,
  // `cf`, `scf`, `memref` and `async` are the host code those programs
  // carry beside them (upstream's GPU lowering leaves `async.execute` in host
  // code), passed through as is.
  r.insert<DLTIDialect, func::FuncDialect, LLVM::LLVMDialect,
           NVVM::NVVMDialect, irdl::IRDLDialect, gpu::GPUDialect,
           arith::ArithDialect, cf::ControlFlowDialect, scf::SCFDialect,
           memref::MemRefDialect, async::AsyncDialect>();
  registerBuiltinDialectTranslation(r);
  registerLLVMDialectTranslation(r);
  registerNVVMDialectTranslation(r);
  // The way back, for LLVM IR input (ptxcc_llvm.cpp).
  registerLLVMDialectImport(r);
  registerNVVMDialectImport(r);
}

/// Parses `source` as a module (ops at the top level are wrapped in an
/// implicit `builtin.module`), with locations that name `filename`. Returns a
/// null operation on failure; the errors went to the context's handlers.
MlirOperation ptxccParseModule(MlirContext context, MlirStringRef source,
                               MlirStringRef filename) {
  ParserConfig config(unwrap(context));
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      unwrap(source), config, unwrap(filename));
  if (!module)
    return MlirOperation{nullptr};
  return wrap(module.release().getOperation());
}

/// Finds the first file/line/column location inside `location` (through
/// name, call-site and fused locations).
/// Emits a remark at `location` (the C API only has mlirEmitError).
void ptxccEmitRemark(MlirLocation location, const char *message) {
  mlir::emitRemark(unwrap(location)) << message;
}

void ptxccEmitWarning(MlirLocation location, const char *message) {
  mlir::emitWarning(unwrap(location)) << message;
}

/// `location` with every debug-info subprogram taken out: each fused
/// location whose metadata is a `#llvm.di_subprogram` (at any depth: inside
/// a name, a call site or another fused location) loses its metadata, so
/// that MLIR's translation, which takes a function's subprogram from the
/// first such location it finds, gives the function none.
static Location withoutSubprogram(Location location) {
  if (auto fused = llvm::dyn_cast<FusedLoc>(location)) {
    SmallVector<Location> parts;
    for (Location part : fused.getLocations())
      parts.push_back(withoutSubprogram(part));
    Attribute metadata = fused.getMetadata();
    if (llvm::isa_and_nonnull<LLVM::DISubprogramAttr>(metadata))
      metadata = {};
    return FusedLoc::get(parts, metadata, location.getContext());
  }
  if (auto name = llvm::dyn_cast<NameLoc>(location))
    return NameLoc::get(name.getName(), withoutSubprogram(name.getChildLoc()));
  if (auto site = llvm::dyn_cast<CallSiteLoc>(location))
    return CallSiteLoc::get(withoutSubprogram(site.getCallee()),
                            withoutSubprogram(site.getCaller()));
  return location;
}

MlirLocation ptxccLocationWithoutSubprogram(MlirLocation location) {
  return wrap(withoutSubprogram(unwrap(location)));
}

bool ptxccLocationFileLineCol(MlirLocation location, MlirStringRef *filename,
                              unsigned *line, unsigned *column) {
  auto found = unwrap(location)->findInstanceOf<FileLineColLoc>();
  if (!found)
    return false;
  StringRef name = found.getFilename().getValue();
  *filename = MlirStringRef{name.data(), name.size()};
  *line = found.getLine();
  *column = found.getColumn();
  return true;
}

/// Whether diagnostics carry a "see current operation" note (mlir-opt turns
/// it off under --verify-diagnostics).
void ptxccContextSetPrintOpOnDiagnostic(MlirContext context, bool enable) {
  unwrap(context)->printOpOnDiagnostic(enable);
}

/// Gives inline assembly the call attributes MLIR does not keep (in
/// ptxcc_llvm.cpp).
void ptxccRestoreInlineAsmAttributes(llvm::Module &module);

/// Translates `module` to LLVM IR and hands its text to `callback`. Returns
/// false (after the errors went to the context's handlers) on failure.
bool ptxccTranslateToLLVMIR(MlirOperation module, PtxccStringCallback callback,
                            void *userData) {
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(unwrap(module), llvmContext);
  if (!llvmModule)
    return false;
  ptxccRestoreInlineAsmAttributes(*llvmModule);
  std::string text;
  llvm::raw_string_ostream os(text);
  llvmModule->print(os, nullptr);
  os.flush();
  callback(MlirStringRef{text.data(), text.size()}, userData);
  return true;
}

/// Prints `op` (verified already: `assumeVerified`) and hands the text to
/// `callback` in chunks of 64 KiB.
void ptxccPrintOperation(MlirOperation op, bool generic, bool debugInfo,
                         PtxccStringCallback callback, void *userData) {
  OpPrintingFlags flags;
  flags.assumeVerified();
  if (generic)
    flags.printGenericOpForm();
  if (debugInfo)
    flags.enableDebugInfo();
  ChunkStream os(callback, userData);
  unwrap(op)->print(os, flags);
}

/// Prints the pass manager's pipeline to standard error as
/// `mlir-opt --dump-pass-pipeline` does (`OpPassManager::dump`).
void ptxccPassManagerDump(MlirPassManager pm) {
  unwrap(pm)->dump();
  llvm::errs() << "\n"; // (mlir-opt leaves a blank line after it.)
}

/// Unlinks `op` from its block after dropping every reference it holds
/// (its operands' uses, its successors' uses, those of the ops inside it):
/// what `RewriterBase::eraseOp` does before freeing, without the free. The
/// op stays allocated, owned by the caller, until `mlirOperationDestroy`.
void ptxccOperationDetach(MlirOperation op) {
  mlir::Operation *operation = unwrap(op);
  operation->dropAllReferences();
  if (operation->getBlock())
    operation->remove();
}

/// Opens the file at `path` read-only as LLVM does for its tools
/// (`MemoryBuffer::getFile`: mapped into memory when it is large, read
/// otherwise) and returns it, with its bytes in `*data` and `*size`; on
/// failure returns null with the system error code in `*error`.
void *ptxccFileOpen(MlirStringRef path, const char **data, size_t *size,
                    int *error) {
  auto buffer = llvm::MemoryBuffer::getFile(unwrap(path), /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    *error = buffer.getError().value();
    return nullptr;
  }
  *data = (*buffer)->getBufferStart();
  *size = (*buffer)->getBufferSize();
  return buffer->release();
}

/// Tells the system that the bytes of a file `ptxccFileOpen` mapped are not
/// needed for a while: its pages leave the process's memory, and come back
/// from the file when read again (nothing for a file that was read into
/// memory). `MemoryBuffer::dontNeedIfMmap` would do it, but calls
/// `posix_madvise(POSIX_MADV_DONTNEED)`, which glibc ignores; Linux's
/// `madvise(MADV_DONTNEED)` drops the pages of a private read-only file
/// mapping, which are then read from the file again.
void ptxccFileDontNeed(void *file) {
  auto *buffer = static_cast<llvm::MemoryBuffer *>(file);
  if (buffer->getBufferKind() != llvm::MemoryBuffer::MemoryBuffer_MMap)
    return;
#if defined(__linux__)
  uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  uintptr_t start = reinterpret_cast<uintptr_t>(buffer->getBufferStart());
  uintptr_t end = reinterpret_cast<uintptr_t>(buffer->getBufferEnd());
  // Whole pages of the buffer only.
  uintptr_t first = (start + page - 1) / page * page;
  uintptr_t last = end / page * page;
  if (last > first)
    ::madvise(reinterpret_cast<void *>(first), last - first, MADV_DONTNEED);
#else
  buffer->dontNeedIfMmap();
#endif
}

/// Closes a file `ptxccFileOpen` returned.
void ptxccFileClose(void *file) { delete static_cast<llvm::MemoryBuffer *>(file); }

/// Calls `body(index, userData)` for every index in [0, count):
/// concurrently on the context's thread pool when the context is
/// multi-threaded, else in order on the calling thread. Returns when every
/// call has returned.
void ptxccParallelFor(MlirContext context, size_t count,
                      void (*body)(size_t index, void *userData),
                      void *userData) {
  mlir::parallelFor(unwrap(context), 0, count,
                    [&](size_t index) { body(index, userData); });
}

/// The number of elements of an `!llvm.array` type, in `count`; false when
/// `type` is not one.
bool ptxccLLVMArrayTypeGetNumElements(MlirType type, uint64_t *count) {
  auto array = llvm::dyn_cast<LLVM::LLVMArrayType>(unwrap(type));
  if (!array)
    return false;
  *count = array.getNumElements();
  return true;
}

/// The block argument that operand `index` of the terminator `op` becomes
/// in one of its successors, for every op with the branch interface
/// (`llvm.br`, `llvm.cond_br`, `llvm.switch`, `llvm.indirectbr`,
/// `llvm.invoke`, `cf.*`); null when the operand is not forwarded (a
/// condition, a switch's value) or `op` is no branch.
MlirValue ptxccSuccessorBlockArgument(MlirOperation op, intptr_t index) {
  Operation *operation = unwrap(op);
  auto branch = llvm::dyn_cast<BranchOpInterface>(operation);
  if (!branch || index < 0 ||
      static_cast<size_t>(index) >= operation->getNumOperands())
    return MlirValue{nullptr};
  std::optional<BlockArgument> argument =
      branch.getSuccessorBlockArgument(static_cast<unsigned>(index));
  if (!argument)
    return MlirValue{nullptr};
  return wrap(Value(*argument));
}

/// Whether `op` may write memory, as LLVM's `mayWriteToMemory` asks it: a
/// write effect in MLIR's memory-effect interface (a store, a call that
/// its `memory_effects` do not rule out, an atomic, a volatile or atomic
/// load), or no interface at all and no proof of having no effects.
bool ptxccOperationMayWrite(MlirOperation op) {
  Operation *operation = unwrap(op);
  if (auto effects = llvm::dyn_cast<MemoryEffectOpInterface>(operation))
    return effects.hasEffect<MemoryEffects::Write>() ||
           effects.hasEffect<MemoryEffects::Free>();
  return !isMemoryEffectFree(operation);
}

/// An integer attribute of the integer type `type` whose value is the
/// `count` 64-bit words `words` (least significant first), truncated or
/// zero-extended to the type's width. Null when `type` is not an integer.
MlirAttribute ptxccIntegerAttrGetWords(MlirType type, const uint64_t *words,
                                       size_t count) {
  auto integer = llvm::dyn_cast<IntegerType>(unwrap(type));
  if (!integer)
    return MlirAttribute{nullptr};
  unsigned width = integer.getWidth();
  llvm::APInt value(std::max<unsigned>(64 * count, 1),
                    llvm::ArrayRef<uint64_t>(words, count));
  return wrap(IntegerAttr::get(integer, value.zextOrTrunc(width)));
}

/// The width of an integer attribute's value, and its words (least
/// significant first) in `words` when they fit in `capacity`; 0 when
/// `attribute` is not an integer attribute (an `index` one is 64 bits).
unsigned ptxccIntegerAttrReadWords(MlirAttribute attribute, uint64_t *words,
                                   size_t capacity) {
  auto integer = llvm::dyn_cast<IntegerAttr>(unwrap(attribute));
  if (!integer)
    return 0;
  const llvm::APInt &value = integer.getValue();
  if (value.getNumWords() > capacity)
    return value.getBitWidth();
  for (unsigned i = 0; i < value.getNumWords(); ++i)
    words[i] = value.getRawData()[i];
  for (size_t i = value.getNumWords(); i < capacity; ++i)
    words[i] = 0;
  return value.getBitWidth();
}

/// Verifies `op` (its regions, dominance included) and gives back what is
/// wrong in `callback` instead of reporting it: the diagnostics the
/// verifier emits on this thread are caught by a handler that lets every
/// other thread's through (as MLIR's ParallelDiagnosticHandler tells
/// threads apart), so a pass on the thread pool can check the function it
/// changed without a stray error reaching the user.
bool ptxccVerifyQuietly(MlirOperation op, PtxccStringCallback callback,
                        void *userData) {
  Operation *operation = unwrap(op);
  MLIRContext *context = operation->getContext();
  auto thread = std::this_thread::get_id();
  std::string caught;
  auto id = context->getDiagEngine().registerHandler(
      [&](Diagnostic &diagnostic) -> LogicalResult {
        if (std::this_thread::get_id() != thread)
          return failure();
        if (caught.empty())
          caught = diagnostic.str();
        return success();
      });
  bool ok = succeeded(mlir::verify(operation));
  context->getDiagEngine().eraseHandler(id);
  if (!ok)
    callback(MlirStringRef{caught.data(), caught.size()}, userData);
  return ok;
}

/// The symbol name (`sym_name`) of `op`, read from an `llvm.func`'s
/// properties directly: MLIR's lookup by name asks the op for its context
/// first, through its location, which is a cache miss per call on a large
/// module. Empty when `op` has no symbol name.
MlirStringRef ptxccSymbolName(MlirOperation op) {
  Operation *operation = unwrap(op);
  if (auto func = llvm::dyn_cast<LLVM::LLVMFuncOp>(operation))
    return wrap(func.getSymName());
  if (auto name = operation->getAttrOfType<StringAttr>(
          SymbolTable::getSymbolAttrName()))
    return wrap(name.getValue());
  return MlirStringRef{nullptr, 0};
}

/// Whether `op`, an `llvm.func`, has the `ptx_kernelcc` calling convention
/// (1) or not (0), read from its properties as `ptxccSymbolName` reads; -1
/// when `op` is not an `llvm.func`.
int ptxccLLVMFuncIsPtxKernelCC(MlirOperation op) {
  auto func = llvm::dyn_cast<LLVM::LLVMFuncOp>(unwrap(op));
  if (!func)
    return -1;
  return func.getCConv() == LLVM::cconv::CConv::PTX_Kernel ? 1 : 0;
}

/// The linkage of `op` when it is an `llvm.func` (an `LLVM::linkage::Linkage`,
/// numbered as the C API's `MlirLLVMLinkage`), read from its properties as
/// `ptxccSymbolName` reads; -1 when `op` is not an `llvm.func`.
int ptxccLLVMFuncLinkage(MlirOperation op) {
  auto func = llvm::dyn_cast<LLVM::LLVMFuncOp>(unwrap(op));
  return func ? static_cast<int>(func.getLinkage()) : -1;
}

/// The `other` and `argMem` levels of a `#llvm.memory_effects` attribute
/// (`LLVM::ModRefInfo`: 0 none, 1 read, 2 write, 3 read-write); false when
/// `attribute` is not one.
bool ptxccLLVMMemoryEffectsAttrGetLevels(MlirAttribute attribute,
                                         uint32_t *other, uint32_t *argMem) {
  auto effects = llvm::dyn_cast<LLVM::MemoryEffectsAttr>(unwrap(attribute));
  if (!effects)
    return false;
  *other = static_cast<uint32_t>(effects.getOther());
  *argMem = static_cast<uint32_t>(effects.getArgMem());
  return true;
}

/// The number of features of a `#llvm.target_features` attribute; -1 when
/// `attribute` is not one.
intptr_t ptxccLLVMTargetFeaturesAttrGetNumFeatures(MlirAttribute attribute) {
  auto features = llvm::dyn_cast<LLVM::TargetFeaturesAttr>(unwrap(attribute));
  return features ? static_cast<intptr_t>(features.getFeatures().size()) : -1;
}

/// Feature `index` (`+ptx81`) of a `#llvm.target_features` attribute.
MlirStringRef ptxccLLVMTargetFeaturesAttrGetFeature(MlirAttribute attribute,
                                                    intptr_t index) {
  auto features = llvm::cast<LLVM::TargetFeaturesAttr>(unwrap(attribute));
  return wrap(features.getFeatures()[index].getValue());
}

/// Diagnostics checked against the `expected-*` directives of one source
/// by MLIR's own `SourceMgrDiagnosticVerifierHandler`, so that
/// `--verify-diagnostics` means exactly what it means to mlir-opt. The
/// diagnostics were collected elsewhere (one context per split piece);
/// they are emitted again here, in order, into a context of their own.
struct PtxccDiagnosticVerifier {
  MLIRContext context{MLIRContext::Threading::DISABLED};
  llvm::SourceMgr sources;
  std::string report;
  llvm::raw_string_ostream stream{report};
  std::unique_ptr<SourceMgrDiagnosticVerifierHandler> handler;
};

/// Starts checking diagnostics against `source`, a buffer named `filename`.
/// `onlyExpected`: unexpected diagnostics are not errors
/// (`--verify-diagnostics=only-expected`).
PtxccDiagnosticVerifier *ptxccDiagnosticVerifierCreate(MlirStringRef source,
                                                       MlirStringRef filename,
                                                       bool onlyExpected) {
  auto *verifier = new PtxccDiagnosticVerifier();
  verifier->sources.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(unwrap(source), unwrap(filename)),
      llvm::SMLoc());
  verifier->handler = std::make_unique<SourceMgrDiagnosticVerifierHandler>(
      verifier->sources, &verifier->context, verifier->stream,
      onlyExpected ? SourceMgrDiagnosticVerifierHandler::Level::OnlyExpected
                   : SourceMgrDiagnosticVerifierHandler::Level::All);
  return verifier;
}

/// Hands one diagnostic to the verifier: `severity` 0 error, 1 warning,
/// 2 note, 3 remark; at `file`:`line`:`column`, or at an unknown location
/// when `line` is 0.
void ptxccDiagnosticVerifierAdd(PtxccDiagnosticVerifier *verifier,
                                unsigned severity, MlirStringRef file,
                                unsigned line, unsigned column,
                                MlirStringRef message) {
  MLIRContext *context = &verifier->context;
  Location location =
      line == 0 ? Location(UnknownLoc::get(context))
                : Location(FileLineColLoc::get(context, unwrap(file), line,
                                               column));
  static const DiagnosticSeverity severities[] = {
      DiagnosticSeverity::Error, DiagnosticSeverity::Warning,
      DiagnosticSeverity::Note, DiagnosticSeverity::Remark};
  Diagnostic diagnostic(location, severities[severity > 3 ? 0 : severity]);
  diagnostic << unwrap(message);
  context->getDiagEngine().emit(std::move(diagnostic));
}

/// Finishes the check: hands the verifier's report (what mlir-opt prints:
/// unexpected diagnostics, then directives not produced, each with its
/// source line) to `callback`, frees the verifier, and says whether every
/// diagnostic matched.
bool ptxccDiagnosticVerifierFinish(PtxccDiagnosticVerifier *verifier,
                                   PtxccStringCallback callback,
                                   void *userData) {
  bool ok = succeeded(verifier->handler->verify());
  verifier->handler.reset();
  verifier->stream.flush();
  callback(wrap(llvm::StringRef(verifier->report)), userData);
  delete verifier;
  return ok;
}

/// Whether every use of `alloca` loads or stores the whole slot as the
/// type it allocates (non-volatile, non-atomic; the slot is the address,
/// never the stored value), or is a debug record or lifetime marker of it:
/// the slots whose promotion is the textbook one. (MLIR's mem2reg also
/// promotes through loads and stores of other types, and its sroa splits
/// aggregates; sroa rewrote a field of a packed struct at the wrong offset,
/// so neither is asked to.)
static bool isPlainScalarSlot(LLVM::AllocaOp alloca) {
  Type element = alloca.getElemType();
  if (isa<LLVM::LLVMStructType, LLVM::LLVMArrayType>(element))
    return false;
  for (OpOperand &use : alloca.getResult().getUses()) {
    Operation *user = use.getOwner();
    if (auto load = dyn_cast<LLVM::LoadOp>(user)) {
      if (load.getVolatile_() ||
          load.getOrdering() != LLVM::AtomicOrdering::not_atomic ||
          load.getResult().getType() != element)
        return false;
      continue;
    }
    if (auto store = dyn_cast<LLVM::StoreOp>(user)) {
      if (use.getOperandNumber() != 1 || store.getVolatile_() ||
          store.getOrdering() != LLVM::AtomicOrdering::not_atomic ||
          store.getValue().getType() != element)
        return false;
      continue;
    }
    if (isa<LLVM::DbgDeclareOp, LLVM::DbgValueOp, LLVM::LifetimeStartOp,
            LLVM::LifetimeEndOp>(user))
      continue;
    return false;
  }
  return true;
}

/// Promotes the scalar stack slots of `op` (a function) to SSA values, as
/// MLIR's `mem2reg` pass does on each of the op's regions, but only the
/// slots `isPlainScalarSlot` accepts, on one op, so that a pass running on
/// the context's thread pool can do it per function. True when a slot was
/// promoted.
bool ptxccPromoteMemorySlots(MlirOperation op) {
  Operation *operation = unwrap(op);
  const DataLayout dataLayout = DataLayout::closest(operation);
  bool changed = false;
  for (Region &region : operation->getRegions()) {
    if (region.getBlocks().empty())
      continue;
    SmallVector<PromotableAllocationOpInterface> promotable;
    region.walk([&](LLVM::AllocaOp alloca) {
      if (isPlainScalarSlot(alloca))
        promotable.emplace_back(
            cast<PromotableAllocationOpInterface>(alloca.getOperation()));
    });
    if (promotable.empty())
      continue;
    OpBuilder builder(&region.front(), region.front().begin());
    DominanceInfo dominance(operation);
    if (succeeded(tryToPromoteMemorySlots(promotable, builder, dataLayout,
                                          dominance)))
      changed = true;
  }
  return changed;
}

} // extern "C"
