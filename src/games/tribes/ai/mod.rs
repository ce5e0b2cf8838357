//! Tribes-specific agents and knowledge (spec §15.1, §15.2, §15.5).
//!
//! - [`knowledge`]: [`TribesKnowledge`], the DIFF heuristic and action hints of the searches;
//! - [`support`]: `SearchSupport` for `TribesGame` (knowledge, portfolio, rule-based agent);
//! - [`scripts`]: the portfolio's scripts, each proposing one action of one kind for one actor;
//! - [`portfolio`]: [`TribesPortfolio`], the script set Portfolio MCTS searches over;
//! - [`rule_based`]: [`RuleBasedAgent`], the hand-written "SimpleAgent" baseline.

pub mod knowledge;
pub mod portfolio;
pub mod rule_based;
mod rule_scores;
pub mod scripts;
pub mod support;

pub use knowledge::TribesKnowledge;
pub use portfolio::{EVOLVED_WEIGHTS, TribesPortfolio};
pub use rule_based::RuleBasedAgent;

/// Small hand-made positions for the unit tests of the scripts and the rule-based agent.
#[cfg(test)]
pub(crate) mod testing {
    use crate::game::Game;
    use crate::games::tribes::state::{NONE, State, Unit};
    use crate::games::tribes::{Compat, Level, TribesGame, TribesRules, UnitKind, UnitStatus};

    /// A 7×7 board of plains with tribe 0's capital at (2, 2) (tile 16) and tribe 1's at
    /// (6, 6) (tile 48), tribe 0 to move, the starting units removed.
    pub fn setup(java: bool) -> (TribesGame, State) {
        let mut rows = vec![vec![".:"; 7]; 7];
        rows[2][2] = "c:0";
        rows[6][6] = "c:1";
        let text: Vec<String> = rows.iter().map(|r| r.join(",")).collect();
        let level = Level::parse(&text.join("\n"), "test").unwrap();
        let compat = if java { Compat::Java } else { Compat::Intended };
        let game = TribesGame::new(TribesRules {
            compat,
            ..Default::default()
        });
        let mut s = game.new_initial_state(&level, 1);
        for u in s.units.iter_mut() {
            u.alive = false;
        }
        for t in s.tiles.iter_mut() {
            t.unit = NONE;
        }
        assert_eq!((s.active, s.cities[0].tile, s.cities[1].tile), (0, 16, 48));
        (game, s)
    }

    /// Puts a fresh unit of `tribe` on tile `t` with `hp` hit points; returns its slot.
    pub fn put_unit(s: &mut State, kind: UnitKind, tribe: u8, t: usize, hp: u8) -> usize {
        let slot = s.units.len();
        let max_hp = kind.stats().max_hp as u8;
        s.units.push(Unit {
            id: 1000 + slot as u32,
            kind,
            base: kind,
            tribe,
            home: NONE,
            status: UnitStatus::Fresh,
            hp,
            max_hp,
            kills: 0,
            veteran: false,
            pos: t as u16,
            alive: true,
            points: 0,
        });
        s.tiles[t].unit = slot as u8;
        slot
    }
}
