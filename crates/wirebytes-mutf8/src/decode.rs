//! Decoding into a `str`: the plan (borrow when the bytes already are the `str`, else the
//! rewrite from where they stop being it) and the public functions that follow it.

use alloc::borrow::Cow;
use alloc::string::String;
#[cfg(any(feature = "std", feature = "bytes"))]
use alloc::vec::Vec;

use crate::DecodeError;
use crate::arch::Kernels;
use crate::counters::{self, Path};
use crate::out::{Utf8Prefix, Utf8Vec, push_short_ascii, short_ascii};
use crate::rewrite::{rewrite_into, to_utf8, to_utf8_lossy};
use crate::scan::{Class, classify};
use crate::sequence::first_error;

/// Decodes a modified UTF-8 body (what `DataInput.readUTF` reads after the length) into a
/// `str`, exactly as the JDK would, borrowing the input when it already is that `str`.
///
/// The result is borrowed when the bytes are valid UTF-8 without a 4-byte sequence (plain
/// text, raw `00` included): then modified UTF-8 and UTF-8 read the same. Otherwise (`C0 80`,
/// overlong forms, surrogate pairs) it is rewritten in one pass into a `String` of at most
/// `bytes.len()` bytes.
///
/// # Errors
///
/// Where the JDK throws, the same error ([`DecodeErrorKind::Malformed`] at the JDK's position,
/// or [`DecodeErrorKind::Truncated`]); where the JDK returns a lone surrogate, which a `str`
/// cannot hold, [`DecodeErrorKind::UnpairedSurrogate`] at the first one. See [`DecodeError`]
/// for the positions.
///
/// [`DecodeErrorKind::Malformed`]: crate::DecodeErrorKind::Malformed
/// [`DecodeErrorKind::Truncated`]: crate::DecodeErrorKind::Truncated
/// [`DecodeErrorKind::UnpairedSurrogate`]: crate::DecodeErrorKind::UnpairedSurrogate
///
/// # Examples
///
/// ```
/// use std::borrow::Cow;
/// use wirebytes_mutf8::decode;
///
/// assert!(matches!(decode("plain ütf-8".as_bytes()), Ok(Cow::Borrowed("plain ütf-8"))));
/// assert_eq!(decode(b"nul \xc0\x80, raw \x00").unwrap(), "nul \0, raw \0");
/// assert_eq!(decode(b"\xed\xa0\xbd\xed\xb8\x80").unwrap(), "\u{1F600}");
/// assert_eq!(decode(b"\xc1\x81").unwrap(), "A"); // an overlong form: the JDK accepts it
/// assert!(decode("\u{1F600}".as_bytes()).is_err()); // 4-byte UTF-8: the JDK does not
/// ```
#[must_use = "the decoded text, or where the body is malformed"]
#[inline]
pub fn decode(bytes: &[u8]) -> Result<Cow<'_, str>, DecodeError> {
    // Short ASCII (field names, keys, identifiers) in two loads, before any machinery.
    if let Some(text) = short_ascii(bytes) {
        return Ok(Cow::Borrowed(text));
    }
    decode_planned(bytes, Kernels::detect())
}

/// [`decode`] with `kernels`.
#[inline]
pub(crate) fn decode_with(bytes: &[u8], kernels: Kernels) -> Result<Cow<'_, str>, DecodeError> {
    if let Some(text) = short_ascii(bytes) {
        return Ok(Cow::Borrowed(text));
    }
    decode_planned(bytes, kernels)
}

/// [`decode`] past its check for short ASCII.
fn decode_planned(bytes: &[u8], kernels: Kernels) -> Result<Cow<'_, str>, DecodeError> {
    let prefix = plan(bytes, kernels);
    if prefix.is_whole() {
        Ok(Cow::Borrowed(prefix.as_str()))
    } else {
        to_utf8(prefix, kernels).map(Cow::Owned)
    }
}

/// How much of a body already is its text (UTF-8 without a 4-byte sequence): all of it, to be
/// borrowed, or the bytes before the rewrite starts. In one AVX2 pass where `kernels` has it,
/// else with [`plan_portable`].
pub(crate) fn plan(bytes: &[u8], kernels: Kernels) -> Utf8Prefix<'_> {
    match kernels.utf8_check(bytes) {
        Some(prefix) => prefix,
        None => plan_portable(bytes),
    }
}

