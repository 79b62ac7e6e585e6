//! `cargo xtask bench`: runs the criterion benches in `benches/`, then reads criterion's
//! estimates and the allocation records and prints one markdown table per crate.
//!
//! Function names inside a group carry their role (see `benches/src/lib.rs`): `baseline`
//! is the old way, `ours` / `ours-<variant>` is this project, `limit-<name>` a lower bound
//! such as memcpy, anything else a peer crate.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use serde_json::Value;

use crate::verify::thousands;

/// One measured function on one input.
#[derive(Debug, Clone)]
struct Measurement {
    group: String,
    function: String,
    parameter: String,
    median_ns: f64,
    bytes: Option<u64>,
}

/// Bytes one call allocated: retained, transient.
type Alloc = (u64, u64);

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Role {
    Baseline,
    Peer,
    Limit,
    Ours,
}

fn role(function: &str) -> Role {
    if function == "baseline" {
        Role::Baseline
    } else if function == "ours" || function.starts_with("ours-") {
        Role::Ours
    } else if function.starts_with("limit-") {
        Role::Limit
    } else {
        Role::Peer
    }
}

/// The crates that have a bench target: `benches/benches/<crate>.rs`.
fn bench_targets(root: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root.join("benches").join("benches"))
        .map(|dir| {
            dir.filter_map(|e| e.ok())
                .filter_map(|e| {
                    e.file_name()
                        .to_str()
                        .and_then(|n| n.strip_suffix(".rs"))
                        .map(str::to_owned)
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

pub(crate) fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
}

/// Runs the benches of `names` (all when empty) and prints the tables.
pub(crate) fn main(root: &Path, quick: bool, names: &[String]) -> ExitCode {
    let targets = bench_targets(root);
    let available: Vec<&str> = targets.iter().map(String::as_str).collect();
    let names: Vec<String> = names
        .iter()
        .map(|name| name.strip_prefix("wirebytes-").unwrap_or(name).to_owned())
        .collect();
    let selected = match crate::select("bench", &available, &names) {
        Ok(selected) => selected,
        Err(err) => {
            eprintln!(
                "error: {err} (bench targets are benches/benches/<crate>.rs in {})",
                root.display()
            );
            return ExitCode::from(2);
        }
    };

    let target = target_dir(root);
    let criterion_home = target.join("criterion");
    let alloc_dir = target.join("wirebytes-bench");
    if let Err(err) = std::fs::create_dir_all(&alloc_dir) {
        eprintln!("error: cannot create {}: {err}", alloc_dir.display());
        return ExitCode::FAILURE;
    }
    // --quick: short warm-up and measurement, the fewest samples criterion takes, and fewer
    // bootstrap resamples (the analysis of ~150 benchmarks is otherwise minutes by itself).
    let timing: &[&str] = if quick {
        &[
            "--warm-up-time",
            "0.2",
            "--measurement-time",
            "0.6",
            "--sample-size",
            "10",
            "--nresamples",
            "10000",
        ]
    } else {
        &["--warm-up-time", "1", "--measurement-time", "3"]
    };

    let machine = machine_line(timing);
    let mut sections = Vec::new();
    for krate in &selected {
        // Old results of this crate's groups would mix with the new ones: start clean.
        clear_results(&criterion_home, krate);
        let alloc_log = alloc_dir.join(format!("alloc-{krate}.tsv"));
        let _ = std::fs::remove_file(&alloc_log);
        let corpus = if *krate == "mutf8" {
            class_file_corpus(root, &target)
        } else {
            None
        };
        eprintln!("== cargo bench --bench {krate}");
        let mut command = Command::new(crate::cargo());
        if let Some(corpus) = &corpus {
            command.env("WIREBYTES_CLASS_FILE_CORPUS", corpus);
        }
        let status = command
            .current_dir(root)
            .args([
                "bench",
                "--package",
                "wirebytes-benches",
                "--bench",
                krate,
                "--",
            ])
            .args(timing)
            .env("CRITERION_HOME", &criterion_home)
            .env("WIREBYTES_ALLOC_LOG", &alloc_log)
            // criterion's own report goes to stderr: stdout carries only the tables.
            .stdout(stderr_handle())
            .status();
        match status {
            Ok(s) if s.success() => {}
            Ok(s) => {
                eprintln!("error: the {krate} benches failed ({s})");
                return ExitCode::FAILURE;
            }
            Err(err) => {
                eprintln!("error: cannot run cargo: {err}");
                return ExitCode::FAILURE;
            }
        }
        let measurements = read_measurements(&criterion_home, krate);
        if measurements.is_empty() {
            eprintln!(
                "error: the {krate} benches ran but left no results under {}",
                criterion_home.display()
            );
            return ExitCode::FAILURE;
        }
        let allocs = read_allocs(&alloc_log);
        let table = render_crate(krate, &measurements, &allocs);
        let section = with_machine_line(&table, &machine);
        println!("\n{section}");
        sections.push(section);
    }

    let out = root.join("BENCHMARKS.md");
    let old = std::fs::read_to_string(&out).unwrap_or_default();
    match std::fs::write(&out, merge_sections(&old, &sections)) {
        Ok(()) => eprintln!("tables written to {}", out.display()),
        Err(err) => eprintln!("warning: cannot write {}: {err}", out.display()),
    }
    eprintln!(
        "criterion's HTML report, with plots: {}",
        criterion_home.join("report").join("index.html").display()
    );
    ExitCode::SUCCESS
}

/// The class-file corpus of the mutf8 benches: every `CONSTANT_Utf8` entry of the running
/// JDK's classes, dumped once into `target/jdk-constant-utf8.bin` by
/// `xtask/java/DumpConstantUtf8.java`. `None` (the benches then generate a corpus of the same
/// length distribution) when there is no file and no `java` to make it.
fn class_file_corpus(root: &Path, target: &Path) -> Option<PathBuf> {
    let path = target.join("jdk-constant-utf8.bin");
    if path.is_file() {
        return Some(path);
    }
    eprintln!("== java DumpConstantUtf8.java {}", path.display());
    let status = Command::new("java")
        .arg(
            root.join("xtask")
                .join("java")
                .join("DumpConstantUtf8.java"),
        )
        .arg(&path)
        .stdout(stderr_handle())
        .status();
    match status {
        Ok(s) if s.success() && path.is_file() => Some(path),
        Ok(s) => {
            eprintln!(
                "note: the JDK's class-file strings could not be dumped ({s}): a generated corpus stands in"
            );
            let _ = std::fs::remove_file(&path);
            None
        }
        Err(err) => {
            eprintln!(
                "note: no java ({err}): a generated corpus stands in for the JDK's class-file strings"
            );
            None
        }
    }
}

/// Our stderr as a child's stdout (inherited stdout if it cannot be duplicated).
pub(crate) fn stderr_handle() -> Stdio {
    use std::os::fd::AsFd as _;
    match std::io::stderr().as_fd().try_clone_to_owned() {
        Ok(fd) => Stdio::from(fd),
        Err(_) => Stdio::inherit(),
    }
}

/// A line naming the machine and the date, for the head of the tables.
fn machine_line(timing: &[&str]) -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_owned());
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let date = Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    format!(
        "Measured {date} on {cpu} ({}), {cores} cores; times are criterion medians \
         (criterion `{}`).",
        simd_features(),
        timing.join(" ")
    )
}

/// The SIMD features of this CPU that pick the crates' kernels.
fn simd_features() -> String {
    #[cfg(target_arch = "x86_64")]
    {
        let features = [
            ("SSSE3", std::is_x86_feature_detected!("ssse3")),
            ("AVX2", std::is_x86_feature_detected!("avx2")),
            (
                "AVX-512 VBMI2",
                std::is_x86_feature_detected!("avx512vbmi2"),
            ),
        ];
        let list: Vec<String> = features
            .iter()
            .map(|(name, has)| {
                if *has {
                    (*name).to_owned()
                } else {
                    format!("no {name}")
                }
            })
            .collect();
        list.join(", ")
    }
    #[cfg(not(target_arch = "x86_64"))]
    std::env::consts::ARCH.to_owned()
}

/// The head of `BENCHMARKS.md`: what the tables are and how to read them.
const PREAMBLE: &str = "\
# Benchmarks

Written by `cargo xtask bench [--quick] [CRATE...]`, which replaces the sections of the
crates it ran and keeps the others; each section names its machine, date and settings.

How to read them: `baseline` is the old way each crate replaces (the per-char loop, the
streaming encoder, the JDK's loop transcribed, the byte-iterator equality); `limit-*` is a
lower bound (memcpy, simdutf8 validation, memcmp/memmem or reads on the flat bytes); other
plain names are peer crates; `ours-<level>` is ours with only the SIMD kernels of that level
(`portable`: none, as on a CPU or target without them). \"ours vs baseline\" and \"ours vs
best peer\" are speedups; \"ours ÷ limit\" is how many times the bound's time ours takes. B/op
is what one call allocates: retained by its result / transient. Times are criterion medians;
ratios within a row come from one run, side by side. The machines are shared: expect ±20%
between runs, more for single rows.
";

/// `table` (a crate's section, heading first) with `machine` as its second paragraph.
fn with_machine_line(table: &str, machine: &str) -> String {
    match table.split_once("\n\n") {
        Some((heading, rest)) => format!("{heading}\n\n{machine}\n\n{rest}"),
        None => format!("{table}\n{machine}\n"),
    }
}

/// `BENCHMARKS.md` with `sections` (each starting `### wirebytes-<crate>`) put in place of
/// the same crates' sections of `old`, the other sections kept, all in crate order.
fn merge_sections(old: &str, sections: &[String]) -> String {
    const HEADING: &str = "### wirebytes-";
    let name = |section: &str| {
        section
            .lines()
            .next()
            .unwrap_or_default()
            .trim_start_matches(HEADING)
            .to_owned()
    };
    let mut by_crate: BTreeMap<String, String> = BTreeMap::new();
    let mut rest = old;
    if let Some(at) = rest.find(HEADING) {
        rest = &rest[at..];
        while !rest.is_empty() {
            let end = rest[HEADING.len()..]
                .find(HEADING)
                .map_or(rest.len(), |at| at + HEADING.len());
            let section = rest[..end].trim_end();
            by_crate.insert(name(section), format!("{section}\n"));
            rest = &rest[end..];
        }
    }
    for section in sections {
        by_crate.insert(name(section), format!("{}\n", section.trim_end()));
    }
    let mut out = String::from(PREAMBLE);
    for section in by_crate.values() {
        out.push('\n');
        out.push_str(section);
    }
    out
}

/// Removes criterion's results for the groups of `krate` (directories `<krate>_*`).
fn clear_results(criterion_home: &Path, krate: &str) {
    let Ok(dir) = std::fs::read_dir(criterion_home) else {
        return;
    };
    let prefix = format!("{krate}_");
    for entry in dir.filter_map(|e| e.ok()) {
        if entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(&prefix))
        {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Every `new/benchmark.json` under `dir`, recursively.
fn find_benchmarks(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(|e| e.ok()) {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "new") {
                let file = path.join("benchmark.json");
                if file.is_file() {
                    found.push(file);
                }
            } else {
                find_benchmarks(&path, found);
            }
        }
    }
}

fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

fn read_measurements(criterion_home: &Path, krate: &str) -> Vec<Measurement> {
    let mut files = Vec::new();
    find_benchmarks(criterion_home, &mut files);
    let prefix = format!("{krate}/");
    let mut out = Vec::new();
    for file in files {
        let Some(meta) = read_json(&file) else {
            continue;
        };
        let group = meta["group_id"].as_str().unwrap_or_default();
        if !group.starts_with(&prefix) {
            continue;
        }
        let Some(estimates) = read_json(&file.with_file_name("estimates.json")) else {
            continue;
        };
        let Some(median_ns) = estimates["median"]["point_estimate"].as_f64() else {
            continue;
        };
        out.push(Measurement {
            group: group.to_owned(),
            function: meta["function_id"].as_str().unwrap_or_default().to_owned(),
            parameter: meta["value_str"].as_str().unwrap_or_default().to_owned(),
            median_ns,
            bytes: meta["throughput"]["Bytes"]
                .as_u64()
                .or_else(|| meta["throughput"]["BytesDecimal"].as_u64()),
        });
    }
    out
}

fn read_allocs(path: &Path) -> BTreeMap<(String, String, String), Alloc> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let [group, function, parameter, retained, transient, ..] = f.as_slice() else {
                return None;
            };
            Some((
                (
                    group.to_string(),
                    function.to_string(),
                    parameter.to_string(),
                ),
                (retained.parse().ok()?, transient.parse().ok()?),
            ))
        })
        .collect()
}

