//! Input an attacker picks, at the API's edge: fragments of one byte and empty fragments by
//! the thousand (a peer that sends a byte per packet), and lengths past the end, which panic
//! with the documented message and nothing else (the `try_` forms return `None` and change
//! nothing). Nothing here assumes the width of `usize`.

use bytes::{Buf, Bytes};
use wirebytes_rope::{ByteQueue, ByteString, ByteStringBuilder};

/// How many empty fragments: thousands natively, a few hundred under Miri.
fn empties() -> usize {
    wirebytes_testkit::scale_miri(5000, 5000, 300)
}

/// `flat` as fragments of one byte, with `gap` empty fragments before each.
fn one_byte_fragments(flat: &[u8], gap: usize) -> Vec<Bytes> {
    flat.iter()
        .flat_map(|&b| std::iter::repeat_n(Bytes::new(), gap).chain([Bytes::copy_from_slice(&[b])]))
        .collect()
}

#[test]
fn a_queue_of_one_byte_chunks_reads_records_across_them() {
    // Records as a length-prefixed protocol sends them: u32 big-endian length, payload.
    let payloads: [&[u8]; 4] = [b"", b"x", b"hello, world", &[0xFF; 40]];
    let mut wire = Vec::new();
    for p in payloads {
        wire.extend_from_slice(&(p.len() as u32).to_be_bytes());
        wire.extend_from_slice(p);
    }
    let mut queue = ByteQueue::new();
    for b in one_byte_fragments(&wire, 1) {
        queue.push(b);
    }
    assert_eq!(queue.len(), wire.len());
    assert_eq!(
        queue.fragment_count(),
        wire.len(),
        "empty fragments are not kept"
    );
    assert_eq!(queue.find(b"world"), Some(4 + 4 + 1 + 4 + 7));
    for p in payloads {
        let len = queue.peek_u32_be(0).expect("a length field") as usize;
        queue.advance(4);
        assert_eq!(queue.split_to(len), p);
    }
    assert!(queue.is_empty());
    assert_eq!(queue.peek_u32_be(0), None);

    // The `Buf` methods across one-byte chunks.
    let mut queue: ByteQueue = one_byte_fragments(&wire, 0).into_iter().collect();
    assert_eq!(queue.chunk().len(), 1);
    assert_eq!(queue.get_u32(), 0);
    assert_eq!(queue.get_u32(), 1);
    assert_eq!(queue.get_u8(), b'x');
    assert_eq!(queue.get_u32(), 12);
    assert_eq!(queue.copy_to_bytes(12), &b"hello, world"[..]);
}

#[test]
fn a_string_of_one_byte_fragments_reads_as_the_flat_bytes() {
    let flat: Vec<u8> = (0..=255u8).collect();
    let s: ByteString = one_byte_fragments(&flat, 0).into_iter().collect();
    assert_eq!(s.fragment_count(), 256);
    assert_eq!(s, flat);
    assert_eq!(s.slice(100..200), flat[100..200]);
    assert_eq!(s.find(&[7, 8, 9, 10]), Some(7));
    assert_eq!(s.get(255), Some(255));
    let mut r = s.reader();
    assert_eq!(r.get_u16(), 0x0001);
    assert_eq!(r.split_to(3), [2u8, 3, 4][..]);
    assert_eq!(r.copy_to_bytes(5), &[5u8, 6, 7, 8, 9][..]);
    assert_eq!(r.remaining(), 246);
}

#[test]
fn thousands_of_empty_fragments_are_not_kept() {
    let n = empties();
    // Through `FromIterator`, between and around real bytes.
    let parts = std::iter::repeat_n(Bytes::new(), n)
        .chain([Bytes::from_static(b"ab")])
        .chain(std::iter::repeat_n(Bytes::new(), n))
        .chain([Bytes::from_static(b"cd")])
        .chain(std::iter::repeat_n(Bytes::new(), n));
    let s: ByteString = parts.collect();
    assert_eq!((s.len(), s.fragment_count()), (4, 2));
    assert_eq!(s, &b"abcd"[..]);

    // Appended, concatenated and built one at a time.
    let empty = ByteString::new();
    let mut grown = ByteString::from_static(b"x");
    let mut builder = ByteStringBuilder::new();
    let mut queue = ByteQueue::new();
    for _ in 0..n {
        grown.append(&empty);
        grown = grown.concat(&empty);
        builder.push(Bytes::new());
        builder.extend_from_slice(b"");
        queue.push(Bytes::new());
    }
    assert_eq!((grown.len(), grown.fragment_count()), (1, 1));
    let built = builder.build();
    assert_eq!((built.len(), built.fragment_count()), (0, 0));
    assert_eq!((queue.len(), queue.fragment_count()), (0, 0));
    assert_eq!(queue.split_to(0), ByteString::new());
    assert_eq!(queue.try_split_to(1), None);

    // Empty slices of a string of one-byte fragments, at every place.
    let s: ByteString = one_byte_fragments(b"0123456789", 3).into_iter().collect();
    assert_eq!(s.fragment_count(), 10);
    for at in 0..=s.len() {
        assert!(s.slice(at..at).is_empty());
        assert_eq!(s.slice(at..at).fragment_count(), 0);
    }
}

