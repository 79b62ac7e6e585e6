//! `cargo xtask verify`: runs the sweeps, shows progress on stderr, prints a table per sweep
//! and exits with status 1 when any case differs.

use std::fmt::{Debug, Write as _};
use std::io::{IsTerminal as _, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use crate::sweeps::SWEEPS;

/// One registered sweep.
#[derive(Debug)]
pub(crate) struct Sweep {
    /// Name used on the command line and as the table heading.
    pub(crate) name: &'static str,
    /// One line saying what the sweep proves.
    pub(crate) about: &'static str,
    /// Runs every check of the sweep.
    pub(crate) run: fn(&mut Ctx),
}

/// The outcome of one check.
#[derive(Debug)]
struct Row {
    check: String,
    cases: u64,
    differences: u64,
    elapsed: Duration,
    first_difference: Option<String>,
    skipped: Option<String>,
}

/// What a sweep sees: the run's settings, the JDK oracle, and its checks.
#[derive(Debug)]
pub(crate) struct Ctx {
    root: PathBuf,
    quick: bool,
    java: Option<Java>,
    terminal: bool,
    sweep: &'static str,
    rows: Vec<Row>,
}

impl Ctx {
    /// The workspace root.
    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    /// True under `--quick`: sweeps shrink their random corpus to finish in seconds.
    pub(crate) fn quick(&self) -> bool {
        self.quick
    }

    /// `full` normally, `quick` under `--quick`.
    pub(crate) fn scale(&self, full: usize, quick: usize) -> usize {
        if self.quick { quick } else { full }
    }

    /// The JDK, when `java` is on PATH; `None` means: call [`Ctx::skip`] for JDK checks.
    /// Returned by value (it is two paths) so checks can be opened while it is held.
    pub(crate) fn java(&self) -> Option<Java> {
        self.java.clone()
    }

    /// Records a check that could not run, with the reason, e.g. no `java` on PATH.
    pub(crate) fn skip(&mut self, check: &str, reason: &str) {
        eprintln!("[{}] {check}: skipped ({reason})", self.sweep);
        self.rows.push(Row {
            check: check.to_owned(),
            cases: 0,
            differences: 0,
            elapsed: Duration::ZERO,
            first_difference: None,
            skipped: Some(reason.to_owned()),
        });
    }

    /// Opens a check named `check` expected to run about `planned` cases (0 if unknown).
    /// The check is recorded when the returned value is dropped.
    pub(crate) fn check(&mut self, check: &str, planned: u64) -> Check<'_> {
        if !self.terminal {
            eprintln!("[{}] {check}: running {planned} cases", self.sweep);
        }
        Check {
            name: check.to_owned(),
            planned,
            cases: 0,
            differences: 0,
            first_difference: None,
            started: Instant::now(),
            last_draw: Instant::now(),
            ctx: self,
        }
    }
}

/// Input shown in hex when a case differs.
pub(crate) trait Hex {
    /// The input as hex: bytes as `de ad`, UTF-16 units as `d83d de00`.
    fn hex(&self) -> String;
}

impl Hex for [u8] {
    fn hex(&self) -> String {
        let mut out = format!("{} bytes:", self.len());
        for b in self {
            let _ = write!(out, " {b:02x}");
        }
        out
    }
}

impl Hex for str {
    fn hex(&self) -> String {
        format!("UTF-8 {}", self.as_bytes().hex())
    }
}

impl Hex for [u16] {
    fn hex(&self) -> String {
        let mut out = format!("{} UTF-16 units:", self.len());
        for u in self {
            let _ = write!(out, " {u:04x}");
        }
        out
    }
}

impl<T: Hex + ?Sized> Hex for &T {
    fn hex(&self) -> String {
        (**self).hex()
    }
}

impl Hex for Vec<u8> {
    fn hex(&self) -> String {
        self.as_slice().hex()
    }
}

impl Hex for Vec<u16> {
    fn hex(&self) -> String {
        self.as_slice().hex()
    }
}

impl Hex for String {
    fn hex(&self) -> String {
        self.as_str().hex()
    }
}