/// The longest prefix of `bytes` that is UTF-8, with `simdutf8`.
#[cfg(not(miri))]
fn utf8_prefix(bytes: &[u8]) -> &str {
    match simdutf8::compat::from_utf8(bytes) {
        Ok(text) => text,
        // The bytes before the error, as a `str` (UTF-8 by the error's word).
        Err(err) => simdutf8::basic::from_utf8(&bytes[..err.valid_up_to()]).unwrap_or_default(),
    }
}

/// The longest prefix of `bytes` that is UTF-8, with the standard library's check: under
/// Miri, `simdutf8` 0.1.5's AVX2 loop is undefined behaviour (it computes the address it
/// prefetches with `ptr::add`, past the end of the input; `wrapping_add` in its repository,
/// not yet released), and Miri stops there.
#[cfg(miri)]
fn utf8_prefix(bytes: &[u8]) -> &str {
    match core::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => core::str::from_utf8(&bytes[..err.valid_up_to()]).unwrap_or_default(),
    }
}

/// [`plan`] without AVX2: the ASCII prefix a chunk at a time (so that a body that needs the
/// rewrite is not scanned to its end first), then `simdutf8` on the rest, which stops at the
/// first sequence that is not UTF-8, and a scan for 4-byte sequences over what it accepted.
fn plan_portable(bytes: &[u8]) -> Utf8Prefix<'_> {
    const CHUNK: usize = 4096;
    let mut prefix = Utf8Prefix::new(bytes);
    while !prefix.is_whole() && prefix.extend_ascii(CHUNK) {}
    counters::add(Path::PlanAscii, prefix.len());
    if prefix.is_whole() {
        return prefix;
    }
    let rest = &bytes[prefix.len()..];
    let valid = utf8_prefix(rest);
    // With a 4-byte sequence, the JDK rejects the first of them: rewrite (and fail) from the
    // ASCII prefix on.
    if classify(valid.as_bytes()) != Class::FourByte {
        prefix.extend_str(valid);
    }
    prefix
}

/// Checks that the JDK's `readUTF` accepts a modified UTF-8 body, without decoding it and
/// without allocating: exactly what [`decode_to_utf16`](crate::decode_to_utf16) accepts, with its
/// error.
///
/// Lone surrogates are accepted (the JDK returns them), so `validate(b).is_ok()` does not
/// mean that [`decode`] succeeds. Bytes that are UTF-8 without a 4-byte sequence are passed
/// by the same one-pass check with which `decode` borrows them (plain text is checked at the
/// speed of a UTF-8 check); from the first other sequence on, the JDK's rules go one
/// sequence at a time, over ASCII runs a word at a time.
///
/// # Errors
///
/// The JDK's first error: [`DecodeErrorKind::Malformed`](crate::DecodeErrorKind::Malformed)
/// at the JDK's position, or [`Truncated`](crate::DecodeErrorKind::Truncated); never
/// `UnpairedSurrogate`.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::validate;
///
/// assert!(validate(b"plain, \xc0\x80 and a lone \xed\xa0\x80").is_ok());
/// assert_eq!(validate(b"ab\xe2\x41\x82").unwrap_err().jdk_position(), Some(4));
/// assert!(validate("\u{1F600}".as_bytes()).is_err()); // 4-byte UTF-8: the JDK rejects it
/// ```
#[must_use = "whether the JDK accepts the body"]
#[inline]
pub fn validate(bytes: &[u8]) -> Result<(), DecodeError> {
    if short_ascii(bytes).is_some() {
        return Ok(());
    }
    validate_planned(bytes, Kernels::detect())
}

/// [`validate`] with `kernels`.
pub(crate) fn validate_with(bytes: &[u8], kernels: Kernels) -> Result<(), DecodeError> {
    if short_ascii(bytes).is_some() {
        return Ok(());
    }
    validate_planned(bytes, kernels)
}

/// [`validate`] past its check for short ASCII.
fn validate_planned(bytes: &[u8], kernels: Kernels) -> Result<(), DecodeError> {
    let prefix = plan(bytes, kernels);
    match first_error(bytes, prefix.len()) {
        None => Ok(()),
        Some(err) => Err(err),
    }
}

