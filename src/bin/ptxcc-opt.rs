//! `ptxcc-opt`: an `mlir-opt`-like driver for the ptxcc passes.
//!
//! A shell over the library: it parses the command line, reads the input,
//! hands both to [`ptxcc::opt::process`] and writes what comes back. It holds
//! no lowering logic.

use std::{
    fs,
    io::{self, Read, Write},
    path::{Path, PathBuf},
    process::ExitCode,
    sync::Arc,
};

use clap::{Arg, ArgAction, ArgMatches, Command};
use ptxcc::{
    llvm::{exit_on_llvm_fatal_error, input_kind, InputFormat, InputKind},
    opt::{process, process_input, process_input_into, process_into, AfterParse, Emit, InputFile, OptConfig},
    registry::{upstream_passes, PASSES},
    verify_diagnostics::VerifyLevel,
};

fn command() -> Command {
    let mut command = Command::new("ptxcc-opt")
        .about("Lower the PTX calling convention in MLIR (LLVM/NVVM dialects) with the ptxcc passes")
        .version(env!("CARGO_PKG_VERSION"))
        .arg(Arg::new("input").value_name("INPUT").default_value("-").help(
            "Input file, or '-' for standard input: MLIR (text or bytecode) or LLVM IR (.ll text or .bc bitcode, \
             imported keeping __grid_constant__ parameters)",
        ))
        .arg(
            Arg::new("input-format")
                .long("input-format")
                .value_name("FORMAT")
                .value_parser(["auto", "mlir", "llvm"])
                .default_value("auto")
                .help("What the input is; auto: by its extension (.ll, .bc, .mlir), else by its first bytes"),
        )
        .arg(
            Arg::new("output")
                .short('o')
                .value_name("FILE")
                .help("Output file (written only when the run succeeds); standard output by default"),
        )
        .arg(Arg::new("pass-pipeline").long("pass-pipeline").value_name("PIPELINE").help(
            "A pass pipeline in MLIR's syntax, e.g. 'builtin.module(convert-ptxcc-to-llvm{vector-copy=false},cse)'",
        ))
        .arg(flag("split-input-file", "Split the input at '// -----' lines and process each piece on its own"))
        .arg(
            Arg::new("verify-diagnostics")
                .long("verify-diagnostics")
                .value_name("LEVEL")
                .num_args(0..=1)
                .require_equals(true)
                .default_missing_value("all")
                .value_parser(["all", "only-expected"])
                .help(
                    "Check the diagnostics against the expected-* comments of the input, as mlir-opt does \
                     (only-expected: diagnostics no comment names are allowed)",
                ),
        )
        .arg(
            Arg::new("verify-each")
                .long("verify-each")
                .value_name("BOOL")
                .num_args(0..=1)
                .require_equals(true)
                .default_missing_value("true")
                .default_value("false")
                .value_parser(clap::value_parser!(bool))
                .help("Verify the IR after every pass (the input and the output are always verified)"),
        )
        .arg(flag("mlir-print-ir-after-all", "Print the IR after every pass (to standard error)"))
        .arg(flag("mlir-print-ir-after-failure", "Print the IR after a pass that fails (to standard error)"))
        .arg(flag("mlir-timing", "Print the time each pass took (to standard error)"))
        .arg(flag(
            "mlir-disable-threading",
            "Run on one thread (the passes' parallel work, the pass manager, the verifier); the output is the same",
        ))
        .arg(flag("mlir-print-op-generic", "Print every op in the generic form"))
        .arg(flag("mlir-print-debuginfo", "Print locations in the output MLIR"))
        .arg(flag("dump-pass-pipeline", "Print the pass pipeline to standard error before running it"))
        .arg(flag("emit-bytecode", "Write MLIR bytecode instead of text (bytecode input is detected by itself)"))
        .arg(flag("allow-unregistered-dialect", "Accept ops of dialects that are not registered"))
        .arg(flag("print-irdl", "Print the IRDL definition of the ptxcc dialect (for mlir-opt --irdl-file) and exit"))
        .arg(
            Arg::new("emit")
                .long("emit")
                .value_name("KIND")
                .value_parser(["mlir", "llvm", "ptx"])
                .default_value("mlir")
                .help(
                    "Print MLIR; LLVM IR through MLIR's in-process translation; or PTX through LLVM's NVPTX backend \
                     in process, for the pipeline's chip and ptx options, else the module's target-cpu and +ptxNN \
                     (as llc -mcpu -mattr); a module of gpu.modules: each one's PTX for each of its #nvvm.targets, \
                     behind a '// ptxcc-opt: gpu.module @NAME' line (as gpu-module-to-binary=format=isa)",
                ),
        );
    for pass in PASSES {
        command = command.arg(pass_flag(pass.name, pass.summary));
    }
    for (name, summary) in upstream_passes() {
        command = command.arg(pass_flag(name, summary));
    }
    command.after_help(pass_help())
}

