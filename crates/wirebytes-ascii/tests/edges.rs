//! Edge cases, each with the bytes the JDK's `String.getBytes(int, int, byte[], int)` gives
//! (the low 8 bits of every UTF-16 code unit), checked on the fast paths and the reference.

use rstest::rstest;
use wirebytes_ascii::{
    copy_low_bytes, copy_low_bytes_from_utf16, find_line_break, low_bytes, low_bytes_from_utf16,
    low_bytes_from_utf16_to_vec, low_bytes_len, low_bytes_to_vec, reference,
};

/// A byte no case writes: shows which bytes of `dst` were left alone.
const UNTOUCHED: u8 = 0xA5;

/// Runs `copy_low_bytes` and the reference into `dst_len`-byte buffers prefilled with
/// `UNTOUCHED`; checks they agree and returns the fast one's count and buffer.
fn copy_str(src: &str, dst_len: usize) -> (usize, Vec<u8>) {
    let mut fast = vec![UNTOUCHED; dst_len];
    let mut slow = vec![UNTOUCHED; dst_len];
    let n = copy_low_bytes(src, &mut fast);
    assert_eq!(
        n,
        reference::copy_low_bytes(src, &mut slow),
        "count for {src:?}"
    );
    assert_eq!(fast, slow, "bytes for {src:?}");
    (n, fast)
}

fn copy_utf16(src: &[u16], dst_len: usize) -> (usize, Vec<u8>) {
    let mut fast = vec![UNTOUCHED; dst_len];
    let mut slow = vec![UNTOUCHED; dst_len];
    let n = copy_low_bytes_from_utf16(src, &mut fast);
    assert_eq!(
        n,
        reference::copy_low_bytes_from_utf16(src, &mut slow),
        "count for {src:04x?}"
    );
    assert_eq!(fast, slow, "bytes for {src:04x?}");
    (n, fast)
}

#[rstest]
#[case::empty("", &[])]
#[case::ascii("chunked", b"chunked")]
#[case::content_type(
    "Content-Type: application/json; charset=UTF-8\r\n",
    b"Content-Type: application/json; charset=UTF-8\r\n"
)]
#[case::nul_and_del("\0\x7F", &[0x00, 0x7F])]
#[case::latin1("Gr\u{FC}\u{DF}e", &[b'G', b'r', 0xFC, 0xDF, b'e'])]
#[case::latin1_ends("\u{80}\u{FF}", &[0x80, 0xFF])]
#[case::c_caron_is_cr("\u{010D}", &[0x0D])]
#[case::fullwidth_asterisk_is_lf("\u{FF0A}", &[0x0A])]
#[case::u0100_is_nul("\u{0100}", &[0x00])]
#[case::two_byte_top("\u{07FF}", &[0xFF])]
#[case::three_byte_bottom("\u{0800}", &[0x00])]
#[case::cjk("\u{4E2D}\u{6587}", &[0x2D, 0x87])]
#[case::bom_and_replacement("\u{FEFF}\u{FFFD}", &[0xFF, 0xFD])]
#[case::u_ffff("\u{FFFF}", &[0xFF])]
#[case::emoji_pair("\u{1F600}", &[0x3D, 0x00])] // D83D DE00
#[case::first_supplementary("\u{10000}", &[0x00, 0x00])] // D800 DC00
#[case::last_char("\u{10FFFF}", &[0xFF, 0xFF])] // DBFF DFFF
#[case::pair_low_byte_nonzero("\u{1D11E}", &[0x34, 0x1E])] // D834 DD1E
#[case::mixed("a\u{E9}\u{4E2D}\u{1F600}z", &[b'a', 0xE9, 0x2D, 0x3D, 0x00, b'z'])]
fn str_renders_low_bytes(#[case] src: &str, #[case] expected: &[u8]) {
    assert_eq!(low_bytes_len(src), expected.len());
    assert_eq!(reference::low_bytes_len(src), expected.len());
    for extra in [0, 1, 40] {
        let (n, dst) = copy_str(src, expected.len() + extra);
        assert_eq!(n, expected.len());
        assert_eq!(&dst[..n], expected);
        assert!(dst[n..].iter().all(|&b| b == UNTOUCHED), "wrote past {n}");
    }
    let owned = low_bytes(src);
    assert_eq!(owned, expected);
    assert_eq!(owned.capacity(), expected.len());
    assert_eq!(reference::low_bytes(src), expected);
    let mut appended = b"H: ".to_vec();
    low_bytes_to_vec(src, &mut appended);
    assert_eq!(appended[..3], *b"H: ");
    assert_eq!(appended[3..], *expected);
}

