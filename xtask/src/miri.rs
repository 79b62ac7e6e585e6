//! `cargo xtask miri`: the library crates' unit and integration tests under Miri, which
//! interprets them and reports undefined behaviour (an access out of bounds or to
//! uninitialised memory, a broken aliasing rule, a misaligned or dangling pointer).
//!
//! It installs what is missing (`rustup component add miri rust-src --toolchain nightly`),
//! prepares Miri's standard library (`cargo +nightly miri setup`), then runs each crate's
//! unit tests and the integration test files [`test_files`] names (not the doc tests,
//! compiled one by one, nor the sweeps, which would take an hour interpreted) with the x86-64 features of the kernels Miri can interpret enabled ([`RUSTFLAGS`]),
//! so that those levels run too; under Miri, `is_x86_feature_detected!` answers what the
//! target features enable. The tests shrink their loops under `cfg(miri)`
//! (`wirebytes_testkit::scale_miri`), and the few that Miri cannot run (a TCP socket, a
//! `java` process, a file) are ignored there. Two crates run at a time, each test binary one
//! test at a time. It prints a table: per crate, the tests passed, failed and ignored, the
//! time, and the kernel levels that ran (which each crate's level test prints). With
//! `--quick` it runs that level test and the hostile-input and boundary files of
//! [`quick_test_files`] alone. A missing piece, a failed build or test, or a crate without tests is a
//! failure: exit status 1.

use std::fmt::Write as _;
use std::io::{BufRead as _, BufReader};
use std::path::Path;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};
use wirebytes_testkit::LEVELS_LINE;

/// The crates whose tests run under Miri, the longest first (so that the lanes end
/// together), and in this order in the table.
const CRATES: &[&str] = &["mutf8", "rope", "ascii", "charset"];

/// The features each crate's tests run with: the ones that add API (and its tests).
fn features(krate: &str) -> &'static str {
    match krate {
        "ascii" | "charset" | "mutf8" => "bytes",
        _ => "",
    }
}

/// The integration test files each crate runs under Miri, beside its unit tests: the edge
/// cases, the hostile inputs and the tests of the kernels' boundaries. The sweeps (the
/// exhaustive, random and property tests) stay native and under qemu: interpreted, even at
/// a few cases each, they would take an hour where all of these take minutes.
fn test_files(krate: &str, quick: bool) -> &'static [&'static str] {
    if quick {
        return quick_test_files(krate);
    }
    match krate {
        "ascii" => &["edges", "hostile", "overshoot", "put"],
        "charset" => &["hostile"],
        "mutf8" => &["hostile", "rewrite_blocks", "buf", "records", "allocations"],
        "rope" => &["hostile", "builder", "buf", "queue"],
        _ => &[],
    }
}

/// With `--quick` (what CI runs): the hostile inputs and the tests of the kernels' and the
/// builder's boundaries alone, without the unit tests and the longer record and `Buf` files.
fn quick_test_files(krate: &str) -> &'static [&'static str] {
    match krate {
        "ascii" => &["hostile", "overshoot"],
        "charset" => &["hostile"],
        "mutf8" => &["hostile", "rewrite_blocks"],
        "rope" => &["hostile", "builder"],
        _ => &[],
    }
}

/// How many crates run at once: Miri interprets on one thread per process.
const LANES: usize = 2;

/// The target features enabled under Miri: those of the SSSE3 and AVX2 kernels, whose
/// intrinsics Miri interprets. The AVX-512 kernels stay off: with them enabled, Miri stops at
/// the first `vpermb` of mutf8's rewrite (`llvm.x86.avx512.permvar.qi.512` is not among the
/// intrinsics it implements).
const RUSTFLAGS: &str =
    "-C target-feature=+ssse3,+sse4.1,+sse4.2,+popcnt,+avx,+avx2,+bmi1,+bmi2,+lzcnt";

/// The unit test of each crate's `levels` module that prints [`LEVELS_LINE`].
const LEVEL_TEST: &str = "levels::tests::the_levels_start_portable_and_are_named_once";

