//! `cargo xtask mutants`: mutation testing of the library crates with cargo-mutants, which
//! changes one thing at a time in a copy of the workspace (an operator, a constant, a
//! function's result), runs the crate's tests on it, and reports the changes no test noticed.
//!
//! It installs cargo-mutants when `cargo mutants` does not run, then, per crate, mutates the
//! library's code with every feature on (`--all-features`: feature-gated code is tested
//! too), one build at a time, all selected crates in one run (one copy, one baseline build),
//! into `target/mutants/mutants.out/`. cargo-mutants works on a copy of the workspace that
//! this command makes in `target/mutants/tree/`, with every symbolic link replaced by the
//! file it names: the sources the crates share from `build-support/` are mutated in each
//! crate that includes them (cargo-mutants refuses to write through a link). The crate's test doors
//! (`levels`, `reference`, `counters`, `counting`: test apparatus, never shipped to a user's build) are
//! not mutated, and the tests run without the doctests (compiled one by one, they would double
//! each mutant's time; every doctest's claim is also a test's).
//!
//! - `--sample N`: a sample of one mutant in N of each crate, picked by a hash of what does
//!   not move with the code around it (see [`sample`]): the same mutants stay in the sample
//!   as the code is edited, so a sample run in parts (`--resume`) adds up.
//! - `--quick` (what CI runs): the kernel selection alone, the dispatch code of each crate's
//!   `src/arch/mod.rs` ([`QUICK_FUNCTIONS`]), with the unit tests and `tests/kernels.rs`;
//!   a few minutes.
//!
//! The tests run at the reduced size first (`WIREBYTES_TEST_SCALE=reduced`, as under qemu:
//! the exhaustive loops cut to a sample; wirebytes-mutf8's suite in 8 s instead of 57,
//! charset's in 20 instead of 38, ascii's in 8 instead of 17), and the mutants they miss run
//! again at the full size, which settles them; `--full-size` runs every mutant at the full
//! size from the start.
//!
//! A mutant no test notices is *missed*, unless the crate's `mutants-equivalent.txt` lists it:
//! then it is *equivalent* (the change alters neither the output nor the speed, e.g. `1 << 0`
//! made `1 >> 0`), with the reason given there. The table shows, per crate and file, the
//! mutants caught, missed, equivalent, unviable (the change did not compile) and timed out
//! (the change made a test loop: caught too), then the missed ones by name. A line of the
//! list may pin its mutant to a piece of its source line (` @ `, see [`Equivalent`]). An equivalence
//! line that names no mutant cargo-mutants generates is an error, so the list stays true as
//! the code moves. Exit status 1 when a mutant is missed, a listing is stale or a run fails.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

/// The library crates, by short name.
const CRATES: &[&str] = &["ascii", "charset", "mutf8", "rope"];

/// The files of each crate never mutated: the test doors.
const EXCLUDED: &[&str] = &[
    "src/levels.rs",
    "src/reference.rs",
    "src/counters.rs",
    "src/counting.rs",
];

/// With `--quick`: the code of `src/arch/mod.rs` that chooses the kernels (the level bits,
/// the question to the CPU and the level it makes of the answer, the kept answer, the level
/// list), as a regular expression over cargo-mutants' mutant names.
const QUICK_FUNCTIONS: &str =
    r"(in Kernels::(ask|bits|detect|levels|level_of|level_for)$)|(replace << with >>$)";

/// One mutant's outcome, as cargo-mutants files it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Caught,
    Missed,
    Equivalent,
    Unviable,
    Timeout,
}

/// The outcome files of cargo-mutants' output directory, each with its outcome.
const OUTCOME_FILES: [(&str, Outcome); 4] = [
    ("caught.txt", Outcome::Caught),
    ("missed.txt", Outcome::Missed),
    ("unviable.txt", Outcome::Unviable),
    ("timeout.txt", Outcome::Timeout),
];

/// One line of a crate's `mutants-equivalent.txt`: a mutant's name as cargo-mutants prints it,
/// with the path from the crate's directory and without `:LINE:COLUMN`, then ` # ` and why no
/// test can notice it. A line covers one mutant: where a function has the same change at two
/// places, each equivalent one has its line.
///
/// Where a function has the same change at places some of which a test notices, the name is
/// followed by ` @ ` and a piece of the source line the change is made in, around the
/// changed operator: the line covers only a mutant whose line holds that text over its
/// column. So a line of the list cannot stand for another mutant of its name that becomes
/// missed later.
#[derive(Debug, PartialEq, Eq)]
struct Equivalent {
    name: String,
    at: Option<String>,
    reason: String,
}

