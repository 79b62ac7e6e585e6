//! `cargo xtask fuzz`: the fuzz targets of `fuzz/` (a cargo-fuzz project), each run for a
//! fixed time.
//!
//! It makes sure of the pieces (the nightly toolchain through rustup, `cargo fuzz` through
//! `cargo install cargo-fuzz`), builds the targets with AddressSanitizer (cargo fuzz's
//! default) on nightly, and runs each one for `--time` seconds on a scratch corpus under
//! `target/fuzz/` that starts as a copy of the committed seeds (`fuzz/corpus/<target>/`),
//! so the committed corpus is never written to. It prints a table: runs, coverage (libFuzzer's
//! `cov:` and `ft:`), corpus size, time and result per target. For a crash it prints the
//! panic, the minimised input in hex (`cargo fuzz tmin`), the input as the target parses it
//! (`cargo fuzz fmt`) and the command that replays it; exit status 1.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use crate::verify::thousands;

/// The toolchain that builds the targets (`-Zsanitizer` is nightly-only).
const TOOLCHAIN: &str = "nightly";

/// How long one input may run before libFuzzer reports it as a hang, in seconds.
const INPUT_TIMEOUT: u64 = 20;

/// How many lines of a crash input's `Debug` are printed.
const SHOWN_LINES: usize = 80;

