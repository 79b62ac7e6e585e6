//! The workspace xtask works on: found where it runs, and checked against where it was built.
//!
//! Two checkouts that share a target directory (one `CARGO_TARGET_DIR`, or a global
//! `build.target-dir`) share cargo's fingerprints: cargo can judge the xtask binary built in
//! one checkout up to date in the other and run it there. That binary's sweeps, bench
//! tables and linked crates are the other checkout's. So the root is found at run time, and
//! xtask refuses to run when it was built from a different one.

use std::path::{Path, PathBuf};

/// The workspace root this xtask was compiled from: the parent of its manifest directory.
fn built_from() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

/// The root of the workspace xtask runs for, checked to be the one it was built from.
///
/// The search starts at the manifest directory that `cargo run` names in the environment
/// (`CARGO_MANIFEST_DIR`, set for the program it runs), else at the current directory.
///
/// # Errors
///
/// A message for the user when no workspace is found or when xtask was built from another.
pub(crate) fn workspace_root() -> Result<PathBuf, String> {
    let start = match std::env::var_os("CARGO_MANIFEST_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => std::env::current_dir()
            .map_err(|err| format!("cannot read the current directory: {err}"))?,
    };
    let root = find_workspace_root(&start).ok_or_else(|| {
        format!(
            "no cargo workspace at or above {}: run `cargo xtask` inside a wirebytes checkout",
            start.display()
        )
    })?;
    check_built_from(&built_from(), &root)?;
    Ok(root)
}

/// The nearest directory at or above `start` whose `Cargo.toml` has a `[workspace]` table.
pub(crate) fn find_workspace_root(start: &Path) -> Option<PathBuf> {
    start.ancestors().find_map(|dir| {
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).ok()?;
        manifest
            .lines()
            .any(|line| line.trim() == "[workspace]")
            .then(|| dir.to_path_buf())
    })
}

/// `Ok` when `built` (where this binary was compiled) and `running` (the workspace found at
/// run time) are the same directory once both are canonical. A `built` that no longer
/// exists (a deleted checkout) differs from every `running`.
pub(crate) fn check_built_from(built: &Path, running: &Path) -> Result<(), String> {
    let canonical = |path: &Path| std::fs::canonicalize(path).ok();
    let running_canonical = canonical(running).unwrap_or_else(|| running.to_path_buf());
    if canonical(built).is_some_and(|built| built == running_canonical) {
        return Ok(());
    }
    let (built, running) = (built.display(), running_canonical.display());
    Err(format!(
        "this xtask was built from the workspace at {built} but runs for the workspace at \
         {running}: cargo reused a binary built elsewhere (checkouts that share a target \
         directory share cargo's fingerprints), so its sweeps, benches and linked crates \
         would be those of {built}.\n\
         Rebuild it from {running} in a target directory of its own:\n    \
         CARGO_TARGET_DIR={running}/target cargo xtask ...\n\
         (If that is already its target directory, as for a checkout that was moved, run \
         `cargo clean -p xtask` there first.)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory under the system temp dir, removed when dropped.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new(name: &str) -> TempDir {
            let dir =
                std::env::temp_dir().join(format!("xtask-root-test-{}-{name}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            TempDir(dir)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A workspace at `dir` with a member `xtask` that is a package only.
    fn workspace(dir: &Path) {
        std::fs::create_dir_all(dir.join("xtask").join("src")).unwrap();
        std::fs::write(
            dir.join("Cargo.toml"),
            "[workspace]\nmembers = [\"xtask\"]\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("xtask").join("Cargo.toml"),
            "[package]\nname = \"xtask\"\n",
        )
        .unwrap();
    }

    #[test]
    fn the_root_is_the_nearest_workspace_manifest_above() {
        let tmp = TempDir::new("find");
        let root = tmp.0.join("clone");
        workspace(&root);
        let expect = Some(root.clone());
        assert_eq!(find_workspace_root(&root), expect);
        assert_eq!(find_workspace_root(&root.join("xtask")), expect);
        assert_eq!(find_workspace_root(&root.join("xtask").join("src")), expect);
        // Above the workspace there is none (the temp dir holds no workspace manifest).
        assert_eq!(find_workspace_root(&tmp.0), None);
    }

    #[test]
    fn this_workspace_is_found_from_the_xtask_package() {
        let root = find_workspace_root(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
        assert_eq!(root, built_from());
        assert!(check_built_from(&built_from(), &root).is_ok());
    }

    #[test]
    fn a_binary_built_from_another_checkout_is_refused() {
        let tmp = TempDir::new("two");
        let (a, b) = (tmp.0.join("a"), tmp.0.join("b"));
        workspace(&a);
        workspace(&b);
        assert!(check_built_from(&a, &a).is_ok());
        // The same directory by another spelling is the same workspace.
        assert!(check_built_from(&a.join("xtask").join(".."), &a).is_ok());
        let err = check_built_from(&a, &b).unwrap_err();
        assert!(
            err.contains(&format!("built from the workspace at {}", a.display())),
            "{err}"
        );
        let b = std::fs::canonicalize(&b).unwrap();
        assert!(
            err.contains(&format!("runs for the workspace at {}", b.display())),
            "{err}"
        );
        assert!(
            err.contains(&format!("CARGO_TARGET_DIR={}/target", b.display())),
            "{err}"
        );
        // A checkout that is gone is another checkout.
        std::fs::remove_dir_all(&a).unwrap();
        assert!(check_built_from(&a, &b).is_err());
    }
}