impl Equivalent {
    /// Whether this line of the list covers the mutant `line` (a full line of cargo-mutants'
    /// output, `crates/…/src/a.rs:LINE:COLUMN: what`), reading the mutated file under `root`
    /// when the line gives a piece of source.
    fn covers(&self, root: &Path, krate_dir: &str, line: &str) -> bool {
        if short_name(krate_dir, line).0 != self.name {
            return false;
        }
        let Some(at) = &self.at else {
            return true;
        };
        let Some((file, number, column)) = position(krate_dir, line) else {
            return false;
        };
        let Ok(text) = fs::read_to_string(root.join(krate_dir).join(file)) else {
            return false;
        };
        let Some(source) = text.lines().nth(number.saturating_sub(1)) else {
            return false;
        };
        // cargo-mutants counts columns in chars from 1.
        let Some((byte, _)) = source.char_indices().nth(column.saturating_sub(1)) else {
            return false;
        };
        source
            .match_indices(at.as_str())
            .any(|(start, piece)| (start..start + piece.len()).contains(&byte))
    }
}

/// The file, line and column of the mutant `line` (`crates/…/src/a.rs:LINE:COLUMN: what`),
/// the file from the crate's directory.
fn position<'a>(krate_dir: &str, line: &'a str) -> Option<(&'a str, usize, usize)> {
    let line = line.trim();
    let line = line.strip_prefix(krate_dir).unwrap_or(line);
    let line = line.strip_prefix('/').unwrap_or(line);
    let (location, _) = line.split_once(": ")?;
    let mut parts = location.split(':');
    let file = parts.next()?;
    let number = parts.next()?.parse().ok()?;
    let column = parts.next()?.parse().ok()?;
    Some((file, number, column))
}

/// The lines of an equivalence list (`#` starts a comment line; blank lines are skipped).
///
/// # Errors
///
/// A line without a reason, with its number.
fn parse_equivalents(text: &str) -> Result<Vec<Equivalent>, String> {
    let mut out = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.split_once(" # ") {
            Some((name, reason)) if !name.trim().is_empty() && !reason.trim().is_empty() => {
                let (name, at) = match name.split_once(" @ ") {
                    Some((name, at)) if !at.trim().is_empty() => (name, Some(at.trim().to_owned())),
                    Some(_) => {
                        return Err(format!("line {}: nothing after ` @ `: {line}", number + 1));
                    }
                    None => (name, None),
                };
                out.push(Equivalent {
                    name: name.trim().to_owned(),
                    at,
                    reason: reason.trim().to_owned(),
                });
            }
            _ => return Err(format!("line {}: no ` # ` and reason: {line}", number + 1)),
        }
    }
    Ok(out)
}

/// A mutant's name without the crate's directory and without `:LINE:COLUMN`:
/// `crates/wirebytes-rope/src/arch/mod.rs:32:26: replace << with >>` becomes
/// `src/arch/mod.rs: replace << with >>`. Also its file (`src/arch/mod.rs`).
fn short_name(krate_dir: &str, line: &str) -> (String, String) {
    let line = line.trim();
    let line = line.strip_prefix(krate_dir).unwrap_or(line);
    let line = line.strip_prefix('/').unwrap_or(line);
    let Some((location, what)) = line.split_once(": ") else {
        return (line.to_owned(), line.to_owned());
    };
    let file = location.split(':').next().unwrap_or(location);
    (format!("{file}: {what}"), file.to_owned())
}

/// What one crate's run came to: per file, the count of each outcome; the missed names.
#[derive(Debug, Default)]
struct Report {
    files: BTreeMap<String, BTreeMap<Outcome, usize>>,
    missed: Vec<String>,
    stale: Vec<String>,
    seconds: u64,
    failure: Option<String>,
}

/// Files one crate's outcomes: reads cargo-mutants' outcome files in `out_dir` (the lines
/// naming a mutant of `only` alone, when given), with the listed equivalents moved from
/// missed to equivalent (their sources read under `root`).
fn classify(
    root: &Path,
    krate_dir: &str,
    out_dir: &Path,
    only: Option<&[String]>,
    equivalents: &[Equivalent],
    report: &mut Report,
) {
    let mut used = vec![false; equivalents.len()];
    for (file_name, outcome) in OUTCOME_FILES {
        let text = fs::read_to_string(out_dir.join(file_name)).unwrap_or_default();
        let ours = |line: &&str| {
            line.trim().starts_with(&format!("{krate_dir}/"))
                && only.is_none_or(|names| names.iter().any(|name| name == line.trim()))
        };
        for line in text.lines().filter(ours) {
            let file = short_name(krate_dir, line).1;
            // Each line of the list covers one mutant: two mutants of one name (the same
            // change at two places of a function) need two lines.
            let listed = (outcome == Outcome::Missed)
                .then(|| {
                    equivalents
                        .iter()
                        .zip(used.iter_mut())
                        .find(|(equivalent, used)| {
                            !**used && equivalent.covers(root, krate_dir, line)
                        })
                })
                .flatten();
            let outcome = match listed {
                Some((_, used)) => {
                    *used = true;
                    Outcome::Equivalent
                }
                None => outcome,
            };
            if outcome == Outcome::Missed {
                report.missed.push(line.trim().to_owned());
            }
            *report
                .files
                .entry(file)
                .or_default()
                .entry(outcome)
                .or_default() += 1;
        }
    }
}