fn flag(name: &'static str, help: &'static str) -> Arg {
    Arg::new(name).long(name).action(ArgAction::SetTrue).help(help)
}

/// `--name` or `--name='key=value ...'`, repeatable; its position on the
/// command line is its position in the pipeline.
fn pass_flag(name: &'static str, summary: &'static str) -> Arg {
    Arg::new(name)
        .long(name)
        .value_name("OPTIONS")
        .num_args(0..=1)
        .require_equals(true)
        .default_missing_value("")
        .action(ArgAction::Append)
        .help(summary)
        .hide(true)
}

fn pass_help() -> String {
    let mut text = String::from(
        "ptxcc passes (--NAME or --NAME='option=value ...', in pipeline order, or by name in --pass-pipeline):\n",
    );
    for pass in PASSES {
        text.push_str(&format!("  {:<28} {}\n", pass.name, pass.summary));
        for option in pass.options {
            text.push_str(&format!("      {:<26} {} (default: {})\n", option.name, option.description, option.default));
        }
    }
    text.push_str("\nupstream MLIR passes:\n");
    for (name, summary) in upstream_passes() {
        text.push_str(&format!("  {name:<28} {summary}\n"));
    }
    text
}

/// Accepts mlir-opt's single-dash long options (`-split-input-file`).
fn normalise_arguments(arguments: impl Iterator<Item = String>) -> Vec<String> {
    arguments
        .enumerate()
        .map(|(index, argument)| {
            let single_dash_long = index > 0
                && argument.len() > 2
                && argument.starts_with('-')
                && !argument.starts_with("--")
                && argument[1..].starts_with(|c: char| c.is_ascii_alphabetic());
            if single_dash_long {
                format!("-{argument}")
            } else {
                argument
            }
        })
        .collect()
}

/// The pipeline the command line asks for: `--pass-pipeline`, or the pass
/// flags in the order given.
fn pipeline(matches: &ArgMatches) -> Result<Option<String>, String> {
    let mut passes: Vec<(usize, String)> = Vec::new();
    let names = PASSES.iter().map(|p| p.name).chain(upstream_passes().iter().map(|(n, _)| n.as_str()));
    for name in names {
        let (Some(indices), Some(values)) = (matches.indices_of(name), matches.get_many::<String>(name)) else {
            continue;
        };
        for (index, options) in indices.zip(values) {
            let options = options.trim().trim_matches(|c| c == '\'' || c == '"');
            let text = if options.is_empty() { name.to_string() } else { format!("{name}{{{options}}}") };
            passes.push((index, text));
        }
    }
    passes.sort();
    let explicit = matches.get_one::<String>("pass-pipeline");
    match (explicit, passes.is_empty()) {
        (Some(_), false) => Err("--pass-pipeline cannot be combined with pass flags".into()),
        (Some(text), true) => Ok(Some(text.clone())),
        (None, false) => {
            let list: Vec<_> = passes.into_iter().map(|(_, text)| text).collect();
            Ok(Some(format!("builtin.module({})", list.join(","))))
        }
        (None, true) => Ok(None),
    }
}

/// The input's bytes.
enum Input {
    /// A file, mapped into memory when it is large (as LLVM's tools and
    /// `mlir-opt` read theirs): once parsed, its pages may leave memory
    /// ([`InputFile::release`]) and come back from the file to quote a line.
    File(Arc<InputFile>),
    /// Standard input, read whole.
    Stdin(Vec<u8>),
}

impl Input {
    fn bytes(&self) -> &[u8] {
        match self {
            Input::File(file) => file.bytes(),
            Input::Stdin(bytes) => bytes,
        }
    }
}

