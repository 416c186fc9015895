//===- hostify.cpp - NVPTX LLVM IR made runnable on the host --------------===//
//
// Part of ptxcc's differential-execution harness (see README.md beside it).
//
//   hostify IN.ll OUT.ll
//
// Reads NVPTX LLVM IR and writes x86-64 LLVM IR that runs the same kernels
// on the host under runtime.c:
//   * the triple and data layout become x86-64's; the layout of every type
//     the module uses must be the same under both (NVPTX's is LLVM 22's
//     real one, whatever the module says), or the module is unsupported;
//   * `ptx_kernel`/`ptx_device` become the C calling convention, and the
//     target attributes go;
//   * a kernel's `byval` parameters are passed as plain pointers to memory
//     the runtime owns (param space): one read-only copy for a
//     `nvvm.grid_constant` parameter, a writable copy per thread otherwise;
//   * `llvm.nvvm.*` intrinsics become calls of `__nvvm_*` functions that
//     runtime.c defines (a missing one fails the link: unsupported);
//   * every `addrspacecast` from generic into a specific space first calls
//     `__harness_check_space`, which checks that the address really lies in
//     that space;
//   * functions the module declares but does not define log what they are
//     given (see defineExternals);
//   * every load, store, atomic and memory intrinsic goes through
//     `__harness_address` (see fixAddresses), and every alloca starts as
//     the fill byte (see fillAllocas);
//   * tables for the runtime: each kernel's parameters (as text) and a
//     launcher that unpacks an array of argument pointers, and every global
//     variable with its size and space.
// Writes the kernels' names to standard output, one per line. Exit status 2
// and a line "unsupported: ..." on standard error for a module it cannot
// run; 1 for other errors.
//
//===----------------------------------------------------------------------===//

#include "llvm/IR/Attributes.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <set>
#include <string>
#include <vector>

using namespace llvm;

