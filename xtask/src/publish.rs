//! `cargo xtask msrv` and `cargo xtask publish-check`: what a user of the published crates
//! gets.
//!
//! - `msrv` installs each library crate's declared `rust-version` with rustup (minimal
//!   profile) and runs the crate's tests with it, in a copy of the library crates and testkit
//!   under `target/msrv/` whose lockfile that toolchain resolves afresh: resolver 3 picks,
//!   for each dependency, the newest version whose own `rust-version` it meets (an older
//!   encoding_rs, for one), as it does for a user on that toolchain.
//! - `publish-check` checks each library package's manifest and file list (license texts,
//!   README, CHANGELOG), builds the docs with warnings denied (and as docs.rs does, with
//!   `--cfg docsrs` on nightly, where nightly is installed), packages the workspace with
//!   verification (each crate built from its own tarball), then runs `msrv`.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

use serde_json::Value;

/// The published crates, in the order they are checked.
pub(crate) const CRATES: &[&str] = &[
    "wirebytes-ascii",
    "wirebytes-charset",
    "wirebytes-mutf8",
    "wirebytes-rope",
];

/// Files every published package must hold.
const PACKAGE_FILES: &[&str] = &["LICENSE-MIT", "LICENSE-APACHE", "README.md", "CHANGELOG.md"];

/// One line of the final table: what ran, whether it passed, what it said, how long.
#[derive(Debug)]
struct Row {
    what: String,
    ok: bool,
    detail: String,
    secs: f64,
}

fn print_rows(title: &str, rows: &[Row]) {
    println!("\n{title}\n\n| check | result | detail | time |\n|---|---|---|---|");
    for row in rows {
        let result = if row.ok { "ok" } else { "FAILED" };
        println!(
            "| {} | {result} | {} | {:.1} s |",
            row.what, row.detail, row.secs
        );
    }
}

/// `cargo xtask msrv`.
pub(crate) fn msrv_main(root: &Path) -> ExitCode {
    let rows = msrv(root);
    print_rows("MSRV", &rows);
    exit(&rows, "msrv")
}

/// `cargo xtask publish-check`.
pub(crate) fn publish_check_main(root: &Path) -> ExitCode {
    let mut rows = Vec::new();
    let mut features = Vec::new();
    match metadata(root) {
        Ok(packages) => {
            for package in packages
                .iter()
                .filter(|p| CRATES.iter().any(|c| p["name"] == *c))
            {
                let name = package["name"].as_str().unwrap_or_default().to_owned();
                features.push((name, public_features(package)));
            }
            for name in CRATES {
                rows.push(timed(format!("manifest {name}"), || {
                    check_manifest(&packages, name)
                }));
                rows.push(timed(format!("package files {name}"), || {
                    package_files(root, name)
                }));
            }
        }
        Err(err) => rows.push(Row {
            what: "cargo metadata".into(),
            ok: false,
            detail: err,
            secs: 0.0,
        }),
    }
    rows.push(timed("docs, warnings denied".into(), || {
        docs(root, None, &features)
    }));
    rows.push(timed("docs as docs.rs builds them".into(), || {
        if toolchain_installed("nightly") {
            docs(root, Some("nightly"), &features)
        } else {
            Ok("skipped: no nightly toolchain".into())
        }
    }));
    rows.push(timed("cargo package --workspace".into(), || package(root)));
    rows.extend(msrv(root));
    print_rows("publish-check", &rows);
    exit(&rows, "publish-check")
}

fn exit(rows: &[Row], task: &str) -> ExitCode {
    if rows.iter().all(|row| row.ok) {
        ExitCode::SUCCESS
    } else {
        eprintln!("error: {task}: FAILED (see the table above)");
        ExitCode::FAILURE
    }
}

fn timed(what: String, f: impl FnOnce() -> Result<String, String>) -> Row {
    eprintln!("==> {what}");
    let start = Instant::now();
    let (ok, detail) = match f() {
        Ok(detail) => (true, detail),
        Err(detail) => (false, detail),
    };
    if !ok {
        eprintln!("{what}: {detail}");
    }
    Row {
        what,
        ok,
        detail,
        secs: start.elapsed().as_secs_f64(),
    }
}

