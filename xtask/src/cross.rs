//! `cargo xtask cross`: the library crates' tests on other architectures, under qemu-user.
//!
//! For each target it makes sure of the pieces (the Rust target through rustup; the cross
//! linker, the target's C library and qemu through apt-get), builds the four library crates'
//! tests and runs them with the runner `.cargo/config.toml` names and
//! `WIREBYTES_TEST_SCALE=reduced`, checks that the whole workspace compiles for the target,
//! and prints a table: tests passed and time, per target and run, then the time of each test
//! binary (also written to `target/wirebytes-cross.md`). A piece that cannot be installed, a
//! failed build or test, or a test run without tests is a failure: exit status 1.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// A target `cargo xtask cross` tests, and the Debian packages that provide its pieces.
#[derive(Debug)]
pub(crate) struct Target {
    /// The Rust target triple.
    pub(crate) triple: &'static str,
    /// Debian's GNU triple: the linker is `<gnu>-gcc`, the C library lives in `/usr/<gnu>`.
    gnu: &'static str,
    /// The qemu-user binary that runs its programs.
    qemu: &'static str,
    /// The package with the cross linker.
    gcc_package: &'static str,
    /// The package with the target's C library and start files.
    libc_package: &'static str,
    /// Whether the `no_std` runs ([`NO_STD_RUNS`]) test other code than the default run:
    /// only where the crates pick SIMD kernels at run time, which takes `std`.
    no_std_differs: bool,
}

/// The package with every `qemu-<arch>` user-mode emulator.
const QEMU_PACKAGE: &str = "qemu-user";

/// The targets, in the order they run.
pub(crate) const TARGETS: &[Target] = &[
    // Little-endian 64-bit without the x86 kernels.
    Target {
        triple: "aarch64-unknown-linux-gnu",
        gnu: "aarch64-linux-gnu",
        qemu: "qemu-aarch64",
        gcc_package: "gcc-aarch64-linux-gnu",
        libc_package: "libc6-dev-arm64-cross",
        no_std_differs: false,
    },
    // Big-endian: the word-at-a-time code must not assume little-endian loads.
    Target {
        triple: "s390x-unknown-linux-gnu",
        gnu: "s390x-linux-gnu",
        qemu: "qemu-s390x",
        gcc_package: "gcc-s390x-linux-gnu",
        libc_package: "libc6-dev-s390x-cross",
        no_std_differs: false,
    },
    // A 32-bit `usize`, and x86: with `std`, wirebytes-mutf8 picks its AVX2 and SSSE3
    // kernels at run time (qemu emulates them), so the portable code runs only without it.
    Target {
        triple: "i686-unknown-linux-gnu",
        gnu: "i686-linux-gnu",
        qemu: "qemu-i386",
        gcc_package: "gcc-i686-linux-gnu",
        libc_package: "libc6-dev-i386-cross",
        no_std_differs: true,
    },
];

impl Target {
    fn linker(&self) -> String {
        format!("{}-gcc", self.gnu)
    }

    /// The target's C library, for the linker and for qemu's `-L`.
    fn sysroot(&self) -> PathBuf {
        Path::new("/usr").join(self.gnu)
    }
}

/// One cargo invocation on a target.
#[derive(Debug)]
struct Run {
    /// Shown in the table.
    name: &'static str,
    /// `check` or `test`.
    command: &'static str,
    /// What follows `cargo <command> --target <triple>`.
    args: &'static [&'static str],
}

/// The runs on every target: the four library crates pass their tests with their default
/// features, and the whole workspace compiles (benches and xtask too).
const RUNS: &[Run] = &[
    Run {
        name: "test, default features",
        command: "test",
        args: &[
            "-p",
            "wirebytes-ascii",
            "-p",
            "wirebytes-charset",
            "-p",
            "wirebytes-mutf8",
            "-p",
            "wirebytes-rope",
        ],
    },
    Run {
        name: "check workspace, all targets",
        command: "check",
        args: &["--workspace", "--all-targets"],
    },
];

