//! The library crates' public API as text, one line per item, and the checks on it.
//!
//! `cargo xtask api` writes each crate's API to `crates/<crate>/public-api.txt`: the items a
//! default build of the crate exposes, with every public feature on (not `__internal`), read
//! from rustdoc's JSON output (the pinned toolchain's rustdoc, its unstable JSON format
//! allowed through `RUSTC_BOOTSTRAP`) and printed one per line, sorted: functions with their
//! signatures and `#[must_use]`, types with `#[non_exhaustive]`, inherent methods and
//! constants, trait impls (not auto traits, not blanket impls), enum variants, re-exports.
//! The `api` sweep of `cargo xtask verify` renders it again and fails on any line that
//! differs from the committed file, so every change of the semver surface shows in a diff.
//!
//! The sweep also proves the test doors closed: a probe crate that names
//! `<crate>::levels` and `<crate>::reference` must fail to compile against the crate with
//! its public features, and compile with `__internal` added.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use serde_json::Value;

use crate::verify::Ctx;

/// The library crates, by their short names (the package is `wirebytes-<name>`).
pub(crate) const CRATES: &[&str] = &["ascii", "charset", "mutf8", "rope"];

/// The package name of the crate `name`.
fn package(name: &str) -> String {
    format!("wirebytes-{name}")
}

/// The hidden feature that opens the test doors.
const INTERNAL: &str = "__internal";

/// Where a crate's committed API lives.
fn snapshot_path(root: &Path, krate: &str) -> PathBuf {
    root.join("crates").join(krate).join("public-api.txt")
}

/// The target directory of the API builds (apart from the main one, whose documentation
/// they would overwrite).
fn target_dir(root: &Path) -> PathBuf {
    root.join("target").join("api")
}

/// The public features of `krate` (all but `default` and the hidden ones, whose names start
/// with `__`), from its manifest.
fn public_features(root: &Path, krate: &str) -> Result<Vec<String>, String> {
    let out = Command::new(crate::cargo())
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let metadata: Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("cargo metadata: {e}"))?;
    let package = metadata["packages"]
        .as_array()
        .and_then(|packages| packages.iter().find(|p| p["name"] == krate))
        .ok_or_else(|| format!("no package {krate} in the workspace"))?;
    let features = package["features"]
        .as_object()
        .ok_or_else(|| format!("{krate}: no features table in cargo metadata"))?;
    Ok(features
        .keys()
        .filter(|name| *name != "default" && !name.starts_with("__"))
        .cloned()
        .collect())
}

/// Builds `krate`'s rustdoc JSON with its public features and renders its API.
pub(crate) fn render_crate(root: &Path, krate: &str) -> Result<String, String> {
    let features = public_features(root, krate)?;
    let target = target_dir(root);
    let out = Command::new(crate::cargo())
        .args(["rustdoc", "--quiet", "--lib", "--package", krate])
        .arg("--features")
        .arg(features.join(","))
        .args(["--", "-Z", "unstable-options", "--output-format", "json"])
        .env("RUSTC_BOOTSTRAP", "1")
        .env("CARGO_TARGET_DIR", &target)
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run cargo rustdoc: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo rustdoc -p {krate} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let file = target
        .join("doc")
        .join(format!("{}.json", krate.replace('-', "_")));
    let json = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let doc: Value =
        serde_json::from_slice(&json).map_err(|e| format!("{}: {e}", file.display()))?;
    let lines = Api::new(&doc)?.lines();
    let mut text = format!(
        "# The public API of {krate} (features: {}), one item per line.\n\
         # `cargo xtask api` writes it; the `api` sweep of `cargo xtask verify` checks it.\n",
        if features.is_empty() {
            "none".to_owned()
        } else {
            features.join(", ")
        }
    );
    for line in lines {
        text.push_str(&line);
        text.push('\n');
    }
    Ok(text)
}