namespace {

/// The layout llc 22 uses for nvptx64-nvidia-cuda, whatever the module says.
const char *NVPTXLayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64";
const char *HostLayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128";

[[noreturn]] void unsupported(const Twine &why) {
  errs() << "unsupported: " << why << "\n";
  exit(2);
}

/// Whether `Ty` is laid out the same under both layouts (sizes, alignments,
/// field offsets, recursively).
bool sameLayout(Type *Ty, const DataLayout &A, const DataLayout &B, std::set<Type *> &Seen) {
  if (!Ty->isSized() || !Seen.insert(Ty).second)
    return true;
  if (A.getTypeAllocSize(Ty) != B.getTypeAllocSize(Ty) || A.getTypeStoreSize(Ty) != B.getTypeStoreSize(Ty) ||
      A.getABITypeAlign(Ty) != B.getABITypeAlign(Ty))
    return false;
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    const StructLayout *LA = A.getStructLayout(ST), *LB = B.getStructLayout(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      if (LA->getElementOffset(I) != LB->getElementOffset(I) || !sameLayout(ST->getElementType(I), A, B, Seen))
        return false;
  }
  if (auto *AT = dyn_cast<ArrayType>(Ty))
    return sameLayout(AT->getElementType(), A, B, Seen);
  if (auto *VT = dyn_cast<VectorType>(Ty))
    return sameLayout(VT->getElementType(), A, B, Seen);
  return true;
}

/// Every type whose layout the module's code depends on.
std::vector<Type *> layoutTypes(Module &M) {
  std::vector<Type *> Types;
  for (GlobalVariable &G : M.globals())
    Types.push_back(G.getValueType());
  for (Function &F : M) {
    for (unsigned I = 0; I < F.arg_size(); ++I) {
      Types.push_back(F.getArg(I)->getType());
      if (Type *T = F.getParamByValType(I))
        Types.push_back(T);
    }
    for (Instruction &I : instructions(F)) {
      Types.push_back(I.getType());
      if (auto *A = dyn_cast<AllocaInst>(&I))
        Types.push_back(A->getAllocatedType());
      if (auto *G = dyn_cast<GetElementPtrInst>(&I))
        Types.push_back(G->getSourceElementType());
      for (Value *Op : I.operands())
        Types.push_back(Op->getType());
      if (auto *C = dyn_cast<CallBase>(&I))
        for (unsigned A = 0; A < C->arg_size(); ++A)
          if (Type *T = C->getParamByValType(A))
            Types.push_back(T);
    }
  }
  return Types;
}

/// The scalar fields of `Ty` at their offsets, as `KIND SIZE@OFFSET` items
/// (i: integer, f: float, p: pointer; at most 256): the runtime gives
/// integers small values (safe as indices), floats small exact values and
/// pointers buffers of their own. Padding gets random bytes.
void fields(Type *Ty, uint64_t Base, const DataLayout &DL, std::vector<std::string> &Out) {
  if (Out.size() >= 256)
    return;
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    const StructLayout *L = DL.getStructLayout(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      fields(ST->getElementType(I), Base + L->getElementOffset(I), DL, Out);
  } else if (auto *AT = dyn_cast<ArrayType>(Ty)) {
    uint64_t Size = DL.getTypeAllocSize(AT->getElementType());
    for (uint64_t I = 0; I < AT->getNumElements(); ++I)
      fields(AT->getElementType(), Base + I * Size, DL, Out);
  } else if (auto *VT = dyn_cast<FixedVectorType>(Ty)) {
    Type *Element = VT->getElementType();
    uint64_t Bits = DL.getTypeSizeInBits(Element).getFixedValue();
    if (Bits % 8 != 0) // vectors of i1 and the like: random bytes
      return;
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      fields(Element, Base + I * Bits / 8, DL, Out);
  } else if (Ty->isPointerTy() || Ty->isIntegerTy() || Ty->isFloatingPointTy()) {
    char Kind = Ty->isPointerTy() ? 'p' : Ty->isIntegerTy() ? 'i' : 'f';
    uint64_t Bits = DL.getTypeSizeInBits(Ty).getFixedValue();
    if (Kind == 'i' && Bits % 8 != 0) // i1 and odd widths: one byte, 0 or 1
      Kind = 'b';
    Out.push_back(std::string(1, Kind) + std::to_string(DL.getTypeStoreSize(Ty).getFixedValue()) + "@" +
                  std::to_string(Base));
  }
}

/// The runtime's description of one kernel parameter, as text:
///   byval SIZE ALIGN GRID_CONSTANT FIELDS
///   ptr SPACE | int BITS | float BITS | bytes SIZE ALIGN FIELDS
/// (FIELDS: comma-separated `fields` items, or -).
std::string describe(Function &F, unsigned I, Type *Byval, bool GridConstant, const DataLayout &DL) {
  std::string Text;
  raw_string_ostream OS(Text);
  auto Fields = [&](Type *T) {
    std::vector<std::string> Found;
    fields(T, 0, DL, Found);
    if (Found.empty())
      OS << "-";
    for (size_t J = 0; J < Found.size(); ++J)
      OS << (J ? "," : "") << Found[J];
  };
  Type *Ty = F.getArg(I)->getType();
  if (Byval) {
    Align A = F.getParamAlign(I).value_or(DL.getABITypeAlign(Byval));
    OS << "byval " << DL.getTypeAllocSize(Byval) << " " << A.value() << " " << (GridConstant ? 1 : 0) << " ";
    Fields(Byval);
  } else if (Ty->isPointerTy()) {
    OS << "ptr " << Ty->getPointerAddressSpace();
  } else if (Ty->isIntegerTy()) {
    OS << "int " << Ty->getIntegerBitWidth();
  } else if (Ty->isFloatingPointTy()) {
    OS << "float " << DL.getTypeSizeInBits(Ty).getFixedValue();
  } else {
    OS << "bytes " << DL.getTypeAllocSize(Ty) << " " << DL.getABITypeAlign(Ty).value() << " ";
    Fields(Ty);
  }
  return Text;
}

/// Functions the module calls but does not define get a body that logs
/// what they were given (scalars, and the first bytes behind pointers) and
/// returns a small value derived from it: what a kernel passes to code
/// outside the module is compared too.
void defineExternals(Module &M) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0), *I32 = Type::getInt32Ty(C), *I64 = Type::getInt64Ty(C);
  Type *Void = Type::getVoidTy(C);
  FunctionCallee LogValue = M.getOrInsertFunction("__harness_log_value", FunctionType::get(Void, {I64}, false));
  FunctionCallee LogPointee =
      M.getOrInsertFunction("__harness_log_pointee", FunctionType::get(Void, {Ptr, I64}, false));
  FunctionCallee Result = M.getOrInsertFunction("__harness_call_result", FunctionType::get(I64, {I32}, false));
  static const std::set<std::string> Libm = {
      "sqrtf", "sqrt", "sinf", "sin", "cosf", "cos", "expf", "exp", "logf", "log", "powf", "pow", "fabsf",
      "fabs", "floorf", "floor", "ceilf", "ceil", "fmaf", "fma", "fminf", "fmin", "fmaxf", "fmax", "tanhf",
      "tanh", "exp2f", "exp2", "log2f", "log2", "truncf", "trunc", "roundf", "round", "fmodf", "fmod"};
  unsigned Id = 0;
  for (Function &F : M) {
    if (!F.isDeclaration() || F.isIntrinsic() || F.getName().starts_with("__nvvm_") ||
        F.getName().starts_with("__harness_") || Libm.count(F.getName().str()) || F.isVarArg())
      continue;
    F.setLinkage(GlobalValue::InternalLinkage);
    IRBuilder<> B(BasicBlock::Create(C, "entry", &F));
    B.CreateCall(LogValue, {ConstantInt::get(I64, 0x1000 + Id)});
    for (Argument &A : F.args()) {
      Type *Ty = A.getType();
      if (Ty->isIntegerTy())
        B.CreateCall(LogValue, {B.CreateZExtOrTrunc(&A, I64)});
      else if (Ty->isFloatingPointTy() && Ty->getPrimitiveSizeInBits() <= 64)
        B.CreateCall(LogValue,
                     {B.CreateZExt(B.CreateBitCast(&A, B.getIntNTy(Ty->getPrimitiveSizeInBits())), I64)});
      else if (Ty->isPointerTy()) {
        uint64_t Bytes = A.getDereferenceableBytes();
        if (Type *ByvalTy = A.getParamByValType())
          Bytes = M.getDataLayout().getTypeAllocSize(ByvalTy);
        Value *Generic = Ty->getPointerAddressSpace() ? B.CreateAddrSpaceCast(&A, Ptr) : (Value *)&A;
        B.CreateCall(LogPointee, {Generic, ConstantInt::get(I64, Bytes ? Bytes : 8)});
      }
    }
    Type *Ret = F.getReturnType();
    Value *Hash = B.CreateCall(Result, {ConstantInt::get(I32, Id++)});
    if (Ret->isVoidTy())
      B.CreateRetVoid();
    else if (Ret->isIntegerTy())
      B.CreateRet(B.CreateZExtOrTrunc(Hash, Ret));
    else if (Ret->isFloatingPointTy())
      B.CreateRet(B.CreateUIToFP(Hash, Ret));
    else
      B.CreateRet(Constant::getNullValue(Ret));
  }
}