/// The `no_std` crates' tests without `std`, where that changes the code under test
/// ([`Target::no_std_differs`]); elsewhere the portable code runs either way.
const NO_STD_RUNS: &[Run] = &[
    Run {
        name: "test ascii, --features alloc",
        command: "test",
        args: &[
            "-p",
            "wirebytes-ascii",
            "--no-default-features",
            "--features",
            "alloc",
        ],
    },
    Run {
        name: "test mutf8, no default features",
        command: "test",
        args: &["-p", "wirebytes-mutf8", "--no-default-features"],
    },
];

/// Tests `names` (all targets when empty) and prints the table.
pub(crate) fn main(root: &Path, names: &[String]) -> ExitCode {
    let available: Vec<&str> = TARGETS.iter().map(|t| t.triple).collect();
    let selected: Vec<&Target> = match crate::select("target", &available, names) {
        Ok(selected) => TARGETS
            .iter()
            .filter(|t| selected.contains(&t.triple))
            .collect(),
        Err(err) => {
            eprintln!("error: {err}");
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();

    let mut rows = Vec::new();
    let mut binaries = Vec::new();
    let not_ready = prepare(root, &selected);
    for target in &selected {
        if let Some(reason) = not_ready.get(target.triple) {
            rows.push(Row::not_run(target.triple, reason));
            continue;
        }
        let no_std_runs = if target.no_std_differs {
            NO_STD_RUNS
        } else {
            &[]
        };
        for run in RUNS.iter().chain(no_std_runs) {
            let (row, times) = match run.command {
                "check" => (check(root, target, run), Vec::new()),
                _ => test(root, target, run),
            };
            rows.push(row);
            binaries.extend(times);
        }
    }

    let report = render(&rows, &binaries, started.elapsed());
    println!("\n{report}");
    let out = crate::bench::target_dir(root).join("wirebytes-cross.md");
    match std::fs::write(&out, &report) {
        Ok(()) => eprintln!("table written to {}", out.display()),
        Err(err) => eprintln!("warning: cannot write {}: {err}", out.display()),
    }
    if rows.iter().all(Row::ok) {
        ExitCode::SUCCESS
    } else {
        eprintln!("error: cross: FAILED (see the table above)");
        ExitCode::FAILURE
    }
}

/// Installs what the targets lack; returns, for each target that is still not ready, why.
fn prepare(root: &Path, targets: &[&Target]) -> BTreeMap<&'static str, String> {
    let mut not_ready = BTreeMap::new();
    // The Rust targets, one at a time (rustup says which one failed).
    for target in targets {
        if rust_target_installed(root, target.triple) {
            continue;
        }
        eprintln!(
            "== the Rust target {} is not installed: rustup target add {0}",
            target.triple
        );
        let status = Command::new("rustup")
            .current_dir(root)
            .args(["target", "add", target.triple])
            .status();
        let failure = match status {
            Ok(s) if s.success() && rust_target_installed(root, target.triple) => continue,
            Ok(s) if s.success() => "rustup succeeded, but rustc still lacks it".to_owned(),
            Ok(s) => format!("`rustup target add {}` failed ({s})", target.triple),
            Err(err) => format!("cannot run rustup: {err}"),
        };
        loud(&format!(
            "cannot install the Rust target {}: {failure}",
            target.triple
        ));
        not_ready.insert(target.triple, format!("Rust target: {failure}"));
    }

    // The Debian packages, all in one apt-get.
    let mut packages: Vec<&str> = Vec::new();
    for target in targets {
        for (_, package) in missing_pieces(target) {
            if !packages.contains(&package) {
                packages.push(package);
            }
        }
    }
    if !packages.is_empty() {
        eprintln!("== missing Debian packages: {}", packages.join(" "));
        if let Err(err) = apt_install(&packages) {
            loud(&format!("cannot install {}: {err}", packages.join(" ")));
        }
        for target in targets {
            let still: Vec<String> = missing_pieces(target)
                .into_iter()
                .map(|(piece, package)| format!("{piece} (package {package})"))
                .collect();
            if !still.is_empty() {
                let reason = format!("missing: {}", still.join(", "));
                loud(&format!("{}: {reason}", target.triple));
                not_ready.entry(target.triple).or_insert(reason);
            }
        }
    }
    not_ready
}

/// Whether the toolchain that `rust-toolchain.toml` picks has the standard library for
/// `triple`.
fn rust_target_installed(root: &Path, triple: &str) -> bool {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let Ok(out) = Command::new(rustc)
        .current_dir(root)
        .args(["--print", "target-libdir", "--target", triple])
        .stderr(Stdio::null())
        .output()
    else {
        return false;
    };
    let libdir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    out.status.success()
        && std::fs::read_dir(libdir).is_ok_and(|entries| {
            entries
                .filter_map(Result::ok)
                .any(|e| e.file_name().to_string_lossy().starts_with("libstd-"))
        })
}

/// What `target` lacks of the linker, the C library and qemu, each with its Debian package.
fn missing_pieces(target: &Target) -> Vec<(String, &'static str)> {
    let mut missing = Vec::new();
    let linker = target.linker();
    if !on_path(&linker) {
        missing.push((format!("{linker} on PATH"), target.gcc_package));
    }
    let crt1 = target.sysroot().join("lib").join("crt1.o");
    if !crt1.is_file() {
        missing.push((crt1.display().to_string(), target.libc_package));
    }
    if !on_path(target.qemu) {
        missing.push((format!("{} on PATH", target.qemu), QEMU_PACKAGE));
    }
    missing
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

/// `apt-get update` and `apt-get install -y` of `packages`, non-interactive, as root.
fn apt_install(packages: &[&str]) -> Result<(), String> {
    let command = format!(
        "apt-get update && apt-get install -y --no-install-recommends {}",
        packages.join(" ")
    );
    if !on_path("apt-get") {
        return Err(format!(
            "no apt-get on this machine: install the equivalent of `{command}`"
        ));
    }
    let uid = Command::new("id").arg("-u").output();
    if !uid.is_ok_and(|out| out.stdout.trim_ascii() == b"0") {
        return Err(format!("not root: run `sudo sh -c '{command}'`"));
    }
    for args in [
        &["update"][..],
        &[&["install", "-y", "--no-install-recommends"][..], packages].concat(),
    ] {
        eprintln!("== apt-get {}", args.join(" "));
        let status = Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdin(Stdio::null())
            .stdout(crate::bench::stderr_handle())
            .status()
            .map_err(|err| format!("cannot run apt-get: {err}"))?;
        if !status.success() {
            return Err(format!("`apt-get {}` failed ({status})", args.join(" ")));
        }
    }
    Ok(())
}

/// Prints `message` so that it stands out in a long log.
fn loud(message: &str) {
    eprintln!("\n!!!!!!!!\nerror: {message}\n!!!!!!!!\n");
}

/// The outcome of one run on one target.
#[derive(Debug)]
struct Row {
    target: &'static str,
    run: &'static str,
    /// Tests passed and failed; `None` for a `cargo check`.
    tests: Option<(u64, u64)>,
    /// Time spent compiling: all of a `cargo check`, the `--no-run` part of a `cargo test`.
    build: Duration,
    /// Time spent running the tests.
    test: Duration,
    /// Why the run failed, when it did.
    error: Option<String>,
}

impl Row {
    fn not_run(target: &'static str, reason: &str) -> Row {
        Row {
            target,
            run: "(not run)",
            tests: None,
            build: Duration::ZERO,
            test: Duration::ZERO,
            error: Some(reason.to_owned()),
        }
    }

    fn ok(&self) -> bool {
        self.error.is_none()
    }
}

/// The time one test binary (or one crate's doctests) took.
#[derive(Debug)]
struct BinaryTime {
    target: &'static str,
    run: &'static str,
    binary: String,
    passed: u64,
    failed: u64,
    seconds: f64,
}

/// Runs `cargo check` as `run` says on `target`.
fn check(root: &Path, target: &Target, run: &'static Run) -> Row {
    eprintln!("\n== {}: {}", target.triple, run.name);
    let started = Instant::now();
    let status = Command::new(crate::cargo())
        .current_dir(root)
        .args([run.command, "--target", target.triple])
        .args(run.args)
        .status();
    let error = match status {
        Ok(s) if s.success() => None,
        Ok(s) => Some(format!("cargo {} failed ({s})", run.command)),
        Err(err) => Some(format!("cannot run cargo: {err}")),
    };
    if let Some(err) = &error {
        loud(&format!("{}: {}: {err}", target.triple, run.name));
    }
    Row {
        target: target.triple,
        run: run.name,
        tests: None,
        build: started.elapsed(),
        test: Duration::ZERO,
        error,
    }
}

/// Builds and runs `run` (a `cargo test`) on `target`.
fn test(root: &Path, target: &Target, run: &'static Run) -> (Row, Vec<BinaryTime>) {
    let mut row = Row {
        target: target.triple,
        run: run.name,
        tests: None,
        build: Duration::ZERO,
        test: Duration::ZERO,
        error: None,
    };
    let cargo_test = |extra: &[&str]| {
        let mut cmd = Command::new(crate::cargo());
        cmd.current_dir(root)
            .args([run.command, "--target", target.triple])
            .args(run.args)
            .args(extra)
            .env(wirebytes_testkit::SCALE_VAR, "reduced");
        cmd
    };

    eprintln!("\n== {}: {} (build)", target.triple, run.name);
    let started = Instant::now();
    let names = match build(cargo_test(&[
        "--no-run",
        "--message-format",
        "json-render-diagnostics",
    ])) {
        Ok(names) => names,
        Err(err) => {
            loud(&format!("{}: {}: {err}", target.triple, run.name));
            row.error = Some(err);
            return (row, Vec::new());
        }
    };
    row.build = started.elapsed();

    eprintln!(
        "\n== {}: {} (test, under {})",
        target.triple, run.name, target.qemu
    );
    let started = Instant::now();
    let mut tally = Tally::new(names);
    let outcome = run_merged(cargo_test(&["--no-fail-fast"]), |line| tally.line(line));
    row.test = started.elapsed();
    let passed = tally.binaries.iter().map(|b| b.passed).sum();
    let failed = tally.binaries.iter().map(|b| b.failed).sum();
    row.tests = Some((passed, failed));
    row.error = match outcome {
        Err(err) => Some(err),
        Ok(()) if failed > 0 => Some(format!("{failed} tests failed")),
        Ok(()) if passed == 0 => Some("no test ran".to_owned()),
        Ok(()) => None,
    };
    if let Some(err) = &row.error {
        loud(&format!("{}: {}: {err}", target.triple, run.name));
    }
    let times = tally
        .binaries
        .into_iter()
        .map(|b| BinaryTime {
            target: target.triple,
            run: run.name,
            binary: b.name,
            passed: b.passed,
            failed: b.failed,
            seconds: b.seconds,
        })
        .collect();
    (row, times)
}

/// Runs `cargo test --no-run --message-format json-render-diagnostics`; returns the name to
/// show for each test executable (by file name), e.g. `wirebytes-ascii tests/exhaustive.rs`.
fn build(mut cmd: Command) -> Result<BTreeMap<String, String>, String> {
    let out = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|err| format!("cannot run cargo: {err}"))?;
    if !out.status.success() {
        return Err(format!("the build failed ({})", out.status));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter_map(|message| executable_name(&message))
        .collect())
}

/// For a compiler-artifact message of a test executable: its file name and a readable name.
fn executable_name(message: &Value) -> Option<(String, String)> {
    if message["reason"] != "compiler-artifact" {
        return None;
    }
    let file = Path::new(message["executable"].as_str()?)
        .file_name()?
        .to_string_lossy()
        .into_owned();
    // The package directory is named after the package.
    let package = Path::new(message["manifest_path"].as_str()?)
        .parent()?
        .file_name()?
        .to_string_lossy()
        .into_owned();
    let is_lib = message["target"]["kind"]
        .as_array()
        .is_some_and(|kinds| kinds.iter().any(|k| k == "lib"));
    let what = if is_lib {
        "unit tests".to_owned()
    } else {
        format!("tests/{}.rs", message["target"]["name"].as_str()?)
    };
    Some((file, format!("{package} {what}")))
}

/// Runs `cmd` with its stdout and stderr merged into one pipe (so that cargo's `Running`
/// lines and the tests' results stay in order), copying each line to our stderr and
/// handing it to `each`.
pub(crate) fn run_merged(mut cmd: Command, mut each: impl FnMut(&str)) -> Result<(), String> {
    let (reader, writer) = std::io::pipe().map_err(|err| format!("cannot make a pipe: {err}"))?;
    let writer2 = writer
        .try_clone()
        .map_err(|err| format!("cannot make a pipe: {err}"))?;
    let mut child = cmd
        .stdout(writer)
        .stderr(writer2)
        .spawn()
        .map_err(|err| format!("cannot run cargo: {err}"))?;
    // The command holds the pipe's write ends: drop them, or the read below never ends.
    drop(cmd);
    let mut reader = BufReader::new(reader);
    let mut line = Vec::new();
    let mut err = std::io::stderr();
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {
                let _ = err.write_all(&line);
                each(String::from_utf8_lossy(&line).trim_end());
            }
            Err(e) => return Err(format!("reading cargo's output: {e}")),
        }
    }
    let status = child
        .wait()
        .map_err(|e| format!("waiting for cargo: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("cargo test failed ({status})"))
    }
}

