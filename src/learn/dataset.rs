//! The dataset file: positions from self-play, as counts, labelled with the result for the
//! side to move.
//!
//! Layout (little-endian):
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `PLSTYDS\0` |
//! | 4 | format version ([`FORMAT_VERSION`]) |
//! | 4 | header length `H` |
//! | `H` | header, UTF-8 JSON ([`Header`]: game, rules, encoding with its fingerprint, predictor names, games, positions, the resolved config, the first game) |
//! | … | `positions` records |
//!
//! A record: game index `u32`, turn `u16` (turns played before this one), label `u8` (0 loss,
//! 1 draw, 2 win for the side to move), count of counts `n` `u16`, then one `f32` per
//! predictor (its value in [0, 1] for the side to move: above ½ predicts a win), then `n`
//! pairs of slot `u16` and count `u16` ([`super::encoding`]). Records are in game order, a
//! game's in turn order, so a split by game index keeps every game on one side. The games are
//! `first_game..first_game + games` (`first_game` 0 but in a part of a dataset being made); a
//! game may hold no record (when a share of positions is kept), and a reader checks every
//! record's game against that range and the header's count of positions against the records.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::encoding::{Count, Encoding};
use crate::error::{Error, Result};
use crate::files::{DATASET_LIMIT, read_bytes};

/// The first bytes of a dataset file.
pub const MAGIC: &[u8; 8] = b"PLSTYDS\0";

/// The layout's version.
pub const FORMAT_VERSION: u32 = 1;

/// Most bytes of a dataset header (1 MiB).
const HEADER_LIMIT: u32 = 1 << 20;

/// What a dataset holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// The game's registered name.
    pub game: String,
    /// The game's rules options, as TOML.
    pub rules: String,
    /// The encoding of the counts.
    pub encoding: Encoding,
    /// The names of the hand-written predictors whose values each record carries.
    pub predictors: Vec<String>,
    /// Games recorded.
    pub games: u64,
    /// Positions recorded.
    pub positions: u64,
    /// The resolved config that made the dataset.
    pub config: String,
    /// The index of its first game: records hold games `first_game..first_game + games` (0
    /// but in a part of a dataset being made, and then not written).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub first_game: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A game's result for the side to move, as a record stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// The side to move lost.
    Loss = 0,
    /// Draw (or a game stopped by a cap).
    Draw = 1,
    /// The side to move won.
    Win = 2,
}

impl Label {
    /// The training target: 0, ½ or 1.
    pub fn target(self) -> f32 {
        f32::from(self as u8) / 2.0
    }

    fn from_byte(b: u8) -> Option<Label> {
        match b {
            0 => Some(Label::Loss),
            1 => Some(Label::Draw),
            2 => Some(Label::Win),
            _ => None,
        }
    }
}

/// One position of a game being recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Turns played before this one.
    pub turn: u16,
    /// The result for the side to move.
    pub label: Label,
    /// The predictors' values.
    pub predictions: Vec<f32>,
    /// The position's counts.
    pub counts: Vec<Count>,
}

/// Appends the records of game `game` to `out` in the file's layout.
pub fn encode_records(game: u32, records: &[Record], out: &mut Vec<u8>) {
    for r in records {
        out.extend(game.to_le_bytes());
        out.extend(r.turn.to_le_bytes());
        out.push(r.label as u8);
        out.extend((r.counts.len() as u16).to_le_bytes());
        for p in &r.predictions {
            out.extend(p.to_le_bytes());
        }
        for &(s, c) in &r.counts {
            out.extend(s.to_le_bytes());
            out.extend(c.to_le_bytes());
        }
    }
}

/// The bytes of a dataset file: `header` (whose `positions` must count the records) and the
/// encoded records.
pub fn file_bytes(header: &Header, records: &[u8]) -> Vec<u8> {
    let json = serde_json::to_vec(header).expect("a header serialises");
    let mut out = Vec::with_capacity(16 + json.len() + records.len());
    out.extend(MAGIC);
    out.extend(FORMAT_VERSION.to_le_bytes());
    out.extend((json.len() as u32).to_le_bytes());
    out.extend(json);
    out.extend(records);
    out
}