fn read_input(input: &str) -> Result<(Input, String), String> {
    if input == "-" {
        let mut bytes = Vec::new();
        io::stdin().read_to_end(&mut bytes).map_err(|e| format!("error: cannot read standard input: {e}"))?;
        return Ok((Input::Stdin(bytes), "<stdin>".into()));
    }
    let path = Path::new(input);
    if path.is_dir() {
        return Err(format!("error: cannot read '{input}': it is a directory"));
    }
    let file = InputFile::open(input).map_err(|e| format!("error: cannot read '{input}': {}", io_reason(&e)))?;
    Ok((Input::File(Arc::new(file)), input.to_string()))
}

fn io_reason(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::NotFound => "no such file or directory".into(),
        io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => error.to_string(),
    }
}

/// The input as text, or a located error at the first byte that is not UTF-8.
fn decode<'b>(bytes: &'b [u8], name: &str) -> Result<&'b str, String> {
    std::str::from_utf8(bytes).map_err(|error| {
        let valid = &bytes[..error.valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = valid.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        let column = String::from_utf8_lossy(&valid[line_start..]).chars().count() + 1;
        format!("{name}:{line}:{column}: error: the input is not valid UTF-8")
    })
}

/// Where the output goes.
enum Destination {
    /// Standard output (`-o -` or no `-o`), written once the run is over.
    Stdout,
    /// A regular file, or a path that does not exist yet: written as it is
    /// printed to a temporary file beside it, renamed over it when the run
    /// succeeds (readers never see a partial file, and a failed run leaves
    /// it as it was).
    Replace(AtomicFile),
    /// Anything else (a device such as `/dev/null` or `/dev/full`, a FIFO, a
    /// symbolic link), opened and written in place once the run succeeded:
    /// a rename would replace the device node or the link with a regular
    /// file.
    InPlace(PathBuf),
}

impl Destination {
    /// The destination `-o` names (`None` or `-`: standard output).
    fn new(output: Option<&str>) -> io::Result<Self> {
        let Some(path) = output.filter(|path| *path != "-").map(PathBuf::from) else { return Ok(Self::Stdout) };
        match fs::symlink_metadata(&path) {
            Ok(metadata) if metadata.file_type().is_file() => {
                Ok(Self::Replace(AtomicFile::new(path, Some(metadata.permissions()))))
            }
            Ok(_) => Ok(Self::InPlace(path)),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(Self::Replace(AtomicFile::new(path, None))),
            Err(error) => Err(error),
        }
    }
}

/// A file written through a temporary file in the same directory and a
/// rename. The temporary is created at the first write, and removed unless
/// [`AtomicFile::commit`] renames it.
struct AtomicFile {
    path: PathBuf,
    temporary: PathBuf,
    /// The permissions of the file it replaces.
    permissions: Option<fs::Permissions>,
    file: Option<io::BufWriter<fs::File>>,
}

impl AtomicFile {
    fn new(path: PathBuf, permissions: Option<fs::Permissions>) -> Self {
        let directory = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
        let temporary = directory.join(format!(".{file_name}.ptxcc-opt-{}.tmp", std::process::id()));
        Self { path, temporary, permissions, file: None }
    }

    /// The temporary file, created on first use.
    fn file(&mut self) -> io::Result<&mut io::BufWriter<fs::File>> {
        if self.file.is_none() {
            // A temporary left by a crashed run with the same process id.
            let _ = fs::remove_file(&self.temporary);
            let file = fs::OpenOptions::new().write(true).create_new(true).open(&self.temporary)?;
            self.file = Some(io::BufWriter::with_capacity(1 << 16, file));
        }
        Ok(self.file.as_mut().expect("just opened"))
    }

    /// Flushes what was written (creating the file when nothing was),
    /// gives it the replaced file's permissions and renames it over the
    /// target. Every write error is reported, the last flush included.
    fn commit(mut self) -> io::Result<()> {
        self.file()?.flush()?;
        if let Some(permissions) = self.permissions.take() {
            fs::set_permissions(&self.temporary, permissions)?;
        }
        fs::rename(&self.temporary, &self.path)?;
        self.file = None;
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.file()?.write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file()?.flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.temporary);
        }
    }
}

/// Writes `text`, all there is to write, to `destination`: standard output
/// as [`write_stdout`] does, a file replaced or written in place.
fn write_whole(
    destination: Destination,
    text: &[u8],
    cannot_write: impl Fn(&io::Error) -> String,
) -> Result<bool, String> {
    let written = match destination {
        Destination::Stdout => return write_stdout(text),
        Destination::Replace(mut file) => file.write_all(text).and_then(|()| file.commit()),
        Destination::InPlace(path) => write_in_place(&path, text),
    };
    written.map(|()| true).map_err(|e| cannot_write(&e))
}