/// The targets: the files of `fuzz/fuzz_targets/`, by name, sorted.
fn targets(fuzz_dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(fuzz_dir.join("fuzz_targets"))
        .map(|entries| {
            entries
                .filter_map(|entry| {
                    let path = entry.ok()?.path();
                    (path.extension()? == "rs")
                        .then(|| path.file_stem()?.to_str().map(str::to_owned))?
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// What one target's run came to.
#[derive(Debug, Default)]
struct Outcome {
    runs: Option<u64>,
    cov: Option<u64>,
    ft: Option<u64>,
    corpus: Option<u64>,
    time: Duration,
    /// `None` when the run passed; otherwise what went wrong.
    failure: Option<String>,
}

/// Runs `names` (all targets when empty) for `seconds` each and prints the table.
pub(crate) fn main(root: &Path, seconds: u64, names: &[String]) -> ExitCode {
    let fuzz_dir = root.join("fuzz");
    let available = targets(&fuzz_dir);
    let available: Vec<&str> = available.iter().map(String::as_str).collect();
    let selected = match crate::select("fuzz target", &available, names) {
        Ok(selected) => selected,
        Err(err) => {
            eprintln!("error: {err}");
            return ExitCode::from(2);
        }
    };
    if seconds == 0 {
        eprintln!("error: --time must be at least 1 second");
        return ExitCode::from(2);
    }
    let started = Instant::now();
    if let Err(err) = prepare() {
        eprintln!("error: fuzz: {err}");
        return ExitCode::FAILURE;
    }

    eprintln!("== building {} with AddressSanitizer", selected.join(", "));
    let build_started = Instant::now();
    let mut build = cargo_fuzz(&fuzz_dir);
    build.arg("build");
    if !names.is_empty() {
        // One target or all of them: cargo fuzz builds the named one, else every one.
        if let [only] = &selected[..] {
            build.arg(only);
        }
    }
    match build.status() {
        Ok(status) if status.success() => {}
        Ok(status) => {
            eprintln!("error: fuzz: `cargo fuzz build` failed ({status})");
            return ExitCode::FAILURE;
        }
        Err(err) => {
            eprintln!("error: fuzz: cannot run cargo fuzz: {err}");
            return ExitCode::FAILURE;
        }
    }
    let build_time = build_started.elapsed();

    let scratch = crate::bench::target_dir(root).join("fuzz");
    let mut rows = Vec::new();
    for &target in &selected {
        eprintln!("== fuzz {target} for {seconds} s");
        let outcome = run_target(&fuzz_dir, &scratch, target, seconds);
        rows.push((target, outcome));
    }

    println!(
        "\n{}",
        render(&rows, seconds, build_time, started.elapsed())
    );
    if rows.iter().all(|(_, o)| o.failure.is_none()) {
        ExitCode::SUCCESS
    } else {
        eprintln!("error: fuzz: FAILED (see above)");
        ExitCode::FAILURE
    }
}

/// `cargo fuzz` on the nightly toolchain, in `fuzz_dir`. The variables that the cargo running
/// us sets would pin the nested cargo to our toolchain: they are removed.
fn cargo_fuzz(fuzz_dir: &Path) -> Command {
    let mut cmd = Command::new("rustup");
    cmd.args(["run", TOOLCHAIN, "cargo", "fuzz"])
        .current_dir(fuzz_dir)
        .env_remove("CARGO")
        .env_remove("RUSTC")
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("CARGO_TARGET_DIR")
        .stdout(crate::bench::stderr_handle());
    cmd
}

/// Whether `cmd` runs and exits with success, its output discarded.
fn succeeds(cmd: &mut Command) -> bool {
    cmd.stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// Installs the nightly toolchain and cargo-fuzz when they are missing.
fn prepare() -> Result<(), String> {
    if !succeeds(Command::new("rustup").args(["run", TOOLCHAIN, "rustc", "--version"])) {
        eprintln!("== rustup toolchain install {TOOLCHAIN} --profile minimal");
        let status = Command::new("rustup")
            .args(["toolchain", "install", TOOLCHAIN, "--profile", "minimal"])
            .stdout(crate::bench::stderr_handle())
            .status()
            .map_err(|err| format!("cannot run rustup: {err}"))?;
        if !status.success() {
            return Err(format!(
                "`rustup toolchain install {TOOLCHAIN}` failed ({status})"
            ));
        }
    }
    let probe = || {
        succeeds(
            Command::new("rustup")
                .args(["run", TOOLCHAIN, "cargo", "fuzz", "--version"])
                .env_remove("CARGO"),
        )
    };
    if !probe() {
        eprintln!("== cargo install cargo-fuzz");
        let status = Command::new(crate::cargo())
            .args(["install", "cargo-fuzz"])
            .stdout(crate::bench::stderr_handle())
            .status()
            .map_err(|err| format!("cannot run cargo install: {err}"))?;
        if !status.success() || !probe() {
            return Err(format!(
                "`cargo install cargo-fuzz` failed ({status}), or `cargo fuzz` still does not run"
            ));
        }
    }
    Ok(())
}

/// Runs one target on a fresh scratch copy of its seeds; on a crash, minimises it and prints
/// what reproduces it.
fn run_target(fuzz_dir: &Path, scratch: &Path, target: &str, seconds: u64) -> Outcome {
    let corpus = scratch.join("corpus").join(target);
    let artifacts = scratch.join("artifacts").join(target);
    let log_path = scratch.join("logs").join(format!("{target}.log"));
    let mut outcome = Outcome::default();
    if let Err(err) = fresh_corpus(&fuzz_dir.join("corpus").join(target), &corpus)
        .and_then(|()| fs::create_dir_all(&artifacts))
        .and_then(|()| fs::create_dir_all(log_path.parent().expect("logs/")))
    {
        outcome.failure = Some(format!("cannot prepare {}: {err}", scratch.display()));
        return outcome;
    }

    let started = Instant::now();
    let output = cargo_fuzz(fuzz_dir)
        .args(["run", target])
        .arg(&corpus)
        .arg("--")
        .arg(format!("-max_total_time={seconds}"))
        .arg(format!("-timeout={INPUT_TIMEOUT}"))
        .arg(format!("-artifact_prefix={}/", artifacts.display()))
        .arg("-print_final_stats=1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output();
    outcome.time = started.elapsed();
    let output = match output {
        Ok(output) => output,
        Err(err) => {
            outcome.failure = Some(format!("cannot run cargo fuzz: {err}"));
            return outcome;
        }
    };
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    if let Err(err) = fs::write(&log_path, &log) {
        eprintln!("warning: cannot write {}: {err}", log_path.display());
    }
    parse_stats(&log, &mut outcome);
    outcome.corpus = fs::read_dir(&corpus).ok().map(|d| d.count() as u64);

    // libFuzzer also writes the slowest input (`slow-unit-`) when one took over 10 s, which on
    // a loaded machine can be a stall: shown, not a failure.
    let written: Vec<PathBuf> = log
        .lines()
        .filter_map(|line| line.split_once("Test unit written to "))
        .map(|(_, path)| PathBuf::from(path.trim()))
        .collect();
    let is_slow = |path: &PathBuf| {
        path.file_name()
            .and_then(|name| name.to_str())
            .is_some_and(|name| name.starts_with("slow-unit-"))
    };
    for slow in written.iter().filter(|path| is_slow(path)) {
        eprintln!(
            "note: {target}: an input took over 10 s once (replay it to see whether it is slow): {}",
            slow.display()
        );
    }
    let artifact = written.into_iter().find(|path| !is_slow(path));
    if output.status.success() && artifact.is_none() {
        return outcome;
    }
    // libFuzzer names the input by what it did: crash-, timeout-, oom-, leak-...
    let kind = artifact.as_ref().and_then(|path| {
        path.file_name()?
            .to_str()?
            .split('-')
            .next()
            .map(str::to_owned)
    });
    outcome.failure = Some(match (&artifact, kind.as_deref()) {
        (Some(path), Some(kind)) => format!("{kind}: {}", path.display()),
        (Some(path), None) => format!("failed: {}", path.display()),
        (None, _) => format!("failed ({}), no input written", output.status),
    });
    eprintln!(
        "\n!!!!!!!! fuzz target {target} failed; its log: {}",
        log_path.display()
    );
    for line in failure_lines(&log) {
        eprintln!("    {line}");
    }
    if let Some(path) = artifact {
        // Only a crash minimises quickly; a slow input is shown as found.
        let minimise = kind.as_deref() == Some("crash");
        report_crash(fuzz_dir, &artifacts, target, &path, minimise);
    }
    outcome
}

/// Empties `scratch` and copies every seed of `seeds` into it.
fn fresh_corpus(seeds: &Path, scratch: &Path) -> std::io::Result<()> {
    if scratch.exists() {
        fs::remove_dir_all(scratch)?;
    }
    fs::create_dir_all(scratch)?;
    if let Ok(entries) = fs::read_dir(seeds) {
        for entry in entries {
            let path = entry?.path();
            if path.is_file() {
                fs::copy(&path, scratch.join(path.file_name().expect("a file name")))?;
            }
        }
    }
    Ok(())
}

/// The numbers of libFuzzer's last status line (`#RUNS ... cov: N ft: N corp: N/...`), and
/// the run count of its final stats when they are there.
fn parse_stats(log: &str, outcome: &mut Outcome) {
    let field = |line: &str, name: &str| -> Option<u64> {
        let rest = &line[line.find(name)? + name.len()..];
        let number: String = rest
            .trim_start()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        number.parse().ok()
    };
    if let Some(line) = log
        .lines()
        .rfind(|line| line.starts_with('#') && line.contains(" cov: "))
    {
        outcome.runs = line[1..]
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .and_then(|n| n.parse().ok());
        outcome.cov = field(line, " cov:");
        outcome.ft = field(line, " ft:");
    }
    if let Some(runs) = log
        .lines()
        .find_map(|line| field(line, "stat::number_of_executed_units:"))
    {
        outcome.runs = Some(runs);
    }
}

/// The lines of a failed run's log that say what failed: the panic or the sanitizer's report.
fn failure_lines(log: &str) -> Vec<&str> {
    let lines: Vec<&str> = log.lines().collect();
    let start = lines
        .iter()
        .position(|line| line.contains("panicked at") || line.contains("==ERROR:"))
        .unwrap_or(lines.len().saturating_sub(20));
    lines[start..].iter().take(24).copied().collect()
}

/// Minimises the crash input, prints it in hex and as the target parses it, and the command
/// that replays it.
fn report_crash(fuzz_dir: &Path, artifacts: &Path, target: &str, artifact: &Path, minimise: bool) {
    let tmin = minimise.then(|| {
        eprintln!("\n== cargo fuzz tmin {target} {}", artifact.display());
        cargo_fuzz(fuzz_dir)
            .args(["tmin", target])
            .arg(artifact)
            .arg("--")
            .arg("-max_total_time=60")
            .arg(format!("-artifact_prefix={}/", artifacts.display()))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
    });
    let minimised = tmin.and_then(Result::ok).and_then(|out| {
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        // cargo fuzz prints "Minimized artifact:" and then the path, indented.
        let mut lines = text
            .lines()
            .skip_while(|l| !l.contains("Minimized artifact:"));
        lines
            .nth(1)
            .into_iter()
            .chain(lines)
            .map(str::trim)
            .find(|l| !l.is_empty())
            .map(|path| fuzz_dir.join(path))
            .filter(|path| path.is_file())
    });
    let input = minimised.unwrap_or_else(|| {
        if minimise {
            eprintln!("(tmin gave no smaller input: the input as found)");
        }
        artifact.to_path_buf()
    });
    match fs::read(&input) {
        Ok(bytes) => {
            eprintln!("\ninput ({} bytes, {}):", bytes.len(), input.display());
            for line in bytes.chunks(32) {
                let hex: Vec<String> = line.iter().map(|b| format!("{b:02x}")).collect();
                eprintln!("    {}", hex.join(" "));
            }
        }
        Err(err) => eprintln!("cannot read {}: {err}", input.display()),
    }
    if let Ok(out) = cargo_fuzz(fuzz_dir)
        .args(["fmt", target])
        .arg(&input)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
    {
        // cargo fuzz prints the input's `Debug` on stderr, after cargo's own lines.
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let cargo_line = |l: &&str| {
            let l = l.trim_start();
            l.starts_with("Finished") || l.starts_with("Running") || l.starts_with("Compiling")
        };
        let shown: Vec<&str> = text.lines().filter(|l| !cargo_line(l)).collect();
        eprintln!("{}", shown[..shown.len().min(SHOWN_LINES)].join("\n"));
        if shown.len() > SHOWN_LINES {
            eprintln!("... ({} more lines)", shown.len() - SHOWN_LINES);
        }
    }
    eprintln!(
        "replay: (cd {} && cargo +{TOOLCHAIN} fuzz run {target} {})\n",
        fuzz_dir.display(),
        input.display()
    );
}

/// The table of the runs.
fn render(rows: &[(&str, Outcome)], seconds: u64, build: Duration, total: Duration) -> String {
    let number = |n: Option<u64>| n.map_or_else(|| "-".to_owned(), thousands);
    let mut out = format!(
        "fuzz, {seconds} s per target (AddressSanitizer, {TOOLCHAIN})\n\n\
         | target | runs | cov | ft | corpus | time | result |\n\
         |---|---:|---:|---:|---:|---:|---|\n"
    );
    for (target, o) in rows {
        out.push_str(&format!(
            "| {target} | {} | {} | {} | {} | {:.0} s | {} |\n",
            number(o.runs),
            number(o.cov),
            number(o.ft),
            number(o.corpus),
            o.time.as_secs_f64(),
            o.failure.as_deref().unwrap_or("ok"),
        ));
    }
    out.push_str(&format!(
        "\nbuild {:.0} s, {:.0} s in all\n",
        build.as_secs_f64(),
        total.as_secs_f64()
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_come_from_the_last_status_line_and_the_final_stats() {
        let log = "\
INFO: Seed: 1
#2\tINITED cov: 10 ft: 11 corp: 1/1b exec/s: 0 rss: 30Mb
#4096\tpulse  cov: 1,5
#33369\tDONE   cov: 2214 ft: 7421 corp: 948/232Kb lim: 661 exec/s: 1589 rss: 528Mb
stat::number_of_executed_units: 33370
";
        let mut outcome = Outcome::default();
        parse_stats(log, &mut outcome);
        assert_eq!(
            (outcome.runs, outcome.cov, outcome.ft),
            (Some(33370), Some(2214), Some(7421))
        );

        let mut outcome = Outcome::default();
        parse_stats(&log.replace("stat::", "x"), &mut outcome);
        assert_eq!(outcome.runs, Some(33369));
    }

    #[test]
    fn the_failure_lines_start_at_the_panic() {
        let log = "a\nb\nthread '<unnamed>' panicked at fuzz_targets/rope.rs:9:\nfind differs\nc";
        assert_eq!(
            failure_lines(log),
            [
                "thread '<unnamed>' panicked at fuzz_targets/rope.rs:9:",
                "find differs",
                "c"
            ]
        );
    }
}
