//! A map and a set for a handful of entries, kept as a sorted list.
//!
//! The standard library's `BTreeMap` is fast at any size, and each key and
//! value type it holds is a copy of its node code (insert with splits,
//! remove with merges and steals): several kilobytes of wasm a learner
//! downloads per type. The maps the page keeps (a learner's answers, the
//! saved values it could not store, a rubric's scores) hold a few dozen
//! entries at most, so they use this: a `Vec` sorted by key, searched by
//! bisection, with the same iteration order, the same JSON (an object, keys
//! in order) and, for repeated keys in the JSON, the same rule (the last
//! one wins). Inserting is linear in the length; meant for small maps.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, Serializer};
use std::borrow::Borrow;
use std::fmt;
use std::marker::PhantomData;

/// A map of a few entries in key order.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SmallMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for SmallMap<K, V> {
    fn default() -> Self {
        SmallMap {
            entries: Vec::new(),
        }
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for SmallMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.entries.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

impl<K, V> SmallMap<K, V> {
    /// An empty map.
    pub const fn new() -> Self {
        SmallMap {
            entries: Vec::new(),
        }
    }

    /// How many entries the map holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the map holds nothing.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + ExactSizeIterator {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// The entries in key order, values mutable.
    pub fn iter_mut(&mut self) -> impl DoubleEndedIterator<Item = (&K, &mut V)> + ExactSizeIterator {
        self.entries.iter_mut().map(|(k, v)| (&*k, v))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values in key order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }

    /// The values in key order, mutable.
    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> + ExactSizeIterator {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    /// Empties the map.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Keeps the entries for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
    }

    /// The first entry in key order.
    pub fn first_key_value(&self) -> Option<(&K, &V)> {
        self.entries.first().map(|(k, v)| (k, v))
    }

    /// The last entry in key order.
    pub fn last_key_value(&self) -> Option<(&K, &V)> {
        self.entries.last().map(|(k, v)| (k, v))
    }
}

impl<K: Ord, V> SmallMap<K, V> {
    /// Where `key` is, or where it would go.
    fn find<Q>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    /// The value under `key`.
    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    /// The value under `key`, mutable.
    pub fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).ok().map(|i| &mut self.entries[i].1)
    }

    /// True when the map holds `key`.
    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).is_ok()
    }

    /// Puts `value` under `key`, giving back the value it replaces.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    /// Takes the value under `key` out of the map.
    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).ok().map(|i| self.entries.remove(i).1)
    }

    /// The value under `key`, put there by `make` first if there is none.
    pub fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.find(&key) {
            Ok(i) => i,
            Err(i) => {
                self.entries.insert(i, (key, make()));
                i
            }
        };
        &mut self.entries[i].1
    }
}

impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> std::ops::Index<&Q> for SmallMap<K, V> {
    type Output = V;
    /// The value under `key`; panics when there is none, as `BTreeMap` does.
    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry found for key")
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for SmallMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut map = SmallMap::new();
        map.extend(iter);
        map
    }
}

impl<K: Ord, V> Extend<(K, V)> for SmallMap<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl<K: Ord, V, const N: usize> From<[(K, V); N]> for SmallMap<K, V> {
    fn from(entries: [(K, V); N]) -> Self {
        entries.into_iter().collect()
    }
}

impl<K, V> IntoIterator for SmallMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<'a, K, V> IntoIterator for &'a SmallMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

impl<K: Serialize, V: Serialize> Serialize for SmallMap<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.entries.iter().map(|(k, v)| (k, v)))
    }
}

impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Deserialize<'de> for SmallMap<K, V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MapVisitor<K, V>(PhantomData<(K, V)>);
        impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Visitor<'de> for MapVisitor<K, V> {
            type Value = SmallMap<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
                let mut map = SmallMap::new();
                while let Some((k, v)) = access.next_entry()? {
                    map.insert(k, v);
                }
                Ok(map)
            }
        }
        deserializer.deserialize_map(MapVisitor(PhantomData))
    }
}

/// A set of a few items in order: a [`SmallMap`] with no values.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SmallSet<T> {
    map: SmallMap<T, ()>,
}

impl<T> Default for SmallSet<T> {
    fn default() -> Self {
        SmallSet {
            map: SmallMap::new(),
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for SmallSet<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.map.keys()).finish()
    }
}

impl<T> SmallSet<T> {
    /// An empty set.
    pub const fn new() -> Self {
        SmallSet {
            map: SmallMap::new(),
        }
    }

    /// How many items the set holds.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True when the set holds nothing.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The items in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + ExactSizeIterator {
        self.map.keys()
    }

    /// Keeps the items for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        self.map.retain(|k, _| keep(k));
    }
}

impl<T: Ord> SmallSet<T> {
    /// Adds `item`; false when it was there already.
    pub fn insert(&mut self, item: T) -> bool {
        self.map.insert(item, ()).is_none()
    }

    /// True when the set holds `item`.
    pub fn contains<Q>(&self, item: &Q) -> bool
    where
        T: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.map.contains_key(item)
    }

    /// Takes `item` out; false when it was not there.
    pub fn remove<Q>(&mut self, item: &Q) -> bool
    where
        T: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.map.remove(item).is_some()
    }
}

