//! Shards `I/K`: shard `I` (0-based) of `K` holds the units whose id is `I` modulo `K`.

use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Shard `index` of `count` (0-based: `0/K` .. `K-1/K`): the units whose id is `index` modulo
/// `count`. Round-robin over the heaviest-first order keeps shards of similar weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 0-based shard number, below `count`.
    pub index: u64,
    /// Number of shards, at least 1.
    pub count: u64,
}

impl Shard {
    /// Whether unit `id` belongs to this shard.
    pub fn contains(&self, id: u64) -> bool {
        id % self.count == self.index
    }

    /// Number of the ids `0..units` in this shard.
    pub fn size(&self, units: u64) -> u64 {
        (units + self.count - 1 - self.index) / self.count
    }
}

/// Whether unit `id` is wanted: it belongs to `shard`, or there is no shard (the whole plan).
pub fn in_shard(shard: Option<Shard>, id: u64) -> bool {
    shard.is_none_or(|s| s.contains(id))
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Why a text is not a shard `I/K`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ShardError {
    /// No `/` between I and K.
    #[error("shard '{text}' is not I/K (e.g. 0/16)")]
    NotIOverK {
        /// The text as given.
        text: String,
    },
    /// K is not a whole number.
    #[error("shard '{text}': K = '{count}' is not a whole number")]
    CountNotNumber {
        /// The text as given.
        text: String,
        /// What stood for K.
        count: String,
    },
    /// I is not a whole number.
    #[error("shard '{text}': I = '{index}' is not a whole number")]
    IndexNotNumber {
        /// The text as given.
        text: String,
        /// What stood for I.
        index: String,
    },
    /// K is 0.
    #[error("shard '{text}': K must be at least 1")]
    NoShards {
        /// The text as given.
        text: String,
    },
    /// I is K or more.
    #[error(
        "shard '{text}': I must be 0 to {last} (shards are numbered from 0; a Slurm array \
         should be --array=0-{last})"
    )]
    IndexTooLarge {
        /// The text as given.
        text: String,
        /// The largest shard number, K - 1.
        last: u64,
    },
}

impl FromStr for Shard {
    type Err = ShardError;

    /// Parses `I/K` with `K >= 1` and `0 <= I < K`; the error says what is wrong.
    fn from_str(text: &str) -> Result<Self, ShardError> {
        let (i, k) = text.split_once('/').ok_or_else(|| ShardError::NotIOverK {
            text: text.to_string(),
        })?;
        let count: u64 = k.trim().parse().map_err(|_| ShardError::CountNotNumber {
            text: text.to_string(),
            count: k.to_string(),
        })?;
        let index: u64 = i.trim().parse().map_err(|_| ShardError::IndexNotNumber {
            text: text.to_string(),
            index: i.to_string(),
        })?;
        if count == 0 {
            return Err(ShardError::NoShards {
                text: text.to_string(),
            });
        }
        if index >= count {
            return Err(ShardError::IndexTooLarge {
                text: text.to_string(),
                last: count - 1,
            });
        }
        Ok(Shard { index, count })
    }
}

/// If the missing units of a whole-plan check are exactly some shards `I/K` (for the smallest
/// such K from 2 to 4096 with shards of at least two units), those shards: e.g. `[1/3]` when
/// one of three shard ledgers was left out.
pub fn missing_shards(missing: &[(u64, u64)], plan_units: u64) -> Option<Vec<Shard>> {
    let missing_count: u64 = missing.iter().map(|(a, b)| b - a + 1).sum();
    if missing_count == 0 || missing_count == plan_units {
        return None;
    }
    let ids = || missing.iter().flat_map(|&(a, b)| a..=b);
    for count in 2..=(plan_units / 2).min(4096) {
        let mut classes = vec![false; count as usize];
        ids().for_each(|id| classes[(id % count) as usize] = true);
        let shards: Vec<Shard> = (0..count)
            .filter(|&i| classes[i as usize])
            .map(|index| Shard { index, count })
            .collect();
        let covered: u64 = shards.iter().map(|s| s.size(plan_units)).sum();
        if covered == missing_count && (shards.len() as u64) < count {
            return Some(shards);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_validate() {
        assert_eq!(
            "3/16".parse::<Shard>(),
            Ok(Shard {
                index: 3,
                count: 16
            })
        );
        assert_eq!("0/1".parse::<Shard>(), Ok(Shard { index: 0, count: 1 }));
        for bad in ["16/16", "1/0", "x/3", "3", "-1/4", "1/4/5", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let e = "16/16".parse::<Shard>().unwrap_err();
        assert!(e.to_string().contains("0 to 15"), "{e}");
        assert_eq!(
            e.to_string(),
            "shard '16/16': I must be 0 to 15 (shards are numbered from 0; a Slurm array \
             should be --array=0-15)"
        );
    }

    #[test]
    fn shard_sizes_add_up() {
        for units in [0u64, 1, 7, 110] {
            for count in 1..=9 {
                let sizes: Vec<u64> = (0..count)
                    .map(|index| Shard { index, count }.size(units))
                    .collect();
                assert_eq!(sizes.iter().sum::<u64>(), units);
                for (index, &size) in sizes.iter().enumerate() {
                    let s = Shard {
                        index: index as u64,
                        count,
                    };
                    assert_eq!((0..units).filter(|&id| s.contains(id)).count() as u64, size);
                }
            }
        }
    }

    #[test]
    fn missing_units_are_named_as_shards() {
        let ranges =
            |ids: Vec<u64>| -> Vec<(u64, u64)> { ids.into_iter().map(|i| (i, i)).collect() };
        let missing = ranges((0..110).filter(|i| i % 3 == 1).collect());
        assert_eq!(
            missing_shards(&missing, 110),
            Some(vec![Shard { index: 1, count: 3 }])
        );
        let missing = ranges((0..100).filter(|i| i % 16 == 5 || i % 16 == 9).collect());
        assert_eq!(
            missing_shards(&missing, 100),
            Some(vec![
                Shard {
                    index: 5,
                    count: 16
                },
                Shard {
                    index: 9,
                    count: 16
                }
            ])
        );
        assert_eq!(missing_shards(&[(7, 7)], 110), None);
        assert_eq!(missing_shards(&[(0, 109)], 110), None);
    }
}