#[rstest]
#[case::empty(&[], &[])]
#[case::ascii(&[0x41, 0x42], b"AB")]
#[case::lone_high(&[0xD800], &[0x00])]
#[case::lone_low(&[0xDFFF], &[0xFF])]
#[case::reversed_pair(&[0xDE00, 0xD83D], &[0x00, 0x3D])]
#[case::high_then_ascii(&[0xDBFF, 0x0041], &[0xFF, 0x41])]
#[case::c_caron_and_fullwidth(&[0x010D, 0xFF0A], &[0x0D, 0x0A])]
#[case::all_high_bytes(&[0xFF00, 0x01FF, 0xABCD], &[0x00, 0xFF, 0xCD])]
fn utf16_renders_low_bytes(#[case] src: &[u16], #[case] expected: &[u8]) {
    for extra in [0, 1, 40] {
        let (n, dst) = copy_utf16(src, expected.len() + extra);
        assert_eq!(n, expected.len());
        assert_eq!(&dst[..n], expected);
        assert!(dst[n..].iter().all(|&b| b == UNTOUCHED), "wrote past {n}");
    }
    let owned = low_bytes_from_utf16(src);
    assert_eq!(owned, expected);
    assert_eq!(owned.capacity(), expected.len());
    assert_eq!(reference::low_bytes_from_utf16(src), expected);
    for mut appended in [b"H: ".to_vec(), Vec::with_capacity(64)] {
        let before = appended.clone();
        low_bytes_from_utf16_to_vec(src, &mut appended);
        assert_eq!(appended[..before.len()], before);
        assert_eq!(appended[before.len()..], *expected);
        let mut want = before;
        reference::low_bytes_from_utf16_to_vec(src, &mut want);
        assert_eq!(appended, want);
    }
}

/// The header-injection case of the issue: the text holds no line break, the rendered bytes
/// do, and `find_line_break` finds it where the JDK would put it on the wire.
#[rstest]
#[case::c_caron("X-User: Ond\u{010D}ej", 11)]
#[case::fullwidth_asterisk("X-Star: a\u{FF0A}Set-Cookie: s=1", 9)]
#[case::after_emoji("\u{1F600}\u{010A}", 2)]
#[case::latin1_before("\u{E9}\u{E8}\u{FF0D}", 2)]
fn truncation_reveals_line_breaks(#[case] text: &str, #[case] at: usize) {
    assert_eq!(text.find(['\r', '\n']), None);
    let rendered = low_bytes(text);
    assert_eq!(find_line_break(&rendered), Some(at));
    assert_eq!(reference::find_line_break(&rendered), Some(at));
}

#[rstest]
#[case::empty(b"", None)]
#[case::none(b"Content-Type: text/plain", None)]
#[case::cr_first(b"a\rb\n", Some(1))]
#[case::lf_first(b"ab\nc\r", Some(2))]
#[case::at_start(b"\n", Some(0))]
#[case::at_end_of_long(b"0123456789abcdef0123456789abcdef0123456789\r", Some(42))]
#[case::high_bytes_are_not_breaks(&[0x8D, 0x8A, 0xFF, 0x00, 0x0B, 0x0C], None)]
fn finds_line_breaks(#[case] rendered: &[u8], #[case] expected: Option<usize>) {
    assert_eq!(find_line_break(rendered), expected);
    assert_eq!(reference::find_line_break(rendered), expected);
}