/// Every alloca starts holding the fill byte (`__harness_fill`): what an
/// uninitialised slot holds must change with the fill, not be whatever an
/// earlier call left on the host stack (the same in both fills, and
/// different in the reference and the output, whose frames differ).
void fillAllocas(Module &M) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0), *I64 = Type::getInt64Ty(C);
  FunctionCallee Fill =
      M.getOrInsertFunction("__harness_fill", FunctionType::get(Type::getVoidTy(C), {Ptr, I64}, false));
  const DataLayout &DL = M.getDataLayout();
  for (Function &F : M)
    for (Instruction &I : make_early_inc_range(instructions(F)))
      if (auto *A = dyn_cast<AllocaInst>(&I)) {
        IRBuilder<> B(A->getNextNode());
        Value *Count = B.CreateZExtOrTrunc(A->getArraySize(), I64);
        Value *Bytes = B.CreateMul(Count, ConstantInt::get(I64, DL.getTypeAllocSize(A->getAllocatedType())));
        Value *Address = A->getAddressSpace() ? B.CreateAddrSpaceCast(A, Ptr) : (Value *)A;
        B.CreateCall(Fill, {Address, Bytes});
      }
}

/// Every memory access goes through `__harness_address`, which maps an
/// address outside every region the runtime knows (a pointer read from a
/// buffer of small numbers) into a pool of its own, the same way in every
/// run.
void fixAddresses(Module &M) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0);
  FunctionCallee Fix = M.getOrInsertFunction("__harness_address", FunctionType::get(Ptr, {Ptr}, false));
  auto Wrap = [&](Instruction *I, unsigned Operand) {
    Value *Address = I->getOperand(Operand);
    if (!Address->getType()->isPointerTy())
      return;
    IRBuilder<> B(I);
    unsigned Space = Address->getType()->getPointerAddressSpace();
    Value *Generic = Space ? B.CreateAddrSpaceCast(Address, Ptr) : Address;
    Value *Fixed = B.CreateCall(Fix, {Generic});
    I->setOperand(Operand, Space ? B.CreateAddrSpaceCast(Fixed, Address->getType()) : Fixed);
  };
  for (Function &F : M) {
    if (F.getName().starts_with("__harness_"))
      continue;
    for (Instruction &I : make_early_inc_range(instructions(F))) {
      if (isa<LoadInst>(I))
        Wrap(&I, 0);
      else if (isa<StoreInst>(I))
        Wrap(&I, 1);
      else if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
        Wrap(&I, 0);
      else if (auto *Mem = dyn_cast<MemIntrinsic>(&I)) {
        Wrap(Mem, 0);
        if (isa<MemTransferInst>(Mem))
          Wrap(Mem, 1);
      }
    }
  }
}

