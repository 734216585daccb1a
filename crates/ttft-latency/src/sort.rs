//! One stable sort for every list the page sorts, compiled once.
//!
//! The standard library's sorts are fast on any input, and each element
//! type and order they sort is its own copy of a few kilobytes of code in
//! the wasm a learner downloads: the import page alone held three (its
//! table's order, the percentiles, the slowest requests), about 17 KB of
//! wasm. Here the sorting itself works on positions, through a comparison
//! passed as `&mut dyn FnMut`, so there is one copy of it in a build
//! whatever it sorts; each caller adds only its comparison and a short
//! loop that moves the items into place.
//!
//! It is a bottom-up merge sort: stable (equal items keep their order, as
//! `slice::sort_by` does), `O(n log n)` comparisons on any input, a buffer
//! of `n` positions. On 100,000 items it takes a few milliseconds, slower
//! than the standard library's by a small factor, which the lists here
//! (a trace's requests, a run's samples, a learner's saved scores) afford.

use std::cmp::Ordering;

/// Sorts `items` in the order `compare` gives, keeping the order of items
/// that compare equal, as `slice::sort_by` does.
pub fn sort_by<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    let order = {
        let items: &[T] = items;
        sorted_positions(items.len(), &mut |a, b| compare(&items[a], &items[b]))
    };
    permute(items, order);
}

/// Sorts `items` by the key `key` gives, stably, as `slice::sort_by_key`.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` in their own order, stably.
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// How many positions each insertion-sorted run holds before merging.
const RUN: usize = 12;

/// The positions `0..n` in the order `compare` puts them, equal ones in
/// ascending position. Not generic: every sort in a build shares it.
fn sorted_positions(n: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut from: Vec<usize> = (0..n).collect();
    // Already in order (a table shown in file order, say): nothing to do.
    if (1..n).all(|i| compare(i, i - 1) != Ordering::Less) {
        return from;
    }
    // Runs of RUN positions sorted by insertion first: fewer merge passes.
    for run in from.chunks_mut(RUN) {
        for i in 1..run.len() {
            let mut j = i;
            while j > 0 && compare(run[j], run[j - 1]) == Ordering::Less {
                run.swap(j, j - 1);
                j -= 1;
            }
        }
    }
    let mut to = vec![0; n];
    let mut width = RUN;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            // Two runs already in order one after the other: one copy.
            if mid == end || compare(from[mid], from[mid - 1]) != Ordering::Less {
                to[start..end].copy_from_slice(&from[start..end]);
                start = end;
                continue;
            }
            let (mut i, mut j, mut k) = (start, mid, start);
            while i < mid && j < end {
                // The left run's item goes first unless the right's is
                // strictly smaller: that keeps equal items in order.
                if compare(from[j], from[i]) == Ordering::Less {
                    to[k] = from[j];
                    j += 1;
                } else {
                    to[k] = from[i];
                    i += 1;
                }
                k += 1;
            }
            to[k..k + (mid - i)].copy_from_slice(&from[i..mid]);
            k += mid - i;
            to[k..k + (end - j)].copy_from_slice(&from[j..end]);
            start = end;
        }
        std::mem::swap(&mut from, &mut to);
        width *= 2;
    }
    from
}

/// Sorts times in ascending order: a radix sort on their bits, a byte at a
/// time (a pass whose byte is the same in every time is skipped), so
/// linear in the length. Percentiles sort every sample they are given,
/// often 100,000 of them, many times in a simulated sweep: this is faster
/// there than a comparison sort, and small.
pub fn sort_micros(items: &mut [crate::Micros]) {
    if items.len() < 2 {
        return;
    }
    // Flipping the sign bit orders negative times before positive ones as
    // unsigned numbers.
    let key = |m: &crate::Micros| (m.0 as u64) ^ (1 << 63);
    let mut from: Vec<u64> = items.iter().map(key).collect();
    let mut to = vec![0u64; from.len()];
    for shift in (0..64).step_by(8) {
        let mut counts = [0usize; 257];
        for &k in &from {
            counts[((k >> shift) & 0xff) as usize + 1] += 1;
        }
        if counts.contains(&from.len()) {
            continue;
        }
        for i in 1..257 {
            counts[i] += counts[i - 1];
        }
        for &k in &from {
            let slot = &mut counts[((k >> shift) & 0xff) as usize];
            to[*slot] = k;
            *slot += 1;
        }
        std::mem::swap(&mut from, &mut to);
    }
    for (item, k) in items.iter_mut().zip(from) {
        *item = crate::Micros((k ^ (1 << 63)) as i64);
    }
}

