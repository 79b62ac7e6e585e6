//! How a [`ByteString`] holds its fragments: one `Bytes`, two or three inline, or an `Arc`
//! of four or more with their start offsets and the hint of [`ByteString::get`].

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use bytes::Bytes;

use crate::string::ByteString;

/// One fragment; two or three non-empty fragments held inline (no allocation of their own,
/// so a frame that straddles one or two read boundaries costs none); or an `Arc` of at
/// least four non-empty fragments.
#[derive(Clone)]
pub(crate) enum Repr {
    One(Bytes),
    Two([Bytes; 2]),
    Three([Bytes; 3]),
    Many(Arc<Rope>),
}

/// A fragment and the offset of its first byte in the string.
#[derive(Clone)]
pub(crate) struct Fragment {
    pub(crate) start: usize,
    pub(crate) bytes: Bytes,
}

/// At least four fragments, none empty, with their start offsets (strictly increasing).
pub(crate) struct Rope {
    pub(crate) fragments: Vec<Fragment>,
    pub(crate) len: usize,
    /// The index of the fragment that the last `get` resolved: always `< fragments.len()`.
    hint: AtomicUsize,
}

/// Collects fragments into a [`ByteString`]: drops empty ones, keeps the first three inline
/// (no allocation for a string of up to three fragments), and from the fourth on builds the
/// fragment list with start offsets in place (one allocation for it, one for the `Arc`).
pub(crate) struct Parts {
    /// The first three fragments, while there are no more.
    head: [Bytes; 3],
    /// Every fragment once there are four or more (then `head` is empty).
    fragments: Vec<Fragment>,
    count: usize,
    capacity: usize,
    len: usize,
}

impl Parts {
    /// An empty collection expecting about `capacity` fragments. Does not allocate.
    pub(crate) fn with_capacity(capacity: usize) -> Parts {
        Parts {
            head: Default::default(),
            fragments: Vec::new(),
            count: 0,
            capacity,
            len: 0,
        }
    }

    /// Appends a fragment (nothing when it is empty).
    #[inline]
    pub(crate) fn push(&mut self, bytes: Bytes) {
        if bytes.is_empty() {
            return;
        }
        let start = self.len;
        self.len += bytes.len();
        match self.count {
            0..=2 => self.head[self.count] = bytes,
            3 => {
                self.fragments.reserve(self.capacity.max(8));
                let mut at = 0;
                for bytes in core::mem::take(&mut self.head) {
                    let len = bytes.len();
                    self.fragments.push(Fragment { start: at, bytes });
                    at += len;
                }
                self.fragments.push(Fragment { start, bytes });
            }
            _ => self.fragments.push(Fragment { start, bytes }),
        }
        self.count += 1;
    }

    /// The string of the fragments collected.
    pub(crate) fn finish(self) -> ByteString {
        let repr = match self.count {
            0 => return ByteString::new(),
            1 => {
                let [a, _, _] = self.head;
                Repr::One(a)
            }
            2 => {
                let [a, b, _] = self.head;
                Repr::Two([a, b])
            }
            3 => Repr::Three(self.head),
            _ => Repr::Many(Arc::new(Rope {
                fragments: self.fragments,
                len: self.len,
                hint: AtomicUsize::new(0),
            })),
        };
        ByteString { repr }
    }
}

/// Byte `index` of the string made of `parts`, or `None` past its end.
#[inline]
pub(crate) fn get_in(parts: &[Bytes], mut index: usize) -> Option<u8> {
    for b in parts {
        match b.get(index) {
            Some(&byte) => return Some(byte),
            None => index -= b.len(),
        }
    }
    None
}

impl Rope {
    /// Appends a non-empty fragment (only on a rope nobody else shares).
    pub(crate) fn push(&mut self, bytes: Bytes) {
        debug_assert!(!bytes.is_empty());
        let start = self.len;
        self.len += bytes.len();
        self.fragments.push(Fragment { start, bytes });
    }

