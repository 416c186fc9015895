//! Bindings to the C++ shim (`cpp/ptxcc_shim.cpp`, and `cpp/ptxcc_llvm.cpp`
//! for LLVM IR input and PTX output): the few things the MLIR 22 C API
//! cannot do.
//!
//! The bottom crate of ptxcc: the dialect, the passes and the driver all
//! call it, so none of them has to read a fact by printing IR. It is also,
//! with the conversions crate's `ir` module, one of the two places that
//! name `mlir_sys`: the crates below `ir` (the dialect) and the driver's
//! few C API calls go through the safe functions here ([`write_text`],
//! [`parallel_for`], [`emit_remark`], [`emit_error`], ...).
//!
//! Those functions take raw C API handles, as the C API does; a handle must
//! be live (from a melior object the caller holds). Like the C API, they
//! cannot check it.

use mlir_sys::{MlirAttribute, MlirContext, MlirDialectRegistry, MlirLocation, MlirPassManager, MlirType, MlirValue};
/// Handle types of the C API that the shim's functions and callbacks take,
/// for the crates above it (which call the C API only through safe
/// functions: here, and in the conversions crate's `ir` module).
pub use mlir_sys::{MlirOpPassManager, MlirOperation, MlirStringRef};
use std::ffi::{c_char, c_int, c_void};

/// Builds a registered pipeline into an op pass manager (see the C++ side).
pub type PipelineBuilder = unsafe extern "C" fn(
    user_data: *mut c_void,
    pm: MlirOpPassManager,
    anchor: MlirStringRef,
    options: MlirStringRef,
    error: *mut *mut c_char,
) -> bool;

/// Receives a chunk of text.
pub type StringCallback = unsafe extern "C" fn(text: MlirStringRef, user_data: *mut c_void);

