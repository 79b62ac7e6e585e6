//! The engine: one function for `&str` input and one for `&[u16]` input, each choosing the
//! path of the charset's [`Kind`] and writing into any [`Sink`]; the exact and worst-case
//! output lengths.

use encoding_rs::Encoding;

use crate::arch::Kernels;
use crate::ascii_prefix::ascii_prefix;
use crate::counters::{Path, add};
use crate::encodings::{self, Kind};
use crate::error::{Unmappable, UnmappableUtf16};
use crate::from_utf16;
use crate::jdk_multi_byte::Coder as JdkCoder;
use crate::multi_byte::MultiByte;
use crate::single_byte::{self, count_chars};
use crate::sink::{Counter, Sink};
use crate::{Charset, Policy, Replacement, byte_map, jdk, multi_byte, unicode};

/// The BOM written before the text (UTF-16 input: `non_empty`): the encoding's own with
/// `with_bom`, and the JDK's UTF-16 BOM before non-empty output.
fn prefix(charset: Charset, kind: Kind, with_bom: bool, non_empty: bool) -> &'static [u8] {
    match kind {
        Kind::Utf16 { bom: true, .. } | Kind::Utf32 { bom: true, .. } if non_empty => own_bom(kind),
        _ if with_bom => charset.bom(),
        _ => b"",
    }
}

/// Writes the prefix (a byte order mark) where there is one: an empty one costs no copy call.
#[inline(always)]
fn put_prefix<S: Sink>(out: &mut S, prefix: &[u8]) {
    if !prefix.is_empty() {
        out.extend_from_slice(prefix);
    }
}

/// The byte order mark a charset of the JDK's writes before non-empty output (UTF-16 and
/// UTF-32 with a BOM, in their byte order); nothing for every other kind.
pub(crate) fn own_bom(kind: Kind) -> &'static [u8] {
    match kind {
        Kind::Utf16 {
            bom: true,
            big_endian: true,
        } => b"\xFE\xFF",
        Kind::Utf16 {
            bom: true,
            big_endian: false,
        } => b"\xFF\xFE",
        Kind::Utf32 {
            bom: true,
            big_endian: true,
        } => b"\0\0\xFE\xFF",
        Kind::Utf32 {
            bom: true,
            big_endian: false,
        } => b"\xFF\xFE\0\0",
        _ => b"",
    }
}