    /// The index of the fragment holding byte `index` (which must be `< len`).
    #[inline]
    pub(crate) fn locate(&self, index: usize) -> usize {
        debug_assert!(index < self.len);
        self.fragments.partition_point(|f| f.start <= index) - 1
    }

    #[inline]
    pub(crate) fn get(&self, index: usize) -> Option<u8> {
        let hint = self.hint.load(Ordering::Relaxed);
        // The hint is always a valid index, so this lookup cannot fail; `get` keeps the code
        // free of a panic path anyway.
        let f = self.fragments.get(hint);
        if let Some(&b) = f.and_then(|f| f.bytes.get(index.wrapping_sub(f.start))) {
            return Some(b);
        }
        self.get_cold(index, hint)
    }

    /// `get` when the hinted fragment does not hold `index`: try its neighbours (the next
    /// step of a forward or backward scan), else binary search; then move the hint.
    #[inline(never)]
    fn get_cold(&self, index: usize, hint: usize) -> Option<u8> {
        if index >= self.len {
            return None;
        }
        let near = [hint.wrapping_add(1), hint.wrapping_sub(1)];
        let found = near
            .into_iter()
            .find(|&i| {
                self.fragments
                    .get(i)
                    .is_some_and(|f| index.wrapping_sub(f.start) < f.bytes.len())
            })
            .unwrap_or_else(|| self.locate(index));
        self.hint.store(found, Ordering::Relaxed);
        let f = &self.fragments[found];
        Some(f.bytes[index - f.start])
    }
}

impl ByteString {
    /// The string of two non-empty fragments, held inline.
    #[inline]
    pub(crate) fn two(first: Bytes, second: Bytes) -> Self {
        debug_assert!(!first.is_empty() && !second.is_empty());
        ByteString {
            repr: Repr::Two([first, second]),
        }
    }

    /// Builds a string from fragments, dropping the empty ones. Keeps every other fragment
    /// as it is (use [`ByteStringBuilder`](crate::ByteStringBuilder) to merge tiny ones).
    pub(crate) fn from_parts(parts: Vec<Bytes>) -> Self {
        let mut out = Parts::with_capacity(parts.len());
        for b in parts {
            out.push(b);
        }
        out.finish()
    }

    /// Fragment `index` (for a one-fragment string, fragment 0 even when it is empty).
    #[inline]
    pub(crate) fn fragment(&self, index: usize) -> Option<&Bytes> {
        match &self.repr {
            Repr::One(b) => (index == 0).then_some(b),
            Repr::Two(pair) => pair.get(index),
            Repr::Three(parts) => parts.get(index),
            Repr::Many(r) => r.fragments.get(index).map(|f| &f.bytes),
        }
    }

    /// The fragment holding byte `at` (`at < len()`) and the offset of the byte in it.
    pub(crate) fn locate(&self, at: usize) -> (usize, usize) {
        debug_assert!(at < self.len());
        match &self.repr {
            Repr::One(_) => (0, at),
            Repr::Two([a, _]) if at < a.len() => (0, at),
            Repr::Two([a, _]) => (1, at - a.len()),
            Repr::Three([a, _, _]) if at < a.len() => (0, at),
            Repr::Three([a, b, _]) if at - a.len() < b.len() => (1, at - a.len()),
            Repr::Three([a, b, _]) => (2, at - a.len() - b.len()),
            Repr::Many(r) => {
                let i = r.locate(at);
                (i, at - r.fragments[i].start)
            }
        }
    }
}

