//! What the search agents need from Tribes: [`SearchSupport`] for [`TribesGame`].

use std::sync::Arc;

use super::knowledge::TribesKnowledge;
use super::portfolio::TribesPortfolio;
use super::rule_based::RuleBasedAgent;
use crate::agent::{Agent, Knowledge, Portfolio, SearchSupport};
use crate::game::Player;
use crate::games::tribes::{State, TribesGame, encoding};
use crate::learn::encoding::{Count, Encoding};

impl SearchSupport for TribesGame {
    fn knowledge(&self) -> Arc<dyn Knowledge<Self>> {
        Arc::new(TribesKnowledge)
    }

    fn portfolio(&self) -> Arc<dyn Portfolio<Self>> {
        Arc::new(TribesPortfolio::new())
    }

    fn java_compat(&self) -> bool {
        self.rules.java()
    }

    fn rule_agent(&self) -> Option<Box<dyn Agent<Self>>> {
        Some(Box::new(RuleBasedAgent::new()))
    }

    /// Per tribe, its economy, army and technologies, plus the round and who is to move
    /// ([`crate::games::tribes::encoding`]).
    fn encoding(&self) -> Option<Encoding> {
        Some(encoding::encoding())
    }

    fn encode(&self, state: &State, player: Player, out: &mut Vec<Count>) {
        encoding::encode(self, state, player, out);
    }
}