/// Decodes like [`decode`], appending the text to `dst`: a hot loop that reuses one `String`
/// allocates nothing once it has room.
///
/// Bytes that already are the text are appended as they are; others are rewritten straight
/// into `dst`'s spare capacity (grown first to room for `bytes.len() + 1` more bytes when it
/// has less: the text is never longer than the body, and the last char may be stored as four
/// bytes).
///
/// # Errors
///
/// As [`decode`]. Then `dst` holds what it held before (its capacity may have grown).
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::decode_to_string;
///
/// let mut text = String::from("name: ");
/// decode_to_string(b"caf\xc3\xa9 \xc0\x80", &mut text)?;
/// assert_eq!(text, "name: café \0");
///
/// assert!(decode_to_string(b"bad \xff", &mut text).is_err());
/// assert_eq!(text, "name: café \0"); // unchanged
/// # Ok::<(), wirebytes_mutf8::DecodeError>(())
/// ```
#[must_use = "the text is not appended when the body is malformed"]
#[inline]
pub fn decode_to_string(bytes: &[u8], dst: &mut String) -> Result<(), DecodeError> {
    decode_to_string_with(bytes, dst, Kernels::detect())
}

/// [`decode_to_string`] with `kernels`.
#[inline(always)]
pub(crate) fn decode_to_string_with(
    bytes: &[u8],
    dst: &mut String,
    kernels: Kernels,
) -> Result<(), DecodeError> {
    // Short ASCII: checked and copied by the same loads, without a call.
    if push_short_ascii(bytes, dst) {
        return Ok(());
    }
    decode_to_string_planned(bytes, dst, kernels)
}

/// [`decode_to_string`] past its short ASCII.
fn decode_to_string_planned(
    bytes: &[u8],
    dst: &mut String,
    kernels: Kernels,
) -> Result<(), DecodeError> {
    let prefix = plan(bytes, kernels);
    if prefix.is_whole() {
        dst.push_str(prefix.as_str());
        return Ok(());
    }
    let start = dst.len();
    let mut out = Utf8Vec::appending_to(core::mem::take(dst), bytes.len() + 1);
    let result = rewrite_into(prefix, kernels, &mut out);
    *dst = out.into_string();
    if result.is_err() {
        // `start` was the end of `dst`'s text: a char boundary.
        dst.truncate(start);
    }
    result
}

/// [`decode`] into a `String` that reuses `bytes`' buffer when they already are the text:
/// for readers that own the body.
#[cfg(any(feature = "std", feature = "bytes"))]
pub(crate) fn decode_vec(bytes: Vec<u8>, kernels: Kernels) -> Result<String, DecodeError> {
    crate::out::string_from_vec(
        bytes,
        |bytes| plan(bytes, kernels),
        |prefix| to_utf8(prefix, kernels),
    )
}

/// Decodes like [`decode`], but never fails: U+FFFD stands for what `decode` rejects.
///
/// One U+FFFD replaces each lone surrogate, each byte that cannot start a sequence, and each
/// sequence with a bad or missing continuation byte together with the continuation bytes
/// that do follow its lead (the Unicode standard's "maximal subpart" practice). A 4-byte
/// UTF-8 sequence, which the JDK rejects, becomes one U+FFFD per byte. Decoding goes on after
/// each, where the JDK would have stopped.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::decode_lossy;
///
/// assert_eq!(decode_lossy(b"ok \xc0\x80"), "ok \0");
/// assert_eq!(decode_lossy(b"lone \xed\xa0\x80, bad \xff, cut \xe2\x82"), "lone \u{FFFD}, bad \u{FFFD}, cut \u{FFFD}");
/// ```
#[must_use]
pub fn decode_lossy(bytes: &[u8]) -> Cow<'_, str> {
    match decode(bytes) {
        Ok(text) => text,
        Err(_) => Cow::Owned(to_utf8_lossy(bytes)),
    }
}