// Each function is documented at its definition in `cpp/`; every pointer
// argument must be live for the call.
unsafe extern "C" {
    /// Registers a pass pipeline `name` that MLIR's pipeline parser builds
    /// by calling `builder` (with `user_data`).
    pub fn ptxccRegisterPassPipeline(
        name: MlirStringRef,
        description: MlirStringRef,
        builder: PipelineBuilder,
        user_data: *mut c_void,
    );
    /// Registers the upstream passes ptxcc's driver offers.
    pub fn ptxccRegisterUpstreamPasses();
    /// Hands the name and summary of each upstream pass
    /// `ptxccRegisterUpstreamPasses` registers to `callback`, in order.
    pub fn ptxccForEachUpstreamPass(
        callback: unsafe extern "C" fn(name: MlirStringRef, summary: MlirStringRef, user_data: *mut c_void),
        user_data: *mut c_void,
    );
    /// The op name a (nested) pass manager is anchored on.
    pub fn ptxccOpPassManagerAnchor(pm: MlirOpPassManager) -> MlirStringRef;
    /// Emits a remark at `location` (the C API only has `mlirEmitError`).
    pub fn ptxccEmitRemark(location: MlirLocation, message: *const c_char);
    /// A location with every `#llvm.di_subprogram` taken out (see
    /// [`location_without_subprogram`]).
    fn ptxccLocationWithoutSubprogram(location: MlirLocation) -> MlirLocation;
    /// Emits a warning diagnostic at `location`.
    pub fn ptxccEmitWarning(location: MlirLocation, message: *const c_char);
    /// Registers the dialects and translations ptxcc uses (only those).
    pub fn ptxccRegisterDialects(registry: MlirDialectRegistry);
    /// Parses `source` into a module named after `filename`; null on error.
    pub fn ptxccParseModule(context: MlirContext, source: MlirStringRef, filename: MlirStringRef) -> MlirOperation;
    /// The first file/line/column inside `location`; false when none.
    pub fn ptxccLocationFileLineCol(
        location: MlirLocation,
        filename: *mut MlirStringRef,
        line: *mut u32,
        column: *mut u32,
    ) -> bool;
    /// Turns the "see current operation" note on diagnostics on or off.
    pub fn ptxccContextSetPrintOpOnDiagnostic(context: MlirContext, enable: bool);
    /// Translates a module to LLVM IR text, handed to `callback`.
    pub fn ptxccTranslateToLLVMIR(module: MlirOperation, callback: StringCallback, user_data: *mut c_void) -> bool;
    /// Imports LLVM IR (text or bitcode) into the LLVM dialect; null on error.
    pub fn ptxccImportLLVMIR(context: MlirContext, source: MlirStringRef, filename: MlirStringRef) -> MlirOperation;
    /// Makes LLVM's fatal errors print `prefix` and exit with status 1.
    pub fn ptxccExitOnFatalError(prefix: MlirStringRef);
    /// Prints a verified op through `callback`, in chunks.
    pub fn ptxccPrintOperation(
        op: MlirOperation,
        generic: bool,
        debug_info: bool,
        callback: StringCallback,
        user_data: *mut c_void,
    );
    /// Prints a pass manager's pipeline to standard error, as
    /// `mlir-opt --dump-pass-pipeline` does.
    pub fn ptxccPassManagerDump(pm: MlirPassManager);
    /// Runs LLVM's NVPTX backend on a module; the PTX goes to `callback`.
    pub fn ptxccEmitPTX(
        module: MlirOperation,
        cpu: MlirStringRef,
        features: MlirStringRef,
        opt_level: u32,
        callback: StringCallback,
        user_data: *mut c_void,
    ) -> bool;
    /// Drops every reference `op` holds and unlinks it from its block,
    /// without freeing it (`RewriterBase::eraseOp` less the free).
    pub fn ptxccOperationDetach(op: MlirOperation);
    /// Opens a file read-only as LLVM's tools do (see [`InputFile`]).
    pub fn ptxccFileOpen(
        path: MlirStringRef,
        data: *mut *const c_char,
        size: *mut usize,
        error: *mut c_int,
    ) -> *mut c_void;
    /// `madvise(MADV_DONTNEED)` on a mapped file's whole pages.
    pub fn ptxccFileDontNeed(file: *mut c_void);
    /// Closes a file `ptxccFileOpen` returned.
    pub fn ptxccFileClose(file: *mut c_void);
    /// `mlir::parallelFor` over `0..count` (see [`parallel_for`]).
    pub fn ptxccParallelFor(
        context: MlirContext,
        count: usize,
        body: unsafe extern "C" fn(index: usize, user_data: *mut c_void),
        user_data: *mut c_void,
    );
    /// An integer attribute of an integer type from 64-bit words (least
    /// significant first); null when the type is not an integer.
    fn ptxccIntegerAttrGetWords(ty: MlirType, words: *const u64, count: usize) -> MlirAttribute;
    /// The width of an integer attribute's value (0 when it is not one) and,
    /// when they fit in `capacity`, its words.
    fn ptxccIntegerAttrReadWords(attribute: MlirAttribute, words: *mut u64, capacity: usize) -> u32;
    /// Verifies an op, handing what is wrong to the callback instead of
    /// reporting it (see [`verify_quietly`]).
    fn ptxccVerifyQuietly(op: MlirOperation, callback: StringCallback, user_data: *mut c_void) -> bool;
    /// MLIR's `mem2reg` on one op's scalar slots (see
    /// [`promote_memory_slots`]).
    fn ptxccPromoteMemorySlots(op: MlirOperation) -> bool;
    /// The block argument operand `index` of a branch becomes in its
    /// successor; null when it is not forwarded or the op is no branch.
    fn ptxccSuccessorBlockArgument(op: MlirOperation, index: isize) -> MlirValue;
    /// Whether an op may write memory (see [`may_write_memory`]).
    fn ptxccOperationMayWrite(op: MlirOperation) -> bool;
    /// The number of elements of an `!llvm.array` type; false when the
    /// type is not one.
    pub fn ptxccLLVMArrayTypeGetNumElements(array: MlirType, count: *mut u64) -> bool;
    /// The number of features of a `#llvm.target_features` attribute; -1
    /// when it is not one.
    pub fn ptxccLLVMTargetFeaturesAttrGetNumFeatures(attribute: MlirAttribute) -> isize;
    /// Feature `index` of a `#llvm.target_features` attribute.
    pub fn ptxccLLVMTargetFeaturesAttrGetFeature(attribute: MlirAttribute, index: isize) -> MlirStringRef;
    /// The symbol name of an op (`sym_name`; read from an `llvm.func`'s
    /// properties without asking the op for its context); empty when it has
    /// none.
    fn ptxccSymbolName(op: MlirOperation) -> MlirStringRef;
    /// Whether an `llvm.func` has the `ptx_kernelcc` calling convention (1)
    /// or not (0); -1 when the op is not an `llvm.func`.
    fn ptxccLLVMFuncIsPtxKernelCC(op: MlirOperation) -> std::ffi::c_int;
    /// The linkage of an `llvm.func` (numbered as `MlirLLVMLinkage`); -1
    /// when the op is not an `llvm.func`.
    fn ptxccLLVMFuncLinkage(op: MlirOperation) -> std::ffi::c_int;
    /// The `other` and `argMem` levels of a `#llvm.memory_effects`
    /// attribute (see [`ModRef`]); false when it is not one.
    pub fn ptxccLLVMMemoryEffectsAttrGetLevels(attribute: MlirAttribute, other: *mut u32, arg_mem: *mut u32) -> bool;
    fn ptxccDiagnosticVerifierCreate(
        source: MlirStringRef,
        filename: MlirStringRef,
        only_expected: bool,
    ) -> *mut VerifierHandle;
    fn ptxccDiagnosticVerifierAdd(
        verifier: *mut VerifierHandle,
        severity: u32,
        file: MlirStringRef,
        line: u32,
        column: u32,
        message: MlirStringRef,
    );
    fn ptxccDiagnosticVerifierFinish(
        verifier: *mut VerifierHandle,
        callback: StringCallback,
        user_data: *mut c_void,
    ) -> bool;
}

/// The C++ side of a [`DiagnosticVerifier`].
#[repr(C)]
struct VerifierHandle {
    _opaque: [u8; 0],
}

