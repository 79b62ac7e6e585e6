//! Project tasks for wirebytes, run as `cargo xtask <task>`.
//!
//! - `cargo xtask verify [--quick] [SWEEP...]`: the equivalence sweeps (fast paths against
//!   their references, and against the JDK where `java` is on PATH).
//! - `cargo xtask bench [--quick] [CRATE...]`: the criterion benches, then one table per crate.
//! - `cargo xtask cross [TARGET...]`: the library crates' tests on other architectures, under
//!   qemu-user.
//! - `cargo xtask msrv`: the library crates' tests on their declared `rust-version`.
//! - `cargo xtask publish-check`: manifests, package contents, docs, packaging, and `msrv`.
//! - `cargo xtask fuzz [--time SECS] [TARGET...]`: the fuzz targets of `fuzz/`, each for a
//!   fixed time, with AddressSanitizer on nightly.
//! - `cargo xtask miri [CRATE...]`: the library crates' unit and integration tests under Miri.
//! - `cargo xtask jdk-tables`: the JDK's charsets as data for wirebytes-charset.
//! - `cargo xtask mutants [--quick] [--sample N] [--resume] [--full-size] [CRATE...]`:
//!   mutation testing of the library crates with cargo-mutants: the mutants no test notices.
//! - `cargo xtask api [CRATE...]`: writes each library crate's public API to its
//!   `public-api.txt`, which the `api` sweep checks.

mod api;
mod bench;
mod cross;
mod fuzz;
mod jdk_multi;
mod jdk_tables;
mod miri;
mod mutants;
mod publish;
mod root;
mod sweeps;
mod verify;

use std::path::Path;
use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <task> [options]

tasks:
  verify [--quick] [SWEEP...]   run the equivalence sweeps (all when none is named)
  bench [--quick] [CRATE...]    run the criterion benches and print one table per crate
  cross [TARGET...]             test the library crates on aarch64, s390x and i686 Linux
                                under qemu-user (all three when none is named), installing
                                the Rust targets, cross linkers and qemu that are missing
  msrv                          run the library crates' tests on their declared rust-version
                                (installed with rustup), with dependencies that toolchain
                                resolves
  publish-check                 check what crates.io gets: manifests, license files, README
                                and CHANGELOG in each package, docs with warnings denied (and
                                as docs.rs builds them), cargo package with verification, msrv
  fuzz [--time SECS] [TARGET...]
                                run the fuzz targets (all when none is named) for SECS
                                seconds each (30 by default) with AddressSanitizer on
                                nightly, installing nightly and cargo-fuzz when missing
  miri [CRATE...]               run the library crates' unit and integration tests under
                                Miri (all four when none is named), installing Miri for
                                the nightly toolchain when it is missing
  mutants [--quick] [--sample N] [--resume] [--full-size] [CRATE...]
                                mutation testing with cargo-mutants (installed when
                                missing) of the library crates (all four when none is
                                named): every mutant, every N-th with --sample, or with
                                --quick the kernel selection of each src/arch/mod.rs; fails
                                on a mutant no test notices that the crate's
                                mutants-equivalent.txt does not list. The tests run at the
                                reduced size (WIREBYTES_TEST_SCALE=reduced), and the
                                mutants they miss again at the full size. --resume keeps
                                the outcomes of the runs before (caught, unviable, timed
                                out) and tests only the rest
  api [CRATE...]                write each library crate's public API to
                                crates/<crate>/public-api.txt (the `api` sweep of verify
                                fails when the API differs from the committed file)
  jdk-tables                    dump the JDK's charsets (names, aliases, replacements, the
                                single-byte ones' mappings) with `java` into
                                crates/wirebytes-charset/src/jdk/generated.rs
  help                          print this message

options:
  --quick    a shorter run: verify in under 2 minutes, bench in under 10 on 2 cores
  --time     seconds per fuzz target
  --sample   mutants: test one mutant in N (a sample that holds still as the code moves)
  --resume   mutants: go on from the runs before, testing only the mutants they did not
             settle (an interrupted run, or the missed ones after new tests)
  --full-size
             mutants: every mutant's tests at the full size from the start

exit status: 0 when everything ran and passed, 1 when a check, bench or test failed,
2 when nothing could run (a usage error, an empty selection, the wrong workspace)
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

/// Parsed command line of a task: `--quick`, `--time` and the names that follow.
#[derive(Debug, Default)]
struct TaskArgs {
    quick: bool,
    time: Option<u64>,
    sample: Option<u64>,
    resume: bool,
    full_size: bool,
    names: Vec<String>,
}

