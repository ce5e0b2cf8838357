//! Prismata levels (spec §6): a level is a game's buy pool — the base set plus a set of units
//! from the random pool, drawn from a seed ("Base + N", N = 8 by default) or named.
//!
//! Level names (what `--level` and a config's `levels` take):
//!
//! - `SEED` (digits): the base set and 8 random units drawn from `SEED`;
//! - `N:SEED`: the base set and `N` random units (0 to the pool's size) drawn from `SEED`;
//! - `units:NAME,NAME,...`: the base set and the named pool units (display or internal names).
//!
//! The draw is uniform without replacement (a partial Fisher–Yates shuffle of the pool with the
//! project's RNG seeded by [`derive_seed`]`(SEED, [`[`SET_TAG`]`])`); the drawn units are kept
//! in library order, so a level is its set, whatever the draw's order.

use rand::RngExt;

use super::library::{Library, UnitSet};
use crate::error::{Error, Result};
use crate::rng::{derive_seed, rng_from_seed};

/// Random units a seed-only level draws (the shipped configs' "Base + 8").
pub const DEFAULT_RANDOM_UNITS: usize = 8;

/// Tag of the random-set seeds ("set" in ASCII).
pub const SET_TAG: u64 = 0x73_6574;

/// A game's buy pool.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Level {
    /// The level's name (as [`Level::load`] reads it).
    pub name: String,
    /// The random-pool units of the set (library indices, in library order).
    pub drawn: Vec<u16>,
}

impl Level {
    /// The base set and `n` units drawn from the random pool with `seed`.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `level` if `n` exceeds the pool.
    pub fn random(library: &Library, n: usize, seed: u64) -> Result<Level> {
        let mut pool = library.set(UnitSet::Pool);
        if n > pool.len() {
            return Err(Error::config(
                "level",
                format!("{n} random units asked for, the pool has {}", pool.len()),
            ));
        }
        let mut rng = rng_from_seed(derive_seed(seed, &[SET_TAG]));
        for i in 0..n {
            let j = rng.random_range(i..pool.len());
            pool.swap(i, j);
        }
        let mut drawn = pool[..n].to_vec();
        drawn.sort_unstable();
        let name = if n == DEFAULT_RANDOM_UNITS {
            seed.to_string()
        } else {
            format!("{n}:{seed}")
        };
        Ok(Level { name, drawn })
    }

    /// The base set and the named pool units.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `level` for a name that is not a unit, a base-set unit or a
    /// unit named twice.
    pub fn named(library: &Library, names: &[&str]) -> Result<Level> {
        let mut drawn = Vec::with_capacity(names.len());
        for &name in names {
            let name = name.trim();
            let id = library.id(name).ok_or_else(|| {
                Error::config("level", format!("`{name}` is not a Prismata unit"))
            })?;
            if library.get(id).set == UnitSet::Base {
                return Err(Error::config(
                    "level",
                    format!("`{name}` is in the base set, which every level has"),
                ));
            }
            if drawn.contains(&id) {
                return Err(Error::config("level", format!("`{name}` is named twice")));
            }
            drawn.push(id);
        }
        drawn.sort_unstable();
        let listed: Vec<&str> = drawn
            .iter()
            .map(|&i| library.get(i).name.as_str())
            .collect();
        Ok(Level {
            name: format!("units:{}", listed.join(",")),
            drawn,
        })
    }

    /// Reads a level name (see the [module docs](self)).
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `level` for a name of none of the three forms, or as
    /// [`Level::random`] and [`Level::named`].
    pub fn load(library: &Library, name: &str) -> Result<Level> {
        let number = |s: &str, what: &str| {
            s.parse::<u64>().map_err(|_| {
                Error::config(
                    "level",
                    format!(
                        "`{name}`: {what} `{s}` is not a whole number (levels are SEED, N:SEED \
                         or units:NAME,NAME,...)"
                    ),
                )
            })
        };
        if let Some(list) = name.strip_prefix("units:") {
            let names: Vec<&str> = list.split(',').filter(|s| !s.trim().is_empty()).collect();
            return Level::named(library, &names);
        }
        match name.split_once(':') {
            Some((n, seed)) => {
                let n = usize::try_from(number(n, "the unit count")?).unwrap_or(usize::MAX);
                Level::random(library, n, number(seed, "the seed")?)
            }
            None => Level::random(library, DEFAULT_RANDOM_UNITS, number(name, "the seed")?),
        }
    }

    /// The buyable units: the base set, then the drawn units (library indices).
    pub fn buyable(&self, library: &Library) -> Vec<u16> {
        let mut units = library.set(UnitSet::Base);
        units.extend_from_slice(&self.drawn);
        units
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::test_support::lib;

    #[test]
    fn a_seed_draws_eight_distinct_pool_units_the_same_way_every_time() {
        let a = Level::load(lib(), "42").unwrap();
        assert_eq!(a, Level::load(lib(), "42").unwrap());
        assert_eq!(a.name, "42");
        assert_eq!(a.drawn.len(), DEFAULT_RANDOM_UNITS);
        assert!(a.drawn.windows(2).all(|w| w[0] < w[1]), "sorted, distinct");
        assert!(a.drawn.iter().all(|&u| lib().get(u).set == UnitSet::Pool));
        assert_ne!(a.drawn, Level::load(lib(), "43").unwrap().drawn);
        assert_eq!(a.buyable(lib()).len(), 11 + 8);
        assert_eq!(Level::load(lib(), "8:42").unwrap(), a);
    }

    #[test]
    fn every_pool_unit_is_drawn_and_draws_are_close_to_uniform() {
        let mut counts = vec![0u32; lib().units().len()];
        let sets = 2000u64;
        for seed in 0..sets {
            for u in Level::random(lib(), 8, seed).unwrap().drawn {
                counts[u as usize] += 1;
            }
        }
        // Each pool unit is expected in 2000 × 8 / 93 ≈ 172 sets (sd ≈ 12.6): all within ±5 sd.
        for u in lib().set(UnitSet::Pool) {
            let c = counts[u as usize];
            assert!((109..=235).contains(&c), "{}: {c}", lib().get(u).name);
        }
    }

    #[test]
    fn named_levels_and_sizes_from_zero_to_the_whole_pool() {
        // Display or internal names, in any order; the name lists them in library order.
        let l = Level::load(lib(), "units:Apollo, House,Piranha Academy").unwrap();
        assert_eq!(l.drawn.len(), 3);
        assert_eq!(l.name, "units:Apollo,Flame Animus,Husk");
        assert_eq!(Level::load(lib(), &l.name).unwrap(), l);
        assert_eq!(Level::load(lib(), "0:5").unwrap().drawn, Vec::<u16>::new());
        assert_eq!(
            Level::load(lib(), "93:5").unwrap().drawn,
            lib().set(UnitSet::Pool)
        );
    }

    #[test]
    fn bad_level_names_are_errors_naming_the_level() {
        for (name, why) in [
            ("94:1", "the pool has 93"),
            ("x", "`x` is not a whole number"),
            ("3:y", "the seed `y`"),
            ("units:Apollo,Dragon", "`Dragon` is not a Prismata unit"),
            ("units:Drone", "base set"),
            ("units:Tesla Tower", "base set"),
            ("units:Apollo,Flame Assassin", "named twice"),
        ] {
            let e = Level::load(lib(), name).unwrap_err().to_string();
            assert!(e.contains("level") && e.contains(why), "{name}: {e}");
        }
    }
}