/// A running check: counts cases and differences, keeps the first difference.
#[derive(Debug)]
pub(crate) struct Check<'a> {
    ctx: &'a mut Ctx,
    name: String,
    planned: u64,
    cases: u64,
    differences: u64,
    first_difference: Option<String>,
    started: Instant,
    last_draw: Instant,
}

/// At most this many characters of an expected or actual value are shown.
const SHOW: usize = 600;

fn shorten(mut text: String) -> String {
    if text.len() > SHOW {
        let mut cut = SHOW;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push_str(" …");
    }
    text
}

impl Check<'_> {
    /// One case: `expected` (the reference) against `actual` (the code under test).
    /// Returns whether they agree.
    pub(crate) fn case<I: Hex + ?Sized, T: PartialEq + Debug>(
        &mut self,
        input: &I,
        expected: T,
        actual: T,
    ) -> bool {
        self.case_in("", input, expected, actual)
    }

    /// Like [`Check::case`], with a label (an encoding, an offset…) shown if it differs.
    pub(crate) fn case_in<I: Hex + ?Sized, T: PartialEq + Debug>(
        &mut self,
        label: &str,
        input: &I,
        expected: T,
        actual: T,
    ) -> bool {
        let same = expected == actual;
        if same {
            self.pass();
        } else {
            let label = if label.is_empty() {
                String::new()
            } else {
                format!("case: {label}\n  ")
            };
            self.fail(
                input,
                format!(
                    "{label}expected: {}\n  actual:   {}",
                    shorten(format!("{expected:?}")),
                    shorten(format!("{actual:?}"))
                ),
            );
        }
        same
    }

    /// Counts one case that agreed.
    pub(crate) fn pass(&mut self) {
        self.cases += 1;
        self.tick();
    }

    /// Counts one case that differed, with what was wrong.
    pub(crate) fn fail<I: Hex + ?Sized>(&mut self, input: &I, what: String) {
        self.cases += 1;
        self.differences += 1;
        if self.first_difference.is_none() {
            self.first_difference = Some(format!("input ({})\n  {what}", shorten(input.hex())));
        }
        self.tick();
    }

    fn tick(&mut self) {
        if self.ctx.terminal
            && self.cases.is_multiple_of(1024)
            && self.last_draw.elapsed().as_millis() >= 100
        {
            self.last_draw = Instant::now();
            self.draw();
        }
    }

    fn draw(&self) {
        const WIDTH: u64 = 30;
        let filled = (self.cases.min(self.planned) * WIDTH)
            .checked_div(self.planned)
            .unwrap_or(0);
        let bar: String = (0..WIDTH)
            .map(|i| if i < filled { '#' } else { '.' })
            .collect();
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r\x1b[2K[{}] {} [{bar}] {}/{} differences {}",
            self.ctx.sweep, self.name, self.cases, self.planned, self.differences
        );
        let _ = err.flush();
    }
}

impl Drop for Check<'_> {
    fn drop(&mut self) {
        let elapsed = self.started.elapsed();
        if self.ctx.terminal {
            self.draw();
            eprintln!();
        } else {
            eprintln!(
                "[{}] {}: {} cases, {} differences, {:.2} s",
                self.ctx.sweep,
                self.name,
                self.cases,
                self.differences,
                elapsed.as_secs_f64()
            );
        }
        self.ctx.rows.push(Row {
            check: std::mem::take(&mut self.name),
            cases: self.cases,
            differences: self.differences,
            elapsed,
            first_difference: self.first_difference.take(),
            skipped: None,
        });
    }
}

/// The JDK, used as the outside oracle: runs single-file programs kept in `xtask/java/`.
#[derive(Debug, Clone)]
pub(crate) struct Java {
    exe: PathBuf,
    dir: PathBuf,
}