/// rustdoc's JSON of one crate, and the lines of its API as they are found.
struct Api<'a> {
    index: &'a serde_json::Map<String, Value>,
    lines: BTreeSet<String>,
}

impl<'a> Api<'a> {
    fn new(doc: &'a Value) -> Result<Self, String> {
        let index = doc["index"]
            .as_object()
            .ok_or("rustdoc JSON without an index")?;
        let root = doc["root"].to_string();
        let name = index
            .get(&root)
            .and_then(|item| item["name"].as_str())
            .ok_or("rustdoc JSON without its root module")?
            .to_owned();
        let mut api = Api {
            index,
            lines: BTreeSet::new(),
        };
        api.module(&root, &name);
        Ok(api)
    }

    fn lines(self) -> BTreeSet<String> {
        self.lines
    }

    fn item(&self, id: &Value) -> Option<&'a Value> {
        self.index.get(&id.to_string())
    }

    /// The items of the module `id`, at `path`.
    fn module(&mut self, id: &str, path: &str) {
        let Some(module) = self.index.get(id) else {
            return;
        };
        let items = module["inner"]["module"]["items"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        for id in items {
            let Some(item) = self.item(&id) else {
                continue;
            };
            if item["visibility"] != "public" {
                continue;
            }
            if let Some(import) = item["inner"].get("use") {
                let name = import["name"].as_str().unwrap_or("_");
                match self.item(&import["id"]) {
                    Some(_) if import["is_glob"] == true => {
                        let id = import["id"].to_string();
                        self.module(&id, path);
                    }
                    Some(target) => self.named(target, &format!("{path}::{name}")),
                    None => {
                        let source = import["source"].as_str().unwrap_or("?");
                        self.lines
                            .insert(format!("pub use {path}::{name} = {source}"));
                    }
                }
                continue;
            }
            let name = item["name"].as_str().unwrap_or("_");
            self.named(item, &format!("{path}::{name}"));
        }
    }

    /// One item, public at `path`.
    fn named(&mut self, item: &'a Value, path: &str) {
        let inner = &item["inner"];
        let attrs = attrs(item);
        let Some((kind, body)) = inner.as_object().and_then(|o| o.iter().next()) else {
            return;
        };
        match kind.as_str() {
            "module" => {
                self.lines.insert(format!("pub mod {path}"));
                let id = item["id"].to_string();
                self.module(&id, path);
            }
            "function" => {
                self.lines
                    .insert(format!("{attrs}{}", function(body, path)));
            }
            "struct" => {
                let generics = generics_params(&body["generics"]);
                self.lines
                    .insert(format!("{attrs}pub struct {path}{generics}"));
                if let Some(fields) = body["kind"]["plain"]["fields"].as_array() {
                    for field in fields {
                        if let Some(field) = self.item(field)
                            && field["visibility"] == "public"
                        {
                            let name = field["name"].as_str().unwrap_or("_");
                            let ty = ty(&field["inner"]["struct_field"]);
                            self.lines.insert(format!("pub {path}::{name}: {ty}"));
                        }
                    }
                }
                self.impls(body, path);
            }
            "enum" => {
                let generics = generics_params(&body["generics"]);
                self.lines
                    .insert(format!("{attrs}pub enum {path}{generics}"));
                for variant in body["variants"].as_array().cloned().unwrap_or_default() {
                    if let Some(variant) = self.item(&variant) {
                        let name = variant["name"].as_str().unwrap_or("_");
                        let fields = self.variant_fields(&variant["inner"]["variant"]["kind"]);
                        self.lines.insert(format!("{path}::{name}{fields}"));
                    }
                }
                self.impls(body, path);
            }
            "trait" => {
                self.lines.insert(format!("{attrs}pub trait {path}"));
                for member in body["items"].as_array().cloned().unwrap_or_default() {
                    if let Some(member) = self.item(&member) {
                        let name = member["name"].as_str().unwrap_or("_");
                        self.named(member, &format!("{path}::{name}"));
                    }
                }
            }
            "constant" | "assoc_const" => {
                let ty = ty(&body["type"]);
                self.lines.insert(format!("pub const {path}: {ty}"));
            }
            "static" => {
                let ty = ty(&body["type"]);
                self.lines.insert(format!("pub static {path}: {ty}"));
            }
            "type_alias" => {
                let ty = ty(&body["type"]);
                self.lines.insert(format!("pub type {path} = {ty}"));
            }
            "macro" => {
                self.lines.insert(format!("macro_rules! {path}"));
            }
            other => {
                self.lines.insert(format!("pub {other} {path}"));
            }
        }
    }

    /// The fields of an enum variant, as they are written after its name.
    fn variant_fields(&self, kind: &Value) -> String {
        if let Some(fields) = kind.get("tuple").and_then(Value::as_array) {
            let types: Vec<String> = fields
                .iter()
                .map(|field| {
                    self.item(field)
                        .map_or_else(|| "_".to_owned(), |f| ty(&f["inner"]["struct_field"]))
                })
                .collect();
            return format!("({})", types.join(", "));
        }
        if let Some(fields) = kind["struct"]["fields"].as_array() {
            let named: Vec<String> = fields
                .iter()
                .filter_map(|field| self.item(field))
                .map(|f| {
                    let name = f["name"].as_str().unwrap_or("_");
                    format!("{name}: {}", ty(&f["inner"]["struct_field"]))
                })
                .collect();
            return format!(" {{ {} }}", named.join(", "));
        }
        String::new()
    }

    /// The inherent items and the trait impls of a type at `path` (auto traits and blanket
    /// impls left out: the compiler derives them).
    fn impls(&mut self, body: &Value, path: &str) {
        for id in body["impls"].as_array().cloned().unwrap_or_default() {
            let Some(imp) = self.item(&id) else {
                continue;
            };
            let imp = &imp["inner"]["impl"];
            // `StructuralPartialEq` is the compiler's marker of a derived `PartialEq`.
            if imp["is_synthetic"] == true
                || !imp["blanket_impl"].is_null()
                || imp["trait"]["path"] == "StructuralPartialEq"
            {
                continue;
            }
            let generics = generics_params(&imp["generics"]);
            let wheres = where_clause(&imp["generics"]);
            if imp["trait"].is_null() {
                for member in imp["items"].as_array().cloned().unwrap_or_default() {
                    if let Some(member) = self.item(&member)
                        && member["visibility"] == "public"
                    {
                        let name = member["name"].as_str().unwrap_or("_");
                        self.named(member, &format!("{path}::{name}"));
                    }
                }
            } else {
                let negative = if imp["is_negative"] == true { "!" } else { "" };
                let line = format!(
                    "impl{generics} {negative}{} for {}{wheres}",
                    path_of(&imp["trait"]),
                    ty(&imp["for"])
                );
                self.lines.insert(line);
            }
        }
    }
}