/// [`decode_lossy`] with `kernels`.
pub(crate) fn decode_lossy_with(bytes: &[u8], kernels: Kernels) -> Cow<'_, str> {
    match decode_with(bytes, kernels) {
        Ok(text) => text,
        Err(_) => Cow::Owned(to_utf8_lossy(bytes)),
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::*;
    use crate::reference;

    /// `decode`, `decode_lossy` (and the readers' `decode_vec`) at every level this CPU has,
    /// against the reference; borrowed exactly when the bytes already are the text.
    fn assert_every_level_decodes(bytes: &[u8]) {
        let want = reference::decode(bytes);
        let plain = core::str::from_utf8(bytes).is_ok_and(|s| s.chars().all(|c| c.len_utf8() < 4));
        for (name, kernels) in Kernels::levels() {
            let got = decode_with(bytes, kernels);
            assert_eq!(got.as_deref(), want.as_deref(), "{name} {bytes:02x?}");
            assert_eq!(
                matches!(got, Ok(Cow::Borrowed(_))),
                plain,
                "{name} {bytes:02x?}"
            );
            assert_eq!(
                decode_lossy_with(bytes, kernels),
                reference::decode_lossy(bytes),
                "{name} lossy {bytes:02x?}"
            );
            assert_eq!(
                validate_with(bytes, kernels),
                reference::decode_to_utf16(bytes).map(drop),
                "{name} validate {bytes:02x?}"
            );
            // Appended after text (the rewrite's kernels see a writer ahead of the input), or
            // into an empty `String`; what was there is left alone on error.
            for head in ["", "h\u{e9}ad \u{1F600} "] {
                let mut dst = String::from(head);
                let got = decode_to_string_with(bytes, &mut dst, kernels);
                match &want {
                    Ok(text) => {
                        assert_eq!(got, Ok(()), "{name} into {bytes:02x?}");
                        assert_eq!(dst, alloc::format!("{head}{text}"), "{name} into");
                    }
                    Err(err) => {
                        assert_eq!(got, Err(*err), "{name} into {bytes:02x?}");
                        assert_eq!(dst, head, "{name} into, on error {bytes:02x?}");
                    }
                }
            }
            #[cfg(any(feature = "std", feature = "bytes"))]
            assert_eq!(
                decode_vec(bytes.to_vec(), kernels).as_deref(),
                want.as_deref(),
                "{name} owned {bytes:02x?}"
            );
        }
    }

    #[test]
    fn every_level_decodes_as_the_reference_and_borrows_alike() {
        for bytes in crate::testing::bodies() {
            assert_every_level_decodes(&bytes);
        }
    }

    /// The rewrite at every level (the AVX-512 blocks where the CPU has them), against the
    /// reference, on bodies made for the blocks: ASCII runs of any length, `C0 80` and the
    /// other overlong 2-byte forms, text of each width, pairs of each plane, and now and then
    /// one thing the blocks leave to the scalar loop (a 3-byte overlong, a lone or reversed
    /// surrogate, a stray continuation byte, a 4-byte sequence, a bad lead, a cut sequence);
    /// each body also behind 0..64 ASCII bytes, so that every piece falls at every place in a
    /// block.
    #[test]
    fn the_rewrite_blocks_decode_as_the_reference() {
        use wirebytes_testkit::mutf8::{IRREGULAR, REGULAR, REJECTED};
        let bad: Vec<&[u8]> = IRREGULAR.iter().chain(REJECTED).copied().collect();
        let mut rng = wirebytes_testkit::Rng::new(0x2545_F491_4F6C_DD1D);
        let mut next = move |n: u64| rng.below(n as usize) as u64;
        let ascii = b"The quick brown fox jumps over the lazy dog, 0123456789 times!! ";
        for round in 0..wirebytes_testkit::scale_miri(3000, 3000, 3) {
            let mut body = Vec::new();
            let bad_at = if round % 3 == 0 { next(40) } else { u64::MAX };
            for piece in 0..next(40) {
                let run = next(if round % 2 == 0 { 70 } else { 8 }) as usize;
                body.extend_from_slice(&ascii[..run.min(ascii.len())]);
                if piece == bad_at {
                    body.extend_from_slice(bad[next(bad.len() as u64) as usize]);
                } else {
                    body.extend_from_slice(REGULAR[next(REGULAR.len() as u64) as usize]);
                }
            }
            body.extend_from_slice(&ascii[..next(64) as usize]);
            for lead in [0, 1, 2, 3, 5, 7, 13, 31, 32, 33, 58, 59, 62, 63, 64]
                .into_iter()
                .step_by(wirebytes_testkit::scale_miri(1, 1, 4))
            {
                let mut bytes = ascii[..lead].to_vec();
                bytes.extend_from_slice(&body);
                assert_every_level_decodes(&bytes);
            }
        }
    }
}
