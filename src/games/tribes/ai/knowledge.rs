//! The DIFF state heuristic (spec §15.1) and Tribes action hints for the search agents.

use crate::agent::{Evaluator, Knowledge};
use crate::game::Player;
use crate::games::tribes::economy::tribe_production;
use crate::games::tribes::{Action, ActionKind, Scope, State, TribesGame};

/// Tribes knowledge: DIFF evaluation, root groups (city / unit / tribe actions), and DESTROY
/// and DISBAND avoided in simulations.
#[derive(Clone, Copy, Debug, Default)]
pub struct TribesKnowledge;

/// The quantities DIFF compares, for one player.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DiffTerms {
    /// Σ production of the player's cities (no occupation rule).
    pub production: f64,
    /// Technologies researched.
    pub techs: f64,
    /// Score.
    pub score: f64,
    /// Cities owned.
    pub cities: f64,
    /// Units (home and extra).
    pub units: f64,
    /// Kills.
    pub kills: f64,
    /// Σ city levels.
    pub levels: f64,
    /// Cities connected to the capital.
    pub connected: f64,
}

impl DiffTerms {
    /// The terms of `player` in `s`.
    pub fn of(game: &TribesGame, s: &State, player: u8) -> Self {
        let ts = &s.tribes[player as usize];
        let mut t = DiffTerms {
            production: tribe_production(&game.rules, s, player, false) as f64,
            techs: ts.techs.len() as f64,
            score: ts.score as f64,
            kills: ts.kills as f64,
            units: s.num_units(player) as f64,
            ..DiffTerms::default()
        };
        for c in s.cities.iter().filter(|c| c.tribe == player) {
            t.cities += 1.0;
            t.levels += c.level as f64;
            t.connected += c.connected as u8 as f64;
        }
        t
    }

    /// `own_p` of spec §15.1: the weighted change from `root` to `self`.
    pub fn own(&self, root: &DiffTerms) -> f64 {
        5.0 * (self.production - root.production)
            + 4.0 * (self.techs - root.techs)
            + 0.1 * (self.score - root.score)
            + 4.0 * (self.cities - root.cities)
            + 2.0 * (self.units - root.units)
            + 3.0 * (self.kills - root.kills)
            + 2.0 * (self.levels - root.levels)
    }
}

/// DIFF(root, s) for `player`: own change minus the mean change of the opponents, plus the
/// change in the player's connected cities (visible tiles never change under full
/// observability).
pub fn diff(game: &TribesGame, root: &State, s: &State, player: Player) -> f64 {
    diff_from_terms(game, &root_terms(game, root), s, player)
}

/// The DIFF terms of every tribe in `root`.
pub fn root_terms(game: &TribesGame, root: &State) -> Vec<DiffTerms> {
    (0..root.num_tribes)
        .map(|p| DiffTerms::of(game, root, p))
        .collect()
}

/// DIFF with the root's terms precomputed.
pub fn diff_from_terms(game: &TribesGame, root: &[DiffTerms], s: &State, player: Player) -> f64 {
    let me = player as u8;
    let mine = DiffTerms::of(game, s, me);
    let mut opp = 0.0;
    let mut n = 0;
    for p in 0..s.num_tribes {
        if p != me {
            opp += DiffTerms::of(game, s, p).own(&root[p as usize]);
            n += 1;
        }
    }
    let opp = if n > 0 { opp / n as f64 } else { 0.0 };
    let r = &root[player];
    mine.own(r) - opp + (mine.connected - r.connected)
}

impl Knowledge<TribesGame> for TribesKnowledge {
    fn evaluate(&self, game: &TribesGame, root: &State, state: &State, player: Player) -> f64 {
        diff(game, root, state, player)
    }

    fn root_evaluator<'a>(
        &'a self,
        game: &'a TribesGame,
        root: &'a State,
        player: Player,
    ) -> Evaluator<'a, State> {
        let terms = root_terms(game, root);
        Box::new(move |s| diff_from_terms(game, &terms, s, player))
    }

    /// City actions except DESTROY (0), unit actions (1), tribe actions (2).
    fn root_group(&self, _game: &TribesGame, _state: &State, a: Action) -> Option<u8> {
        match a.kind.scope() {
            Scope::City if a.kind == ActionKind::Destroy => None,
            Scope::City => Some(0),
            Scope::Unit => Some(1),
            Scope::Tribe => Some(2),
        }
    }

    fn avoid(&self, _game: &TribesGame, a: Action) -> bool {
        matches!(a.kind, ActionKind::Destroy | ActionKind::Disband)
    }
}