/// The attributes that belong to the API: `#[must_use]`, `#[non_exhaustive]`.
fn attrs(item: &Value) -> String {
    let mut out = String::new();
    for attr in item["attrs"].as_array().into_iter().flatten() {
        if attr == "non_exhaustive" {
            out.push_str("#[non_exhaustive] ");
        } else if attr.get("must_use").is_some() {
            out.push_str("#[must_use] ");
        }
    }
    out
}

/// A function's signature, named `path`.
fn function(body: &Value, path: &str) -> String {
    let header = &body["header"];
    let mut out = String::from("pub ");
    if header["is_const"] == true {
        out.push_str("const ");
    }
    if header["is_async"] == true {
        out.push_str("async ");
    }
    if header["is_unsafe"] == true {
        out.push_str("unsafe ");
    }
    let sig = &body["sig"];
    let inputs: Vec<String> = sig["inputs"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|input| {
            let name = input[0].as_str().unwrap_or("_");
            let t = &input[1];
            if name == "self" {
                self_param(t)
            } else {
                format!("{name}: {}", ty(t))
            }
        })
        .collect();
    let _ = write!(
        out,
        "fn {path}{}({})",
        generics_params(&body["generics"]),
        inputs.join(", ")
    );
    if !sig["output"].is_null() {
        let _ = write!(out, " -> {}", ty(&sig["output"]));
    }
    out.push_str(&where_clause(&body["generics"]));
    out
}