/// The engine behind every `&str` function: appends `text` (after the BOM when `with_bom`)
/// to `out`. A `Vec` ([`Sink::EXACT`]) gets one reservation of the exact size (two for a
/// single-byte target under WHATWG that meets an unmappable char). `Err` (only under
/// [`Policy::Strict`]) is the byte offset of the first unmappable char; then nothing is
/// appended.
pub(crate) fn encode_str<S: Sink>(
    text: &str,
    charset: Charset,
    with_bom: bool,
    policy: Policy,
    kernels: Kernels,
    out: &mut S,
) -> Result<(), usize> {
    let kind = encodings::kind(charset);
    let prefix = prefix(charset, kind, with_bom, !text.is_empty());
    let start = out.len();
    let result = match kind {
        Kind::Utf8 => {
            if S::EXACT {
                out.reserve_exact(prefix.len() + text.len());
            }
            put_prefix(out, prefix);
            out.extend_from_slice(text.as_bytes());
            add(Path::Utf8Copy, text.len());
            Ok(())
        }
        Kind::Utf16 { big_endian, .. } => {
            // Counted first for an exact sink alone: into a slice the writer takes the worst
            // case where the slice has it (see `str_to_utf16`).
            let units = S::EXACT.then(|| utf16_units(text, kernels));
            if S::EXACT {
                out.reserve_exact(prefix.len() + 2 * units.unwrap_or(0));
            }
            put_prefix(out, prefix);
            unicode::str_to_utf16(text, units, big_endian, out, kernels);
            Ok(())
        }
        Kind::Utf32 { big_endian, .. } => {
            let chars = S::EXACT.then(|| chars(text, kernels));
            if S::EXACT {
                out.reserve_exact(prefix.len() + 4 * chars.unwrap_or(0));
            }
            put_prefix(out, prefix);
            unicode::str_to_utf32(text, chars, big_endian, out, kernels);
            Ok(())
        }
        Kind::Cesu8 => {
            unicode::str_to_cesu8(text, out);
            Ok(())
        }
        Kind::ByteMap(i) => byte_map::encode_str(single_byte::table(i), text, policy, out, kernels),
        Kind::SingleByte(i) => {
            let bytes = text.as_bytes();
            // Text with a char above ASCII in its first 32 bytes, into a Latin-1 table in
            // place: the Latin-1 kernel from the first byte, with no ASCII prefix scanned and
            // copied first. ASCII text (the common case, copied whole) pays the head check.
            if S::IN_PLACE
                && kernels.has_latin1_bytes()
                && !ascii_head(bytes)
                && single_byte::has_latin1_lane::<S>(single_byte::table(i), kernels)
            {
                return single_byte::encode_latin1_lane(
                    single_byte::table(i),
                    text,
                    policy,
                    out,
                    kernels,
                );
            }
            let from = ascii_prefix(kind, text, kernels);
            if from == bytes.len() {
                if S::EXACT {
                    out.reserve_exact(bytes.len());
                }
                out.extend_from_slice(bytes);
                add(Path::AsciiWhole, bytes.len());
                return Ok(());
            }
            if S::EXACT {
                out.reserve_exact(from + chars(&text[from..], kernels));
            }
            out.extend_from_slice(&bytes[..from]);
            add(Path::AsciiPrefix, from);
            single_byte::encode_str(single_byte::table(i), text, from, policy, out, kernels)
        }
        Kind::MultiByte(_) | Kind::Iso2022Jp | Kind::JdkMultiByte(_) => {
            let from = ascii_prefix(kind, text, kernels);
            if from == text.len() {
                if S::EXACT {
                    out.reserve_exact(text.len());
                }
                out.extend_from_slice(text.as_bytes());
                add(Path::AsciiWhole, text.len());
                return Ok(());
            }
            add(Path::AsciiPrefix, from);
            if let Kind::JdkMultiByte(k) = kind {
                let coder = JdkCoder::new(&jdk::MULTI_BYTE[k], jdk_replacement(charset), kernels);
                multi_byte::encode_str(coder, text, from, policy, out)
            } else {
                let coder = multi_byte::coder::<S>(multi_byte_encoding(kind), kernels);
                multi_byte::encode_str(coder, text, from, policy, out)
            }
        }
    };
    if result.is_err() {
        out.truncate(start);
    }
    result
}

/// Whether the first 32 bytes of `bytes` (all of them when there are fewer) are ASCII: one
/// vector OR of them.
#[inline(always)]
fn ascii_head(bytes: &[u8]) -> bool {
    let or = |head: &[u8]| head.iter().fold(0u8, |acc, &b| acc | b);
    match bytes.first_chunk::<32>() {
        // A fixed length: the compiler unrolls it into vector ORs.
        Some(head) => or(head) < 0x80,
        None => or(bytes) < 0x80,
    }
}

/// The chars of `text`, counted by the kernel where the set has one.
#[inline]
pub(crate) fn chars(text: &str, kernels: Kernels) -> usize {
    kernels
        .count_units(text, false)
        .unwrap_or_else(|| count_chars(text.as_bytes()))
}

/// The UTF-16 units of `text`, counted by the kernel where the set has one.
#[inline]
pub(crate) fn utf16_units(text: &str, kernels: Kernels) -> usize {
    kernels
        .count_units(text, true)
        .unwrap_or_else(|| unicode::utf16_units(text))
}

/// The JDK's replacement bytes of a JDK charset.
pub(crate) fn jdk_replacement(charset: Charset) -> &'static [u8] {
    charset.jdk().map_or(b"?", |jdk| jdk.replacement)
}

/// The encoding_rs encoding of a multi-byte kind.
pub(crate) fn multi_byte_encoding(kind: Kind) -> &'static Encoding {
    match kind {
        Kind::MultiByte(encoding) => encoding,
        _ => encoding_rs::ISO_2022_JP,
    }
}

