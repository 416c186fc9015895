// Every verification rule of the ptxcc dialect: first those IRDL enforces
// (types of operands and results, required attributes, unknown ops), then
// those ptxcc checks itself (attribute widths and values, address spaces).
// RUN: %ptxcc-opt %s --split-input-file --verify-diagnostics

llvm.func @load_param_generic_pointer(%p: !llvm.ptr) {
  // expected-error @+1 {{expected '!llvm.ptr<101>' but got '!llvm.ptr'}}
  %v = "ptxcc.load_param"(%p) {offset = 0 : i64, alignment = 4 : i64} : (!llvm.ptr) -> i32
  llvm.return
}

// -----

llvm.func @load_param_missing_offset(%p: !llvm.ptr<101>) {
  // expected-error @+1 {{attribute "offset" is expected but not provided}}
  %v = "ptxcc.load_param"(%p) {alignment = 4 : i64} : (!llvm.ptr<101>) -> i32
  llvm.return
}

// -----

llvm.func @load_param_string_offset(%p: !llvm.ptr<101>) {
  // expected-error @+1 {{expected base attribute 'builtin.integer' but got 'builtin.string'}}
  %v = "ptxcc.load_param"(%p) {offset = "zero", alignment = 4 : i64} : (!llvm.ptr<101>) -> i32
  llvm.return
}

// -----

llvm.func @unknown_op(%p: !llvm.ptr<101>) {
  // expected-error @+1 {{unregistered operation 'ptxcc.no_such_op' found in dialect ('ptxcc')}}
  "ptxcc.no_such_op"(%p) : (!llvm.ptr<101>) -> ()
  llvm.return
}

// -----

