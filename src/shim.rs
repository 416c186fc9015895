//! Bindings to the C++ shim (`src/shim/ptxcc_shim.cpp`, and
//! `src/shim/ptxcc_llvm.cpp` for LLVM IR input and PTX output): the few
//! things the MLIR 22 C API cannot do. Safe wrappers live next to their users.

use mlir_sys::{MlirContext, MlirDialectRegistry, MlirLocation, MlirOpPassManager, MlirOperation, MlirStringRef};
use std::ffi::{c_char, c_void};

/// Builds a registered pipeline into an op pass manager (see the C++ side).
pub(crate) type PipelineBuilder = unsafe extern "C" fn(
    user_data: *mut c_void,
    pm: MlirOpPassManager,
    anchor: MlirStringRef,
    options: MlirStringRef,
    error: *mut *mut c_char,
) -> bool;

/// Receives a chunk of text.
pub(crate) type StringCallback = unsafe extern "C" fn(text: MlirStringRef, user_data: *mut c_void);

unsafe extern "C" {
    pub(crate) fn ptxccRegisterPassPipeline(
        name: MlirStringRef,
        description: MlirStringRef,
        builder: PipelineBuilder,
        user_data: *mut c_void,
    );
    pub(crate) fn ptxccRegisterUpstreamPasses();
    pub(crate) fn ptxccOpPassManagerAnchor(pm: MlirOpPassManager) -> MlirStringRef;
    pub(crate) fn ptxccEmitRemark(location: mlir_sys::MlirLocation, message: *const std::ffi::c_char);
    pub(crate) fn ptxccRegisterDialects(registry: MlirDialectRegistry);
    pub(crate) fn ptxccParseModule(
        context: MlirContext,
        source: MlirStringRef,
        filename: MlirStringRef,
    ) -> MlirOperation;
    pub(crate) fn ptxccLocationFileLineCol(
        location: MlirLocation,
        filename: *mut MlirStringRef,
        line: *mut u32,
        column: *mut u32,
    ) -> bool;
    pub(crate) fn ptxccContextSetPrintOpOnDiagnostic(context: MlirContext, enable: bool);
    pub(crate) fn ptxccTranslateToLLVMIR(
        module: MlirOperation,
        callback: StringCallback,
        user_data: *mut c_void,
    ) -> bool;
    pub(crate) fn ptxccImportLLVMIR(
        context: MlirContext,
        source: MlirStringRef,
        filename: MlirStringRef,
    ) -> MlirOperation;
    pub(crate) fn ptxccExitOnFatalError(prefix: MlirStringRef);
    pub(crate) fn ptxccPrintOperation(
        op: MlirOperation,
        generic: bool,
        callback: StringCallback,
        user_data: *mut c_void,
    );
    pub(crate) fn ptxccEmitPTX(
        module: MlirOperation,
        cpu: MlirStringRef,
        features: MlirStringRef,
        callback: StringCallback,
        user_data: *mut c_void,
    ) -> bool;
}

/// Runs `call` with a [`StringCallback`] and its user data that write every
/// chunk of text handed to them to `sink`; returns the first write error
/// (the chunks after it are dropped) and what `call` returned. (The one
/// callback behind printing, translating and PTX output.)
pub(crate) fn write_text<R>(
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
pub(crate) fn collect_text<R>(call: impl FnOnce(StringCallback, *mut c_void) -> R) -> (Vec<u8>, R) {
    let mut buffer = Vec::new();
    // (Writing to a `Vec` cannot fail.)
    let (_, result) = write_text(&mut buffer, call);
    (buffer, result)
}

/// A Rust string as an `MlirStringRef` (valid while `text` lives).
pub(crate) fn string_ref(text: &str) -> MlirStringRef {
    MlirStringRef { data: text.as_ptr().cast(), length: text.len() }
}

/// An `MlirStringRef` as a Rust string (lossy for invalid UTF-8).
///
/// # Safety
/// `text` must point at `length` readable bytes.
pub(crate) unsafe fn to_string(text: MlirStringRef) -> String {
    if text.data.is_null() || text.length == 0 {
        return String::new();
    }
    // SAFETY: guaranteed by the caller.
    let bytes = unsafe { std::slice::from_raw_parts(text.data.cast::<u8>(), text.length) };
    String::from_utf8_lossy(bytes).into_owned()
}
