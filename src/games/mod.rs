//! The game engines and the registry of the games every subcommand can run.
//!
//! A game is one folder, `src/games/<game>/`: its rules (implementing [`crate::game::Game`] and
//! [`crate::kit::GameKit`]) and its AI in `src/games/<game>/ai/` (its search knowledge and
//! scripts, implementing [`crate::agent::SearchSupport`], and its own agents). Adding a game:
//! that folder, its `pub mod` here and one line in [`visit_all`].

use std::ops::ControlFlow;

use crate::kit::GameKit;

pub mod prismata;
pub mod puerto_rico;
pub mod tribes;

/// Something done with each registered game in turn ([`visit_all`]).
pub trait GameVisitor {
    /// Called with game `G`; [`ControlFlow::Break`] stops the visit.
    fn visit<G: GameKit>(&mut self) -> ControlFlow<()>;
}

/// Calls `visitor` with every registered game, in registry order (the first is the default of
/// `--game`), until it breaks. The registry: one line per game.
pub fn visit_all<V: GameVisitor>(visitor: &mut V) {
    let _ = (|| {
        visitor.visit::<tribes::TribesGame>()?;
        visitor.visit::<prismata::PrismataGame>()?;
        visitor.visit::<puerto_rico::PuertoRicoGame>()?;
        ControlFlow::Continue(())
    })();
}

/// The names of the registered games, in registry order.
pub fn names() -> Vec<&'static str> {
    struct Names(Vec<&'static str>);
    impl GameVisitor for Names {
        fn visit<G: GameKit>(&mut self) -> ControlFlow<()> {
            self.0.push(G::with_rules(Default::default()).info().name);
            ControlFlow::Continue(())
        }
    }
    let mut v = Names(Vec::new());
    visit_all(&mut v);
    v.0
}