/// A dataset in memory.
#[derive(Clone, Debug, PartialEq)]
pub struct Dataset {
    /// Its header.
    pub header: Header,
    /// Per position: game index.
    pub games: Vec<u32>,
    /// Per position: turn.
    pub turns: Vec<u16>,
    /// Per position: label.
    pub labels: Vec<Label>,
    /// Per position, `header.predictors.len()` values.
    pub predictions: Vec<f32>,
    /// Position `i`'s counts are `counts[offsets[i]..offsets[i + 1]]`.
    pub offsets: Vec<usize>,
    /// Every position's counts.
    pub counts: Vec<Count>,
}

impl Dataset {
    /// Positions held.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Position `i`'s counts.
    pub fn counts_of(&self, i: usize) -> &[Count] {
        &self.counts[self.offsets[i]..self.offsets[i + 1]]
    }

    /// The games the records may hold: `first_game..first_game + games`.
    pub fn game_range(&self) -> std::ops::Range<u64> {
        self.header.first_game..self.header.first_game.saturating_add(self.header.games)
    }

    /// Adds `other`'s positions after this dataset's, its games numbered on from this one's
    /// (so a split by game keeps them whole); the header counts both, and keeps this one's
    /// config. The error says why they cannot be joined: another game, rules, encoding or
    /// predictors, or more games than game numbers.
    pub fn append(&mut self, other: Dataset) -> std::result::Result<(), String> {
        let (a, b) = (&self.header, &other.header);
        let differs = |what: &str, x: &str, y: &str| {
            Err(format!(
                "its {what} ({y}) differ from the first dataset's ({x})"
            ))
        };
        if a.game != b.game {
            return differs("game", &a.game, &b.game);
        }
        if a.rules != b.rules {
            return differs("rules", &a.rules, &b.rules);
        }
        if a.encoding != b.encoding {
            return differs(
                "encoding",
                &format!("{} v{}", a.encoding.name, a.encoding.version),
                &format!("{} v{}", b.encoding.name, b.encoding.version),
            );
        }
        if a.predictors != b.predictors {
            return differs(
                "predictors",
                &a.predictors.join(", "),
                &b.predictors.join(", "),
            );
        }
        // Game numbers are u32: the joined games must fit, so this one's do too. Game `g` of
        // `other` becomes the game as far past this one's games as it is past its first.
        let end = self.game_range().end;
        end.checked_add(b.games)
            .and_then(|total| u32::try_from(total).ok())
            .ok_or_else(|| format!("{} + {} games: too many to number", a.games, b.games))?;
        let (end, first) = (end as u32, b.first_game as u32);
        let base = self.counts.len();
        self.games
            .extend(other.games.iter().map(|g| g - first + end));
        self.turns.extend(other.turns);
        self.labels.extend(other.labels);
        self.predictions.extend(other.predictions);
        self.offsets
            .extend(other.offsets.iter().skip(1).map(|o| o + base));
        self.counts.extend(other.counts);
        self.header.games += other.header.games;
        self.header.positions += other.header.positions;
        Ok(())
    }

    /// Position `i`'s predictor values.
    pub fn predictions_of(&self, i: usize) -> &[f32] {
        let k = self.header.predictors.len();
        &self.predictions[i * k..(i + 1) * k]
    }

    /// Reads the dataset file at `path`.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] naming `path` if it cannot be read or is over 8 GiB; [`Error::Data`]
    /// naming it for a file that is not a dataset (magic), of another format version, with a
    /// malformed header, truncated, with a label, slot, game order or game out of range (the
    /// header's games), or whose header's count of positions disagrees with its records.
    pub fn read(path: &Path) -> Result<Dataset> {
        let bytes = read_bytes(path, DATASET_LIMIT)?;
        Dataset::parse(&bytes).map_err(|reason| Error::Data {
            path: path.to_path_buf(),
            line: 0,
            reason,
        })
    }

    /// Reads only the header of the dataset file at `path`.
    ///
    /// # Errors
    ///
    /// As [`Dataset::read`], for the file's first bytes.
    pub fn read_header(path: &Path) -> Result<Header> {
        use std::io::Read;
        let bad = |reason: String| Error::Data {
            path: path.to_path_buf(),
            line: 0,
            reason,
        };
        let mut start = Vec::new();
        crate::files::open(path)?
            .take(16 + u64::from(HEADER_LIMIT))
            .read_to_end(&mut start)
            .map_err(|e| Error::io(path, e))?;
        let mut r = Reader {
            bytes: &start,
            at: 0,
        };
        parse_header(&mut r).map_err(bad)
    }