/// The receiver, as it is written: `self`, `&self`, `&mut self`, `&'a self`, or `self: T`.
fn self_param(t: &Value) -> String {
    if t["generic"] == "Self" {
        return "self".to_owned();
    }
    if let Some(reference) = t.get("borrowed_ref")
        && reference["type"]["generic"] == "Self"
    {
        let lifetime = reference["lifetime"]
            .as_str()
            .map(|l| format!("{l} "))
            .unwrap_or_default();
        let mutable = if reference["is_mutable"] == true {
            "mut "
        } else {
            ""
        };
        return format!("&{lifetime}{mutable}self");
    }
    format!("self: {}", ty(t))
}

/// `<'a, T: Bound, const N: usize>`, without the parameters of `impl Trait` arguments.
fn generics_params(generics: &Value) -> String {
    let params: Vec<String> = generics["params"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|param| {
            let name = param["name"].as_str().unwrap_or("_");
            let kind = &param["kind"];
            if let Some(lifetime) = kind.get("lifetime") {
                let outlives = strings(&lifetime["outlives"]);
                return Some(if outlives.is_empty() {
                    name.to_owned()
                } else {
                    format!("{name}: {}", outlives.join(" + "))
                });
            }
            if let Some(t) = kind.get("type") {
                if t["is_synthetic"] == true {
                    return None;
                }
                let bounds = bounds(&t["bounds"]);
                return Some(if bounds.is_empty() {
                    name.to_owned()
                } else {
                    format!("{name}: {bounds}")
                });
            }
            let c = &kind["const"];
            Some(format!("const {name}: {}", ty(&c["type"])))
        })
        .collect();
    if params.is_empty() {
        String::new()
    } else {
        format!("<{}>", params.join(", "))
    }
}

/// ` where T: Bound, ...`, or nothing.
fn where_clause(generics: &Value) -> String {
    let predicates: Vec<String> = generics["where_predicates"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|predicate| {
            if let Some(bound) = predicate.get("bound_predicate") {
                format!("{}: {}", ty(&bound["type"]), bounds(&bound["bounds"]))
            } else if let Some(lifetime) = predicate.get("lifetime_predicate") {
                format!(
                    "{}: {}",
                    lifetime["lifetime"].as_str().unwrap_or("'_"),
                    strings(&lifetime["outlives"]).join(" + ")
                )
            } else {
                let eq = &predicate["eq_predicate"];
                format!("{} = {}", ty(&eq["lhs"]), term(&eq["rhs"]))
            }
        })
        .collect();
    if predicates.is_empty() {
        String::new()
    } else {
        format!(" where {}", predicates.join(", "))
    }
}

fn strings(values: &Value) -> Vec<String> {
    values
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect()
}

/// `A + ?Sized + 'a`.
fn bounds(bounds: &Value) -> String {
    let parts: Vec<String> = bounds
        .as_array()
        .into_iter()
        .flatten()
        .map(|bound| {
            if let Some(t) = bound.get("trait_bound") {
                let modifier = match t["modifier"].as_str() {
                    Some("maybe") => "?",
                    Some("maybe_const") => "~const ",
                    _ => "",
                };
                format!("{modifier}{}", path_of(&t["trait"]))
            } else if let Some(lifetime) = bound.get("outlives") {
                lifetime.as_str().unwrap_or("'_").to_owned()
            } else {
                "use<..>".to_owned()
            }
        })
        .collect();
    parts.join(" + ")
}