/// The outcome of one crate's tests.
#[derive(Debug, Default)]
struct Row {
    krate: &'static str,
    passed: u64,
    failed: u64,
    ignored: u64,
    binaries: u64,
    time: Duration,
    levels: Option<String>,
    error: Option<String>,
}

pub(crate) fn main(root: &Path, quick: bool, names: &[String]) -> ExitCode {
    let crates = match crate::select("crate", CRATES, names) {
        Ok(crates) => crates,
        Err(err) => {
            eprintln!("error: {err}");
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();
    if let Err(err) = prepare(root) {
        eprintln!("\n!!!!!!!!\nerror: {err}\n!!!!!!!!\n");
        return ExitCode::FAILURE;
    }
    let setup = started.elapsed();
    // The crates in `LANES` lanes, each lane taking the next crate when it is done; the
    // rows come back in the crates' order.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let rows: Vec<Row> = std::thread::scope(|scope| {
        let lanes: Vec<_> = (0..LANES)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(krate) = crates.get(i) else {
                            return done;
                        };
                        done.push((i, test(root, krate, quick)));
                    }
                })
            })
            .collect();
        let mut all: Vec<(usize, Row)> = lanes
            .into_iter()
            .flat_map(|lane| lane.join().expect("a lane panicked"))
            .collect();
        all.sort_by_key(|&(i, _)| i);
        all.into_iter().map(|(_, row)| row).collect()
    });
    let table = render(&rows, setup, started.elapsed());
    println!("\n{table}");
    if rows.iter().all(|row| row.error.is_none()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `cargo +nightly`, through rustup, without the variables of the cargo that runs us.
fn nightly_cargo(root: &Path) -> Command {
    let mut cmd = Command::new("cargo");
    cmd.current_dir(root)
        .arg("+nightly")
        .env_remove("CARGO")
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("RUSTC")
        .env_remove("RUSTDOC");
    cmd
}

/// Installs Miri and the standard library's source for nightly when missing, then builds
/// Miri's standard library.
fn prepare(root: &Path) -> Result<(), String> {
    let installed = Command::new("rustup")
        .args(["component", "list", "--installed", "--toolchain", "nightly"])
        .output()
        .map_err(|e| format!("cannot run rustup: {e}"))?;
    if !installed.status.success() {
        return Err("no nightly toolchain (`rustup toolchain install nightly`)".to_owned());
    }
    let list = String::from_utf8_lossy(&installed.stdout);
    let has = |component: &str| list.lines().any(|line| line.starts_with(component));
    if !has("miri") || !has("rust-src") {
        eprintln!("\n== rustup component add miri rust-src --toolchain nightly");
        let status = Command::new("rustup")
            .args([
                "component",
                "add",
                "miri",
                "rust-src",
                "--toolchain",
                "nightly",
            ])
            .status()
            .map_err(|e| format!("cannot run rustup: {e}"))?;
        if !status.success() {
            return Err(format!(
                "rustup component add miri rust-src failed ({status})"
            ));
        }
    }
    eprintln!("\n== cargo +nightly miri setup");
    let status = nightly_cargo(root)
        .args(["miri", "setup"])
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("cargo +nightly miri setup failed ({status})"))
    }
}