/// Whether `cargo mutants` runs; installs it when not.
fn prepare() -> Result<(), String> {
    let probe = || {
        Command::new(crate::cargo())
            .args(["mutants", "--version"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
    };
    if probe() {
        return Ok(());
    }
    eprintln!("== cargo install cargo-mutants --locked");
    let status = Command::new(crate::cargo())
        .args(["install", "cargo-mutants", "--locked"])
        .stdout(crate::bench::stderr_handle())
        .status()
        .map_err(|err| format!("cannot run cargo install: {err}"))?;
    if !status.success() || !probe() {
        return Err(format!(
            "`cargo install cargo-mutants` failed ({status}), or `cargo mutants` still does not run"
        ));
    }
    Ok(())
}

/// What `cargo xtask mutants` was asked to run.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Run {
    /// The kernel selection alone, with the tests that watch it.
    pub(crate) quick: bool,
    /// Every N-th mutant of each crate.
    pub(crate) sample: Option<u64>,
    /// Keep the outcomes the runs before settled; test the rest.
    pub(crate) resume: bool,
    /// The tests at the full size from the start, not first at the reduced size.
    pub(crate) full_size: bool,
}

/// What one cargo-mutants call does.
#[derive(Debug, Clone, Copy)]
enum Call<'a> {
    /// List the selected mutants (`--list`), the sample's when there is one.
    List,
    /// Test the selected mutants, or these (their full names) alone.
    Test(Option<&'a [String]>),
}

/// `name` as a regular expression that matches it alone.
fn exactly(name: &str) -> String {
    let mut out = String::from("^");
    for c in name.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('$');
    out
}

/// The arguments of one cargo-mutants call over `krates`.
fn mutants_args(krates: &[&str], run: Run, call: Call<'_>) -> Vec<String> {
    let mut args: Vec<String> = ["mutants", "--all-features", "--no-shuffle"]
        .map(str::to_owned)
        .to_vec();
    for krate in krates {
        let package = format!("wirebytes-{krate}");
        args.extend(["-p".to_owned(), package.clone()]);
        for file in EXCLUDED {
            args.extend(["--exclude".to_owned(), format!("crates/{package}/{file}")]);
        }
        if run.quick {
            args.extend([
                "--file".to_owned(),
                format!("crates/{package}/src/arch/mod.rs"),
            ]);
        }
    }
    match call {
        // The names come from a listing of the selection; a shard of them would be another
        // sample (cargo-mutants shards what its filters leave).
        Call::Test(Some(names)) => {
            for name in names {
                args.extend(["--re".to_owned(), exactly(name)]);
            }
        }
        // A sample is taken from the listing (`listed`) and tested by name.
        Call::List | Call::Test(None) => {
            if run.quick {
                args.extend(["--re".to_owned(), QUICK_FUNCTIONS.to_owned()]);
            }
        }
    }
    if let Call::List = call {
        args.push("--list".to_owned());
        return args;
    }
    // Two builds at a time on the two cores CI has for the short run; one for the long
    // runs, which share their machine, unless `CARGO_MUTANTS_JOBS` says how many.
    if std::env::var_os("CARGO_MUTANTS_JOBS").is_none() {
        let jobs = if run.quick { "2" } else { "1" };
        args.extend(["--jobs".to_owned(), jobs.to_owned()]);
    }
    // The tests, without the doctests: with `--quick`, those that watch the kernels. As
    // cargo arguments, they also keep each mutant's build to those test targets.
    let targets: &[&str] = if run.quick {
        &["--lib", "--test=kernels"]
    } else {
        &["--lib", "--tests"]
    };
    for target in targets {
        args.push(format!("--cargo-arg={target}"));
    }
    args
}

/// One cargo-mutants run over the copy of the workspace in `out_dir/tree`, into
/// `out_dir/mutants.out` (emptied first): the mutants of `krates` that `run` selects, or
/// those of `only` (none to test: `None`, no run). `reduced`: the tests at the reduced size
/// (`WIREBYTES_TEST_SCALE=reduced`).
fn test_mutants(
    root: &Path,
    out_dir: &Path,
    krates: &[&str],
    run: Run,
    only: Option<&[String]>,
    reduced: bool,
) -> Result<Option<std::process::ExitStatus>, String> {
    // A run's old outcome files must not be read as this one's.
    let _ = fs::remove_dir_all(out_dir.join("mutants.out"));
    if only.is_some_and(<[String]>::is_empty) {
        return Ok(None);
    }
    let mut command = Command::new(crate::cargo());
    command
        .args(mutants_args(krates, run, Call::Test(only)))
        .arg("-d")
        .arg(out_dir.join("tree"))
        .arg("-o")
        .arg(out_dir)
        .current_dir(root)
        .stdout(crate::bench::stderr_handle());
    if reduced {
        command.env(wirebytes_testkit::SCALE_VAR, "reduced");
    } else {
        command.env_remove(wirebytes_testkit::SCALE_VAR);
    }
    command
        .status()
        .map(Some)
        .map_err(|err| format!("cannot run cargo mutants: {err}"))
}

/// The mutants of `names` (full names, in cargo-mutants' order) in a sample of one in `n`:
/// those whose key hashes to 0 modulo `n`. The key is what stays as the code moves: the
/// mutant's file and change without its line and column, and how many mutants of the same
/// file and change come before it. So an edit keeps every other mutant's pick (a
/// round-robin shard of the list would pick others after every mutant added or removed),
/// and runs of one sample in parts add up.
fn sample(names: &[String], n: u64) -> Vec<String> {
    let mut seen: BTreeMap<(String, String), u64> = BTreeMap::new();
    names
        .iter()
        .filter(|line| {
            let (location, what) = line.trim().split_once(": ").unwrap_or((line, ""));
            let file = location.split(':').next().unwrap_or(location);
            let count = seen.entry((file.to_owned(), what.to_owned())).or_insert(0);
            let key = format!("{file}: {what} #{count}");
            *count += 1;
            stable_hash(key.as_bytes()).is_multiple_of(n.max(1))
        })
        .cloned()
        .collect()
}

/// A hash of `bytes` that never changes between runs, builds or platforms: FNV-1a, then a
/// final mix so that its low bits depend on every byte.
fn stable_hash(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^ (h >> 33)
}

/// The full names (with `:LINE:COLUMN`) of the mutants `run` selects in `krates`, listed in
/// the workspace at `dir`: with `--sample`, its [`sample`].
fn listed(dir: &Path, krates: &[&str], run: Run) -> Result<Vec<String>, String> {
    let output = Command::new(crate::cargo())
        .args(mutants_args(krates, run, Call::List))
        .current_dir(dir)
        .stderr(Stdio::null())
        .output()
        .map_err(|err| format!("cannot run cargo mutants: {err}"))?;
    if !output.status.success() {
        return Err(format!("`cargo mutants --list` failed ({})", output.status));
    }
    let names: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| line.trim().to_owned())
        .filter(|line| !line.is_empty())
        .collect();
    Ok(match run.sample {
        Some(n) => sample(&names, n),
        None => names,
    })
}