/// Diagnostics checked against the `expected-*` directives of one source
/// by MLIR's own `SourceMgrDiagnosticVerifierHandler`: what mlir-opt's
/// `--verify-diagnostics` does, directive syntax, regular expressions and
/// report included.
pub struct DiagnosticVerifier {
    handle: *mut VerifierHandle,
}

impl DiagnosticVerifier {
    /// Starts a check against `source`, named `filename` (the name the
    /// diagnostics' locations use). With `only_expected`, diagnostics no
    /// directive expects are not errors.
    pub fn new(source: &str, filename: &str, only_expected: bool) -> Self {
        // SAFETY: both strings are live for the call (the C++ side copies
        // the source).
        let handle = unsafe { ptxccDiagnosticVerifierCreate(string_ref(source), string_ref(filename), only_expected) };
        Self { handle }
    }

    /// Hands one diagnostic to the check, in the order it was emitted.
    /// `severity`: 0 error, 1 warning, 2 note, 3 remark. `line` 0 is an
    /// unknown location (`expected-*@unknown`).
    pub fn add(&mut self, severity: u32, file: &str, line: u32, column: u32, message: &str) {
        // SAFETY: the handle is live until `finish`; the strings are live
        // for the call.
        unsafe {
            ptxccDiagnosticVerifierAdd(self.handle, severity, string_ref(file), line, column, string_ref(message))
        }
    }

    /// Ends the check: whether every diagnostic and directive matched, and
    /// the report mlir-opt would print (empty on success).
    pub fn finish(self) -> (bool, String) {
        let handle = self.handle;
        std::mem::forget(self);
        // SAFETY: the handle is live and freed by this call, once (`self`
        // is forgotten, so `Drop` does not run).
        let (report, ok) =
            collect_text(|callback, user_data| unsafe { ptxccDiagnosticVerifierFinish(handle, callback, user_data) });
        (ok, String::from_utf8_lossy(&report).into_owned())
    }
}

impl Drop for DiagnosticVerifier {
    fn drop(&mut self) {
        unsafe extern "C" fn ignore(_: MlirStringRef, _: *mut c_void) {}
        // SAFETY: the handle is live (`finish` forgets `self`), freed once.
        unsafe { ptxccDiagnosticVerifierFinish(self.handle, ignore, std::ptr::null_mut()) };
    }
}

/// What a `#llvm.memory_effects` level allows (LLVM's `ModRefInfo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModRef {
    /// `none`.
    None,
    /// `read`.
    Read,
    /// `write`.
    Write,
    /// `readwrite`.
    ReadWrite,
}

impl ModRef {
    fn from_level(level: u32) -> Self {
        match level {
            0 => Self::None,
            1 => Self::Read,
            2 => Self::Write,
            _ => Self::ReadWrite,
        }
    }

    /// Whether memory may be written.
    pub fn writes(self) -> bool {
        matches!(self, Self::Write | Self::ReadWrite)
    }
}

/// The `other` and `argMem` levels of `attribute` when it is a
/// `#llvm.memory_effects`.
pub fn memory_effects(attribute: MlirAttribute) -> Option<(ModRef, ModRef)> {
    let (mut other, mut arg_mem) = (0, 0);
    // SAFETY: the attribute handle comes from a live context (the caller's
    // `MlirAttribute`); the outputs are local.
    let found = unsafe { ptxccLLVMMemoryEffectsAttrGetLevels(attribute, &mut other, &mut arg_mem) };
    found.then(|| (ModRef::from_level(other), ModRef::from_level(arg_mem)))
}

/// The first file, line and column inside `location` (through name,
/// call-site and fused locations); line and column are 0 for a location
/// that names only a file.
pub fn file_line_col(location: MlirLocation) -> Option<(String, u32, u32)> {
    let mut name = MlirStringRef { data: std::ptr::null(), length: 0 };
    let (mut line, mut column) = (0, 0);
    // SAFETY: the location handle comes from a live context (the caller's
    // `MlirLocation`); the outputs are local.
    let found = unsafe { ptxccLocationFileLineCol(location, &mut name, &mut line, &mut column) };
    // SAFETY: the name is owned by the context.
    found.then(|| (unsafe { to_string(name) }, line, column))
}

/// The features (`+ptx81`, `+sm_90`) of `attribute` when it is a
/// `#llvm.target_features`.
pub fn target_features(attribute: MlirAttribute) -> Option<Vec<String>> {
    // SAFETY: the attribute handle comes from a live context (the caller's
    // `MlirAttribute`); indices stay below the count the shim gave.
    unsafe {
        let count = ptxccLLVMTargetFeaturesAttrGetNumFeatures(attribute);
        (count >= 0).then(|| {
            (0..count).map(|index| to_string(ptxccLLVMTargetFeaturesAttrGetFeature(attribute, index))).collect()
        })
    }
}

/// An integer attribute of the integer type `ty` holding `bits` (truncated
/// to the type's width; wider types get zeros above bit 127), or `None`
/// when `ty` is not an integer type. The C API builds integer attributes
/// from an `int64_t`, which loses the high bits and the sign of wide types.
pub fn integer_attribute_from_bits(ty: MlirType, bits: u128) -> Option<MlirAttribute> {
    let words = [bits as u64, (bits >> 64) as u64];
    // SAFETY: the type handle comes from a live context (the caller's
    // `MlirType`); the words outlive the call.
    let attribute = unsafe { ptxccIntegerAttrGetWords(ty, words.as_ptr(), words.len()) };
    (!attribute.ptr.is_null()).then_some(attribute)
}