/// The engine behind every `&[u16]` function, as [`encode_str`]; `Err` is the index of the
/// first unmappable char or unpaired surrogate. No kernel is on its path.
pub(crate) fn encode_units<S: Sink>(
    units: &[u16],
    charset: Charset,
    with_bom: bool,
    policy: Policy,
    kernels: Kernels,
    out: &mut S,
) -> Result<(), usize> {
    let kind = encodings::kind(charset);
    let prefix = prefix(charset, kind, with_bom, !units.is_empty());
    let start = out.len();
    let result = match kind {
        Kind::Utf8 => from_utf16::to_utf8(prefix, units, policy, kernels, out),
        Kind::Utf16 { big_endian, .. } => {
            unicode::utf16_to_utf16(prefix, units, big_endian, policy, out)
        }
        Kind::Utf32 { big_endian, .. } => {
            unicode::utf16_to_utf32(prefix, units, big_endian, policy, out)
        }
        Kind::Cesu8 => unicode::utf16_to_cesu8(units, policy, out),
        Kind::SingleByte(i) | Kind::ByteMap(i) => {
            single_byte::encode_utf16(single_byte::table(i), units, policy, kernels, out)
        }
        Kind::MultiByte(_) | Kind::Iso2022Jp => {
            let coder = multi_byte::coder::<S>(multi_byte_encoding(kind), Kernels::NONE);
            multi_byte::encode_utf16(coder, units, policy, out)
        }
        Kind::JdkMultiByte(k) => {
            let data = &jdk::MULTI_BYTE[k];
            let coder = JdkCoder::new(data, jdk_replacement(charset), Kernels::NONE);
            multi_byte::encode_utf16(coder, units, policy, out)
        }
    };
    if result.is_err() {
        out.truncate(start);
    }
    result
}

/// The exact number of bytes [`encode_str`] appends (without a BOM), without allocating.
pub(crate) fn len_str(text: &str, charset: Charset, policy: Policy, kernels: Kernels) -> usize {
    let kind = encodings::kind(charset);
    let prefix = prefix(charset, kind, false, !text.is_empty());
    prefix.len()
        + match kind {
            Kind::Utf8 => text.len(),
            Kind::Utf16 { .. } => 2 * utf16_units(text, kernels),
            Kind::Utf32 { .. } => 4 * chars(text, kernels),
            Kind::Cesu8 => unicode::cesu8_len(text),
            Kind::ByteMap(i) => byte_map::len_str(single_byte::table(i), text, policy),
            Kind::SingleByte(i) => {
                let from = ascii_prefix(kind, text, kernels);
                from + single_byte::len_str(single_byte::table(i), &text[from..], policy)
            }
            Kind::MultiByte(_) | Kind::Iso2022Jp | Kind::JdkMultiByte(_) => {
                let from = ascii_prefix(kind, text, kernels);
                if from == text.len() {
                    from
                } else if let Kind::JdkMultiByte(k) = kind {
                    let data = &jdk::MULTI_BYTE[k];
                    let coder = JdkCoder::new(data, jdk_replacement(charset), kernels);
                    multi_byte::len_str(coder, text, from, policy)
                } else {
                    let coder = MultiByte::new(multi_byte_encoding(kind), kernels);
                    multi_byte::len_str(coder, text, from, policy)
                }
            }
        }
}

/// The exact number of bytes [`encode_units`] appends (without a BOM), without allocating.
pub(crate) fn len_units(units: &[u16], charset: Charset, policy: Policy) -> usize {
    let kernels = Kernels::detect();
    match (encodings::kind(charset), policy) {
        // Counted, not written: a lone surrogate is `?` (one byte) or U+FFFD (three).
        (Kind::Utf8, Policy::Jdk) => return from_utf16::utf8_len(units, 1, kernels),
        (Kind::Utf8, Policy::Whatwg) => return from_utf16::utf8_len(units, 3, kernels),
        // One byte a char, mapped or `?`.
        (Kind::SingleByte(_) | Kind::ByteMap(_), Policy::Jdk) => {
            return from_utf16::chars(units, kernels);
        }
        _ => {}
    }
    let mut counter = Counter::default();
    infallible(encode_units(
        units,
        charset,
        false,
        policy,
        Kernels::NONE,
        &mut counter,
    ));
    counter.0
}

