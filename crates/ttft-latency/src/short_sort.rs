//! A stable sort for lists of a handful of items.
//!
//! [`crate::sort`] is the sort for any list: one copy of its code in a
//! build, whatever it sorts, but about a kilobyte of wasm. The lists every
//! build sorts as it reads the browser's storage, and the worked
//! timeline's errors, are a few items long, and the lesson's build sorts
//! nothing else, so they use this insertion sort: a few dozen bytes a
//! copy, and quadratic, which is why long lists (a trace's requests, the
//! saved scores) use [`crate::sort`].

use std::cmp::Ordering;

/// Sorts `items` in the order `compare` gives, keeping the order of items
/// that compare equal, as `slice::sort_by` does. Quadratic: meant for a few
/// dozen items.
pub fn sort_short_by<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && compare(&items[j - 1], &items[j]) == Ordering::Greater {
            items.swap(j - 1, j);
            j -= 1;
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
        sort_short_by(&mut v, |a, b| a.0.cmp(&b.0));
        assert_eq!(v, vec![(1, 'b'), (1, 'e'), (2, 'd'), (3, 'a'), (3, 'c')]);
        let mut empty: Vec<u8> = Vec::new();
        sort_short_by(&mut empty, u8::cmp);
        assert!(empty.is_empty());
    }

    proptest! {
        #[test]
        fn agrees_with_the_standard_stable_sort(keys in prop::collection::vec(0u8..6, 0..40)) {
            let items: Vec<(u8, usize)> = keys.into_iter().enumerate().map(|(i, k)| (k, i)).collect();
            let mut ours = items.clone();
            sort_short_by(&mut ours, |a, b| a.0.cmp(&b.0));
            let mut std_sorted = items;
            std_sorted.sort_by_key(|p| p.0);
            prop_assert_eq!(ours, std_sorted);
        }
    }
}
