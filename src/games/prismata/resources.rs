//! The six resource pools of a Prismata player (spec §1) and their text form, `3$ 1E`.

use crate::error::{Error, Result};

/// A resource pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Resource {
    /// Gold (`$`), banked across turns.
    Gold,
    /// Energy (`E`), reset at the owner's turn start.
    Energy,
    /// Blue (`B`, Behemium), reset at the owner's turn start.
    Blue,
    /// Red (`R`, Replicase), reset at the owner's turn start.
    Red,
    /// Green (`G`, Gaussite), banked across turns.
    Green,
    /// Attack (`A`), reset at the owner's turn start.
    Attack,
}

impl Resource {
    /// Every resource, in pool order.
    pub const ALL: [Resource; 6] = [
        Resource::Gold,
        Resource::Energy,
        Resource::Blue,
        Resource::Red,
        Resource::Green,
        Resource::Attack,
    ];

    /// The symbol of the text form: `$ E B R G A`.
    pub fn symbol(self) -> char {
        ['$', 'E', 'B', 'R', 'G', 'A'][self as usize]
    }

    fn from_symbol(c: char) -> Option<Resource> {
        Resource::ALL.into_iter().find(|r| r.symbol() == c)
    }
}

/// An amount of each resource (a cost, a gain or a player's pools).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Resources(pub [u16; 6]);

impl Resources {
    /// No resource at all.
    pub const NONE: Resources = Resources([0; 6]);

    /// The amount of `r`.
    pub fn get(&self, r: Resource) -> u16 {
        self.0[r as usize]
    }

    /// Sets the amount of `r`.
    pub fn set(&mut self, r: Resource, v: u16) {
        self.0[r as usize] = v;
    }

    /// Takes `cost` away; `self` must cover it ([`Resources::covers`]).
    pub fn spend(&mut self, cost: &Resources) {
        for (have, pay) in self.0.iter_mut().zip(cost.0) {
            *have -= pay;
        }
    }

    /// Adds `gain` (saturating).
    pub fn gain(&mut self, gain: &Resources) {
        for (have, add) in self.0.iter_mut().zip(gain.0) {
            *have = have.saturating_add(add);
        }
    }

    /// True if every amount is 0.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 6]
    }

    /// True if `self` holds at least `cost` of every resource.
    pub fn covers(&self, cost: &Resources) -> bool {
        self.0.iter().zip(&cost.0).all(|(have, need)| have >= need)
    }

    /// Parses the text form: space-separated terms `N$`, `NE`, `NB`, `NR`, `NG`, `NA`, each
    /// resource at most once (`""` is nothing). `field` names the value in errors.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `field` for a malformed or repeated term.
    pub fn parse(text: &str, field: &str) -> Result<Resources> {
        let mut out = Resources::NONE;
        let mut seen = [false; 6];
        for term in text.split_whitespace() {
            let bad = || {
                Error::config(
                    field,
                    format!(
                        "`{term}` in `{text}` is not a resource term (like 3$, 1E, 2B, 1R, 4G, 2A)"
                    ),
                )
            };
            let symbol = term.chars().last().ok_or_else(bad)?;
            let r = Resource::from_symbol(symbol).ok_or_else(bad)?;
            let digits = &term[..term.len() - symbol.len_utf8()];
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            let n: u16 = digits.parse().map_err(|_| bad())?;
            if std::mem::replace(&mut seen[r as usize], true) {
                return Err(Error::config(
                    field,
                    format!("`{text}` gives {} twice", r.symbol()),
                ));
            }
            out.0[r as usize] = n;
        }
        Ok(out)
    }
}

impl std::fmt::Display for Resources {
    /// The text form [`Resources::parse`] reads; `-` for nothing.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let terms: Vec<String> = Resource::ALL
            .into_iter()
            .filter(|&r| self.get(r) > 0)
            .map(|r| format!("{}{}", self.get(r), r.symbol()))
            .collect();
        if terms.is_empty() {
            f.write_str("-")
        } else {
            f.write_str(&terms.join(" "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_forms_round_trip_and_nothing_is_empty() {
        for text in ["3$ 1E", "12$ 4G", "3$ 1B 1R 1G", "7$ 2B 1R 7A", "4G"] {
            let r = Resources::parse(text, "cost").unwrap();
            assert_eq!(r.to_string(), text);
        }
        assert!(Resources::parse("", "cost").unwrap().is_empty());
        assert_eq!(Resources::NONE.to_string(), "-");
        let r = Resources::parse("2R 6$", "cost").unwrap();
        assert_eq!((r.get(Resource::Gold), r.get(Resource::Red)), (6, 2));
    }

    #[test]
    fn covers_compares_every_pool() {
        let have = Resources::parse("5$ 1B", "x").unwrap();
        assert!(have.covers(&Resources::parse("5$", "x").unwrap()));
        assert!(have.covers(&Resources::parse("4$ 1B", "x").unwrap()));
        assert!(!have.covers(&Resources::parse("4$ 1R", "x").unwrap()));
        assert!(!have.covers(&Resources::parse("6$", "x").unwrap()));
    }

    #[test]
    fn malformed_terms_are_errors_naming_the_field() {
        for text in ["3", "$3", "3X", "x$", "1$ 2$", "99999$"] {
            let e = Resources::parse(text, "unit[4].cost")
                .unwrap_err()
                .to_string();
            assert!(e.contains("unit[4].cost"), "{text}: {e}");
        }
    }
}