/// A path with its generic arguments, by its last segment (`Option<usize>`).
fn path_of(path: &Value) -> String {
    let full = path["path"]
        .as_str()
        .or_else(|| path["name"].as_str())
        .unwrap_or("_");
    let name = full.rsplit("::").next().unwrap_or(full);
    format!("{name}{}", args(&path["args"]))
}

/// `<A, B, Item = C>` or `(A) -> B`.
fn args(args: &Value) -> String {
    if args.is_null() {
        return String::new();
    }
    if let Some(angle) = args.get("angle_bracketed") {
        let mut parts: Vec<String> = angle["args"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|arg| {
                if let Some(t) = arg.get("type") {
                    ty(t)
                } else if let Some(lifetime) = arg.get("lifetime") {
                    lifetime.as_str().unwrap_or("'_").to_owned()
                } else if let Some(c) = arg.get("const") {
                    c["expr"].as_str().unwrap_or("_").to_owned()
                } else {
                    "_".to_owned()
                }
            })
            .collect();
        for constraint in angle["constraints"].as_array().into_iter().flatten() {
            let name = constraint["name"].as_str().unwrap_or("_");
            let binding = &constraint["binding"];
            if let Some(eq) = binding.get("equality") {
                parts.push(format!("{name} = {}", term(eq)));
            } else {
                parts.push(format!("{name}: {}", bounds(&binding["constraint"])));
            }
        }
        return if parts.is_empty() {
            String::new()
        } else {
            format!("<{}>", parts.join(", "))
        };
    }
    let paren = &args["parenthesized"];
    let inputs: Vec<String> = paren["inputs"]
        .as_array()
        .into_iter()
        .flatten()
        .map(ty)
        .collect();
    let output = if paren["output"].is_null() {
        String::new()
    } else {
        format!(" -> {}", ty(&paren["output"]))
    };
    format!("({}){output}", inputs.join(", "))
}

/// A type or a constant on the right of `=`.
fn term(term: &Value) -> String {
    if let Some(t) = term.get("type") {
        ty(t)
    } else {
        term["constant"]["expr"].as_str().unwrap_or("_").to_owned()
    }
}

/// A type as it is written.
fn ty(t: &Value) -> String {
    let Some((kind, v)) = t.as_object().and_then(|o| o.iter().next()) else {
        return match t.as_str() {
            Some("infer") => "_".to_owned(),
            _ => "_".to_owned(),
        };
    };
    match kind.as_str() {
        "resolved_path" => path_of(v),
        "generic" | "primitive" => v.as_str().unwrap_or("_").to_owned(),
        "tuple" => {
            let parts: Vec<String> = v.as_array().into_iter().flatten().map(ty).collect();
            format!("({})", parts.join(", "))
        }
        "slice" => format!("[{}]", ty(v)),
        "array" => format!("[{}; {}]", ty(&v["type"]), v["len"].as_str().unwrap_or("_")),
        "borrowed_ref" => {
            let lifetime = v["lifetime"]
                .as_str()
                .map(|l| format!("{l} "))
                .unwrap_or_default();
            let mutable = if v["is_mutable"] == true { "mut " } else { "" };
            format!("&{lifetime}{mutable}{}", ty(&v["type"]))
        }
        "raw_pointer" => {
            let mutable = if v["is_mutable"] == true {
                "mut"
            } else {
                "const"
            };
            format!("*{mutable} {}", ty(&v["type"]))
        }
        "impl_trait" => format!("impl {}", bounds(v)),
        "dyn_trait" => {
            let traits: Vec<String> = v["traits"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|poly| path_of(&poly["trait"]))
                .collect();
            let lifetime = v["lifetime"]
                .as_str()
                .map(|l| format!(" + {l}"))
                .unwrap_or_default();
            format!("dyn {}{lifetime}", traits.join(" + "))
        }
        "qualified_path" => {
            let name = v["name"].as_str().unwrap_or("_");
            let self_type = ty(&v["self_type"]);
            if v["trait"].is_null() {
                format!("{self_type}::{name}")
            } else {
                format!("<{self_type} as {}>::{name}", path_of(&v["trait"]))
            }
        }
        "function_pointer" => {
            let sig = &v["sig"];
            let inputs: Vec<String> = sig["inputs"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|input| ty(&input[1]))
                .collect();
            let output = if sig["output"].is_null() {
                String::new()
            } else {
                format!(" -> {}", ty(&sig["output"]))
            };
            format!("fn({}){output}", inputs.join(", "))
        }
        other => format!("<{other}>"),
    }
}