/// One test binary's results, from its `test result:` line.
#[derive(Debug, Clone, PartialEq)]
struct Binary {
    name: String,
    passed: u64,
    failed: u64,
    seconds: f64,
}

/// Reads `cargo test`'s output line by line: which binary runs, and its results.
#[derive(Debug)]
struct Tally {
    /// Names of the executables by file name (from the build).
    names: BTreeMap<String, String>,
    /// The binary whose output follows.
    current: Option<String>,
    binaries: Vec<Binary>,
}

impl Tally {
    fn new(names: BTreeMap<String, String>) -> Tally {
        Tally {
            names,
            current: None,
            binaries: Vec::new(),
        }
    }

    fn line(&mut self, line: &str) {
        let line = line.trim();
        if let Some(running) = line.strip_prefix("Running ") {
            // `Running tests/x.rs (target/<triple>/debug/deps/x-0123abcd)`
            let path = running
                .rsplit_once('(')
                .and_then(|(_, p)| p.strip_suffix(')'))
                .unwrap_or(running);
            let file = Path::new(path)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default();
            self.current = Some(
                self.names
                    .get(&file)
                    .cloned()
                    .unwrap_or_else(|| running.to_owned()),
            );
        } else if let Some(krate) = line.strip_prefix("Doc-tests ") {
            self.current = Some(format!("{} doctests", krate.replace('_', "-")));
        } else if let Some(counts) = TestResult::of_line(line) {
            self.binaries.push(Binary {
                name: self.current.take().unwrap_or_else(|| "?".to_owned()),
                passed: counts.passed,
                failed: counts.failed,
                seconds: counts.seconds,
            });
        }
    }
}