llvm.func @param_to_generic_wrong_result(%p: !llvm.ptr<101>) {
  // expected-error @+1 {{expected '!llvm.ptr' but got '!llvm.ptr<1>'}}
  %g = "ptxcc.param_to_generic"(%p) : (!llvm.ptr<101>) -> !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @param_to_global_from_generic(%p: !llvm.ptr) {
  // expected-error @+1 {{expected '!llvm.ptr<101>' but got '!llvm.ptr'}}
  %g = "ptxcc.param_to_global"(%p) : (!llvm.ptr) -> !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @copy_param_missing_size(%p: !llvm.ptr<101>, %d: !llvm.ptr) {
  // expected-error @+1 {{attribute "size" is expected but not provided}}
  "ptxcc.copy_param"(%p, %d) {alignment = 4 : i64} : (!llvm.ptr<101>, !llvm.ptr) -> ()
  llvm.return
}

// -----

llvm.func @load_param_i32_offset(%p: !llvm.ptr<101>) {
  // expected-error @+1 {{'ptxcc.load_param' op attribute 'offset' must be an i64 integer, got '8 : i32'}}
  %v = "ptxcc.load_param"(%p) {offset = 8 : i32, alignment = 4 : i64} : (!llvm.ptr<101>) -> i32
  llvm.return
}

// -----

llvm.func @load_param_negative_offset(%p: !llvm.ptr<101>) {
  // expected-error @+1 {{'ptxcc.load_param' op offset must not be negative, got -8}}
  %v = "ptxcc.load_param"(%p) {offset = -8 : i64, alignment = 4 : i64} : (!llvm.ptr<101>) -> i32
  llvm.return
}

// -----

llvm.func @load_param_bad_alignment(%p: !llvm.ptr<101>) {
  // expected-error @+1 {{'ptxcc.load_param' op alignment must be a power of two, got 3}}
  %v = "ptxcc.load_param"(%p) {offset = 0 : i64, alignment = 3 : i64} : (!llvm.ptr<101>) -> i32
  llvm.return
}

// -----

llvm.func @copy_param_i32_alignment(%p: !llvm.ptr<101>, %d: !llvm.ptr) {
  // expected-error @+1 {{'ptxcc.copy_param' op attribute 'alignment' must be an i64 integer, got '4 : i32'}}
  "ptxcc.copy_param"(%p, %d) {size = 16 : i64, alignment = 4 : i32} : (!llvm.ptr<101>, !llvm.ptr) -> ()
  llvm.return
}

// -----

llvm.func @copy_param_empty(%p: !llvm.ptr<101>, %d: !llvm.ptr) {
  // expected-error @+1 {{'ptxcc.copy_param' op size must be positive, got 0}}
  "ptxcc.copy_param"(%p, %d) {size = 0 : i64, alignment = 4 : i64} : (!llvm.ptr<101>, !llvm.ptr) -> ()
  llvm.return
}

// -----

// Issue 29: a copy of 2^40 bytes (six lines of valid IR) made the pipeline
// allocate until the process was killed; no copy of a parameter exceeds the
// largest param space.
llvm.func @issue29_copy_param_size_2_pow_40(%p: !llvm.ptr<101>, %d: !llvm.ptr) {
  // expected-error @+1 {{'ptxcc.copy_param' op size must be at most 32764 bytes (the largest param space), got 1099511627776}}
  "ptxcc.copy_param"(%p, %d) {size = 1099511627776 : i64, alignment = 4 : i64} : (!llvm.ptr<101>, !llvm.ptr) -> ()
  llvm.return
}

// -----

llvm.func @issue29_copy_param_size_i64_max(%p: !llvm.ptr<101>, %d: !llvm.ptr) {
  // expected-error @+1 {{'ptxcc.copy_param' op size must be at most 32764 bytes (the largest param space), got 9223372036854775807}}
  "ptxcc.copy_param"(%p, %d) {size = 9223372036854775807 : i64, alignment = 16 : i64} : (!llvm.ptr<101>, !llvm.ptr) -> ()
  llvm.return
}

// -----

llvm.func @issue29_load_param_offset_past_param_space(%p: !llvm.ptr<101>) {
  // expected-error @+1 {{'ptxcc.load_param' op offset must be below 32764 (the largest param space), got 4294967296}}
  %v = "ptxcc.load_param"(%p) {offset = 4294967296 : i64, alignment = 4 : i64} : (!llvm.ptr<101>) -> i32
  llvm.return
}

// -----

llvm.func @copy_param_bad_alignment(%p: !llvm.ptr<101>, %d: !llvm.ptr) {
  // expected-error @+1 {{'ptxcc.copy_param' op alignment must be a power of two, got 0}}
  "ptxcc.copy_param"(%p, %d) {size = 8 : i64, alignment = 0 : i64} : (!llvm.ptr<101>, !llvm.ptr) -> ()
  llvm.return
}

// -----

llvm.func @copy_param_to_global(%p: !llvm.ptr<101>, %d: !llvm.ptr<1>) {
  // expected-error @+1 {{'ptxcc.copy_param' op destination must be in the generic (0) or local (5) address space, got '!llvm.ptr<1>'}}
  "ptxcc.copy_param"(%p, %d) {size = 8 : i64, alignment = 8 : i64} : (!llvm.ptr<101>, !llvm.ptr<1>) -> ()
  llvm.return
}

// -----

llvm.func @generic_to_param(%g: !llvm.ptr) {
  // expected-error @+1 {{'ptxcc.generic_to_as' op result must be in the global (1), shared (3), const (4) or local (5) address space, got '!llvm.ptr<101>'}}
  %p = "ptxcc.generic_to_as"(%g) : (!llvm.ptr) -> !llvm.ptr<101>
  llvm.return
}

// -----

llvm.func @generic_to_generic(%g: !llvm.ptr) {
  // expected-error @+1 {{'ptxcc.generic_to_as' op result must be in the global (1), shared (3), const (4) or local (5) address space, got '!llvm.ptr'}}
  %p = "ptxcc.generic_to_as"(%g) : (!llvm.ptr) -> !llvm.ptr
  llvm.return
}

// -----

llvm.func @generic_to_as_from_local(%l: !llvm.ptr<5>) {
  // expected-error @+1 {{expected '!llvm.ptr' but got '!llvm.ptr<5>'}}
  %p = "ptxcc.generic_to_as"(%l) : (!llvm.ptr<5>) -> !llvm.ptr<1>
  llvm.return
}

// -----

// IRDL cannot say LLVM_LoadableType: a token result used to pass
// verification and then trap in the translation to LLVM IR.
llvm.func @load_param_token_result(%p: !llvm.ptr<101>) {
  // expected-error @+1 {{'ptxcc.load_param' op result 'result' must be a type llvm.load can load (an integer, float, pointer, fixed vector, or an array or non-opaque struct of them), got '!llvm.token'}}
  %v = "ptxcc.load_param"(%p) {offset = 0 : i64, alignment = 4 : i64} : (!llvm.ptr<101>) -> !llvm.token
  llvm.return
}

// -----

llvm.func @load_param_opaque_struct_result(%p: !llvm.ptr<101>) {
  // expected-error @+1 {{'ptxcc.load_param' op result 'result' must be a type llvm.load can load}}
  %v = "ptxcc.load_param"(%p) {offset = 0 : i64, alignment = 4 : i64} : (!llvm.ptr<101>) -> !llvm.struct<"opaque", opaque>
  llvm.return
}

// -----

llvm.func @load_param_array_of_tokens(%p: !llvm.ptr<101>) {
  // expected-error @+1 {{'ptxcc.load_param' op result 'result' must be a type llvm.load can load}}
  %v = "ptxcc.load_param"(%p) {offset = 0 : i64, alignment = 4 : i64} : (!llvm.ptr<101>) -> !llvm.array<2 x struct<"o", opaque>>
  llvm.return
}

// -----

// An alignment above LLVM's 2^32 used to pass and fail in the translation.
llvm.func @load_param_alignment_too_large(%p: !llvm.ptr<101>) {
  // expected-error @+1 {{'ptxcc.load_param' op alignment must be at most 2^32 (LLVM's limit), got 1099511627776}}
  %v = "ptxcc.load_param"(%p) {offset = 0 : i64, alignment = 1099511627776 : i64} : (!llvm.ptr<101>) -> i32
  llvm.return
}

// -----

llvm.func @copy_param_alignment_too_large(%p: !llvm.ptr<101>, %d: !llvm.ptr) {
  // expected-error @+1 {{'ptxcc.copy_param' op alignment must be at most 2^32 (LLVM's limit), got 8589934592}}
  "ptxcc.copy_param"(%p, %d) {size = 8 : i64, alignment = 8589934592 : i64} : (!llvm.ptr<101>, !llvm.ptr) -> ()
  llvm.return
}

// -----

// An op name spelled with a string escape (\63 is 'c'): the driver skips
// the dialect's own checks only for text that cannot name an op of it.
llvm.func @escaped_name_still_checked(%p: !llvm.ptr<101>) {
  // expected-error @+1 {{op alignment must be a power of two, got 3}}
  %v = "ptx\63c.load_param"(%p) {offset = 0 : i64, alignment = 3 : i64} : (!llvm.ptr<101>) -> i32
  llvm.return
}
