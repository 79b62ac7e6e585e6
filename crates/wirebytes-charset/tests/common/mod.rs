//! Helpers shared by the integration tests: every fast path, at every kernel level this CPU
//! has (through `levels`), against the reference.

use wirebytes_charset::{
    ALL, Encoding, Replacement, encode, encode_utf16, levels, reference, try_encode,
};

pub(crate) const REPLACEMENTS: [Replacement; 2] = [Replacement::Jdk, Replacement::Whatwg];

pub(crate) fn is_utf16(encoding: &'static Encoding) -> bool {
    encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE
}

/// `text` through every encoding and replacement: fast == reference, exact size, and WHATWG ==
/// `Encoding::encode` where the crate promises it, at every level; `try_encode` and
/// `encode_string` at every level agree with the public functions. Also `encode_utf16` on the
/// same text.
pub(crate) fn check_str(text: &str) {
    let units: Vec<u16> = text.encode_utf16().collect();
    for &encoding in &ALL {
        let strict = try_encode(text, encoding);
        for level in levels::all() {
            assert_eq!(
                level.try_encode(text, encoding),
                strict,
                "try_encode {} {} {text:?}",
                level.name(),
                encoding.name()
            );
        }
        for replacement in REPLACEMENTS {
            let fast = encode(text, encoding, replacement);
            let slow = reference::encode(text, encoding, replacement);
            assert_eq!(fast, slow, "{} {replacement:?} {text:?}", encoding.name());
            assert_eq!(
                fast.capacity(),
                fast.len(),
                "{} {replacement:?}",
                encoding.name()
            );
            for level in levels::all() {
                let name = level.name();
                let at_level = level.encode(text, encoding, replacement);
                assert_eq!(
                    at_level,
                    slow,
                    "{name} {} {replacement:?} {text:?}",
                    encoding.name()
                );
                assert_eq!(at_level.capacity(), at_level.len(), "{name}");
                let owned = level.encode_string(text.to_owned(), encoding, replacement);
                assert_eq!(owned, slow, "encode_string {name} {}", encoding.name());
                assert_eq!(owned.capacity(), owned.len(), "{name}");
            }
            let from_units = encode_utf16(&units, encoding, replacement);
            assert_eq!(
                from_units,
                fast,
                "utf16 {} {replacement:?} {text:?}",
                encoding.name()
            );
            assert_eq!(from_units.capacity(), from_units.len());
            if replacement == Replacement::Whatwg && !is_utf16(encoding) {
                let (web, _, _) = encoding.encode(text);
                assert_eq!(
                    &fast[..],
                    &web[..],
                    "Encoding::encode {} {text:?}",
                    encoding.name()
                );
            }
        }
    }
}

/// UTF-16 `units` (unpaired surrogates allowed) through every encoding and replacement.
pub(crate) fn check_units(units: &[u16]) {
    let lossy = String::from_utf16_lossy(units);
    for &encoding in &ALL {
        for replacement in REPLACEMENTS {
            let fast = encode_utf16(units, encoding, replacement);
            let slow = reference::encode_utf16(units, encoding, replacement);
            assert_eq!(
                fast,
                slow,
                "{} {replacement:?} {units:04x?}",
                encoding.name()
            );
            for level in levels::all() {
                assert_eq!(
                    level.encode_utf16(units, encoding, replacement),
                    slow,
                    "{} {} {replacement:?} {units:04x?}",
                    level.name(),
                    encoding.name()
                );
            }
            assert_eq!(
                fast.capacity(),
                fast.len(),
                "{} {replacement:?}",
                encoding.name()
            );
            if replacement == Replacement::Whatwg {
                // WHATWG: an unpaired surrogate is U+FFFD, then encoded like any char.
                assert_eq!(
                    fast,
                    encode(&lossy, encoding, replacement),
                    "{}",
                    encoding.name()
                );
            }
        }
    }
}
