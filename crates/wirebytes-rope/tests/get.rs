//! `get` against the flat bytes: forward, backward, repeated, alternating, random, threads.

mod common;

use std::sync::Arc;

use common::{Rng, SIZES, shapes};
use wirebytes_rope::{ByteString, reference};

fn check_all(flat: &[u8], s: &ByteString, name: &str, order: impl Iterator<Item = usize>) {
    for i in order {
        assert_eq!(
            s.get(i),
            flat.get(i).copied(),
            "{name}: get({i}) of {}",
            flat.len()
        );
    }
}

#[test]
fn forward_backward_repeated_alternating_random() {
    for &n in SIZES {
        let flat = Rng::new(n as u64).bytes(n);
        for (name, s) in shapes(&flat, 3 + n as u64) {
            check_all(&flat, &s, name, 0..n + 3);
            check_all(&flat, &s, name, (0..n + 3).rev());
            check_all(&flat, &s, name, (0..n).flat_map(|i| [i, i, i]));
            // Alternating between the two ends, and between neighbours.
            check_all(&flat, &s, name, (0..n).flat_map(|i| [i, n - 1 - i]));
            check_all(&flat, &s, name, (1..n).flat_map(|i| [i, i - 1, i + 1]));
            let mut rng = Rng::new(n as u64 * 31);
            check_all(&flat, &s, name, (0..2 * n + 10).map(|_| rng.below(n + 5)));
            // Far out of range, past usize::MAX / 2 where wrapping arithmetic could slip.
            check_all(
                &flat,
                &s,
                name,
                [usize::MAX, usize::MAX - 1, usize::MAX / 2 + 1, n].into_iter(),
            );
            for i in 0..n.min(50) {
                assert_eq!(reference::get_by_scan(&s, i), flat.get(i).copied());
            }
        }
    }
}

#[test]
fn clones_share_a_hint_and_stay_correct() {
    let flat = Rng::new(5).bytes(3000);
    let s: ByteString = common::split_random(&flat, &mut Rng::new(6), 30)
        .into_iter()
        .collect();
    let t = s.clone();
    for i in 0..flat.len() {
        // Two scans in opposite directions move the shared hint back and forth.
        assert_eq!(s.get(i), Some(flat[i]));
        assert_eq!(t.get(flat.len() - 1 - i), Some(flat[flat.len() - 1 - i]));
    }
}

#[test]
fn eight_threads_hammer_one_shared_rope() {
    let flat: Arc<Vec<u8>> =
        Arc::new(Rng::new(77).bytes(wirebytes_testkit::scale_miri(64, 64, 4) * 1024));
    let s: ByteString = common::split_random(&flat, &mut Rng::new(78), 128)
        .into_iter()
        .collect();
    assert!(s.fragment_count() > flat.len() / 128);
    let threads: Vec<_> = (0..8u64)
        .map(|t| {
            let (s, flat) = (s.clone(), Arc::clone(&flat));
            std::thread::spawn(move || {
                let n = flat.len();
                let mut rng = Rng::new(t);
                let mut wrong = 0usize;
                for round in 0..wirebytes_testkit::scale_miri(6, 6, 2) as u64 {
                    // Each thread scans in its own pattern so the shared hint keeps moving.
                    for k in 0..n {
                        let i = match (t + round) % 3 {
                            0 => k,
                            1 => n - 1 - k,
                            _ => rng.below(n + 2),
                        };
                        wrong += usize::from(s.get(i) != flat.get(i).copied());
                    }
                }
                wrong
            })
        })
        .collect();
    for t in threads {
        assert_eq!(t.join().expect("a reader thread panicked"), 0);
    }
}