Constant *cString(Module &M, StringRef Text) {
  return IRBuilder<>(M.getContext()).CreateGlobalString(Text, "", 0, &M);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    errs() << "usage: hostify IN.ll OUT.ll\n";
    return 1;
  }
  LLVMContext Context;
  SMDiagnostic Error;
  std::unique_ptr<Module> M = parseIRFile(argv[1], Error, Context);
  if (!M) {
    Error.print("hostify", errs());
    return 1;
  }
  DataLayout Device(NVPTXLayout), Host(HostLayout);
  {
    std::set<Type *> Seen;
    for (Type *Ty : layoutTypes(*M))
      if (!sameLayout(Ty, Device, Host, Seen)) {
        std::string Name;
        raw_string_ostream(Name) << *Ty;
        unsupported("the type " + Name + " is laid out differently on the host");
      }
  }
  // The module's own global variables (before the harness adds its tables).
  std::vector<GlobalVariable *> UserGlobals;
  for (GlobalVariable &G : M->globals())
    if (!G.isDeclaration() && !G.getName().starts_with("llvm.") && G.getValueType()->isSized())
      UserGlobals.push_back(&G);
  M->setTargetTriple(Triple("x86_64-pc-linux-gnu"));
  M->setDataLayout(HostLayout);
  LLVMContext &C = M->getContext();
  Type *Ptr = PointerType::get(C, 0);
  Type *I32 = Type::getInt32Ty(C), *I64 = Type::getInt64Ty(C);

  // Kernels, in module order, with their parameter descriptions.
  std::vector<Function *> Kernels;
  std::vector<std::vector<std::string>> Descriptions;
  std::vector<std::vector<bool>> PassedByPointer;
  for (Function &F : *M) {
    F.removeFnAttr("target-cpu");
    F.removeFnAttr("target-features");
    F.removeFnAttr("uniform-work-group-size");
    if (F.getCallingConv() == CallingConv::PTX_Device)
      F.setCallingConv(CallingConv::C);
    if (F.getCallingConv() != CallingConv::PTX_Kernel)
      continue;
    F.setCallingConv(CallingConv::C);
    if (F.isDeclaration())
      continue;
    for (User *U : F.users())
      if (isa<CallBase>(U))
        unsupported("kernel @" + F.getName() + " is called from device code");
    std::vector<std::string> Params;
    std::vector<bool> ByPointer;
    for (unsigned I = 0; I < F.arg_size(); ++I) {
      Type *Byval = F.getParamByValType(I);
      bool GridConstant = F.getAttributes().hasParamAttr(I, "nvvm.grid_constant");
      Params.push_back(describe(F, I, Byval, GridConstant, Device));
      ByPointer.push_back(Byval != nullptr);
      if (Byval)
        F.removeParamAttr(I, Attribute::ByVal);
    }
    Kernels.push_back(&F);
    Descriptions.push_back(Params);
    PassedByPointer.push_back(ByPointer);
  }

  // llvm.nvvm.* intrinsics -> plain functions of the runtime.
  std::vector<Function *> Intrinsics;
  for (Function &F : *M)
    if (F.getName().starts_with("llvm.nvvm."))
      Intrinsics.push_back(&F);
  for (Function *F : Intrinsics) {
    std::string Name = "__nvvm_" + F->getName().drop_front(strlen("llvm.nvvm.")).str();
    for (char &Ch : Name)
      if (Ch == '.')
        Ch = '_';
    Function *Plain = Function::Create(F->getFunctionType(), GlobalValue::ExternalLinkage, Name, M.get());
    for (User *U : make_early_inc_range(F->users()))
      if (auto *Call = dyn_cast<CallBase>(U)) {
        Call->setAttributes(AttributeList());
        Call->setCalledFunction(Plain);
      }
    if (!F->use_empty())
      unsupported("the intrinsic @" + F->getName() + " is used other than by calls");
    F->eraseFromParent();
  }

  defineExternals(*M);

  // Address-space checks on every cast from generic into a specific space.
  FunctionCallee Check =
      M->getOrInsertFunction("__harness_check_space", FunctionType::get(Ptr, {Ptr, I32}, false));
  for (Function &F : *M)
    for (Instruction &I : make_early_inc_range(instructions(F)))
      if (auto *Cast = dyn_cast<AddrSpaceCastInst>(&I))
        if (Cast->getSrcTy()->isPointerTy() && Cast->getSrcAddressSpace() == 0 &&
            Cast->getDestAddressSpace() != 0) {
          IRBuilder<> B(Cast);
          Value *Checked =
              B.CreateCall(Check, {Cast->getOperand(0), ConstantInt::get(I32, Cast->getDestAddressSpace())});
          Cast->setOperand(0, Checked);
        }

  fixAddresses(*M);
  fillAllocas(*M);

  // The launchers: void __harness_launch_N(ptr args), args[i] pointing at
  // parameter i's value (or, for a byval parameter, at its param copy).
  std::vector<Constant *> Launchers, Texts;
  for (size_t K = 0; K < Kernels.size(); ++K) {
    Function *F = Kernels[K];
    Function *Launch = Function::Create(FunctionType::get(Type::getVoidTy(C), {Ptr}, false),
                                        GlobalValue::ExternalLinkage, "__harness_launch_" + Twine(K), M.get());
    IRBuilder<> B(BasicBlock::Create(C, "entry", Launch));
    std::vector<Value *> Args;
    for (unsigned I = 0; I < F->arg_size(); ++I) {
      Value *Slot = B.CreateLoad(Ptr, B.CreateConstGEP1_64(Ptr, Launch->getArg(0), I));
      Args.push_back(PassedByPointer[K][I] ? Slot : B.CreateLoad(F->getArg(I)->getType(), Slot));
    }
    B.CreateCall(F, Args);
    B.CreateRetVoid();
    Launchers.push_back(Launch);
    std::string Text = F->getName().str();
    for (const std::string &P : Descriptions[K])
      Text += "\t" + P;
    Texts.push_back(cString(*M, Text));
    outs() << F->getName() << "\n";
  }
  auto Table = [&](StringRef Name, std::vector<Constant *> Items) {
    ArrayType *Ty = ArrayType::get(Ptr, Items.size());
    new GlobalVariable(*M, Ty, true, GlobalValue::ExternalLinkage, ConstantArray::get(Ty, Items), Name);
  };
  Table("__harness_kernel_launch", Launchers);
  Table("__harness_kernel_desc", Texts);
  new GlobalVariable(*M, I32, true, GlobalValue::ExternalLinkage, ConstantInt::get(I32, Kernels.size()),
                     "__harness_kernel_count");

  // Global variables: address, size, space, flags (1: constant, 2: no
  // initial value), name.
  StructType *Entry = StructType::get(C, {Ptr, I64, I32, I32, Ptr});
  std::vector<Constant *> Globals;
  for (GlobalVariable *GV : UserGlobals) {
    GlobalVariable &G = *GV;
    unsigned Flags = (G.isConstant() ? 1 : 0) |
                     (!G.hasInitializer() || isa<UndefValue>(G.getInitializer()) ? 2 : 0);
    // (A generic global needs no cast: a cast from ptr to ptr is invalid.)
    Constant *Address = G.getAddressSpace() ? ConstantExpr::getAddrSpaceCast(&G, Ptr) : (Constant *)&G;
    Globals.push_back(ConstantStruct::get(
        Entry, {Address, ConstantInt::get(I64, Device.getTypeAllocSize(G.getValueType())),
                ConstantInt::get(I32, G.getAddressSpace()), ConstantInt::get(I32, Flags), cString(*M, G.getName())}));
  }
  ArrayType *GlobalsTy = ArrayType::get(Entry, Globals.size());
  new GlobalVariable(*M, GlobalsTy, true, GlobalValue::ExternalLinkage, ConstantArray::get(GlobalsTy, Globals),
                     "__harness_globals");
  new GlobalVariable(*M, I32, true, GlobalValue::ExternalLinkage, ConstantInt::get(I32, Globals.size()),
                     "__harness_global_count");

  if (verifyModule(*M, &errs())) {
    errs() << "hostify: the host module does not verify\n";
    return 1;
  }
  std::error_code EC;
  raw_fd_ostream Out(argv[2], EC);
  if (EC) {
    errs() << "hostify: cannot write " << argv[2] << ": " << EC.message() << "\n";
    return 1;
  }
  M->print(Out, nullptr);
  return 0;
}