/// Opens `path` for writing (truncating it) and writes `text`.
fn write_in_place(path: &Path, text: &[u8]) -> io::Result<()> {
    let mut file = fs::OpenOptions::new().write(true).truncate(true).open(path)?;
    file.write_all(text)?;
    file.flush()
}

/// Writes `text` to standard output. A reader that went away (`| head`) ends
/// the run quietly with a failure; any other error is reported.
fn write_stdout(text: &[u8]) -> Result<bool, String> {
    let mut stdout = io::stdout().lock();
    match stdout.write_all(text).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(true),
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(false),
        Err(error) => Err(format!("error: cannot write standard output: {}", io_reason(&error))),
    }
}

/// Writes `text` to standard error, ignoring failure: a closed or broken
/// stderr (`ptxcc-opt ... 2>&1 | head`) must not turn into a panic
/// (`eprint!` panics when it cannot write); the exit status still tells.
fn write_stderr(text: &str) {
    let mut stderr = io::stderr().lock();
    let _ = stderr.write_all(text.as_bytes()).and_then(|()| stderr.flush());
}

fn run() -> Result<bool, String> {
    let matches = match command().try_get_matches_from(normalise_arguments(std::env::args())) {
        Ok(matches) => matches,
        Err(error) => {
            // --help and --version come here too, with exit code 0.
            let _ = error.print();
            return Ok(error.exit_code() == 0);
        }
    };
    let output = matches.get_one::<String>("output").map(String::as_str);
    let cannot_write =
        |error: &io::Error| format!("error: cannot write '{}': {}", output.unwrap_or("-"), io_reason(error));
    if matches.get_flag("print-irdl") {
        let destination = Destination::new(output).map_err(|e| cannot_write(&e))?;
        return write_whole(destination, ptxcc::dialect::IRDL.as_bytes(), cannot_write);
    }
    let mut config = OptConfig {
        pipeline: pipeline(&matches).map_err(|e| format!("error: {e}"))?,
        split_input_file: matches.get_flag("split-input-file"),
        verify_diagnostics: matches.get_one::<String>("verify-diagnostics").map(|level| match level.as_str() {
            "only-expected" => VerifyLevel::OnlyExpected,
            _ => VerifyLevel::All,
        }),
        print_ir_after_all: matches.get_flag("mlir-print-ir-after-all"),
        print_ir_after_failure: matches.get_flag("mlir-print-ir-after-failure"),
        timing: matches.get_flag("mlir-timing"),
        disable_threading: matches.get_flag("mlir-disable-threading"),
        // Set once the input is open, below.
        after_parse: None,
        emit: match (matches.get_one::<String>("emit").map(String::as_str), matches.get_flag("emit-bytecode")) {
            (Some(kind @ ("llvm" | "ptx")), true) => {
                return Err(format!("error: --emit-bytecode writes MLIR; it cannot be combined with --emit={kind}"))
            }
            (Some("llvm"), false) => Emit::Llvm,
            (Some("ptx"), false) => Emit::Ptx,
            (_, true) => Emit::Bytecode,
            (_, false) => Emit::Mlir,
        },
        allow_unregistered_dialect: matches.get_flag("allow-unregistered-dialect"),
        print_generic: matches.get_flag("mlir-print-op-generic"),
        print_debug_info: matches.get_flag("mlir-print-debuginfo"),
        dump_pass_pipeline: matches.get_flag("dump-pass-pipeline"),
        verify_each: matches.get_one::<bool>("verify-each").copied().unwrap_or(false),
        // The process ends right after the output is written.
        leak_ir: true,
        input_format: match matches.get_one::<String>("input-format").map(String::as_str) {
            Some("mlir") => InputFormat::Mlir,
            Some("llvm") => InputFormat::Llvm,
            _ => InputFormat::Auto,
        },
    };
    let input = matches.get_one::<String>("input").map(String::as_str).unwrap_or("-");
    let (input, name) = read_input(input)?;
    exit_on_llvm_fatal_error(&name);
    if let Input::File(file) = &input {
        // Parsed, the text is only read again to quote a line in a
        // diagnostic: its pages need not stay in memory beside the module.
        let file = Arc::clone(file);
        config.after_parse = Some(AfterParse(Arc::new(move || file.release())));
    }
    let bytes = input.bytes();
    let mut destination = Destination::new(output).map_err(|e| cannot_write(&e))?;
    // MLIR text is checked to be UTF-8; LLVM IR and bytecode are bytes.
    let text = match input_kind(config.input_format, bytes, &name) {
        InputKind::MlirText => Some(decode(bytes, &name)?),
        InputKind::MlirBytecode | InputKind::Llvm => None,
    };
    // A file is written as the output is printed; standard output and
    // devices get the output of the pieces that succeeded, at the end.
    let outcome = match (&mut destination, &text) {
        (Destination::Replace(file), Some(text)) => process_into(&config, text, &name, file),
        (Destination::Replace(file), None) => process_input_into(&config, bytes, &name, file),
        (_, Some(text)) => process(&config, text, &name),
        (_, None) => process_input(&config, bytes, &name),
    };
    write_stderr(&outcome.messages);
    if let Some(error) = &outcome.write_error {
        return Err(cannot_write(error));
    }
    let written = match destination {
        Destination::Stdout => write_stdout(&outcome.output)?,
        Destination::Replace(file) if outcome.success => file.commit().map(|()| true).map_err(|e| cannot_write(&e))?,
        Destination::InPlace(path) if outcome.success => {
            write_in_place(&path, &outcome.output).map(|()| true).map_err(|e| cannot_write(&e))?
        }
        // A failed run leaves the file as it was (the temporary goes).
        Destination::Replace(_) | Destination::InPlace(_) => true,
    };
    Ok(outcome.success && written)
}