/// Rearranges `items` so that position `k` holds what was at `order[k]`,
/// following each cycle of the permutation with swaps.
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    const DONE: usize = usize::MAX;
    for start in 0..items.len() {
        let mut k = start;
        while order[k] != DONE {
            let from = order[k];
            order[k] = DONE;
            if from == start {
                break;
            }
            items.swap(k, from);
            k = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn sorts_and_keeps_ties_in_order() {
        let mut v = vec![(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (1, 'e')];
        sort_by_key(&mut v, |p| p.0);
        assert_eq!(v, vec![(1, 'b'), (1, 'e'), (2, 'd'), (3, 'a'), (3, 'c')]);
        let mut empty: Vec<u8> = Vec::new();
        sort(&mut empty);
        assert!(empty.is_empty());
        let mut one = vec![String::from("x")];
        sort(&mut one);
        assert_eq!(one, ["x"]);
        let mut words = vec!["pear".to_owned(), "fig".to_owned(), "apple".to_owned()];
        sort_by(&mut words, |a, b| b.cmp(a));
        assert_eq!(words, ["pear", "fig", "apple"]);
    }

    proptest! {
        /// The same result as the standard library's stable sort, ties
        /// included, on lists of any length up to a few thousand, with few
        /// distinct keys (many ties) and with many.
        #[test]
        fn agrees_with_the_standard_stable_sort(
            items in proptest::collection::vec((0u8..8, any::<u16>()), 0..3000),
            descending in any::<bool>(),
        ) {
            let order = |a: &(u8, u16), b: &(u8, u16)| if descending { b.0.cmp(&a.0) } else { a.0.cmp(&b.0) };
            let mut ours = items.clone();
            sort_by(&mut ours, order);
            let mut std_sorted = items;
            std_sorted.sort_by(order);
            prop_assert_eq!(&ours, &std_sorted);
            // Input already in order, and in the reverse order.
            sort_by(&mut ours, order);
            prop_assert_eq!(&ours, &std_sorted);
            let mut reversed: Vec<(u8, u16)> = std_sorted.iter().rev().copied().collect();
            let mut std_reversed = reversed.clone();
            sort_by(&mut reversed, order);
            std_reversed.sort_by(order);
            prop_assert_eq!(reversed, std_reversed);
        }

        /// Times, negative ones included, in the standard library's order.
        #[test]
        fn sort_micros_agrees_with_the_standard_sort(
            items in proptest::collection::vec(prop_oneof![any::<i64>(), -5_000i64..5_000_000], 0..3000),
        ) {
            let mut ours: Vec<crate::Micros> = items.iter().map(|&t| crate::Micros(t)).collect();
            sort_micros(&mut ours);
            let mut std_sorted: Vec<crate::Micros> = items.iter().map(|&t| crate::Micros(t)).collect();
            std_sorted.sort_unstable();
            prop_assert_eq!(ours, std_sorted);
        }

        /// Any permutation is applied exactly.
        #[test]
        fn permute_moves_every_item_once(perm in Just((0..200usize).collect::<Vec<_>>()).prop_shuffle()) {
            let mut items: Vec<usize> = (0..perm.len()).map(|i| i * 10).collect();
            permute(&mut items, perm.clone());
            let expected: Vec<usize> = perm.iter().map(|&i| i * 10).collect();
            prop_assert_eq!(items, expected);
        }
    }
}