/// The width and value of an integer attribute of at most 128 bits
/// (zero-extended from its width), or `None` when it is not an integer
/// attribute or is wider.
pub fn integer_attribute_bits(attribute: MlirAttribute) -> Option<(u32, u128)> {
    let mut words = [0u64; 2];
    // SAFETY: the attribute handle comes from a live context (the caller's
    // `MlirAttribute`); the shim writes at most `words.len()` words.
    let width = unsafe { ptxccIntegerAttrReadWords(attribute, words.as_mut_ptr(), words.len()) };
    (width > 0 && width <= 128).then(|| (width, u128::from(words[0]) | (u128::from(words[1]) << 64)))
}

/// Verifies `op` (its regions, dominance included) without reporting
/// anything: `Err` with the verifier's first message when it fails. The
/// diagnostics caught are those emitted on the calling thread while it
/// runs; other threads' go on to the context's handlers.
pub fn verify_quietly(op: MlirOperation) -> Result<(), String> {
    let (text, ok) = collect_text(|callback, user_data| {
        // SAFETY: the op handle is live (the caller's `MlirOperation`); the
        // callback and its data outlive the call.
        unsafe { ptxccVerifyQuietly(op, callback, user_data) }
    });
    match ok {
        true => Ok(()),
        false => Err(String::from_utf8_lossy(&text).into_owned()),
    }
}

/// Runs what MLIR's `mem2reg` pass does on `op`'s regions (a function),
/// for the scalar slots only (an `llvm.alloca` of a non-aggregate type
/// whose every use loads or stores it whole as that type, non-volatile and
/// non-atomic, or is a debug record or lifetime marker of it): they become
/// SSA values, block arguments where control flow merges. Changes only
/// `op`'s body, so functions can be promoted in parallel. True when a slot
/// was promoted.
pub fn promote_memory_slots(op: MlirOperation) -> bool {
    // SAFETY: the op handle is live (the caller's `MlirOperation`).
    unsafe { ptxccPromoteMemorySlots(op) }
}

/// The number of elements of `ty` when it is an `!llvm.array`.
pub fn array_length(ty: MlirType) -> Option<u64> {
    let mut count = 0;
    // SAFETY: the type handle comes from a live context (the caller's
    // `MlirType`); the output is local.
    unsafe { ptxccLLVMArrayTypeGetNumElements(ty, &mut count) }.then_some(count)
}

/// The block argument that operand `index` of the terminator `op` becomes
/// in one of its successors, for every op with MLIR's branch interface
/// (`llvm.br`, `llvm.cond_br`, `llvm.switch`, `llvm.indirectbr`,
/// `llvm.invoke`); `None` when the operand is not forwarded (a condition, a
/// switch's value) or `op` is no branch.
pub fn successor_block_argument(op: MlirOperation, index: usize) -> Option<MlirValue> {
    let index = isize::try_from(index).ok()?;
    // SAFETY: the op handle is live (the caller's `MlirOperation`); the
    // shim checks the index against the op's operands.
    let value = unsafe { ptxccSuccessorBlockArgument(op, index) };
    (!value.ptr.is_null()).then_some(value)
}

/// Whether `op` may write memory, as LLVM's `mayWriteToMemory` asks it: a
/// write (or free) effect in MLIR's memory-effect interface (a store, a
/// call its `memory_effects` do not rule out, an atomic, a volatile or
/// atomic load), or no such interface and no proof of having no effects.
pub fn may_write_memory(op: MlirOperation) -> bool {
    // SAFETY: the op handle is live (the caller's `MlirOperation`).
    unsafe { ptxccOperationMayWrite(op) }
}

/// Calls `body(i)` for every `i` in `0..count`: concurrently on the
/// context's thread pool when `context` is multi-threaded (the pool MLIR's
/// pass manager uses), else in order on the calling thread. A panic in
/// `body` is caught on its thread and raised again here, after every call
/// has returned.
///
/// `body` runs on other threads: what it does to the IR and the context
/// must be safe to do concurrently (reading IR, creating attributes and
/// types in a multi-threaded context, and changing ops no other call
/// touches).
pub fn parallel_for(context: MlirContext, count: usize, body: &(dyn Fn(usize) + Sync)) {
    struct Shared<'b> {
        body: &'b (dyn Fn(usize) + Sync),
        panic: std::sync::Mutex<Option<Box<dyn std::any::Any + Send>>>,
    }
    unsafe extern "C" fn call(index: usize, user_data: *mut c_void) {
        // SAFETY: `user_data` is the `Shared` below, alive until
        // `ptxccParallelFor` returns, and only read here.
        let shared = unsafe { &*(user_data as *const Shared) };
        // A panic must not unwind into C++.
        if let Err(payload) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (shared.body)(index))) {
            let mut panic = shared.panic.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            panic.get_or_insert(payload);
        }
    }
    if count == 0 {
        return;
    }
    let shared = Shared { body, panic: std::sync::Mutex::new(None) };
    // SAFETY: the context is live (the caller's handle); `shared` outlives
    // the call, which returns only once every `call` has.
    unsafe { ptxccParallelFor(context, count, call, (&shared as *const Shared).cast_mut().cast()) };
    if let Some(payload) = shared.panic.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner) {
        std::panic::resume_unwind(payload);
    }
}