/// The test doors a crate opens only with `__internal`.
const DOORS: [&str; 2] = ["levels", "reference"];

/// Whether a probe crate that names `krate`'s test door `door` compiles, with `features`.
fn door_compiles(
    root: &Path,
    krate: &str,
    door: &str,
    features: &[String],
) -> Result<bool, String> {
    let probe = target_dir(root)
        .join("probe")
        .join(format!("{krate}-{door}"));
    std::fs::create_dir_all(probe.join("src")).map_err(|e| format!("{}: {e}", probe.display()))?;
    let lib = krate.replace('-', "_");
    let features: Vec<String> = features.iter().map(|f| format!("\"{f}\"")).collect();
    let manifest = format!(
        "[package]\nname = \"probe-{krate}-{door}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [workspace]\n\n[dependencies]\n{krate} = {{ path = {:?}, default-features = false, features = [{}] }}\n",
        root.join("crates").join(krate).display().to_string(),
        features.join(", ")
    );
    let source =
        format!("//! Names a test door: compiles only where it is open.\npub use {lib}::{door};\n");
    std::fs::write(probe.join("Cargo.toml"), manifest).map_err(|e| e.to_string())?;
    // The workspace's lock file: the same dependency versions, nothing to fetch.
    std::fs::copy(root.join("Cargo.lock"), probe.join("Cargo.lock")).map_err(|e| e.to_string())?;
    std::fs::write(probe.join("src").join("lib.rs"), source).map_err(|e| e.to_string())?;
    let out = Command::new(crate::cargo())
        .args(["check", "--quiet", "--offline", "--manifest-path"])
        .arg(probe.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target_dir(root).join("probe-target"))
        .current_dir(&probe)
        .output()
        .map_err(|e| format!("cannot run cargo check: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.success() {
        return Ok(true);
    }
    // The expected failure names the missing doors; any other failure is an error.
    if stderr.contains("E0432") || stderr.contains("unresolved import") {
        Ok(false)
    } else {
        Err(format!(
            "the probe of {krate} failed to build: {}",
            stderr.trim()
        ))
    }
}

/// The `api` sweep: each crate's rendered API = its committed file; the doors closed without
/// `__internal` and open with it.
pub(crate) fn run(ctx: &mut Ctx) {
    let root = ctx.root().to_path_buf();
    {
        let mut check = ctx.check(
            "the public API (rustdoc JSON, public features) = crates/<crate>/public-api.txt",
            CRATES.len() as u64,
        );
        for &krate in CRATES {
            let krate = &package(krate);
            let committed =
                std::fs::read_to_string(snapshot_path(&root, krate)).unwrap_or_default();
            match render_crate(&root, krate) {
                Ok(rendered) if rendered == committed => check.pass(),
                Ok(rendered) => check.fail(krate, diff(krate, &committed, &rendered)),
                Err(err) => check.fail(krate, err),
            }
        }
    }
    let mut check = ctx.check(
        "levels and reference: each a compile error without __internal, reachable with it",
        (2 * DOORS.len() * CRATES.len()) as u64,
    );
    for &krate in CRATES {
        let krate = &package(krate);
        let features = match public_features(&root, krate) {
            Ok(features) => features,
            Err(err) => {
                check.fail(krate, err);
                continue;
            }
        };
        let mut internal = features.clone();
        internal.push(INTERNAL.to_owned());
        for door in DOORS {
            for (features, open) in [(&features, false), (&internal, true)] {
                match door_compiles(&root, krate, door, features) {
                    Ok(compiles) if compiles == open => check.pass(),
                    Ok(compiles) => check.fail(
                        krate,
                        format!(
                            "with features [{}], `{door}` {}",
                            features.join(", "),
                            if compiles {
                                "is reachable"
                            } else {
                                "does not compile"
                            }
                        ),
                    ),
                    Err(err) => check.fail(krate, err),
                }
            }
        }
    }
}

/// The lines only in `committed` (`-`) and only in `rendered` (`+`).
fn diff(krate: &str, committed: &str, rendered: &str) -> String {
    let old: BTreeSet<&str> = committed.lines().collect();
    let new: BTreeSet<&str> = rendered.lines().collect();
    let mut out = format!(
        "{krate}'s API differs from its public-api.txt (run `cargo xtask api` and commit the file):"
    );
    for line in old.difference(&new) {
        let _ = write!(out, "\n  - {line}");
    }
    for line in new.difference(&old) {
        let _ = write!(out, "\n  + {line}");
    }
    out
}

/// `cargo xtask api [CRATE...]`: writes the API files, and says which changed.
pub(crate) fn main(root: &Path, _quick: bool, names: &[String]) -> ExitCode {
    let selected = match crate::select("crate", CRATES, names) {
        Ok(selected) => selected,
        Err(err) => {
            eprintln!("error: {err}");
            return ExitCode::from(2);
        }
    };
    let mut failed = false;
    for krate in selected {
        let krate = &package(krate);
        let path = snapshot_path(root, krate);
        match render_crate(root, krate) {
            Ok(rendered) => {
                let committed = std::fs::read_to_string(&path).unwrap_or_default();
                let changed = committed
                    .lines()
                    .collect::<BTreeSet<_>>()
                    .symmetric_difference(&rendered.lines().collect())
                    .count();
                if let Err(err) = std::fs::write(&path, &rendered) {
                    eprintln!("error: {}: {err}", path.display());
                    failed = true;
                } else {
                    println!(
                        "{}: {} lines, {changed} changed",
                        path.strip_prefix(root).unwrap_or(&path).display(),
                        rendered.lines().count()
                    );
                }
            }
            Err(err) => {
                eprintln!("error: {err}");
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_are_written_as_in_source() {
        let slice = serde_json::json!({"borrowed_ref": {"lifetime": null, "is_mutable": true,
            "type": {"slice": {"primitive": "u8"}}}});
        assert_eq!(ty(&slice), "&mut [u8]");
        let option = serde_json::json!({"resolved_path": {"path": "core::option::Option", "id": 1,
            "args": {"angle_bracketed": {"args": [{"type": {"primitive": "usize"}}], "constraints": []}}}});
        assert_eq!(ty(&option), "Option<usize>");
        let iter = serde_json::json!({"impl_trait": [{"trait_bound": {"trait": {"path": "Iterator",
            "id": 2, "args": {"angle_bracketed": {"args": [], "constraints": [{"name": "Item",
            "args": null, "binding": {"equality": {"type": {"primitive": "u8"}}}}]}}},
            "generic_params": [], "modifier": "none"}}]});
        assert_eq!(ty(&iter), "impl Iterator<Item = u8>");
    }

    #[test]
    fn a_diff_names_the_lines_on_each_side() {
        let out = diff("c", "a\nb\n", "b\nc\n");
        assert!(out.contains("\n  - a") && out.contains("\n  + c") && !out.contains("  - b"));
    }
}
