//! The registered equivalence sweeps: one module per crate, one line each in [`SWEEPS`].
//!
//! To add a sweep: write `fn run(ctx: &mut Ctx)` in a new module here that opens checks with
//! `ctx.check(name, planned)` and feeds each case through `Check::case`, then add a line to
//! [`SWEEPS`]. Programs for the JDK oracle live in `xtask/java/` and run through `ctx.java()`.

use crate::verify::Sweep;

/// Every sweep `cargo xtask verify` knows, in the order they run.
pub(crate) const SWEEPS: &[Sweep] = &[];