impl Java {
    /// Finds `java` on PATH (or `$JAVA_HOME/bin/java`); `None` when it does not run or
    /// `WIREBYTES_NO_JAVA` is set.
    pub(crate) fn find(root: &Path) -> Option<Java> {
        if std::env::var_os("WIREBYTES_NO_JAVA").is_some() {
            return None;
        }
        let mut candidates = vec![PathBuf::from("java")];
        if let Some(home) = std::env::var_os("JAVA_HOME") {
            candidates.push(Path::new(&home).join("bin").join("java"));
        }
        candidates.into_iter().find_map(|exe| {
            let ok = Command::new(&exe)
                .arg("-version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            ok.then(|| Java {
                exe,
                dir: root.join("xtask").join("java"),
            })
        })
    }

    /// Runs `xtask/java/<program>` (a single-file source program) with `args`, feeding it
    /// `stdin`, and returns what it wrote to stdout. An error carries its stderr.
    pub(crate) fn run(
        &self,
        program: &str,
        args: &[&str],
        stdin: &[u8],
    ) -> Result<Vec<u8>, String> {
        self.run_with(&[], program, args, stdin)
    }

    /// [`run`](Self::run) with more options for the JVM (`-Dname=value`).
    pub(crate) fn run_with(
        &self,
        jvm: &[&str],
        program: &str,
        args: &[&str],
        stdin: &[u8],
    ) -> Result<Vec<u8>, String> {
        let mut child = Command::new(&self.exe)
            .args(["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss8m"])
            .args(jvm)
            .arg(self.dir.join(program))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", self.exe.display()))?;
        let mut child_stdin = child.stdin.take().expect("stdin is piped");
        let input = stdin.to_vec();
        let feeder = std::thread::spawn(move || child_stdin.write_all(&input));
        let mut stdout = Vec::new();
        let mut stderr = Vec::new();
        let read = child
            .stdout
            .take()
            .expect("stdout is piped")
            .read_to_end(&mut stdout);
        child
            .stderr
            .take()
            .expect("stderr is piped")
            .read_to_end(&mut stderr)
            .ok();
        let status = child.wait().map_err(|e| format!("waiting for java: {e}"))?;
        let fed = feeder
            .join()
            .map_err(|_| "the stdin feeder panicked".to_owned())?;
        read.map_err(|e| format!("reading java's output: {e}"))?;
        if !status.success() {
            return Err(format!(
                "java {program} failed ({status}): {}",
                String::from_utf8_lossy(&stderr).trim()
            ));
        }
        fed.map_err(|e| format!("feeding java's stdin: {e}"))?;
        Ok(stdout)
    }
}