/// The outcomes a run settles (a test noticed the mutant, or it did not compile): kept
/// across runs in `settled/` by `--resume`. A missed mutant is tested again, unless the
/// crate's list names it as equivalent (then it is kept in `settled/missed.txt`, and counted
/// as equivalent, or as missed past the list's count of its name, as in the run that found
/// it).
const SETTLED: [&str; 3] = ["caught.txt", "unviable.txt", "timeout.txt"];

/// The store's file of missed mutants that the equivalence lists name.
const SETTLED_EQUIVALENT: &str = "missed.txt";

/// Adds the settled outcomes of cargo-mutants' output `from` to the store `to`, each line
/// once: caught, unviable and timed out, and the missed ones `listed` as equivalent.
fn carry(from: &Path, to: &Path, listed: &dyn Fn(&str) -> bool) -> Result<(), String> {
    fs::create_dir_all(to).map_err(|err| format!("cannot create {}: {err}", to.display()))?;
    let files = SETTLED
        .iter()
        .map(|name| (*name, false))
        .chain([(SETTLED_EQUIVALENT, true)]);
    for (file_name, only_listed) in files {
        let mut lines: Vec<String> = fs::read_to_string(to.join(file_name))
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect();
        for line in fs::read_to_string(from.join(file_name))
            .unwrap_or_default()
            .lines()
        {
            if (!only_listed || listed(line)) && !lines.iter().any(|known| known == line) {
                lines.push(line.to_owned());
            }
        }
        let mut text = lines.join("\n");
        if !text.is_empty() {
            text.push('\n');
        }
        fs::write(to.join(file_name), text)
            .map_err(|err| format!("cannot write {}: {err}", to.join(file_name).display()))?;
    }
    Ok(())
}

/// Removes the outcomes of `krates`' mutants from the store `dir`, keeping the others'.
fn forget(dir: &Path, krates: &[&str]) -> Result<(), String> {
    for file_name in SETTLED.iter().chain([&SETTLED_EQUIVALENT]) {
        let path = dir.join(file_name);
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        let kept: String = text
            .lines()
            .filter(|line| {
                !krates.iter().any(|krate| {
                    line.trim()
                        .starts_with(&format!("crates/wirebytes-{krate}/"))
                })
            })
            .map(|line| format!("{line}\n"))
            .collect();
        fs::write(&path, kept).map_err(|err| format!("cannot write {}: {err}", path.display()))?;
    }
    Ok(())
}