/// The most bytes one input unit (a byte of UTF-8, a `u16` of UTF-16) can give in `kind`
/// under `policy`, and the most a text can add once (a state switch, the end of a stateful
/// text): `len <= per_unit * units + once` for every input of `units` units.
fn worst_case(kind: Kind, policy: Policy, utf16: bool) -> (usize, usize) {
    let whatwg = policy == Policy::Whatwg;
    match (kind, utf16) {
        // A BMP unit is at most three bytes of UTF-8; a lone surrogate is U+FFFD.
        (Kind::Utf8, false) => (1, 0),
        (Kind::Utf8, true) => (3, 0),
        // Every byte of UTF-8 is at most one UTF-16 unit; every unit is one.
        (Kind::Utf16 { .. }, _) => (2, 0),
        (Kind::Utf32 { .. }, _) => (4, 0),
        // A 4-byte char is two 3-byte surrogates; a unit at most three bytes.
        (Kind::Cesu8, false) => (2, 0),
        (Kind::Cesu8, true) => (3, 0),
        // `&#N;` of a 2-byte char is at most 7 bytes (`&#2047;`): 3.5 per byte of UTF-8, so
        // at most 4. Of a BMP unit (or a lone one, U+FFFD): at most 8. An unmappable ASCII
        // char (in a charset where ASCII is not its own byte) is at most `&#127;`, 6 bytes.
        (Kind::ByteMap(_), false) if whatwg => (6, 0),
        (Kind::SingleByte(_) | Kind::ByteMap(_), false) if whatwg => (4, 0),
        (Kind::SingleByte(_) | Kind::ByteMap(_), true) if whatwg => (8, 0),
        (Kind::SingleByte(_) | Kind::ByteMap(_), _) => (1, 0),
        // gb18030 writes four bytes for a 2-byte char of UTF-8 and for a BMP unit.
        (Kind::MultiByte(_), false) => (if whatwg { 4 } else { 2 }, 0),
        (Kind::MultiByte(_), true) => (if whatwg { 8 } else { 4 }, 0),
        // ISO-2022-JP: ESC, SO and SI are unmappable, one byte (one unit) each. Their
        // replacement is `ESC $ B 21 29` (the JDK) or `&#65533;` after `ESC ( B` (WHATWG);
        // a return to ASCII at the end (or before the first char, in a stream) adds three.
        (Kind::Iso2022Jp, false) => (if whatwg { 8 } else { 5 }, 3),
        (Kind::Iso2022Jp, true) => (if whatwg { 11 } else { 5 }, 3),
        // The JDK's stateful charsets: an ASCII char after another set is a switch of three
        // bytes (`ESC ( B`) and itself; a char of two or more bytes of UTF-8 at most a
        // designation, a single shift and two bytes (eight); a BMP unit at most that. A
        // numeric character reference is at most three bytes of switch and `&#65535;` for a
        // BMP unit (or `&#1114111;` for two), and an unmappable ASCII char's `&#127;` after
        // a switch is nine. The end returns to the initial set: three bytes at most.
        (Kind::JdkMultiByte(k), false) if jdk::MULTI_BYTE[k].form.is_stateful() => {
            (if whatwg { 9 } else { 4 }, 3)
        }
        (Kind::JdkMultiByte(k), true) if jdk::MULTI_BYTE[k].form.is_stateful() => {
            (if whatwg { 11 } else { 8 }, 3)
        }
        // The JDK's stateless multi-byte charsets write at most four bytes for a char of two
        // or more bytes of UTF-8, and at most two (a double-byte code or replacement) for an
        // ASCII char; `&#127;` is six. A BMP unit is at most four bytes, or `&#65535;`.
        (Kind::JdkMultiByte(_), false) => (if whatwg { 6 } else { 2 }, 0),
        (Kind::JdkMultiByte(_), true) => (if whatwg { 8 } else { 4 }, 0),
    }
}