/// The name and summary of each upstream MLIR pass the shim registers
/// (`ptxccRegisterUpstreamPasses`), in its order.
pub fn upstream_passes() -> Vec<(String, String)> {
    unsafe extern "C" fn push(name: MlirStringRef, summary: MlirStringRef, user_data: *mut c_void) {
        // SAFETY: `user_data` is the vector below, alive during the call;
        // the strings are live during the callback.
        unsafe {
            let list = &mut *(user_data as *mut Vec<(String, String)>);
            list.push((to_string(name), to_string(summary)));
        }
    }
    let mut list = Vec::new();
    // SAFETY: the callback and its user data are valid for the call.
    unsafe { ptxccForEachUpstreamPass(push, (&mut list as *mut Vec<(String, String)>).cast()) };
    list
}

/// Runs `call` with a [`StringCallback`] and its user data that write every
/// chunk of text handed to them to `sink`; returns the first write error
/// (the chunks after it are dropped) and what `call` returned. (The one
/// callback behind printing, translating and PTX output.)
pub fn write_text<R>(
    sink: &mut dyn std::io::Write,
    call: impl FnOnce(StringCallback, *mut c_void) -> R,
) -> (std::io::Result<()>, R) {
    struct Stream<'w> {
        sink: &'w mut dyn std::io::Write,
        error: Option<std::io::Error>,
    }
    unsafe extern "C" fn write(text: MlirStringRef, user_data: *mut c_void) {
        if text.data.is_null() || text.length == 0 {
            return;
        }
        // SAFETY: `user_data` is the stream below, alive during `call`, and
        // `text` points at `length` readable bytes during the callback.
        unsafe {
            let stream = &mut *(user_data as *mut Stream);
            if stream.error.is_none() {
                let bytes = std::slice::from_raw_parts(text.data.cast::<u8>(), text.length);
                stream.error = stream.sink.write_all(bytes).err();
            }
        }
    }
    let mut stream = Stream { sink, error: None };
    let result = call(write, (&mut stream as *mut Stream).cast());
    (stream.error.map_or(Ok(()), Err), result)
}

/// [`write_text`] into one buffer, returned with what `call` returned.
pub fn collect_text<R>(call: impl FnOnce(StringCallback, *mut c_void) -> R) -> (Vec<u8>, R) {
    let mut buffer = Vec::new();
    // (Writing to a `Vec` cannot fail.)
    let (_, result) = write_text(&mut buffer, call);
    (buffer, result)
}

/// A Rust string as an `MlirStringRef` (valid while `text` lives).
pub fn string_ref(text: &str) -> MlirStringRef {
    MlirStringRef { data: text.as_ptr().cast(), length: text.len() }
}