/// `1234.5` ns as `1.23 µs`.
fn time(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.1} ns")
    } else if ns < 1e6 {
        format!("{:.2} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

fn rate(bytes: Option<u64>, ns: f64) -> String {
    match bytes {
        Some(b) if ns > 0.0 => format!(" ({:.2} GB/s)", b as f64 / ns),
        _ => String::new(),
    }
}

/// Order in which groups, inputs and functions first appear (criterion's order).
fn first_seen<'a>(items: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    for item in items {
        if !seen.iter().any(|s| s == item) {
            seen.push(item.to_owned());
        }
    }
    seen
}

/// The table of one crate: one row per (operation, input), one column per function.
fn render_crate(
    krate: &str,
    ms: &[Measurement],
    allocs: &BTreeMap<(String, String, String), Alloc>,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "### wirebytes-{krate}\n");
    if ms.is_empty() {
        let _ = writeln!(out, "(no benchmark results)\n");
        return out;
    }
    let mut functions = first_seen(ms.iter().map(|m| m.function.as_str()));
    functions.sort_by_key(|f| role(f)); // stable: baseline, peers, limits, ours
    let ours_main = functions
        .iter()
        .find(|f| f.as_str() == "ours")
        .or_else(|| functions.iter().find(|f| role(f) == Role::Ours))
        .cloned();

    let _ = write!(out, "| operation | input |");
    for f in &functions {
        let _ = write!(out, " {f} |");
    }
    let _ = writeln!(
        out,
        " ours vs baseline | ours vs best peer | ours ÷ limit | B/op ours (retained / transient) | B/op baseline |"
    );
    let _ = write!(out, "|---|---|");
    for _ in &functions {
        let _ = write!(out, "---:|");
    }
    let _ = writeln!(out, "---:|---:|---:|---:|---:|");

    let groups = first_seen(ms.iter().map(|m| m.group.as_str()));
    for group in &groups {
        let in_group: Vec<&Measurement> = ms.iter().filter(|m| &m.group == group).collect();
        let params = first_seen(in_group.iter().map(|m| m.parameter.as_str()));
        let operation = group.strip_prefix(&format!("{krate}/")).unwrap_or(group);
        for param in &params {
            let cell = |f: &str| {
                in_group
                    .iter()
                    .find(|m| m.function == f && &m.parameter == param)
            };
            let _ = write!(out, "| {operation} | {param} |");
            for f in &functions {
                match cell(f) {
                    Some(m) if Some(f) == ours_main.as_ref() => {
                        let _ = write!(
                            out,
                            " **{}**{} |",
                            time(m.median_ns),
                            rate(m.bytes, m.median_ns)
                        );
                    }
                    Some(m) => {
                        let _ = write!(out, " {} |", time(m.median_ns));
                    }
                    None => out.push_str(" — |"),
                }
            }
            let ours = ours_main.as_deref().and_then(cell).map(|m| m.median_ns);
            let best_of = |r: Role| {
                functions
                    .iter()
                    .filter(|f| role(f) == r)
                    .filter_map(|f| cell(f))
                    .min_by(|a, b| a.median_ns.total_cmp(&b.median_ns))
            };
            let speedup = |other: Option<f64>| match (other, ours) {
                (Some(o), Some(us)) if us > 0.0 && o >= us => format!("{:.2}x faster", o / us),
                (Some(o), Some(us)) if o > 0.0 => format!("{:.2}x slower", us / o),
                _ => "—".to_owned(),
            };
            let baseline = cell("baseline");
            let _ = write!(out, " {} |", speedup(baseline.map(|m| m.median_ns)));
            let best_peer = best_of(Role::Peer);
            let peer_text = match best_peer {
                Some(p) => format!("{} ({})", speedup(Some(p.median_ns)), p.function),
                None => "—".to_owned(),
            };
            let _ = write!(out, " {peer_text} |");
            let limit_text = match (best_of(Role::Limit), ours) {
                (Some(l), Some(us)) if l.median_ns > 0.0 => {
                    format!(
                        "{:.2}x {}",
                        us / l.median_ns,
                        l.function.trim_start_matches("limit-")
                    )
                }
                _ => "—".to_owned(),
            };
            let _ = write!(out, " {limit_text} |");
            let alloc = |f: Option<&str>| {
                f.and_then(|f| allocs.get(&(group.clone(), f.to_owned(), param.clone())))
                    .map(|(r, t)| format!("{} / {}", thousands(*r), thousands(*t)))
                    .unwrap_or_else(|| "—".to_owned())
            };
            let _ = writeln!(
                out,
                " {} | {} |",
                alloc(ours_main.as_deref()),
                alloc(baseline.map(|_| "baseline"))
            );
        }
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(group: &str, function: &str, parameter: &str, median_ns: f64) -> Measurement {
        Measurement {
            group: group.into(),
            function: function.into(),
            parameter: parameter.into(),
            median_ns,
            bytes: Some(1024),
        }
    }

    #[test]
    fn roles_follow_the_naming_convention() {
        assert_eq!(role("baseline"), Role::Baseline);
        assert_eq!(role("ours"), Role::Ours);
        assert_eq!(role("ours-fast-legacy"), Role::Ours);
        assert_eq!(role("limit-memcpy"), Role::Limit);
        assert_eq!(role("encoding_rs"), Role::Peer);
        assert_eq!(role("oursish"), Role::Peer);
    }

    #[test]
    fn table_orders_columns_and_computes_ratios() {
        let ms = [
            m("ascii/copy", "ours", "x/1024", 100.0),
            m("ascii/copy", "peer", "x/1024", 250.0),
            m("ascii/copy", "limit-memcpy", "x/1024", 80.0),
            m("ascii/copy", "baseline", "x/1024", 1000.0),
            m("ascii/copy", "baseline", "x/7", 10.0),
            m("ascii/copy", "ours", "x/7", 20.0),
        ];
        let mut allocs = BTreeMap::new();
        allocs.insert(
            ("ascii/copy".into(), "ours".into(), "x/1024".into()),
            (1024, 0),
        );
        let table = render_crate("ascii", &ms, &allocs);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines[0], "### wirebytes-ascii");
        assert!(
            lines[2].starts_with("| operation | input | baseline | peer | limit-memcpy | ours |"),
            "{}",
            lines[2]
        );
        let big = lines.iter().find(|l| l.contains("x/1024")).unwrap();
        assert!(big.contains("10.00x faster"), "{big}");
        assert!(big.contains("2.50x faster (peer)"), "{big}");
        assert!(big.contains("1.25x memcpy"), "{big}");
        assert!(big.contains("1,024 / 0"), "{big}");
        let small = lines.iter().find(|l| l.contains("x/7")).unwrap();
        assert!(small.contains("2.00x slower"), "{small}");
        assert!(small.contains("| — |"), "{small}");
    }

    #[test]
    fn benchmarks_md_replaces_the_sections_it_ran_and_keeps_the_others() {
        let old = merge_sections(
            "",
            &[
                "### wirebytes-ascii\n\nold ascii\n".to_owned(),
                "### wirebytes-rope\n\nold rope\n".to_owned(),
            ],
        );
        assert!(old.starts_with("# Benchmarks"), "{old}");
        let new = merge_sections(
            &old,
            &[
                "### wirebytes-rope\n\nnew rope\n".to_owned(),
                "### wirebytes-charset\n\nnew charset\n".to_owned(),
            ],
        );
        let order: Vec<&str> = new.lines().filter(|l| l.starts_with("###")).collect();
        assert_eq!(
            order,
            [
                "### wirebytes-ascii",
                "### wirebytes-charset",
                "### wirebytes-rope"
            ]
        );
        assert!(
            new.contains("old ascii") && new.contains("new rope"),
            "{new}"
        );
        assert!(!new.contains("old rope"), "{new}");
        assert_eq!(new.matches("# Benchmarks").count(), 1, "{new}");
        assert_eq!(merge_sections(&new, &[]), new);
    }

    #[test]
    fn the_machine_line_goes_under_the_heading() {
        let section = with_machine_line("### wirebytes-ascii\n\n| a |\n", "Measured today.");
        assert_eq!(section, "### wirebytes-ascii\n\nMeasured today.\n\n| a |\n");
    }

    #[test]
    fn times_pick_a_readable_unit() {
        assert_eq!(time(12.34), "12.3 ns");
        assert_eq!(time(1234.0), "1.23 µs");
        assert_eq!(time(2.5e6), "2.50 ms");
    }
}