impl<T: Ord> FromIterator<T> for SmallSet<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut set = SmallSet::new();
        set.extend(iter);
        set
    }
}

impl<T: Ord> Extend<T> for SmallSet<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for item in iter {
            self.insert(item);
        }
    }
}

impl<T: Ord, const N: usize> From<[T; N]> for SmallSet<T> {
    fn from(items: [T; N]) -> Self {
        items.into_iter().collect()
    }
}

impl<T> IntoIterator for SmallSet<T> {
    type Item = T;
    type IntoIter = std::iter::Map<std::vec::IntoIter<(T, ())>, fn((T, ())) -> T>;
    fn into_iter(self) -> Self::IntoIter {
        self.map.into_iter().map(|(k, ())| k)
    }
}

impl<'a, T> IntoIterator for &'a SmallSet<T> {
    type Item = &'a T;
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (T, ())>, fn(&'a (T, ())) -> &'a T>;
    fn into_iter(self) -> Self::IntoIter {
        self.map.entries.iter().map(|(k, ())| k)
    }
}

impl<T: Serialize> Serialize for SmallSet<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.map.keys())
    }
}

impl<'de, T: Deserialize<'de> + Ord> Deserialize<'de> for SmallSet<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SeqVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de> + Ord> Visitor<'de> for SeqVisitor<T> {
            type Value = SmallSet<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
                let mut set = SmallSet::new();
                while let Some(item) = access.next_element()? {
                    set.insert(item);
                }
                Ok(set)
            }
        }
        deserializer.deserialize_seq(SeqVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::{BTreeMap, BTreeSet};

    #[derive(Clone, Debug)]
    enum Op {
        Insert(u8, u16),
        Remove(u8),
        Retain(u8),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (any::<u8>(), any::<u16>()).prop_map(|(k, v)| Op::Insert(k % 32, v)),
            any::<u8>().prop_map(|k| Op::Remove(k % 32)),
            any::<u8>().prop_map(|m| Op::Retain(m % 5 + 1)),
        ]
    }

    proptest! {
        /// Any run of changes leaves the same entries, in the same order,
        /// with the same answers along the way, as a `BTreeMap`.
        #[test]
        fn behaves_as_a_btree_map(ops in proptest::collection::vec(op(), 0..80)) {
            let mut small = SmallMap::new();
            let mut btree = BTreeMap::new();
            for op in ops {
                match op {
                    Op::Insert(k, v) => prop_assert_eq!(small.insert(k, v), btree.insert(k, v)),
                    Op::Remove(k) => prop_assert_eq!(small.remove(&k), btree.remove(&k)),
                    Op::Retain(m) => {
                        small.retain(|k, _| k % m != 0);
                        btree.retain(|k, _| k % m != 0);
                    }
                }
                prop_assert_eq!(small.len(), btree.len());
                prop_assert!(small.iter().eq(btree.iter()));
                for k in 0..32u8 {
                    prop_assert_eq!(small.get(&k), btree.get(&k));
                    prop_assert_eq!(small.contains_key(&k), btree.contains_key(&k));
                }
            }
        }

        /// Its JSON is the `BTreeMap`'s, both ways, repeated keys included.
        #[test]
        fn json_is_a_btree_maps(entries in proptest::collection::vec((0u8..20, any::<i32>()), 0..30)) {
            let text = format!(
                "{{{}}}",
                entries.iter().map(|(k, v)| format!("\"k{k}\":{v}")).collect::<Vec<_>>().join(",")
            );
            let small: SmallMap<String, i32> = serde_json::from_str(&text).unwrap();
            let btree: BTreeMap<String, i32> = serde_json::from_str(&text).unwrap();
            prop_assert!(small.iter().eq(btree.iter()));
            prop_assert_eq!(serde_json::to_string(&small).unwrap(), serde_json::to_string(&btree).unwrap());
        }

        /// The set's items and JSON are a `BTreeSet`'s.
        #[test]
        fn set_behaves_as_a_btree_set(items in proptest::collection::vec(0u8..40, 0..60)) {
            let small: SmallSet<u8> = items.iter().copied().collect();
            let btree: BTreeSet<u8> = items.iter().copied().collect();
            prop_assert!(small.iter().eq(btree.iter()));
            prop_assert_eq!(serde_json::to_string(&small).unwrap(), serde_json::to_string(&btree).unwrap());
            let back: SmallSet<u8> = serde_json::from_str(&serde_json::to_string(&items).unwrap()).unwrap();
            prop_assert_eq!(back, small);
        }
    }

    #[test]
    fn entry_helpers_and_debug() {
        let mut map: SmallMap<&str, Vec<u8>> = SmallMap::from([("b", vec![1]), ("a", vec![])]);
        map.get_or_insert_with("a", Vec::new).push(2);
        map.get_or_insert_with("c", Vec::new).push(3);
        assert_eq!(format!("{map:?}"), r#"{"a": [2], "b": [1], "c": [3]}"#);
        assert_eq!(map.first_key_value(), Some((&"a", &vec![2])));
        assert_eq!(map.last_key_value(), Some((&"c", &vec![3])));
        let set = SmallSet::from(["y", "x", "y"]);
        assert_eq!(format!("{set:?}"), r#"{"x", "y"}"#);
        assert!(serde_json::from_str::<SmallMap<String, u8>>("[1]").is_err());
    }
}