/// Runs one crate's unit and integration tests under Miri.
fn test(root: &Path, krate: &'static str, quick: bool) -> Row {
    let package = format!("wirebytes-{krate}");
    eprintln!(
        "\n== {package}: cargo +nightly miri test{} --test {}",
        if quick { "" } else { " --lib" },
        test_files(krate, quick).join(" --test ")
    );
    let started = Instant::now();
    let mut row = Row {
        krate,
        ..Row::default()
    };
    // The test binaries and the filter of each `cargo miri test`: with `--quick`, the level
    // test of the unit tests (for the levels line), then the files.
    let mut runs: Vec<(Vec<String>, Option<&str>)> = Vec::new();
    let files = test_files(krate, quick)
        .iter()
        .flat_map(|file| ["--test".to_owned(), (*file).to_owned()]);
    if quick {
        runs.push((vec!["--lib".to_owned()], Some(LEVEL_TEST)));
        runs.push((files.collect(), None));
    } else {
        runs.push((
            std::iter::once("--lib".to_owned()).chain(files).collect(),
            None,
        ));
    }
    let mut failure = None;
    for (targets, filter) in runs {
        let mut cmd = nightly_cargo(root);
        cmd.args(["miri", "test", "-p", &package, "--no-fail-fast"]);
        cmd.args(&targets);
        if !features(krate).is_empty() {
            cmd.args(["--features", features(krate)]);
        }
        // One test at a time: with a second thread, Miri tracks every access for data
        // races, which doubles the time of the tests that spawn none.
        cmd.args(["--", "--show-output", "--test-threads=1"]);
        cmd.args(filter);
        let child = cmd
            .env("RUSTFLAGS", RUSTFLAGS)
            .stdout(Stdio::piped())
            .spawn();
        let mut child = match child {
            Ok(child) => child,
            Err(err) => {
                row.error = Some(format!("cannot run cargo: {err}"));
                return row;
            }
        };
        if let Some(stdout) = child.stdout.take() {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                println!("[{krate}] {line}");
                row.line(&line);
            }
        }
        match child.wait() {
            Err(err) => failure = Some(format!("waiting for cargo: {err}")),
            Ok(s) if !s.success() => failure = Some(format!("cargo miri test failed ({s})")),
            Ok(_) => {}
        }
    }
    row.time = started.elapsed();
    row.error = match failure {
        Some(err) if row.failed == 0 => Some(err),
        _ if row.failed > 0 => Some(format!("{} tests failed", row.failed)),
        _ if row.passed == 0 => Some("no test ran".to_owned()),
        _ if row.levels.is_none() => Some("the level test did not run".to_owned()),
        _ => None,
    };
    if let Some(err) = &row.error {
        eprintln!("\n!!!!!!!!\nerror: {package}: {err}\n!!!!!!!!\n");
    }
    row
}

impl Row {
    /// Reads one line of `cargo miri test`'s output.
    fn line(&mut self, line: &str) {
        let line = line.trim();
        if let Some(levels) = line.strip_prefix(LEVELS_LINE) {
            self.levels = Some(levels.trim().to_owned());
        } else if let Some(counts) = crate::cross::TestResult::of_line(line) {
            self.passed += counts.passed;
            self.failed += counts.failed;
            self.ignored += counts.ignored;
            self.binaries += 1;
        }
    }
}

/// The table of the run.
fn render(rows: &[Row], setup: Duration, elapsed: Duration) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "### cargo xtask miri (RUSTFLAGS=\"{RUSTFLAGS}\")\n");
    let _ = writeln!(
        out,
        "| crate | binaries | passed | failed | ignored | time | levels that ran | result |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---|---|");
    for row in rows {
        let _ = writeln!(
            out,
            "| wirebytes-{} | {} | {} | {} | {} | {:.0} s | {} | {} |",
            row.krate,
            row.binaries,
            row.passed,
            row.failed,
            row.ignored,
            row.time.as_secs_f64(),
            row.levels.as_deref().unwrap_or("?"),
            match &row.error {
                None => "ok".to_owned(),
                Some(err) => format!("**FAILED**: {err}"),
            }
        );
    }
    let failed = rows.iter().filter(|row| row.error.is_some()).count();
    let _ = writeln!(
        out,
        "\n{} in {:.1} min (setup {:.0} s).",
        if failed == 0 {
            "Miri found nothing".to_owned()
        } else {
            format!("FAILED: {failed} of {} crates", rows.len())
        },
        elapsed.as_secs_f64() / 60.0,
        setup.as_secs_f64()
    );
    out
}

#[cfg(test)]
mod tests {
    use super::Row;

    #[test]
    fn the_row_reads_cargo_miri_test_output() {
        let mut row = Row::default();
        for line in [
            "     Running unittests src/lib.rs (target/miri/x86_64-unknown-linux-gnu/debug/deps/x)",
            "levels under test: portable ssse3 avx2",
            "test result: ok. 12 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 52.01s",
            "test result: FAILED. 3 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.50s",
        ] {
            row.line(line);
        }
        assert_eq!(
            (row.passed, row.failed, row.ignored, row.binaries),
            (15, 2, 1, 2)
        );
        assert_eq!(row.levels.as_deref(), Some("portable ssse3 avx2"));
    }
}