/// What one test binary's `test result:` line of `cargo test` says.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct TestResult {
    pub(crate) passed: u64,
    pub(crate) failed: u64,
    pub(crate) ignored: u64,
    pub(crate) seconds: f64,
}

impl TestResult {
    /// The counts of `line` (trimmed) if it is a `test result:` line; a count it lacks is 0.
    pub(crate) fn of_line(line: &str) -> Option<TestResult> {
        let result = line.trim().strip_prefix("test result: ")?;
        let count = |what: &str| {
            result
                .split(';')
                .find_map(|part| {
                    part.trim()
                        .trim_start_matches("ok. ")
                        .trim_start_matches("FAILED. ")
                        .strip_suffix(what)
                })
                .and_then(|n| n.trim().parse().ok())
                .unwrap_or(0)
        };
        let seconds = result
            .split_once("finished in ")
            .and_then(|(_, t)| t.trim_end_matches('s').parse().ok())
            .unwrap_or(0.0);
        Some(TestResult {
            passed: count(" passed"),
            failed: count(" failed"),
            ignored: count(" ignored"),
            seconds,
        })
    }
}

/// The summary table, then the time of every test binary.
fn render(rows: &[Row], binaries: &[BinaryTime], elapsed: Duration) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "### cargo xtask cross (under qemu-user, {}=reduced)\n",
        wirebytes_testkit::SCALE_VAR
    );
    let _ = writeln!(
        out,
        "| target | run | tests passed | failed | build | test | result |"
    );
    let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---|");
    for row in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {:.0} s | {:.0} s | {} |",
            row.target,
            row.run,
            row.tests
                .map_or("—".to_owned(), |(passed, _)| passed.to_string()),
            row.tests
                .map_or("—".to_owned(), |(_, failed)| failed.to_string()),
            row.build.as_secs_f64(),
            row.test.as_secs_f64(),
            match &row.error {
                None => "ok".to_owned(),
                Some(err) => format!("**FAILED**: {err}"),
            }
        );
    }
    let failed = rows.iter().filter(|r| !r.ok()).count();
    let _ = writeln!(
        out,
        "\n{} in {:.1} min.",
        if failed == 0 {
            "All targets pass".to_owned()
        } else {
            format!("FAILED: {failed} of {} rows", rows.len())
        },
        elapsed.as_secs_f64() / 60.0
    );
    if !binaries.is_empty() {
        let _ = writeln!(out, "\n#### Each test binary\n");
        let _ = writeln!(out, "| target | run | binary | passed | failed | time |");
        let _ = writeln!(out, "|---|---|---|---:|---:|---:|");
        for b in binaries {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {:.2} s |",
                b.target, b.run, b.binary, b.passed, b.failed, b.seconds
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_names_each_targets_linker_and_runner() {
        let root = crate::root::find_workspace_root(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
        let config = std::fs::read_to_string(root.join(".cargo").join("config.toml")).unwrap();
        let toolchain = std::fs::read_to_string(root.join("rust-toolchain.toml")).unwrap();
        for t in TARGETS {
            let block = format!(
                "[target.{}]\nlinker = \"{}\"\nrunner = [\"{}\", \"-L\", \"{}\"]\n",
                t.triple,
                t.linker(),
                t.qemu,
                t.sysroot().display()
            );
            assert!(config.contains(&block), "{block} not in .cargo/config.toml");
            assert!(
                toolchain.contains(&format!("\"{}\"", t.triple)),
                "{} not in rust-toolchain.toml's targets",
                t.triple
            );
        }
    }

    #[test]
    fn a_test_result_line_gives_its_counts() {
        let line = "test result: FAILED. 12 passed; 3 failed; 2 ignored; 0 measured; 0 filtered out; finished in 1.50s";
        assert_eq!(
            TestResult::of_line(line),
            Some(TestResult {
                passed: 12,
                failed: 3,
                ignored: 2,
                seconds: 1.5
            })
        );
        assert_eq!(
            TestResult::of_line("  test result: ok. 0 passed; 1 failed"),
            Some(TestResult {
                failed: 1,
                ..TestResult::default()
            })
        );
        assert_eq!(TestResult::of_line("test foo ... ok"), None);
    }

    #[test]
    fn the_tally_reads_cargo_test_output() {
        let names = BTreeMap::from([(
            "exhaustive-0123456789abcdef".to_owned(),
            "wirebytes-ascii tests/exhaustive.rs".to_owned(),
        )]);
        let mut tally = Tally::new(names);
        for line in [
            "   Compiling wirebytes-ascii v0.1.0",
            "     Running tests/exhaustive.rs (target/s390x-unknown-linux-gnu/debug/deps/exhaustive-0123456789abcdef)",
            "test every_u16 ... ok",
            "test result: ok. 12 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 52.01s",
            "     Running tests/other.rs (target/x/debug/deps/other-1111111111111111)",
            "test result: FAILED. 3 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.50s",
            "   Doc-tests wirebytes_ascii",
            "test result: ok. 7 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 1.25s",
        ] {
            tally.line(line);
        }
        let got: Vec<(&str, u64, u64, f64)> = tally
            .binaries
            .iter()
            .map(|b| (b.name.as_str(), b.passed, b.failed, b.seconds))
            .collect();
        assert_eq!(
            got,
            [
                ("wirebytes-ascii tests/exhaustive.rs", 12, 0, 52.01),
                (
                    "tests/other.rs (target/x/debug/deps/other-1111111111111111)",
                    3,
                    2,
                    0.5
                ),
                ("wirebytes-ascii doctests", 7, 0, 1.25),
            ]
        );
    }

    #[test]
    fn a_row_without_tests_or_with_an_error_fails() {
        let row = Row::not_run("s390x-unknown-linux-gnu", "not installed: qemu-user");
        assert!(!row.ok());
        let report = render(&[row], &[], Duration::from_secs(1));
        assert!(
            report.contains("**FAILED**: not installed: qemu-user"),
            "{report}"
        );
        assert!(report.contains("FAILED: 1 of 1 rows"), "{report}");
    }
}