/// An `MlirStringRef` as a Rust string (lossy for invalid UTF-8).
///
/// # Safety
/// `text` must point at `length` readable bytes.
pub unsafe fn to_string(text: MlirStringRef) -> String {
    if text.data.is_null() || text.length == 0 {
        return String::new();
    }
    // SAFETY: guaranteed by the caller.
    let bytes = unsafe { std::slice::from_raw_parts(text.data.cast::<u8>(), text.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// Bytes as an `MlirStringRef` (valid while `bytes` lives; MLIR source or
/// bytecode, which need not be UTF-8).
pub fn bytes_ref(bytes: &[u8]) -> MlirStringRef {
    MlirStringRef { data: bytes.as_ptr().cast(), length: bytes.len() }
}

/// Registers MLIR's upstream passes that ptxcc's driver offers.
pub fn register_upstream_passes() {
    // SAFETY: registers into MLIR's global pass registry; no arguments.
    unsafe { ptxccRegisterUpstreamPasses() }
}

/// What a registered pass pipeline runs when MLIR's pipeline parser meets
/// its name: adds its passes to the pass manager (anchored on the op named
/// by the second argument) from the option text (the third), or says why
/// not.
pub type PipelineAdder = dyn Fn(MlirOpPassManager, &str, &str) -> Result<(), String> + Send + Sync;

/// Registers a pass pipeline `name` with MLIR's global registry, built by
/// `add` (kept for the life of the process: registrations are never
/// undone). A panic in `add` becomes the error "internal error while adding
/// pass 'NAME'".
pub fn register_pass_pipeline(name: &'static str, summary: &'static str, add: Box<PipelineAdder>) {
    unsafe extern "C" fn build(
        user_data: *mut c_void,
        pm: MlirOpPassManager,
        anchor: MlirStringRef,
        options: MlirStringRef,
        error: *mut *mut c_char,
    ) -> bool {
        // SAFETY: `user_data` is the registration leaked below, never freed;
        // MLIR passes live strings for the call.
        let (registration, anchor, options) =
            unsafe { (&*(user_data as *const Registration), to_string(anchor), to_string(options)) };
        let added =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (registration.add)(pm, &anchor, &options)));
        let message = match added {
            Ok(Ok(())) => return true,
            Ok(Err(problem)) => problem,
            Err(_) => format!("internal error while adding pass '{}'", registration.name),
        };
        let message = std::ffi::CString::new(message.replace('\0', " ")).unwrap_or_default();
        unsafe extern "C" {
            fn strdup(text: *const c_char) -> *mut c_char;
        }
        // SAFETY: `error` is MLIR's out-parameter for the call; the C++ side
        // frees the malloc'ed copy with free().
        unsafe { *error = strdup(message.as_ptr()) };
        false
    }
    struct Registration {
        name: &'static str,
        add: Box<PipelineAdder>,
    }
    let registration: &'static Registration = Box::leak(Box::new(Registration { name, add }));
    // SAFETY: the strings are 'static and the callback and its user data
    // live for the rest of the process.
    unsafe {
        ptxccRegisterPassPipeline(
            string_ref(name),
            string_ref(summary),
            build,
            (registration as *const Registration).cast_mut().cast(),
        );
    }
}

/// The op name the (nested) pass manager `pm` is anchored on.
pub fn op_pass_manager_anchor(pm: MlirOpPassManager) -> String {
    // SAFETY: the pass manager handle is live (the caller's); the name is
    // copied at once.
    unsafe { to_string(ptxccOpPassManagerAnchor(pm)) }
}

/// Inserts the dialects and translations ptxcc uses into `registry`.
pub fn register_dialects(registry: MlirDialectRegistry) {
    // SAFETY: the registry handle is live (the caller's).
    unsafe { ptxccRegisterDialects(registry) }
}

/// Parses MLIR text or bytecode `source` into a module named after
/// `filename`; `None` after reporting the errors as diagnostics. The module
/// is owned by the caller.
pub fn parse_module(context: MlirContext, source: &[u8], filename: &str) -> Option<MlirOperation> {
    // SAFETY: the context handle is live (the caller's); the bytes and the
    // name outlive the call.
    let raw = unsafe { ptxccParseModule(context, bytes_ref(source), string_ref(filename)) };
    (!raw.ptr.is_null()).then_some(raw)
}

/// Imports LLVM IR (text or bitcode) `source` into a module of the LLVM
/// dialect; `None` after reporting the problem as a diagnostic. The module
/// is owned by the caller.
pub fn import_llvm_ir(context: MlirContext, source: &[u8], filename: &str) -> Option<MlirOperation> {
    // SAFETY: as for [`parse_module`].
    let raw = unsafe { ptxccImportLLVMIR(context, bytes_ref(source), string_ref(filename)) };
    (!raw.ptr.is_null()).then_some(raw)
}

/// Turns the "see current operation" note on diagnostics of `context` on or
/// off.
pub fn set_print_op_on_diagnostic(context: MlirContext, enable: bool) {
    // SAFETY: the context handle is live (the caller's).
    unsafe { ptxccContextSetPrintOpOnDiagnostic(context, enable) }
}

/// Prints the verified op `op` into `sink` as MLIR text (generic form,
/// locations as asked), in chunks.
pub fn print_operation(
    op: MlirOperation,
    generic: bool,
    debug_info: bool,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    // SAFETY: the op handle is live (the caller's); the stream outlives the
    // call.
    let (written, ()) =
        write_text(sink, |write, stream| unsafe { ptxccPrintOperation(op, generic, debug_info, write, stream) });
    written
}

/// The module `op` translated to LLVM IR text; `None` after reporting the
/// errors as diagnostics.
pub fn translate_to_llvm_ir(op: MlirOperation) -> Option<Vec<u8>> {
    // SAFETY: the op handle is live (the caller's); the buffer outlives the
    // call.
    let (text, ok) = collect_text(|append, buffer| unsafe { ptxccTranslateToLLVMIR(op, append, buffer) });
    ok.then_some(text)
}

/// The module `op` (a `builtin.module` or a `gpu.module`) compiled to PTX
/// by LLVM's NVPTX backend for `cpu` and `features` (`+ptx80`), after
/// LLVM's default optimization pipeline at `opt_level` (0: none, as `llc`
/// alone; 1-3 as `opt -O1`..`-O3`, what `gpu-module-to-binary` runs for an
/// `#nvvm.target`'s `O`); `None` after reporting the errors.
pub fn emit_ptx(op: MlirOperation, cpu: &str, features: &str, opt_level: u32) -> Option<Vec<u8>> {
    // SAFETY: the op handle is live (the caller's); the strings and the
    // buffer outlive the call.
    let (text, ok) = collect_text(|append, buffer| unsafe {
        ptxccEmitPTX(op, string_ref(cpu), string_ref(features), opt_level, append, buffer)
    });
    ok.then_some(text)
}

/// Makes LLVM's fatal errors print `prefix` and the reason to standard
/// error and exit with status 1 (process-wide).
pub fn exit_on_fatal_error(prefix: &str) {
    // SAFETY: the shim copies the prefix.
    unsafe { ptxccExitOnFatalError(string_ref(prefix)) }
}

/// Makes the pass manager `pm` time its passes; MLIR prints the report to
/// standard error when the pass manager is destroyed.
pub fn enable_timing(pm: MlirPassManager) {
    // SAFETY: the pass manager handle is live (the caller's
    // `MlirPassManager`).
    unsafe { mlir_sys::mlirPassManagerEnableTiming(pm) };
}

/// Prints the pipeline of the pass manager `pm` to standard error, as
/// `mlir-opt --dump-pass-pipeline` does.
pub fn dump_pass_pipeline(pm: MlirPassManager) {
    // SAFETY: the pass manager handle is live (the caller's
    // `MlirPassManager`).
    unsafe { ptxccPassManagerDump(pm) };
}

/// Loads the dialect `name` (`llvm`) into `context` when its registry holds
/// it; false when it does not.
pub fn load_dialect(context: MlirContext, name: &str) -> bool {
    // SAFETY: the context handle is live (the caller's `MlirContext`); the
    // name outlives the call.
    let loaded = unsafe { mlir_sys::mlirContextGetOrLoadDialect(context, string_ref(name)) };
    !loaded.ptr.is_null()
}

/// Emits an error diagnostic with `message` at `location`.
pub fn emit_error(location: MlirLocation, message: &std::ffi::CStr) {
    // SAFETY: the location handle is live (the caller's `MlirLocation`);
    // the string outlives the call.
    unsafe { mlir_sys::mlirEmitError(location, message.as_ptr()) }
}

/// Emits a remark diagnostic with `message` at `location` (the C API has
/// only `mlirEmitError`).
pub fn emit_remark(location: MlirLocation, message: &std::ffi::CStr) {
    // SAFETY: the location handle is live (the caller's `MlirLocation`);
    // the string outlives the call.
    unsafe { ptxccEmitRemark(location, message.as_ptr()) }
}

/// `location` with the metadata of every fused location that names a
/// debug-info subprogram (`fused<#llvm.di_subprogram<...>>`, at any depth:
/// inside a name, a call site or another fused location) taken out. MLIR's
/// translation gives a function the first subprogram its location holds,
/// and LLVM allows one function per subprogram: a function made from
/// another (a wrapper) takes this.
pub fn location_without_subprogram(location: MlirLocation) -> MlirLocation {
    // SAFETY: the location handle is live (the caller's `MlirLocation`);
    // the result belongs to the same context.
    unsafe { ptxccLocationWithoutSubprogram(location) }
}

/// Emits a warning diagnostic with `message` at `location` (the C API has
/// only `mlirEmitError`).
pub fn emit_warning(location: MlirLocation, message: &std::ffi::CStr) {
    // SAFETY: the location handle is live (the caller's `MlirLocation`);
    // the string outlives the call.
    unsafe { ptxccEmitWarning(location, message.as_ptr()) }
}

/// Drops every reference `op` holds and unlinks it from its block, without
/// freeing it (the caller destroys it later).
pub fn operation_detach(op: MlirOperation) {
    // SAFETY: the op handle is live (the caller's `MlirOperation`).
    unsafe { ptxccOperationDetach(op) }
}

/// A file opened read-only as LLVM's tools open their input: mapped into
/// memory when it is large (its pages are the file's, so a mapped file's
/// bytes cost no memory of their own once [`InputFile::release`]d), read
/// otherwise.
///
/// As with every mapped file (LLVM's, `mlir-opt`'s), a file another process
/// truncates while it is mapped makes reading its lost bytes fault.
pub struct InputFile {
    handle: *mut c_void,
    data: *const c_char,
    size: usize,
}

// SAFETY: the buffer is never written after it is opened; reading it and
// `ptxccFileDontNeed` (an madvise that changes no byte) are safe from any
// thread.
unsafe impl Send for InputFile {}
// SAFETY: as above.
unsafe impl Sync for InputFile {}

impl InputFile {
    /// Opens the file at `path`.
    pub fn open(path: &str) -> std::io::Result<Self> {
        let (mut data, mut size, mut error) = (std::ptr::null(), 0usize, 0 as c_int);
        // SAFETY: the path is live for the call; the out pointers are
        // locals.
        let handle = unsafe { ptxccFileOpen(string_ref(path), &mut data, &mut size, &mut error) };
        if handle.is_null() {
            return Err(std::io::Error::from_raw_os_error(error));
        }
        Ok(Self { handle, data, size })
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        if self.size == 0 {
            return &[];
        }
        // SAFETY: the buffer holds `size` bytes and lives as long as `self`.
        unsafe { std::slice::from_raw_parts(self.data.cast(), self.size) }
    }

    /// Lets a mapped file's pages leave memory until they are read again
    /// (they come back from the file): for when the bytes were parsed and
    /// may only be read again to quote a line in a diagnostic. The bytes
    /// stay valid.
    pub fn release(&self) {
        // SAFETY: the handle is live; the advice changes no byte.
        unsafe { ptxccFileDontNeed(self.handle) }
    }
}

impl Drop for InputFile {
    fn drop(&mut self) {
        // SAFETY: the handle came from `ptxccFileOpen` and is closed once.
        unsafe { ptxccFileClose(self.handle) }
    }
}

/// A key equal for all ops of one name, and only for them: op names are
/// uniqued identifiers, so this compares no strings.
pub fn operation_name_key(op: MlirOperation) -> *const c_void {
    // SAFETY: the op handle is live (the caller's `MlirOperation`).
    unsafe { mlir_sys::mlirOperationGetName(op) }.ptr
}

/// The symbol name (`sym_name`) of `op`, read from an `llvm.func`'s
/// properties without a lookup by name (which asks the op for its context
/// first, through its location: a cache miss per call on a large module);
/// `None` when it has none.
///
/// # Safety
/// `op` must be live, and the bytes must not be used after its context is
/// destroyed (they are a uniqued string of the context; `'c` is the
/// context's lifetime).
pub unsafe fn symbol_name<'c>(op: MlirOperation) -> Option<&'c [u8]> {
    // SAFETY: the op handle is live (the caller's guarantee); the call only
    // reads it.
    let name = unsafe { ptxccSymbolName(op) };
    // SAFETY: a uniqued string of the op's context, `length` bytes long,
    // alive for `'c` (the caller's guarantee).
    (name.length > 0).then(|| unsafe { std::slice::from_raw_parts(name.data.cast::<u8>(), name.length) })
}

/// The linkage of `op` when it is an `llvm.func` (an `MlirLLVMLinkage`
/// value, read from its properties); `None` for any other op.
pub fn llvm_func_linkage(op: MlirOperation) -> Option<u32> {
    // SAFETY: the op handle is live (the caller's `MlirOperation`); the call
    // only reads it.
    u32::try_from(unsafe { ptxccLLVMFuncLinkage(op) }).ok()
}

/// Whether `op`, an `llvm.func`, has the `ptx_kernelcc` calling convention
/// (read from its properties); `None` for any other op.
pub fn llvm_func_is_ptx_kernel(op: MlirOperation) -> Option<bool> {
    // SAFETY: the op handle is live (the caller's `MlirOperation`); the call
    // only reads it.
    match unsafe { ptxccLLVMFuncIsPtxKernelCC(op) } {
        0 => Some(false),
        1 => Some(true),
        _ => None,
    }
}

/// The address space of `ty` when it is an `!llvm.ptr`.
pub fn llvm_pointer_address_space(ty: MlirType) -> Option<u32> {
    // SAFETY: both calls only read the type (a live handle: the caller's
    // `MlirType`), the second after checking its kind.
    unsafe { mlir_sys::mlirTypeIsALLVMPointerType(ty).then(|| mlir_sys::mlirLLVMPointerTypeGetAddressSpace(ty)) }
}

/// Whether `llvm.load` can load a value of type `ty` (ODS's
/// `LLVM_LoadableType` as the translation to LLVM IR accepts it): an
/// integer, a float, a pointer, a fixed-length vector of those, or an array
/// or non-opaque struct of loadable types.
pub fn is_llvm_loadable(ty: MlirType) -> bool {
    // SAFETY: every call only reads the live type (the caller's `MlirType`)
    // and its element types, each after checking the kind it needs.
    unsafe {
        if mlir_sys::mlirTypeIsAInteger(ty)
            || mlir_sys::mlirTypeIsAFloat(ty)
            || mlir_sys::mlirTypeIsALLVMPointerType(ty)
        {
            return true;
        }
        if mlir_sys::mlirTypeIsAVector(ty) {
            let element = mlir_sys::mlirShapedTypeGetElementType(ty);
            return !mlir_sys::mlirVectorTypeIsScalable(ty)
                && (mlir_sys::mlirTypeIsAInteger(element)
                    || mlir_sys::mlirTypeIsAFloat(element)
                    || mlir_sys::mlirTypeIsALLVMPointerType(element));
        }
        if mlir_sys::mlirTypeIsALLVMStructType(ty) {
            return !mlir_sys::mlirLLVMStructTypeIsOpaque(ty)
                && (0..mlir_sys::mlirLLVMStructTypeGetNumElementTypes(ty))
                    .all(|i| is_llvm_loadable(mlir_sys::mlirLLVMStructTypeGetElementType(ty, i)));
        }
        if is_llvm_array(ty) {
            return is_llvm_loadable(mlir_sys::mlirLLVMArrayTypeGetElementType(ty));
        }
    }
    false
}

/// Whether `ty` is an `!llvm.array`: the C API has no `IsA` for it, so its
/// type id is compared with that of an array type built in the same context.
fn is_llvm_array(ty: MlirType) -> bool {
    // SAFETY: reading live types; the sample type is owned by the context.
    unsafe {
        let context = mlir_sys::mlirTypeGetContext(ty);
        let sample = mlir_sys::mlirLLVMArrayTypeGet(mlir_sys::mlirIntegerTypeGet(context, 8), 1);
        mlir_sys::mlirTypeIDEqual(mlir_sys::mlirTypeGetTypeID(ty), mlir_sys::mlirTypeGetTypeID(sample))
    }
}