/// `dst` shorter than the input: the portion that fits, the rest of `dst` untouched.
#[rstest]
#[case::ascii("Content-Type", 7, b"Content")]
#[case::latin1("\u{E9}t\u{E9}", 2, &[0xE9, b't'])]
#[case::empty_dst("anything", 0, &[])]
#[case::pair_cut_after_high("ab\u{1F600}", 3, &[b'a', b'b', 0x3D])]
#[case::pair_cut_before("ab\u{1F600}", 2, b"ab")]
#[case::second_pair_cut("\u{1F600}\u{1F601}", 3, &[0x3D, 0x00, 0x3D])]
#[case::pair_cut_at_start("\u{10FFFF}x", 1, &[0xFF])]
#[case::cut_in_cjk("\u{4E2D}\u{6587}\u{5B57}", 2, &[0x2D, 0x87])]
fn dst_shorter_than_input(#[case] src: &str, #[case] dst_len: usize, #[case] expected: &[u8]) {
    let (n, dst) = copy_str(src, dst_len);
    assert_eq!(n, dst_len);
    assert_eq!(dst, expected);
    let units: Vec<u16> = src.encode_utf16().collect();
    let (n, dst) = copy_utf16(&units, dst_len);
    assert_eq!(n, dst_len);
    assert_eq!(dst, expected);
}

/// Subslices at every offset of a larger source and destination: the bytes land where the
/// subslice is and nowhere else.
#[rstest]
fn offsets_via_subslices(
    #[values(0, 1, 3, 7, 8, 15, 31, 33)] src_offset: usize,
    #[values(0, 1, 5, 8, 13, 32)] dst_offset: usize,
) {
    let text = "ab\u{E9}cd\u{1F600}efghijklmnopqrstuvwxyz0123456789\u{010D}\u{FF0A}end";
    let padded = format!("{}{text}", "p".repeat(src_offset));
    let src = &padded[src_offset..];
    let expected = reference::low_bytes(text);

    let mut big = vec![UNTOUCHED; dst_offset + expected.len() + 9];
    let n = copy_low_bytes(src, &mut big[dst_offset..]);
    assert_eq!(n, expected.len());
    assert!(big[..dst_offset].iter().all(|&b| b == UNTOUCHED));
    assert_eq!(&big[dst_offset..dst_offset + n], expected);
    assert!(big[dst_offset + n..].iter().all(|&b| b == UNTOUCHED));

    let units: Vec<u16> = padded.encode_utf16().collect();
    let mut big = vec![UNTOUCHED; dst_offset + expected.len() + 9];
    let n = copy_low_bytes_from_utf16(&units[src_offset..], &mut big[dst_offset..]);
    assert_eq!(n, expected.len());
    assert!(big[..dst_offset].iter().all(|&b| b == UNTOUCHED));
    assert_eq!(&big[dst_offset..dst_offset + n], expected);
    assert!(big[dst_offset + n..].iter().all(|&b| b == UNTOUCHED));
}

/// `low_bytes` allocates once and exactly: capacity equals length for every kind of text.
#[rstest]
#[case::empty("")]
#[case::ascii("x")]
#[case::long_ascii(&"x".repeat(1024))]
#[case::latin1(&"\u{E9}".repeat(333))]
#[case::cjk(&"\u{4E2D}".repeat(100))]
#[case::emoji(&"\u{1F600}".repeat(17))]
fn low_bytes_is_exact_size(#[case] text: &str) {
    let bytes = low_bytes(text);
    assert_eq!(bytes.len(), text.encode_utf16().count());
    assert_eq!(bytes.capacity(), bytes.len());
    let units: Vec<u16> = text.encode_utf16().collect();
    let bytes = low_bytes_from_utf16(&units);
    assert_eq!(bytes.len(), units.len());
    assert_eq!(bytes.capacity(), bytes.len());
}
