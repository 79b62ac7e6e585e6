//! The build script of every wirebytes crate with SIMD kernels (each links its `build.rs`
//! here): decides which kernels this compiler can build, by compiling small probes.
//!
//! - `wirebytes_x86_kernels`: the x86 kernels (SSSE3, AVX2), which call the intrinsics as
//!   safe functions inside `#[target_feature]` functions (Rust 1.87 and later).
//! - `wirebytes_avx512`: the AVX-512 kernels as well (Rust 1.89 and later).
//!
//! On an older compiler, or on another architecture, the crate builds without them and runs
//! its portable code.

/// The architectures each crate has x86 kernels for (this file is every kernel crate's
/// `build.rs`).
fn x86_archs(package: &str) -> &'static [&'static str] {
    match package {
        "wirebytes-mutf8" => &["x86", "x86_64"],
        _ => &["x86_64"],
    }
}

/// The module path of the intrinsics, for either x86 architecture. The probes are built with
/// the crate's flags (`-D warnings` under clippy): no lint may fire on them.
const ARCH: &str = r#"
#![allow(warnings, clippy::all)]
extern crate core;
#[cfg(target_arch = "x86")]
use core::arch::x86 as arch;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64 as arch;
"#;

/// A safe intrinsic called from a `#[target_feature]` function.
const X86_PROBE: &str = r#"
#[target_feature(enable = "avx2")]
pub fn probe(a: arch::__m256i) -> i32 {
    arch::_mm256_movemask_epi8(arch::_mm256_and_si256(a, a))
}
"#;

/// The AVX-512 intrinsics and target features the kernels use.
const AVX512_PROBE: &str = r#"
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
pub fn probe(a: arch::__m512i) -> arch::__m512i {
    arch::_mm512_maskz_compress_epi8(arch::_mm512_movepi8_mask(a), a)
}
"#;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(wirebytes_x86_kernels, wirebytes_avx512)");
    println!("cargo::rerun-if-changed=build.rs");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let package = std::env::var("CARGO_PKG_NAME").unwrap_or_default();
    if !x86_archs(&package).contains(&arch.as_str()) {
        return;
    }
    let probes = autocfg::new();
    if probe(&probes, X86_PROBE, 87) {
        println!("cargo::rustc-cfg=wirebytes_x86_kernels");
        if probe(&probes, AVX512_PROBE, 89) {
            println!("cargo::rustc-cfg=wirebytes_avx512");
        }
    }
}

/// Whether `code` compiles. A compiler from 1.`minor` on must compile it: a failure there is
/// a broken probe, which would drop kernels without a word, so the build stops.
fn probe(probes: &autocfg::AutoCfg, code: &str, minor: usize) -> bool {
    match probes.probe_raw(&format!("{ARCH}{code}")) {
        Ok(()) => true,
        Err(error) if probes.probe_rustc_version(1, minor) => {
            panic!("Rust 1.{minor} and later must compile this probe:\n{code}\n{error}")
        }
        Err(_) => false,
    }
}
