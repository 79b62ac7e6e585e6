//! wirebytes-ascii against `reference`, every form with a kernel path at every kernel level:
//! `copy_low_bytes` and `copy_low_bytes_from_utf16` into `dst` of every length around the
//! count with sentinel bytes past it (which must stay as they were), `low_bytes*`,
//! `low_bytes_len`, `low_bytes_to_vec`, `low_bytes_from_utf16_to_vec`, `low_bytes_to_buf`
//! (into a `BytesMut`, and into three chunks of exactly the room, cut where the input says),
//! `render_header_value`, `is_header_byte`, `find_invalid_header_byte`, `find_line_break`.
#![no_main]

use arbitrary::Arbitrary;
use bytes::BufMut;
use libfuzzer_sys::fuzz_target;
use wirebytes_ascii::{levels, reference};
use wirebytes_fuzz::{same, text, units};

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    /// The byte `dst` is filled with before each copy.
    sentinel: u8,
    /// One more `dst` length to try, anywhere.
    extra_len: u16,
    /// Where `dst` starts in its buffer (its alignment).
    offset: u8,
    /// What `low_bytes_to_vec` and `render_header_value` append to.
    prefix: u8,
    /// The text (as lossy UTF-8) and the UTF-16 units (two bytes each).
    payload: &'a [u8],
}

/// The `dst` lengths tried for a source of `count` units: 0..=3, every length within 17 of
/// the count (past every kernel's largest overshoot), and `extra`.
fn lengths(count: usize, extra: usize) -> Vec<usize> {
    let mut out: Vec<usize> = (0..=3.min(count)).collect();
    out.extend(count.saturating_sub(17)..=count + 17);
    out.push(extra % (count + 64));
    out.sort_unstable();
    out.dedup();
    out
}

/// Runs `copy` into `dst` of `len` bytes starting at `offset` in a buffer of sentinels; checks
/// the count and the bytes against `expected`, and that nothing past the count changed.
fn check_copy(
    what: &str,
    input: &Input<'_>,
    expected: &[u8],
    len: usize,
    copy: impl FnOnce(&mut [u8]) -> usize,
) {
    let offset = usize::from(input.offset % 64);
    let mut buf = vec![input.sentinel; offset + len + 32];
    let n = copy(&mut buf[offset..offset + len]);
    let want = expected.len().min(len);
    let context = (len, &input.payload);
    same(what, &context, want, n);
    same(what, &context, &expected[..want], &buf[offset..offset + n]);
    if let Some(at) = buf[offset + n..].iter().position(|&b| b != input.sentinel) {
        panic!(
            "{what}: byte {} past the count of {n} (dst length {len}) was written: {context:?}",
            at
        );
    }
    if buf[..offset].iter().any(|&b| b != input.sentinel) {
        panic!("{what}: a byte before dst was written: {context:?}");
    }
}

fuzz_target!(|input: Input<'_>| {
    let text = text(input.payload);
    let units = units(input.payload);
    let expected = reference::low_bytes(&text);
    let expected16 = reference::low_bytes_from_utf16(&units);

    same(
        "low_bytes_len",
        &text,
        reference::low_bytes_len(&text),
        wirebytes_ascii::low_bytes_len(&text),
    );
    same(
        "low_bytes_from_utf16",
        &units,
        &expected16,
        &wirebytes_ascii::low_bytes_from_utf16(&units),
    );
    let prefix = vec![input.prefix; usize::from(input.prefix % 40)];
    let mut want16 = prefix.clone();
    reference::low_bytes_from_utf16_to_vec(&units, &mut want16);
    let mut got16 = prefix.clone();
    wirebytes_ascii::low_bytes_from_utf16_to_vec(&units, &mut got16);
    same("low_bytes_from_utf16_to_vec", &units, &want16, &got16);
    let rendered = input.payload;
    for &byte in rendered {
        same(
            "is_header_byte",
            &byte,
            reference::is_header_byte(byte),
            wirebytes_ascii::is_header_byte(byte),
        );
    }
    same(
        "find_invalid_header_byte",
        &rendered,
        reference::find_invalid_header_byte(rendered),
        wirebytes_ascii::find_invalid_header_byte(rendered),
    );
    same(
        "find_line_break",
        &rendered,
        reference::find_line_break(rendered),
        wirebytes_ascii::find_line_break(rendered),
    );
    for len in lengths(units.len(), usize::from(input.extra_len)) {
        check_copy(
            "copy_low_bytes_from_utf16",
            &input,
            &expected16,
            len,
            |dst| wirebytes_ascii::copy_low_bytes_from_utf16(&units, dst),
        );
    }

    let mut want_extended = prefix.clone();
    reference::low_bytes_to_vec(&text, &mut want_extended);
    let mut want_header = prefix.clone();
    let want_header_result = reference::render_header_value(&text, &mut want_header);

    for level in levels::all() {
        let name = level.name();
        for len in lengths(expected.len(), usize::from(input.extra_len)) {
            check_copy(
                &format!("copy_low_bytes {name}"),
                &input,
                &expected,
                len,
                |dst| level.copy_low_bytes(&text, dst),
            );
        }
        same(
            &format!("low_bytes {name}"),
            &text,
            &expected,
            &level.low_bytes(&text),
        );
        same(
            &format!("low_bytes_len {name}"),
            &text,
            expected.len(),
            level.low_bytes_len(&text),
        );
        same(
            &format!("find_invalid_header_byte {name}"),
            &rendered,
            reference::find_invalid_header_byte(rendered),
            level.find_invalid_header_byte(rendered),
        );

        let mut extended = prefix.clone();
        level.low_bytes_to_vec(&text, &mut extended);
        same(
            &format!("low_bytes_to_vec {name}"),
            &text,
            &want_extended,
            &extended,
        );

        let mut put = bytes::BytesMut::from(&prefix[..]);
        level.low_bytes_to_buf(&text, &mut put);
        same(
            &format!("low_bytes_to_buf {name}"),
            &text,
            &want_extended[..],
            &put[..],
        );

        // Exactly the room, in three chunks: a cut may fall inside a surrogate pair.
        let n = expected.len();
        let (a, b) = (
            usize::from(input.extra_len) % (n + 1),
            usize::from(input.offset) * 7 % (n + 1),
        );
        let (first, second) = (a.min(b), a.max(b));
        let mut cells = vec![input.sentinel; n + 1];
        {
            let (room, _) = cells.split_at_mut(n);
            let (x, rest) = room.split_at_mut(first);
            let (y, z) = rest.split_at_mut(second - first);
            level.low_bytes_to_buf(&text, &mut x.chain_mut(y).chain_mut(z));
        }
        same(
            &format!("low_bytes_to_buf {name} into chunks cut at {first} and {second}"),
            &text,
            (&expected[..], input.sentinel),
            (&cells[..n], cells[n]),
        );

        let mut header = prefix.clone();
        let result = level.render_header_value(&text, &mut header);
        same(
            &format!("render_header_value {name}"),
            &text,
            (&want_header_result, &want_header),
            (&result, &header),
        );
    }
});
