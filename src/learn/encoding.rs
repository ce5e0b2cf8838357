//! A game's positions as counts, and the counts as the network's one-hot inputs.
//!
//! A game declares an [`Encoding`] ([`crate::agent::SearchSupport::encoding`]): a number of *slots*
//! (Prismata: per side, each unit type's count and each resource) and writes a position from
//! the side to move's point of view as `(slot, count)` pairs, counts above 0 only
//! ([`crate::agent::SearchSupport::encode`]). Datasets keep these counts, not the network's inputs, so
//! the inputs can change without playing the games again. The network sees count `c` of slot
//! `s` as one binary input, `s · CAP + min(c, CAP) − 1` ([`input`]): one-hot counts capped at
//! [`CAP`], as in Campbell & Churchill's Prismata network (spec §14.2).

use serde::{Deserialize, Serialize};

/// Counts above this share the input of `CAP` (the papers' 40).
pub const CAP: u16 = 40;

/// A hand-written predictor's verdict from the sign of a lead: 1 ahead, 0 behind, ½ level.
pub fn sign_prediction(lead: f64) -> f32 {
    if lead > 0.0 {
        1.0
    } else if lead < 0.0 {
        0.0
    } else {
        0.5
    }
}

/// Appends count `v` of slot `slot` to `out` if it is at least 1 (counts above `u16::MAX`
/// saturate): how an encoding writes a count it computed.
pub fn push_count(out: &mut Vec<Count>, slot: usize, v: i64) {
    if v >= 1 {
        out.push((slot as u16, v.min(i64::from(u16::MAX)) as u16));
    }
}

/// One count of a position: (slot, count), count ≥ 1.
pub type Count = (u16, u16);

/// What a game's position counts mean; a dataset or model made with one encoding is refused
/// by a game that declares another.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Encoding {
    /// Its name (`prismata-counts`).
    pub name: String,
    /// Its version, raised whenever the slots change meaning.
    pub version: u32,
    /// What else the slots depend on, e.g. a hash of Prismata's unit library (empty if
    /// nothing).
    pub fingerprint: String,
    /// Slots (every count's slot is below this).
    pub slots: u16,
}

impl Encoding {
    /// The network's binary inputs for this encoding.
    pub fn inputs(&self) -> usize {
        usize::from(self.slots) * usize::from(CAP)
    }

    /// Why `other` (from a file) does not fit this encoding, or `None` if it does.
    pub fn mismatch(&self, other: &Encoding) -> Option<String> {
        if self == other {
            return None;
        }
        Some(format!(
            "made for the encoding {} v{} ({} slots{}), not {} v{} ({} slots{})",
            other.name,
            other.version,
            other.slots,
            fingerprint_note(&other.fingerprint),
            self.name,
            self.version,
            self.slots,
            fingerprint_note(&self.fingerprint),
        ))
    }
}

fn fingerprint_note(fingerprint: &str) -> String {
    if fingerprint.is_empty() {
        String::new()
    } else {
        format!(", {fingerprint}")
    }
}

/// The input a count switches on (`count` ≥ 1).
pub fn input(slot: u16, count: u16) -> u32 {
    u32::from(slot) * u32::from(CAP) + u32::from(count.clamp(1, CAP)) - 1
}

/// Replaces `out` with the inputs `counts` switch on.
pub fn inputs_of(counts: &[Count], out: &mut Vec<u32>) {
    out.clear();
    out.extend(counts.iter().map(|&(s, c)| input(s, c)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_map_to_distinct_inputs_capped_at_the_cap() {
        assert_eq!(input(0, 1), 0);
        assert_eq!(input(0, 40), 39);
        assert_eq!(input(0, 400), 39);
        assert_eq!(input(1, 1), 40);
        let e = Encoding {
            name: "x".into(),
            version: 1,
            fingerprint: String::new(),
            slots: 3,
        };
        assert_eq!(input(2, 40) as usize, e.inputs() - 1);
    }

    #[test]
    fn a_mismatch_names_both_encodings() {
        let a = Encoding {
            name: "a".into(),
            version: 1,
            fingerprint: "units 12ab".into(),
            slots: 3,
        };
        let mut b = a.clone();
        assert_eq!(a.mismatch(&b), None);
        b.version = 2;
        let why = a.mismatch(&b).unwrap();
        assert!(why.contains("a v2") && why.contains("a v1"), "{why}");
    }
}
