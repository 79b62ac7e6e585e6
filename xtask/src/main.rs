//! Project tasks for wirebytes, run as `cargo xtask <task>`.
//!
//! - `cargo xtask verify [--quick] [SWEEP...]`: the equivalence sweeps (fast paths against
//!   their references, and against the JDK where `java` is on PATH).
//! - `cargo xtask bench [--quick] [CRATE...]`: the criterion benches, then one table per crate.

mod bench;
mod rng;
mod sweeps;
mod verify;

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <task> [options]

tasks:
  verify [--quick] [SWEEP...]   run the equivalence sweeps (all when none is named)
  bench [--quick] [CRATE...]    run the criterion benches and print one table per crate
  help                          print this message

options:
  --quick    a shorter run: verify in under 2 minutes, bench in under 10 on 2 cores
";

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err}\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// Parsed command line of a task: `--quick` and the names that follow.
#[derive(Debug, Default)]
struct TaskArgs {
    quick: bool,
    names: Vec<String>,
}

fn run() -> Result<ExitCode, lexopt::Error> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_env();
    let task = match parser.next()? {
        Some(Value(task)) => task.string()?,
        Some(Long("help") | Short('h')) | None => {
            print!("{USAGE}");
            return Ok(ExitCode::SUCCESS);
        }
        Some(arg) => return Err(arg.unexpected()),
    };
    let mut args = TaskArgs::default();
    while let Some(arg) = parser.next()? {
        match arg {
            Long("quick") => args.quick = true,
            Long("help") | Short('h') => {
                print!("{USAGE}");
                return Ok(ExitCode::SUCCESS);
            }
            Value(name) => args.names.push(name.string()?),
            _ => return Err(arg.unexpected()),
        }
    }
    match task.as_str() {
        "verify" => Ok(verify::main(&workspace_root(), args.quick, &args.names)),
        "bench" => Ok(bench::main(&workspace_root(), args.quick, &args.names)),
        "help" => {
            print!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        other => Err(format!("unknown task `{other}`").into()),
    }
}

/// The workspace root: the parent of this package's manifest directory.
fn workspace_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(PathBuf::from).unwrap_or(manifest)
}

/// The `cargo` that runs us, so nested builds use the same toolchain.
fn cargo() -> std::ffi::OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}