/// glibc's `mallopt` parameter for the most malloc arenas.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const M_ARENA_MAX: std::ffi::c_int = -8;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
unsafe extern "C" {
    /// glibc's malloc tuning (`mallopt(3)`).
    fn mallopt(param: std::ffi::c_int, value: std::ffi::c_int) -> std::ffi::c_int;
}

/// As many malloc arenas as there are cores (glibc's default is eight per
/// core). The driver parses, transforms and prints on one worker thread;
/// MLIR's thread pool runs the per-function passes, and one more thread
/// verifies the output beside the printing. With an arena per thread,
/// memory those threads free stays in their arenas, out of the printer's
/// reach; with a single arena, the pool's threads wait on its lock. At
/// 50 000 functions on two cores (peak RSS; wall time of the passes):
///
/// | arenas | peak RSS | passes |
/// |---|---:|---:|
/// | one per thread (default) | 1209-1232 MB | 2.2-2.4 s |
/// | one | 1183 MB | 3.5-4.0 s |
/// | one per core | 1174-1189 MB | 2.2-2.3 s |
///
/// A user's own `MALLOC_ARENA_MAX` (or `glibc.malloc.arena_max` tunable)
/// wins. The library leaves the embedding process's malloc alone: only the
/// driver sets this.
fn malloc_arena_per_core() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let set_by_user = std::env::var_os("MALLOC_ARENA_MAX").is_some()
            || std::env::var("GLIBC_TUNABLES").is_ok_and(|tunables| tunables.contains("glibc.malloc.arena_max"));
        if set_by_user {
            return;
        }
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        let arenas = std::ffi::c_int::try_from(cores).unwrap_or(std::ffi::c_int::MAX);
        // SAFETY: mallopt only changes a malloc setting; it is called before
        // any other thread exists.
        unsafe {
            mallopt(M_ARENA_MAX, arenas);
        }
    }
}

fn main() -> ExitCode {
    malloc_arena_per_core();
    let worker = std::thread::Builder::new().name("ptxcc-opt".into()).stack_size(ptxcc::nesting::STACK_SIZE).spawn(run);
    let outcome = match worker {
        Ok(handle) => handle.join(),
        Err(_) => std::panic::catch_unwind(run),
    };
    match outcome {
        Ok(Ok(true)) => ExitCode::SUCCESS,
        Ok(Ok(false)) => ExitCode::FAILURE,
        Ok(Err(message)) => {
            write_stderr(&format!("{message}\n"));
            ExitCode::FAILURE
        }
        Err(_) => {
            write_stderr("ptxcc-opt: internal error (please report it with the input that caused it)\n");
            ExitCode::FAILURE
        }
    }
}