/// The most bytes [`encode_str`] writes for a UTF-8 text of `utf8_len` bytes (with the JDK
/// UTF-16 BOM; `None` if that overflows `usize`).
pub(crate) fn max_len_str(charset: Charset, utf8_len: usize, policy: Policy) -> Option<usize> {
    max_len(charset, utf8_len, policy, false)
}

/// The most bytes [`encode_units`] writes for `units_len` UTF-16 units.
pub(crate) fn max_len_units(charset: Charset, units_len: usize, policy: Policy) -> Option<usize> {
    max_len(charset, units_len, policy, true)
}

fn max_len(charset: Charset, len: usize, policy: Policy, utf16: bool) -> Option<usize> {
    let kind = encodings::kind(charset);
    let (per_unit, once) = worst_case(kind, policy, utf16);
    let prefix = prefix(charset, kind, false, true).len();
    len.checked_mul(per_unit)?.checked_add(once + prefix)
}

/// The longest input (in units of UTF-8 or UTF-16) whose worst case, plus `slack`, fits in
/// `room` bytes: what the streaming encoder can write straight into a slice. `None` when not
/// even an empty input's does. `charset` writes no byte order mark of its own (the streaming
/// encoder writes the mark once and the text in the charset without it).
pub(crate) fn max_input(
    charset: Charset,
    room: usize,
    slack: usize,
    policy: Policy,
    utf16: bool,
) -> Option<usize> {
    let kind = encodings::kind(charset);
    debug_assert!(own_bom(kind).is_empty(), "{charset} writes its own mark");
    let (per_unit, once) = worst_case(kind, policy, utf16);
    Some(room.checked_sub(once + slack)? / per_unit)
}

/// Infallible policies never produce `Err`; this keeps the public functions panic-free.
pub(crate) fn infallible(result: Result<(), usize>) {
    debug_assert!(
        result.is_ok(),
        "only Policy::Strict reports unmappable chars"
    );
}

/// The engine behind `Charset::encode_string`: hands the `String`'s own buffer back when the
/// bytes are the same.
pub(crate) fn encode_owned(
    text: String,
    charset: Charset,
    replacement: Replacement,
    kernels: Kernels,
) -> Vec<u8> {
    let kind = encodings::kind(charset);
    let same = match kind {
        Kind::Utf8 => true,
        Kind::Utf16 { .. } | Kind::Utf32 { .. } | Kind::ByteMap(_) => false,
        Kind::Cesu8 => !text.as_bytes().iter().any(|&b| b >= 0xF0),
        _ => ascii_prefix(kind, &text, kernels) == text.len(),
    };
    if same {
        add(Path::OwnedReuse, text.len());
        let mut bytes = text.into_bytes();
        bytes.shrink_to_fit();
        bytes
    } else {
        let mut out = Vec::new();
        infallible(encode_str(
            &text,
            charset,
            false,
            replacement.into(),
            kernels,
            &mut out,
        ));
        out
    }
}

/// The engine behind `Charset::try_encode`.
pub(crate) fn encode_strict(
    text: &str,
    charset: Charset,
    kernels: Kernels,
) -> Result<Vec<u8>, Unmappable> {
    let mut out = Vec::new();
    encode_str(text, charset, false, Policy::Strict, kernels, &mut out)
        .map(|()| out)
        .map_err(|offset| Unmappable::at(text, offset, charset))
}

/// The engine behind `Charset::try_encode_from_utf16`.
pub(crate) fn encode_units_strict(
    units: &[u16],
    charset: Charset,
) -> Result<Vec<u8>, UnmappableUtf16> {
    let mut out = Vec::new();
    encode_units(
        units,
        charset,
        false,
        Policy::Strict,
        Kernels::detect(),
        &mut out,
    )
    .map(|()| out)
    .map_err(|offset| UnmappableUtf16::at(units, offset, charset))
}