/// Runs the sweeps named in `names` (all when empty) and prints their tables.
pub(crate) fn main(root: &Path, quick: bool, names: &[String]) -> ExitCode {
    let available: Vec<&str> = SWEEPS.iter().map(|s| s.name).collect();
    let selected: Vec<&Sweep> = match crate::select("sweep", &available, names) {
        Ok(selected) => SWEEPS
            .iter()
            .filter(|s| selected.contains(&s.name))
            .collect(),
        Err(err) => {
            eprintln!("error: {err}");
            return ExitCode::from(2);
        }
    };

    let java = Java::find(root);
    match &java {
        Some(j) => eprintln!("JDK oracle: {}", j.exe.display()),
        None => eprintln!(
            "JDK oracle: `java` not found on PATH (or WIREBYTES_NO_JAVA is set): \
             the JDK parity checks are skipped, every other check runs"
        ),
    }
    // The sweeps are independent: two at a time where there are two cores, each on its own
    // thread with its own context, taken in the order of SWEEPS (the charset sweep, the
    // longest, second); the tables come out in that order. Progress then goes line by line.
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(2)
        .min(selected.len());
    let terminal = std::io::stderr().is_terminal() && workers == 1;
    let started = Instant::now();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done: std::sync::Mutex<Vec<Option<Vec<Row>>>> =
        std::sync::Mutex::new(selected.iter().map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let mut ctx = Ctx {
                    root: root.to_path_buf(),
                    quick,
                    java: java.clone(),
                    terminal,
                    sweep: "",
                    rows: Vec::new(),
                };
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(sweep) = selected.get(i) else { break };
                    ctx.sweep = sweep.name;
                    ctx.rows.clear();
                    eprintln!("== sweep {}: {}", sweep.name, sweep.about);
                    let run = std::panic::AssertUnwindSafe(|| (sweep.run)(&mut ctx));
                    let finished = std::panic::catch_unwind(run).is_ok();
                    let rows = std::mem::take(&mut ctx.rows);
                    done.lock().unwrap_or_else(|e| e.into_inner())[i] = finished.then_some(rows);
                }
            });
        }
    });
    let done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut report = String::new();
    let mut failed = false;
    for (sweep, rows) in selected.iter().zip(done) {
        // A sweep that panicked (its message is on stderr) has no rows: a failure.
        let Some(rows) = rows else {
            let _ = writeln!(report, "### {}: did not finish (panicked)\n", sweep.name);
            failed = true;
            continue;
        };
        failed |= render(&mut report, sweep, &rows);
    }
    let _ = writeln!(
        report,
        "{} in {:.1} s{}.",
        if failed {
            "DIFFERENCES FOUND"
        } else {
            "All checks agree"
        },
        started.elapsed().as_secs_f64(),
        if quick { " (--quick)" } else { "" }
    );
    println!("\n{report}");
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Appends the markdown table of one sweep; returns whether any check differed.
fn render(out: &mut String, sweep: &Sweep, rows: &[Row]) -> bool {
    let _ = writeln!(out, "### {}: {}\n", sweep.name, sweep.about);
    let _ = writeln!(out, "| check | cases | differences | time |");
    let _ = writeln!(out, "|---|---:|---:|---:|");
    let mut failed = false;
    for row in rows {
        match &row.skipped {
            Some(reason) => {
                let _ = writeln!(out, "| {} | skipped: {reason} | | |", row.check);
            }
            None => {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {:.2} s |",
                    row.check,
                    thousands(row.cases),
                    row.differences,
                    row.elapsed.as_secs_f64()
                );
            }
        }
        failed |= row.differences > 0;
    }
    if rows.iter().all(|r| r.skipped.is_none()) && rows.iter().map(|r| r.cases).sum::<u64>() == 0 {
        let _ = writeln!(out, "\n(no cases ran)");
    }
    for row in rows {
        if let Some(first) = &row.first_difference {
            let _ = writeln!(out, "\nfirst difference in `{}`:\n  {first}", row.check);
        }
    }
    out.push('\n');
    failed
}

/// `1234567` as `1,234,567`.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx() -> Ctx {
        Ctx {
            root: PathBuf::from("."),
            quick: true,
            java: None,
            terminal: false,
            sweep: "test",
            rows: Vec::new(),
        }
    }

    #[test]
    fn a_check_counts_cases_and_keeps_the_first_difference() {
        let mut ctx = ctx();
        {
            let mut check = ctx.check("c", 3);
            assert!(check.case(&[1u8][..], 1, 1));
            assert!(!check.case_in("enc", &[0xab_u8, 0x01][..], 2, 3));
            assert!(!check.case(&[9u8][..], 4, 5));
        }
        let row = &ctx.rows[0];
        assert_eq!((row.cases, row.differences), (3, 2));
        let first = row.first_difference.as_deref().unwrap();
        assert!(first.contains("2 bytes: ab 01"), "{first}");
        assert!(first.contains("case: enc"), "{first}");
        let mut out = String::new();
        let sweep = Sweep {
            name: "t",
            about: "test",
            run: |_| {},
        };
        assert!(
            render(&mut out, &sweep, &ctx.rows),
            "a difference fails the sweep"
        );
    }

    #[test]
    fn a_skipped_check_does_not_fail_the_sweep() {
        let mut ctx = ctx();
        ctx.skip("jdk parity", "java not on PATH");
        let mut out = String::new();
        let sweep = Sweep {
            name: "t",
            about: "test",
            run: |_| {},
        };
        assert!(!render(&mut out, &sweep, &ctx.rows));
        assert!(out.contains("skipped: java not on PATH"), "{out}");
    }

    #[test]
    fn hex_shows_bytes_and_units() {
        assert_eq!([0u8, 0xff][..].hex(), "2 bytes: 00 ff");
        assert_eq!([0xd83d_u16][..].hex(), "1 UTF-16 units: d83d");
        assert_eq!("A".hex(), "UTF-8 1 bytes: 41");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(thousands(12), "12");
    }
}