/// Seconds per fuzz target when `--time` is not given.
const FUZZ_SECONDS: u64 = 30;

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
            Long("time") => args.time = Some(parser.value()?.parse()?),
            Long("sample") => args.sample = Some(parser.value()?.parse()?),
            Long("resume") => args.resume = true,
            Long("full-size") => args.full_size = true,
            Long("help") | Short('h') => {
                print!("{USAGE}");
                return Ok(ExitCode::SUCCESS);
            }
            Value(name) => args.names.push(name.string()?),
            _ => return Err(arg.unexpected()),
        }
    }
    if args.time.is_some() && task != "fuzz" {
        return Err(format!("`{task}` takes no --time").into());
    }
    if args.sample.is_some() && task != "mutants" {
        return Err(format!("`{task}` takes no --sample").into());
    }
    if args.resume && task != "mutants" {
        return Err(format!("`{task}` takes no --resume").into());
    }
    if args.full_size && task != "mutants" {
        return Err(format!("`{task}` takes no --full-size").into());
    }
    let main: fn(&Path, bool, &[String]) -> ExitCode = match task.as_str() {
        "verify" => verify::main,
        "bench" => bench::main,
        "cross" if args.quick => return Err("`cross` takes no --quick".into()),
        "cross" => |root, _, names| cross::main(root, names),
        "msrv" | "publish-check" if args.quick || !args.names.is_empty() => {
            return Err(format!("`{task}` takes no options or names").into());
        }
        "msrv" => |root, _, _| publish::msrv_main(root),
        "publish-check" => |root, _, _| publish::publish_check_main(root),
        "fuzz" if args.quick => return Err("`fuzz` takes no --quick (use --time)".into()),
        "fuzz" => {
            let seconds = args.time.unwrap_or(FUZZ_SECONDS);
            return Ok(match root::workspace_root() {
                Ok(root) => fuzz::main(&root, seconds, &args.names),
                Err(err) => {
                    eprintln!("error: {err}");
                    ExitCode::from(2)
                }
            });
        }
        "miri" => miri::main,
        "mutants" => {
            return Ok(match root::workspace_root() {
                Ok(root) => {
                    let run = mutants::Run {
                        quick: args.quick,
                        sample: args.sample,
                        resume: args.resume,
                        full_size: args.full_size,
                    };
                    mutants::main(&root, run, &args.names)
                }
                Err(err) => {
                    eprintln!("error: {err}");
                    ExitCode::from(2)
                }
            });
        }
        "api" if args.quick => return Err("`api` takes no --quick".into()),
        "api" => api::main,
        "jdk-tables" if args.quick => return Err("`jdk-tables` takes no --quick".into()),
        "jdk-tables" => jdk_tables::main,
        "help" => {
            print!("{USAGE}");
            return Ok(ExitCode::SUCCESS);
        }
        other => return Err(format!("unknown task `{other}`").into()),
    };
    match root::workspace_root() {
        Ok(root) => Ok(main(&root, args.quick, &args.names)),
        Err(err) => {
            eprintln!("error: {err}");
            Ok(ExitCode::from(2))
        }
    }
}

/// What a task runs: the `available` items named in `names`, all of them when no name is
/// given, in the order of `available`.
///
/// # Errors
///
/// A message naming the unknown names and the known ones, or saying that nothing is
/// available: the task runs nothing and exits with status 2.
fn select<'a>(what: &str, available: &[&'a str], names: &[String]) -> Result<Vec<&'a str>, String> {
    let unknown: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|name| !available.contains(name))
        .collect();
    if !unknown.is_empty() {
        return Err(format!(
            "no {what} named {}; {what} names: {}",
            unknown.join(", "),
            if available.is_empty() {
                "(none)".to_owned()
            } else {
                available.join(", ")
            }
        ));
    }
    let selected: Vec<&str> = available
        .iter()
        .copied()
        .filter(|item| names.is_empty() || names.iter().any(|name| name == item))
        .collect();
    if selected.is_empty() {
        return Err(format!("no {what} to run: none was found"));
    }
    Ok(selected)
}

/// The `cargo` that runs us, so nested builds use the same toolchain.
fn cargo() -> std::ffi::OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

#[cfg(test)]
mod tests {
    use super::select;

    fn names(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| (*n).to_owned()).collect()
    }

    #[test]
    fn no_name_selects_everything_in_order() {
        let available = ["ascii", "charset", "mutf8"];
        assert_eq!(select("bench", &available, &[]), Ok(available.to_vec()));
        assert_eq!(
            select("bench", &available, &names(&["mutf8", "ascii"])),
            Ok(vec!["ascii", "mutf8"])
        );
    }

    #[test]
    fn an_unknown_name_is_an_error() {
        let err = select("sweep", &["ascii", "rope"], &names(&["rope", "asci"])).unwrap_err();
        assert_eq!(err, "no sweep named asci; sweep names: ascii, rope");
    }

    #[test]
    fn an_empty_selection_is_an_error() {
        // Nothing found (a checkout without benches/): never a silent success.
        assert_eq!(
            select("bench", &[], &[]),
            Err("no bench to run: none was found".to_owned())
        );
        assert!(select("bench", &[], &names(&["ascii"])).is_err());
    }
}