#[test]
fn try_forms_past_the_end_return_none_and_change_nothing() {
    let s: ByteString = one_byte_fragments(b"abcdef", 0).into_iter().collect();
    let len = s.len();
    for end in [len + 1, len + 100, usize::MAX] {
        assert_eq!(s.try_slice(..end), None);
        assert_eq!(s.try_slice(end..), None);
    }
    let (start, end) = (4, 2);
    assert_eq!(s.try_slice(start..end), None);
    let mut queue: ByteQueue = s.fragments().cloned().collect();
    for n in [len + 1, usize::MAX] {
        assert_eq!(queue.try_split_to(n), None);
        assert_eq!(queue.len(), len);
    }
    assert_eq!(queue.to_byte_string(), s);
}

#[test]
#[should_panic(
    expected = "ByteString::slice: range end 7 is out of bounds for a string of length 6"
)]
fn slice_past_the_end_panics() {
    let s: ByteString = one_byte_fragments(b"abcdef", 0).into_iter().collect();
    let _ = s.slice(2..7);
}

#[test]
#[should_panic(expected = "ByteString::slice: range start 5 is greater than range end 3")]
fn slice_start_after_end_panics() {
    let s = ByteString::from_static(b"abcdef");
    let (start, end) = (5, 3);
    let _ = s.slice(start..end);
}

#[test]
#[should_panic(expected = "ByteString::slice: range end overflows usize")]
fn slice_to_usize_max_inclusive_panics() {
    let s = ByteString::from_static(b"abcdef");
    let _ = s.slice(..=usize::MAX);
}

#[test]
#[should_panic(expected = "ByteString::split_at: mid 7 is out of bounds for a string of length 6")]
fn split_at_past_the_end_panics() {
    let s = ByteString::from_static(b"abcdef");
    let _ = s.split_at(7);
}

#[test]
#[should_panic(expected = "ByteQueue::split_to: 7 bytes requested, 6 in the queue")]
fn queue_split_to_past_the_end_panics() {
    let mut queue: ByteQueue = one_byte_fragments(b"abcdef", 2).into_iter().collect();
    let _ = queue.split_to(7);
}

#[test]
#[should_panic(expected = "bytes requested, 6 in the queue")]
fn queue_split_to_usize_max_panics() {
    let mut queue: ByteQueue = one_byte_fragments(b"abcdef", 0).into_iter().collect();
    let _ = queue.split_to(usize::MAX);
}

#[test]
#[should_panic(expected = "ByteQueue::advance: cannot advance by 7, 6 remaining")]
fn queue_advance_past_the_end_panics() {
    let mut queue: ByteQueue = one_byte_fragments(b"abcdef", 0).into_iter().collect();
    queue.advance(7);
}

#[test]
#[should_panic(expected = "ByteQueue::copy_to_bytes: 7 bytes requested, 6 remaining")]
fn queue_copy_to_bytes_past_the_end_panics() {
    let mut queue: ByteQueue = one_byte_fragments(b"abcdef", 0).into_iter().collect();
    let _ = queue.copy_to_bytes(7);
}

#[test]
#[should_panic(expected = "Reader::split_to: 7 bytes requested, 6 remaining")]
fn reader_split_to_past_the_end_panics() {
    let s: ByteString = one_byte_fragments(b"abcdef", 0).into_iter().collect();
    let mut r = s.reader();
    let _ = r.split_to(7);
}

#[test]
#[should_panic(expected = "Reader::advance: cannot advance by 5, 4 remaining")]
fn reader_advance_past_the_end_panics() {
    let s: ByteString = one_byte_fragments(b"abcdef", 0).into_iter().collect();
    let mut r = s.reader();
    r.advance(2);
    r.advance(5);
}