/// The mutant names of the store `dir`.
fn settled_names(dir: &Path) -> Vec<String> {
    SETTLED
        .iter()
        .chain([&SETTLED_EQUIVALENT])
        .flat_map(|file_name| {
            fs::read_to_string(dir.join(file_name))
                .unwrap_or_default()
                .lines()
                .map(|line| line.trim().to_owned())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A crate's equivalence list, and the stale lines of it (no mutant of that name).
fn equivalents_of(root: &Path, krate: &str) -> Result<(Vec<Equivalent>, Vec<String>), String> {
    let krate_dir = format!("crates/wirebytes-{krate}");
    let list_path: PathBuf = root.join(&krate_dir).join("mutants-equivalent.txt");
    let equivalents = match fs::read_to_string(&list_path) {
        Ok(text) => {
            parse_equivalents(&text).map_err(|err| format!("{}: {err}", list_path.display()))?
        }
        Err(_) => Vec::new(),
    };
    // Every listed equivalent must be a mutant cargo-mutants generates: as many lines of a
    // name (and piece of source) as there are mutants they cover, at most.
    let mutants = listed(root, &[krate], Run::default())?;
    let stale = equivalents
        .iter()
        .enumerate()
        .filter(|&(i, equivalent)| {
            let lines = equivalents[..=i]
                .iter()
                .filter(|e| e.name == equivalent.name && e.at == equivalent.at)
                .count();
            mutants
                .iter()
                .filter(|line| equivalent.covers(root, &krate_dir, line))
                .count()
                < lines
        })
        .map(|(_, equivalent)| match &equivalent.at {
            Some(at) => format!("{} @ {at}", equivalent.name),
            None => equivalent.name.clone(),
        })
        .collect();
    Ok((equivalents, stale))
}

/// The directories never copied into the mutated tree: build products, git's store and the
/// fuzzers' findings.
fn skipped_directory(name: &str) -> bool {
    name == "target"
        || name.starts_with("target-")
        || name.starts_with("mutants.out")
        || matches!(name, ".git" | "artifacts" | "coverage")
}

/// Copies the workspace at `from` into `to` (emptied first), each symbolic link as the file
/// it names, without build products.
fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    fn walk(from: &Path, to: &Path) -> Result<(), String> {
        fs::create_dir_all(to).map_err(|err| format!("cannot create {}: {err}", to.display()))?;
        let entries =
            fs::read_dir(from).map_err(|err| format!("cannot read {}: {err}", from.display()))?;
        for entry in entries {
            let entry = entry.map_err(|err| format!("cannot read {}: {err}", from.display()))?;
            let path = entry.path();
            let name = entry.file_name();
            // Following the link: a linked file is copied as its content.
            let meta = fs::metadata(&path)
                .map_err(|err| format!("cannot read {}: {err}", path.display()))?;
            if meta.is_dir() {
                if !skipped_directory(&name.to_string_lossy()) {
                    walk(&path, &to.join(&name))?;
                }
            } else {
                fs::copy(&path, to.join(&name))
                    .map_err(|err| format!("cannot copy {}: {err}", path.display()))?;
            }
        }
        Ok(())
    }
    if to.exists() {
        fs::remove_dir_all(to).map_err(|err| format!("cannot empty {}: {err}", to.display()))?;
    }
    walk(from, to)
}

/// Runs the crates in one cargo-mutants run (one copy of the workspace, one baseline build)
/// and files each crate's outcomes. With `--resume`, the outcomes the runs before settled
/// are kept (in `target/mutants/settled/`, for the mutants that still exist) and only the
/// other mutants of the selection are tested.
fn run_crates<'a>(root: &Path, krates: &[&'a str], run: Run) -> Vec<(&'a str, Report)> {
    let mut reports: Vec<(&str, Report, Vec<Equivalent>)> = Vec::new();
    for krate in krates {
        let mut report = Report::default();
        let equivalents = match equivalents_of(root, krate) {
            Ok((equivalents, stale)) => {
                report.stale = stale;
                equivalents
            }
            Err(err) => {
                report.failure = Some(err);
                Vec::new()
            }
        };
        reports.push((krate, report, equivalents));
    }
    let out_dir = root.join("target/mutants");
    let settled_dir = out_dir.join("settled");
    let tree = out_dir.join("tree");
    let started = Instant::now();
    eprintln!("== mutants: {}", krates.join(", "));
    // The selection's names, and those left to test, when resuming.
    let mut selection: Option<(Vec<String>, Vec<String>)> = None;
    // Whether a crate's list gives a missed mutant as equivalent: settled as well when
    // resuming, and not tested again at the full size.
    let equivalent = |line: &str| {
        reports.iter().any(|(krate, _, equivalents)| {
            let krate_dir = format!("crates/wirebytes-{krate}");
            line.trim().starts_with(&format!("{krate_dir}/"))
                && equivalents.iter().any(|e| e.covers(root, &krate_dir, line))
        })
    };
    let status = fs::create_dir_all(&out_dir)
        .map_err(|err| format!("cannot create {}: {err}", out_dir.display()))
        .and_then(|()| copy_tree(root, &tree))
        .and_then(|()| {
            if run.resume {
                carry(&out_dir.join("mutants.out"), &settled_dir, &equivalent)?;
                let names = listed(&tree, krates, run)?;
                let settled = settled_names(&settled_dir);
                let left: Vec<String> = names
                    .iter()
                    .filter(|name| !settled.contains(name))
                    .cloned()
                    .collect();
                eprintln!(
                    "== resuming: {} of {} mutants settled before, {} to test",
                    names.len() - left.len(),
                    names.len(),
                    left.len()
                );
                selection = Some((names, left));
            } else {
                // A fresh run: nothing settled before counts for these crates (the other
                // crates' outcomes stay for their `--resume`).
                forget(&settled_dir, krates)?;
                if run.sample.is_some() {
                    let names = listed(&tree, krates, run)?;
                    eprintln!("== sample: {} mutants", names.len());
                    selection = Some((names.clone(), names));
                }
            }
            let only = selection.as_ref().map(|(_, left)| left.as_slice());
            let status = test_mutants(root, &out_dir, krates, run, only, !run.full_size)?;
            // cargo-mutants exits 2 when a mutant was missed, 3 when one timed out.
            if run.full_size || !status.is_some_and(|status| matches!(status.code(), Some(2 | 3))) {
                return Ok(status);
            }
            // The mutants the reduced size missed, again at the full size: the others'
            // outcomes are settled (a test that notices a mutant at the reduced size
            // notices it).
            let missed: Vec<String> =
                fs::read_to_string(out_dir.join("mutants.out").join("missed.txt"))
                    .unwrap_or_default()
                    .lines()
                    .filter(|line| !line.trim().is_empty() && !equivalent(line))
                    .map(|line| line.trim().to_owned())
                    .collect();
            if missed.is_empty() {
                return Ok(status);
            }
            carry(&out_dir.join("mutants.out"), &settled_dir, &equivalent)?;
            let names = match selection.take() {
                Some((names, _)) => names,
                None => listed(&tree, krates, run)?,
            };
            eprintln!(
                "== {} missed at the reduced size: again at the full size",
                missed.len()
            );
            let status = test_mutants(root, &out_dir, krates, run, Some(&missed), false)?;
            selection = Some((names, missed));
            Ok(status)
        });
    let seconds = started.elapsed().as_secs();
    // cargo-mutants exits 0 when every mutant was caught, 2 when some were missed, 3 when
    // some timed out; anything else (4: the unmutated tree fails its tests) is a failure.
    let failure = match status {
        Ok(None) => None,
        Ok(Some(status)) if matches!(status.code(), Some(0 | 2 | 3)) => None,
        Ok(Some(status)) => Some(format!("cargo mutants failed ({status})")),
        Err(err) => Some(err),
    };
    reports
        .into_iter()
        .map(|(krate, mut report, equivalents)| {
            report.seconds = seconds;
            if report.failure.is_none() {
                report.failure.clone_from(&failure);
            }
            let krate_dir = format!("crates/wirebytes-{krate}");
            if let Some((names, _)) = &selection {
                classify(
                    root,
                    &krate_dir,
                    &settled_dir,
                    Some(names),
                    &equivalents,
                    &mut report,
                );
            }
            classify(
                root,
                &krate_dir,
                &out_dir.join("mutants.out"),
                None,
                &equivalents,
                &mut report,
            );
            (krate, report)
        })
        .collect()
}