    /// Parses a dataset file's bytes; the error says what is wrong.
    pub fn parse(bytes: &[u8]) -> std::result::Result<Dataset, String> {
        let mut r = Reader { bytes, at: 0 };
        let header = parse_header(&mut r)?;
        let slots = header.encoding.slots;
        let k = header.predictors.len();
        let (first, end) = (
            header.first_game,
            header.first_game.saturating_add(header.games),
        );
        let mut d = Dataset {
            header,
            games: Vec::new(),
            turns: Vec::new(),
            labels: Vec::new(),
            predictions: Vec::new(),
            offsets: vec![0],
            counts: Vec::new(),
        };
        while r.at < bytes.len() {
            let i = d.games.len();
            let at = r.at;
            let rec = (|| -> std::result::Result<(), String> {
                let game = r.u32()?;
                let turn = r.u16()?;
                let label = r.u8()?;
                let label = Label::from_byte(label)
                    .ok_or_else(|| format!("label {label}, not 0, 1 or 2"))?;
                let n = r.u16()?;
                if !(first..end).contains(&u64::from(game)) {
                    return Err(format!(
                        "game {game}, outside the header's games {first} to {}",
                        end.saturating_sub(1)
                    ));
                }
                if let Some(&g) = d.games.last()
                    && game < g
                {
                    return Err(format!("game {game} after game {g}: records out of order"));
                }
                for _ in 0..k {
                    let p = r.f32()?;
                    if !(0.0..=1.0).contains(&p) {
                        return Err(format!("predictor value {p} outside [0, 1]"));
                    }
                    d.predictions.push(p);
                }
                for _ in 0..n {
                    let (s, c) = (r.u16()?, r.u16()?);
                    if s >= slots || c == 0 {
                        return Err(format!(
                            "count ({s}, {c}): slots are below {slots}, counts above 0"
                        ));
                    }
                    d.counts.push((s, c));
                }
                d.games.push(game);
                d.turns.push(turn);
                d.labels.push(label);
                d.offsets.push(d.counts.len());
                Ok(())
            })();
            rec.map_err(|e| format!("record {} (byte {at}): {e}", i + 1))?;
        }
        if d.len() as u64 != d.header.positions {
            return Err(format!(
                "the header says {} positions, the file holds {}",
                d.header.positions,
                d.len()
            ));
        }
        Ok(d)
    }
}

/// Reads the magic, the format version and the header.
fn parse_header(r: &mut Reader<'_>) -> std::result::Result<Header, String> {
    let magic = r.take(8).map_err(|_| not_a_dataset())?;
    if magic != MAGIC {
        return Err(not_a_dataset());
    }
    let version = r.u32()?;
    if version != FORMAT_VERSION {
        return Err(format!(
            "dataset format version {version}, this program reads {FORMAT_VERSION}"
        ));
    }
    let len = r.u32()?;
    if len > HEADER_LIMIT {
        return Err(format!(
            "a header of {len} bytes, over the {HEADER_LIMIT} allowed"
        ));
    }
    serde_json::from_slice(r.take(len as usize)?).map_err(|e| format!("malformed header: {e}"))
}

fn not_a_dataset() -> String {
    "not a playstyles dataset (it does not start with PLSTYDS)".into()
}