impl core::fmt::Debug for Fragment {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Fragment")
            .field("start", &self.start)
            .field("len", &self.bytes.len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{IntoReader, Reader};

    #[test]
    fn send_sync() {
        fn check<T: Send + Sync + 'static>() {}
        check::<ByteString>();
        check::<IntoReader>();
        check::<Reader<'static>>();
    }

    #[test]
    fn many_has_no_empty_fragment_and_offsets_are_prefix_sums() {
        let s: ByteString = ["", "ab", "", "c", "def", "", "g"]
            .into_iter()
            .map(|t: &'static str| Bytes::from_static(t.as_bytes()))
            .collect();
        let Repr::Many(r) = &s.repr else {
            panic!("four fragments must be Many")
        };
        let starts: Vec<usize> = r.fragments.iter().map(|f| f.start).collect();
        assert_eq!(starts, [0, 2, 3, 6]);
        assert_eq!(r.len, 7);
    }

    #[test]
    fn up_to_three_fragments_are_held_inline() {
        let (a, b) = (Bytes::from(vec![1u8; 70]), Bytes::from(vec![2u8; 80]));
        let c = Bytes::from(vec![3u8; 5]);
        let two = ByteString::from(a.clone()).concat(&ByteString::from(b.clone()));
        assert!(matches!(two.repr, Repr::Two(_)));
        assert_eq!(
            (two.get(69), two.get(70), two.get(149), two.get(150)),
            (Some(1), Some(2), Some(2), None)
        );
        let three = two.concat(&ByteString::from(c.clone()));
        assert!(matches!(three.repr, Repr::Three(_)));
        assert_eq!(
            (
                three.get(149),
                three.get(150),
                three.get(154),
                three.get(155)
            ),
            (Some(2), Some(3), Some(3), None)
        );
        assert_eq!(
            [0, 69, 70, 149, 150, 154].map(|at| three.locate(at)),
            [(0, 0), (0, 69), (1, 0), (1, 79), (2, 0), (2, 4)]
        );
        // Slices of longer ropes that cover two or three fragments, and a split across a
        // boundary.
        let four = three.concat(&ByteString::from(Bytes::from(vec![4u8; 9])));
        assert!(matches!(four.repr, Repr::Many(_)));
        assert!(matches!(four.slice(100..152).repr, Repr::Two(_)));
        assert!(matches!(four.slice(60..155).repr, Repr::Three(_)));
        assert!(matches!(four.slice(60..156).repr, Repr::Many(_)));
        assert!(matches!(three.slice(60..152).repr, Repr::Three(_)));
        assert!(matches!(three.slice(71..152).repr, Repr::Two(_)));
        assert!(matches!(three.slice(150..152).repr, Repr::One(_)));
        assert_eq!(three.slice(69..151), [&[1u8][..], &[2; 80], &[3]].concat());
        assert!(matches!(two.slice(60..75).repr, Repr::Two(_)));
        assert!(matches!(two.slice(60..70).repr, Repr::One(_)));
        let mut queue: crate::ByteQueue = [a, b, c].into_iter().collect();
        assert!(matches!(queue.split_to(10).repr, Repr::One(_)));
        let frame = queue.split_to(142);
        assert!(matches!(frame.repr, Repr::Three(_)));
        assert_eq!(frame, [&[1u8; 60][..], &[2; 80], &[3; 2]].concat());
        assert_eq!(queue, [3u8; 3][..]);
        assert!(
            size_of::<ByteString>() <= 3 * size_of::<Bytes>() + size_of::<usize>(),
            "{} bytes",
            size_of::<ByteString>()
        );
    }

    #[test]
    fn hint_follows_the_last_resolved_fragment() {
        let s: ByteString = ["ab", "cd", "ef", "gh"]
            .into_iter()
            .map(|t: &'static str| Bytes::from_static(t.as_bytes()))
            .collect();
        let Repr::Many(r) = &s.repr else {
            panic!("four fragments must be Many")
        };
        assert_eq!(s.get(7), Some(b'h'));
        assert_eq!(r.hint.load(Ordering::Relaxed), 3);
        assert_eq!(s.get(2), Some(b'c'));
        assert_eq!(r.hint.load(Ordering::Relaxed), 1);
        assert_eq!(s.get(8), None);
        assert_eq!(r.hint.load(Ordering::Relaxed), 1);
    }
}