/// The table of every crate's outcomes, then the missed and stale names.
fn table(reports: &[(&str, Report)]) -> String {
    let mut out = String::from(
        "| crate | file | caught | missed | equivalent | unviable | timeout |\n|---|---|---:|---:|---:|---:|---:|\n",
    );
    for (krate, report) in reports {
        for (file, counts) in &report.files {
            let n = |outcome| counts.get(&outcome).copied().unwrap_or(0);
            let _ = writeln!(
                out,
                "| {krate} | {file} | {} | {} | {} | {} | {} |",
                n(Outcome::Caught),
                n(Outcome::Missed),
                n(Outcome::Equivalent),
                n(Outcome::Unviable),
                n(Outcome::Timeout),
            );
        }
        let total = |outcome| {
            report
                .files
                .values()
                .map(|counts| counts.get(&outcome).copied().unwrap_or(0))
                .sum::<usize>()
        };
        let _ = writeln!(
            out,
            "| **{krate}** | all | {} | {} | {} | {} | {} |",
            total(Outcome::Caught),
            total(Outcome::Missed),
            total(Outcome::Equivalent),
            total(Outcome::Unviable),
            total(Outcome::Timeout),
        );
    }
    if let Some((_, report)) = reports.first() {
        let _ = writeln!(out, "time: {} s", report.seconds);
    }
    for (krate, report) in reports {
        for name in &report.missed {
            let _ = writeln!(out, "missed: {krate}: {name}");
        }
        for name in &report.stale {
            let _ = writeln!(
                out,
                "stale: {krate}: mutants-equivalent.txt lists `{name}`, which is no mutant"
            );
        }
        if let Some(failure) = &report.failure {
            let _ = writeln!(out, "failed: {krate}: {failure}");
        }
    }
    out
}

