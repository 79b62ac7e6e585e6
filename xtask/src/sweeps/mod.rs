//! The registered equivalence sweeps: one module per crate, one line each in [`SWEEPS`].
//!
//! To add a sweep: write `fn run(ctx: &mut Ctx)` in a new module here that opens checks with
//! `ctx.check(name, planned)` and feeds each case through `Check::case`, then add a line to
//! [`SWEEPS`]. Programs for the JDK oracle live in `xtask/java/` and run through `ctx.java()`.

use crate::verify::Sweep;

mod ascii;
mod charset;
mod mutf8;
mod rope;

/// Every sweep `cargo xtask verify` knows, in the order they run.
pub(crate) const SWEEPS: &[Sweep] = &[
    Sweep {
        name: "ascii",
        about: "fast paths = scalar reference = the JDK's String.getBytes(int,int,byte[],int)",
        run: ascii::run,
    },
    Sweep {
        name: "charset",
        about: "every encoding x both replacements = streaming reference = \
                Encoding::encode (WHATWG) = the JDK's String.getBytes (JDK)",
        run: charset::run,
    },
    Sweep {
        name: "mutf8",
        about: "fast paths = JDK loop transcription = the JDK's readUTF/writeUTF",
        run: mutf8::run,
    },
    Sweep {
        name: "rope",
        about: "every ByteString operation on random fragmentations = the same on the flat bytes",
        run: rope::run,
    },
    Sweep {
        name: "api",
        about: "each library crate's public API = its committed public-api.txt; the test doors \
                closed without __internal",
        run: crate::api::run,
    },
];