/// `cargo metadata --no-deps`: the workspace's packages.
fn metadata(root: &Path) -> Result<Vec<Value>, String> {
    let out = Command::new(crate::cargo())
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .current_dir(root)
        .output()
        .map_err(|err| format!("cannot run cargo metadata: {err}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let json: Value = serde_json::from_slice(&out.stdout).map_err(|err| err.to_string())?;
    Ok(json["packages"].as_array().cloned().unwrap_or_default())
}

/// What crates.io shows and needs: a description, a README, an MSRV, license, repository,
/// at most five keywords, categories, docs.rs settings.
fn check_manifest(packages: &[Value], name: &str) -> Result<String, String> {
    let package = packages
        .iter()
        .find(|p| p["name"] == name)
        .ok_or_else(|| format!("{name} is not a workspace member"))?;
    let mut missing = Vec::new();
    for field in [
        "description",
        "readme",
        "rust_version",
        "license",
        "repository",
    ] {
        if package[field].as_str().is_none_or(str::is_empty) {
            missing.push(field.to_owned());
        }
    }
    let keywords = package["keywords"].as_array().map_or(0, Vec::len);
    if !(1..=5).contains(&keywords) {
        missing.push(format!("1 to 5 keywords (has {keywords})"));
    }
    if package["categories"].as_array().is_none_or(Vec::is_empty) {
        missing.push("categories".into());
    }
    let docs_rs = &package["metadata"]["docs"]["rs"];
    // docs.rs documents the public features, all of them, and never the test doors.
    if docs_rs["all-features"] == true {
        missing.push(
            "package.metadata.docs.rs without all-features (the doors are `__` features)".into(),
        );
    }
    let listed: Vec<&str> = docs_rs["features"]
        .as_array()
        .map(|list| list.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for feature in public_features(package) {
        if !listed.contains(&feature.as_str()) {
            missing.push(format!("package.metadata.docs.rs features {feature:?}"));
        }
    }
    if let Some(door) = listed.iter().find(|f| f.starts_with("__")) {
        missing.push(format!(
            "package.metadata.docs.rs features without {door:?}"
        ));
    }
    if !docs_rs["rustdoc-args"]
        .as_array()
        .is_some_and(|args| args.iter().any(|a| a == "docsrs"))
    {
        missing.push("package.metadata.docs.rs rustdoc-args --cfg docsrs".into());
    }
    if missing.is_empty() {
        Ok(format!(
            "rust-version {}",
            package["rust_version"].as_str().unwrap_or("?")
        ))
    } else {
        Err(format!("missing: {}", missing.join(", ")))
    }
}

/// The features a user may turn on: every feature but `default` and the `__` doors.
fn public_features(package: &Value) -> Vec<String> {
    let mut features: Vec<String> = package["features"]
        .as_object()
        .map(|map| map.keys().cloned().collect())
        .unwrap_or_default();
    features.retain(|f| f != "default" && !f.starts_with("__"));
    features.sort();
    features
}

/// `cargo package --list`: the license texts, README and CHANGELOG are in the package.
fn package_files(root: &Path, name: &str) -> Result<String, String> {
    let out = Command::new(crate::cargo())
        .args(["package", "--list", "--allow-dirty", "-p", name])
        .current_dir(root)
        .output()
        .map_err(|err| format!("cannot run cargo package: {err}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let list = String::from_utf8_lossy(&out.stdout);
    let files: Vec<&str> = list.lines().collect();
    let missing: Vec<&str> = PACKAGE_FILES
        .iter()
        .copied()
        .filter(|f| !files.contains(f))
        .collect();
    if missing.is_empty() {
        Ok(format!("{} files", files.len()))
    } else {
        Err(format!("not in the package: {}", missing.join(", ")))
    }
}

/// The published crates' docs, each with its public features (`features`: the crate's name
/// and its list) and warnings denied; with `toolchain` (nightly), as docs.rs builds them:
/// `--cfg docsrs`, so the feature badges are built too.
fn docs(
    root: &Path,
    toolchain: Option<&str>,
    features: &[(String, Vec<String>)],
) -> Result<String, String> {
    let flags = if toolchain.is_some() {
        "-D warnings --cfg docsrs"
    } else {
        "-D warnings"
    };
    // Its own target directory: the docs.rs flags would otherwise rebuild the other's.
    let target = crate::bench::target_dir(root).join(match toolchain {
        Some(_) => "docs-rs",
        None => "docs",
    });
    for name in CRATES {
        let mut cmd = match toolchain {
            Some(toolchain) => {
                let mut cmd = Command::new("rustup");
                cmd.args(["run", toolchain, "cargo"]);
                clear_toolchain_env(&mut cmd);
                cmd
            }
            None => Command::new(crate::cargo()),
        };
        let list = features
            .iter()
            .find(|(crate_name, _)| crate_name == name)
            .map(|(_, list)| list.join(","))
            .unwrap_or_default();
        cmd.args(["doc", "--no-deps", "-p", name, "--features", &list])
            .arg("--target-dir")
            .arg(&target)
            .env("RUSTDOCFLAGS", flags)
            .current_dir(root);
        run(cmd)?;
    }
    Ok(format!("RUSTDOCFLAGS=\"{flags}\""))
}

/// `cargo package --workspace`: each publishable crate packaged and built from its tarball,
/// so a file left out of the package or a dependency known only by path fails here.
fn package(root: &Path) -> Result<String, String> {
    let mut cmd = Command::new(crate::cargo());
    cmd.args(["package", "--workspace", "--allow-dirty"])
        .args(["--exclude", "xtask", "--exclude", "wirebytes-benches"])
        .args([
            "--exclude",
            "wirebytes-testkit",
            "--exclude",
            "wirebytes-example-http1",
        ])
        .current_dir(root);
    run(cmd)?;
    // Each `.crate` well under crates.io's limit: at most 5 MiB.
    const LIMIT: u64 = 5 * 1024 * 1024;
    let dir = crate::bench::target_dir(root).join("package");
    let mut sizes = Vec::new();
    for name in CRATES {
        let path = dir.join(format!("{name}-{}.crate", env!("CARGO_PKG_VERSION")));
        let size = std::fs::metadata(&path)
            .map_err(|err| format!("{}: {err}", path.display()))?
            .len();
        if size > LIMIT {
            return Err(format!("{name}: the .crate is {size} bytes, over {LIMIT}"));
        }
        sizes.push(format!("{name} {} KiB", size.div_ceil(1024)));
    }
    Ok(format!(
        "{} crates built from their tarballs ({})",
        CRATES.len(),
        sizes.join(", ")
    ))
}

/// For each published crate: its `rust-version`, installed, running its tests.
fn msrv(root: &Path) -> Vec<Row> {
    let packages = match metadata(root) {
        Ok(packages) => packages,
        Err(err) => {
            return vec![Row {
                what: "cargo metadata".into(),
                ok: false,
                detail: err,
                secs: 0.0,
            }];
        }
    };
    let mut versions: Vec<(&str, String)> = Vec::new();
    for name in CRATES {
        let version = packages
            .iter()
            .find(|p| p["name"] == *name)
            .and_then(|p| p["rust_version"].as_str())
            .unwrap_or("")
            .to_owned();
        versions.push((name, version));
    }
    let mut rows = Vec::new();
    let scratch = crate::bench::target_dir(root).join("msrv");
    let prepared = timed("MSRV workspace".into(), || prepare_scratch(root, &scratch));
    let ready = prepared.ok;
    rows.push(prepared);
    if !ready {
        return rows;
    }
    for (name, version) in versions {
        if version.is_empty() {
            rows.push(Row {
                what: format!("tests of {name}"),
                ok: false,
                detail: "no rust-version in the manifest".into(),
                secs: 0.0,
            });
            continue;
        }
        if !scratch.join("Cargo.lock").exists() {
            rows.push(timed(
                format!("dependencies resolved by Rust {version}"),
                || {
                    install(&version)?;
                    resolve(&scratch, &version)?;
                    locked_versions(&scratch)
                },
            ));
        }
        rows.push(timed(format!("tests of {name} on Rust {version}"), || {
            install(&version)?;
            test_on(&scratch, name, &version)
        }));
    }
    rows
}

/// The versions of the library crates' dependencies in the scratch lockfile.
fn locked_versions(scratch: &Path) -> Result<String, String> {
    let lock = std::fs::read_to_string(scratch.join("Cargo.lock")).map_err(|e| e.to_string())?;
    let mut found = Vec::new();
    let mut name = None;
    for line in lock.lines() {
        if let Some(n) = line.strip_prefix("name = ") {
            name = Some(n.trim_matches('"'));
        } else if let (Some(n), Some(v)) = (name, line.strip_prefix("version = ")) {
            if ["encoding_rs", "bytes", "memchr", "simdutf8"].contains(&n) {
                found.push(format!("{n} {}", v.trim_matches('"')));
            }
            name = None;
        }
    }
    Ok(found.join(", "))
}

fn toolchain_installed(toolchain: &str) -> bool {
    Command::new("rustup")
        .args(["run", toolchain, "rustc", "-V"])
        .output()
        .is_ok_and(|out| out.status.success())
}

/// `rustup toolchain install VERSION --profile minimal`, unless it is there.
fn install(version: &str) -> Result<(), String> {
    if toolchain_installed(version) {
        return Ok(());
    }
    let status = Command::new("rustup")
        .args(["toolchain", "install", version, "--profile", "minimal"])
        .status()
        .map_err(|err| format!("cannot run rustup: {err}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("rustup could not install {version}"))
    }
}

/// The library crates and testkit, copied under `scratch` with a manifest that holds them
/// alone (no xtask, no benches, whose dependencies may need a newer compiler).
fn prepare_scratch(root: &Path, scratch: &Path) -> Result<String, String> {
    let _ = std::fs::remove_dir_all(scratch.join("crates"));
    let _ = std::fs::remove_dir_all(scratch.join("testkit"));
    let _ = std::fs::remove_file(scratch.join("Cargo.lock"));
    std::fs::create_dir_all(scratch).map_err(|err| err.to_string())?;
    for dir in ["crates", "testkit"] {
        copy_dir(&root.join(dir), &scratch.join(dir))?;
    }
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).map_err(|e| e.to_string())?;
    let manifest = scratch_manifest(&manifest)?;
    std::fs::write(scratch.join("Cargo.toml"), manifest).map_err(|err| err.to_string())?;
    Ok(format!("{}", scratch.display()))
}

/// The root manifest with `members` limited to the library crates and testkit, and without
/// the profile settings of packages that are not there.
fn scratch_manifest(manifest: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut found = false;
    let mut skip = false;
    for line in manifest.lines() {
        if line.starts_with("members = ") {
            out.push_str("members = [\"crates/*\", \"testkit\"]\n");
            found = true;
            continue;
        }
        if line.starts_with('[') {
            skip = line == "[profile.dev.package.xtask]";
        }
        if !skip {
            out.push_str(line);
            out.push('\n');
        }
    }
    if found {
        Ok(out)
    } else {
        Err("no `members = ` line in the root Cargo.toml".into())
    }
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|err| format!("{}: {err}", to.display()))?;
    let entries = std::fs::read_dir(from).map_err(|err| format!("{}: {err}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|err| err.to_string())?;
        let path = entry.path();
        let dest: PathBuf = to.join(entry.file_name());
        // `metadata` follows symlinks: the license links become plain copies.
        let meta = std::fs::metadata(&path).map_err(|err| format!("{}: {err}", path.display()))?;
        if meta.is_dir() {
            if entry.file_name() != "target" {
                copy_dir(&path, &dest)?;
            }
        } else {
            std::fs::copy(&path, &dest).map_err(|err| format!("{}: {err}", path.display()))?;
        }
    }
    Ok(())
}

/// A lockfile resolved by the MSRV toolchain's cargo (once per toolchain).
fn resolve(scratch: &Path, version: &str) -> Result<(), String> {
    if scratch.join("Cargo.lock").exists() {
        return Ok(());
    }
    let mut cmd = Command::new("rustup");
    cmd.args(["run", version, "cargo", "generate-lockfile"])
        .current_dir(scratch);
    clear_toolchain_env(&mut cmd);
    run(cmd)
}

/// The crate's tests, every feature on, on `version`.
fn test_on(scratch: &Path, name: &str, version: &str) -> Result<String, String> {
    let mut cmd = Command::new("rustup");
    cmd.args([
        "run",
        version,
        "cargo",
        "test",
        "--all-features",
        "-p",
        name,
    ])
    .env("WIREBYTES_TEST_SCALE", "reduced")
    .current_dir(scratch);
    clear_toolchain_env(&mut cmd);
    let (mut passed, mut failed) = (0, 0);
    let result = crate::cross::run_merged(cmd, |line| {
        if let Some(counts) = crate::cross::TestResult::of_line(line) {
            passed += counts.passed;
            failed += counts.failed;
        }
    });
    let summary = format!("{passed} passed, {failed} failed");
    match result {
        Ok(()) if passed > 0 && failed == 0 => Ok(summary),
        Ok(()) => Err(format!("{summary}: no test ran")),
        Err(err) => Err(format!("{summary}: {err}")),
    }
}

/// The toolchain cargo and rustup picked for xtask must not leak into a run on another.
fn clear_toolchain_env(cmd: &mut Command) {
    for var in [
        "RUSTUP_TOOLCHAIN",
        "RUSTC",
        "RUSTDOC",
        "CARGO",
        "CARGO_MANIFEST_DIR",
    ] {
        cmd.env_remove(var);
    }
}

fn run(mut cmd: Command) -> Result<(), String> {
    let status = cmd
        .status()
        .map_err(|err| format!("cannot run {cmd:?}: {err}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{:?} failed ({status})", cmd.get_program()))
    }
}

#[cfg(test)]
mod tests {
    use super::{check_manifest, scratch_manifest};
    use serde_json::{Value, json};

    /// A package as `cargo metadata` shows it, with these docs.rs settings.
    fn package(docs_rs: Value) -> Vec<Value> {
        vec![json!({
            "name": "wirebytes-x",
            "description": "d", "readme": "README.md", "rust_version": "1.85",
            "license": "MIT", "repository": "r", "keywords": ["k"], "categories": ["c"],
            "features": { "default": ["std"], "std": [], "bytes": [], "__internal": [] },
            "metadata": { "docs": { "rs": docs_rs } },
        })]
    }

    #[test]
    fn docs_rs_builds_the_public_features_and_no_door() {
        let args = json!(["--cfg", "docsrs"]);
        let good = package(json!({ "features": ["bytes", "std"], "rustdoc-args": args }));
        assert!(check_manifest(&good, "wirebytes-x").is_ok());
        for (docs_rs, why) in [
            (
                json!({ "all-features": true, "rustdoc-args": args }),
                "all-features",
            ),
            (
                json!({ "features": ["std"], "rustdoc-args": args }),
                "\"bytes\"",
            ),
            (
                json!({ "features": ["bytes", "std", "__internal"], "rustdoc-args": args }),
                "__internal",
            ),
            (json!({ "features": ["bytes", "std"] }), "docsrs"),
        ] {
            let err = check_manifest(&package(docs_rs), "wirebytes-x").unwrap_err();
            assert!(err.contains(why), "{why}: {err}");
        }
    }

    #[test]
    fn the_scratch_manifest_holds_the_libraries_alone() {
        let root = "[workspace]\nmembers = [\"crates/*\", \"xtask\"]\n\n[profile.dev.package.xtask]\nopt-level = 3\n[profile.dev.package.memchr]\nopt-level = 3\n";
        let got = scratch_manifest(root).unwrap();
        assert!(got.contains("members = [\"crates/*\", \"testkit\"]"));
        assert!(!got.contains("xtask"));
        assert!(got.contains("[profile.dev.package.memchr]\nopt-level = 3"));
        assert!(scratch_manifest("[workspace]\n").is_err());
    }
}