/// Runs the selected crates (all when `names` is empty) and prints the table.
pub(crate) fn main(root: &Path, run: Run, names: &[String]) -> ExitCode {
    let selected = match crate::select("crate", CRATES, names) {
        Ok(selected) => selected,
        Err(err) => {
            eprintln!("error: {err}");
            return ExitCode::from(2);
        }
    };
    if run.sample == Some(0) {
        eprintln!("error: --sample must be at least 1");
        return ExitCode::from(2);
    }
    if let Err(err) = prepare() {
        eprintln!("error: mutants: {err}");
        return ExitCode::FAILURE;
    }
    let reports = run_crates(root, &selected, run);
    print!("{}", table(&reports));
    let bad = reports.iter().any(|(_, report)| {
        !report.missed.is_empty() || !report.stale.is_empty() || report.failure.is_some()
    });
    if bad {
        println!("mutants: FAILED");
        ExitCode::FAILURE
    } else {
        println!("mutants: no mutant missed");
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_loses_its_crate_directory_and_position() {
        let (name, file) = short_name(
            "crates/wirebytes-rope",
            "crates/wirebytes-rope/src/arch/mod.rs:32:26: replace << with >> in Kernels::X",
        );
        assert_eq!(name, "src/arch/mod.rs: replace << with >> in Kernels::X");
        assert_eq!(file, "src/arch/mod.rs");
    }

    #[test]
    fn an_equivalence_needs_a_reason() {
        let list = "# comment\n\nsrc/a.rs: replace < with <= in f # both take the same path\n";
        assert_eq!(
            parse_equivalents(list),
            Ok(vec![Equivalent {
                name: "src/a.rs: replace < with <= in f".to_owned(),
                at: None,
                reason: "both take the same path".to_owned(),
            }])
        );
        assert_eq!(
            parse_equivalents("src/a.rs: replace | with ^ in f @ 0xF0 | x # disjoint bits\n"),
            Ok(vec![Equivalent {
                name: "src/a.rs: replace | with ^ in f".to_owned(),
                at: Some("0xF0 | x".to_owned()),
                reason: "disjoint bits".to_owned(),
            }])
        );
        assert!(parse_equivalents("src/a.rs: replace | with ^ in f @  # why\n").is_err());
        assert!(parse_equivalents("src/a.rs: replace < with <= in f\n").is_err());
        assert!(parse_equivalents("src/a.rs: replace < with <= in f # \n").is_err());
    }

    /// The report of outcome files `files` (name, text) with the equivalence list `list`,
    /// the crate's `src/a.rs` holding `source`.
    fn classified(files: &[(&str, &str)], list: &str) -> Report {
        classified_with(files, list, "")
    }

    fn classified_with(files: &[(&str, &str)], list: &str, source: &str) -> Report {
        let dir = std::env::temp_dir().join(format!(
            "xtask-mutants-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        fs::create_dir_all(&dir).expect("a scratch directory");
        for (name, text) in files {
            fs::write(dir.join(name), text).expect("write an outcome file");
        }
        let src = dir.join("crates/wirebytes-x/src");
        fs::create_dir_all(&src).expect("a scratch directory");
        fs::write(src.join("a.rs"), source).expect("write a source");
        let equivalents = parse_equivalents(list).expect("a list");
        let mut report = Report::default();
        classify(
            &dir,
            "crates/wirebytes-x",
            &dir,
            None,
            &equivalents,
            &mut report,
        );
        let _ = fs::remove_dir_all(&dir);
        report
    }

    #[test]
    fn listed_mutants_count_as_equivalent_the_others_as_missed() {
        let report = classified(
            &[
                (
                    "missed.txt",
                    "crates/wirebytes-x/src/a.rs:1:2: replace << with >>\ncrates/wirebytes-x/src/a.rs:9:2: replace f -> bool with true\n",
                ),
                (
                    "caught.txt",
                    "crates/wirebytes-x/src/b.rs:3:4: replace g with ()\n",
                ),
                (
                    "unviable.txt",
                    "crates/wirebytes-y/src/b.rs:3:4: replace g with ()\n",
                ),
            ],
            "src/a.rs: replace << with >> # 1 >> 0 == 1 << 0\n",
        );
        assert_eq!(
            report.missed,
            ["crates/wirebytes-x/src/a.rs:9:2: replace f -> bool with true"]
        );
        assert_eq!(report.files["src/a.rs"][&Outcome::Equivalent], 1);
        assert_eq!(report.files["src/a.rs"][&Outcome::Missed], 1);
        assert_eq!(report.files["src/b.rs"][&Outcome::Caught], 1);
        // Another crate's lines are not this crate's.
        assert_eq!(report.files["src/b.rs"].get(&Outcome::Unviable), None);
    }

    #[test]
    fn one_line_covers_one_mutant_of_its_name() {
        let report = classified(
            &[(
                "missed.txt",
                "crates/wirebytes-x/src/a.rs:1:2: replace << with >>\ncrates/wirebytes-x/src/a.rs:3:2: replace << with >>\n",
            )],
            "src/a.rs: replace << with >> # 1 >> 0 == 1 << 0\n",
        );
        assert_eq!(
            report.missed,
            ["crates/wirebytes-x/src/a.rs:3:2: replace << with >>"]
        );
        assert_eq!(report.files["src/a.rs"][&Outcome::Equivalent], 1);
    }

    #[test]
    fn a_line_with_source_covers_only_the_mutant_at_that_source() {
        let source = "fn f(x: u8, y: u8) -> u8 {\n    (0xF0 | x >> 4) | y\n}\n";
        // Column 11 is the first `|`, 21 the second.
        let missed = "crates/wirebytes-x/src/a.rs:2:11: replace | with ^ in f\ncrates/wirebytes-x/src/a.rs:2:21: replace | with ^ in f\n";
        let report = classified_with(
            &[("missed.txt", missed)],
            "src/a.rs: replace | with ^ in f @ 0xF0 | x # disjoint bits\n",
            source,
        );
        assert_eq!(
            report.missed,
            ["crates/wirebytes-x/src/a.rs:2:21: replace | with ^ in f"]
        );
        assert_eq!(report.files["src/a.rs"][&Outcome::Equivalent], 1);
        // The same text, but not over the mutant's column: no mutant is covered.
        let report = classified_with(
            &[("missed.txt", missed)],
            "src/a.rs: replace | with ^ in f @ (0xF0 # disjoint bits\n",
            source,
        );
        assert_eq!(report.missed.len(), 2);
    }

    /// The sample keeps its picks when the code moves: a mutant added before the others and
    /// every line shifted leave the same mutants picked (by their new positions), two
    /// mutants of one name are told apart, and about one in `n` is picked.
    #[test]
    fn the_sample_holds_still_as_the_code_moves() {
        let name = |file: usize, line: usize, what: &str| {
            format!("crates/wirebytes-x/src/f{file}.rs:{line}:9: replace {what}")
        };
        let names: Vec<String> = (0..2000)
            .map(|k| name(k % 7, 10 + k, &format!("+ with - in g{}", k / 3)))
            .collect();
        let picked = sample(&names, 10);
        assert!((150..250).contains(&picked.len()), "{}", picked.len());
        // Everything moved 5 lines down, a new mutant first.
        let moved: Vec<String> = std::iter::once(name(0, 1, "* with / in h"))
            .chain((0..2000).map(|k| name(k % 7, 15 + k, &format!("+ with - in g{}", k / 3))))
            .collect();
        let again: Vec<String> = sample(&moved, 10)
            .into_iter()
            .filter(|line| !line.ends_with(" in h"))
            .collect();
        // The same mutants, each 5 lines further down.
        let lower = |line: &String| {
            let (location, what) = line.split_once(": ").expect("a name");
            let mut parts = location.split(':');
            let file = parts.next().expect("a file");
            let number: usize = parts.next().expect("a line").parse().expect("a number");
            format!("{file}:{}:9: {what}", number + 5)
        };
        assert_eq!(picked.iter().map(lower).collect::<Vec<_>>(), again);
        // Two mutants of one name and file: each has its own key.
        let twins = vec![name(1, 5, "| with ^ in t"); 64];
        let twins: Vec<String> = twins
            .iter()
            .enumerate()
            .map(|(k, line)| line.replace(":5:", &format!(":{}:", 5 + k)))
            .collect();
        let picked = sample(&twins, 4).len();
        assert!((4..=28).contains(&picked), "{picked} of 64");
        assert_eq!(sample(&names, 1), names);
    }

    /// A fresh run of some crates forgets their settled outcomes and keeps the others'.
    #[test]
    fn a_fresh_run_forgets_its_crates_outcomes_alone() {
        let dir = std::env::temp_dir().join(format!("xtask-forget-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        fs::write(
            dir.join("caught.txt"),
            "crates/wirebytes-ascii/src/a.rs:1:1: x\ncrates/wirebytes-rope/src/b.rs:2:2: y\n",
        )
        .unwrap();
        forget(&dir, &["ascii"]).unwrap();
        assert_eq!(
            settled_names(&dir),
            ["crates/wirebytes-rope/src/b.rs:2:2: y"]
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_name_becomes_a_pattern_of_itself_alone() {
        assert_eq!(
            exactly("src/a.rs:3:9: replace f -> Option<(u8, u8)> with Some((1, 0)) in S::f"),
            r"^src/a\.rs:3:9: replace f -> Option<\(u8, u8\)> with Some\(\(1, 0\)\) in S::f$"
        );
        assert_eq!(exactly(r"a|b*[c]{2}^$\?+"), r"^a\|b\*\[c\]\{2\}\^\$\\\?\+$");
    }

    #[test]
    fn settled_outcomes_accumulate_once_each() {
        let dir = std::env::temp_dir().join(format!("xtask-carry-{}", std::process::id()));
        let (from, to) = (dir.join("out"), dir.join("settled"));
        fs::create_dir_all(&from).expect("a scratch directory");
        let listed = |line: &str| line == "e";
        fs::write(from.join("caught.txt"), "a\nb\n").expect("write");
        fs::write(from.join("missed.txt"), "m\ne\n").expect("write");
        carry(&from, &to, &listed).expect("carry");
        fs::write(from.join("caught.txt"), "b\nc\n").expect("write");
        fs::write(from.join("timeout.txt"), "t\n").expect("write");
        carry(&from, &to, &listed).expect("carry");
        let settled = settled_names(&to);
        let _ = fs::remove_dir_all(&dir);
        // Missed mutants are tested again but those listed as equivalent; the others are
        // kept, each once.
        assert_eq!(settled, ["a", "b", "c", "t", "e"]);
    }
}