/// Reads little-endian values off a byte slice.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> std::result::Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(format!(
                "truncated: {n} bytes wanted at byte {}, the file ends at {}",
                self.at,
                self.bytes.len()
            ));
        };
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u8(&mut self) -> std::result::Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> std::result::Result<u16, String> {
        Ok(u16::from_le_bytes(
            self.take(2)?.try_into().expect("2 bytes"),
        ))
    }

    fn u32(&mut self) -> std::result::Result<u32, String> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }

    fn f32(&mut self) -> std::result::Result<f32, String> {
        Ok(f32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(positions: u64, games: u64) -> Header {
        Header {
            game: "g".into(),
            rules: String::new(),
            encoding: Encoding {
                name: "e".into(),
                version: 1,
                fingerprint: String::new(),
                slots: 4,
            },
            predictors: vec!["p".into()],
            games,
            positions,
            config: "seed = 1\n".into(),
            first_game: 0,
        }
    }

    fn two_games() -> Vec<u8> {
        let rec = |turn, label, counts: Vec<Count>| Record {
            turn,
            label,
            predictions: vec![0.25],
            counts,
        };
        let mut body = Vec::new();
        encode_records(
            0,
            &[
                rec(0, Label::Win, vec![(0, 3)]),
                rec(1, Label::Loss, vec![]),
            ],
            &mut body,
        );
        encode_records(5, &[rec(0, Label::Draw, vec![(3, 41), (1, 1)])], &mut body);
        file_bytes(&header(3, 6), &body)
    }

    #[test]
    fn a_dataset_reads_back_what_was_written() {
        let d = Dataset::parse(&two_games()).unwrap();
        assert_eq!(d.len(), 3);
        assert_eq!(d.games, [0, 0, 5]);
        assert_eq!(d.turns, [0, 1, 0]);
        assert_eq!(d.labels, [Label::Win, Label::Loss, Label::Draw]);
        assert_eq!(d.counts_of(0), [(0, 3)]);
        assert_eq!(d.counts_of(1), []);
        assert_eq!(d.counts_of(2), [(3, 41), (1, 1)]);
        assert_eq!(d.predictions_of(2), [0.25]);
        assert_eq!(Label::Draw.target(), 0.5);
    }

    #[test]
    fn appended_games_are_numbered_on_and_other_predictors_refused() {
        let mut d = Dataset::parse(&two_games()).unwrap();
        let one = d.clone();
        d.append(one.clone()).unwrap();
        assert_eq!(d.len(), 2 * one.len());
        assert_eq!(d.header.games, 2 * one.header.games);
        let shift = one.header.games as u32;
        assert_eq!(
            d.games[one.len()..],
            one.games.iter().map(|g| g + shift).collect::<Vec<_>>()[..]
        );
        for i in 0..one.len() {
            assert_eq!(d.counts_of(one.len() + i), one.counts_of(i));
            assert_eq!(d.predictions_of(one.len() + i), one.predictions_of(i));
        }
        let mut other = one.clone();
        other.header.predictors.push("extra".into());
        let err = d.append(other).unwrap_err();
        assert!(err.contains("predictors"), "{err}");
    }

    #[test]
    fn records_hold_games_of_the_header_some_without_positions() {
        let rec = Record {
            turn: 0,
            label: Label::Win,
            predictions: vec![0.5],
            counts: vec![(0, 1)],
        };
        let file = |games: u64, indices: &[u32]| {
            let mut body = Vec::new();
            for &g in indices {
                encode_records(g, std::slice::from_ref(&rec), &mut body);
            }
            file_bytes(&header(indices.len() as u64, games), &body)
        };
        // Games 1 and 2 of 0..4 kept no position.
        let d = Dataset::parse(&file(4, &[0, 3])).unwrap();
        assert_eq!((d.len(), d.header.games), (2, 4));
        // A game past the header's count is refused, even when the count of games agrees.
        let err = Dataset::parse(&file(2, &[0, 5])).unwrap_err();
        assert!(err.contains("game 5"), "{err}");
    }

    #[test]
    fn broken_files_are_refused_with_the_reason() {
        let good = two_games();
        let err = |bytes: &[u8]| Dataset::parse(bytes).unwrap_err();
        assert!(err(b"hello world, not a dataset").contains("not a playstyles dataset"));
        assert!(err(&good[..good.len() - 3]).contains("truncated"));
        let mut v2 = good.clone();
        v2[8] = 2;
        assert!(err(&v2).contains("format version 2"));
        let mut slot = good.clone();
        let last_slot = good.len() - 4;
        slot[last_slot] = 9;
        assert!(err(&slot).contains("slots are below 4"), "{}", err(&slot));
        let mut extra = good.clone();
        extra.extend(&good[good.len() - 21..]);
        assert!(err(&extra).contains("holds"), "{}", err(&extra));
    }
}
