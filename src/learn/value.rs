//! A trained model as a leaf evaluation: the probability that the side to move wins, from a
//! position's counts.

use std::cell::RefCell;
use std::path::Path;

use super::encoding::{Count, Encoding, inputs_of};
use super::model::Model;
use super::net::{Activations, sigmoid};
use crate::error::Result;

/// A model loaded for a game, ready to evaluate positions from any thread.
#[derive(Clone, Debug, PartialEq)]
pub struct LearnedValue {
    /// The model.
    pub model: Model,
    /// The file it was read from, as given.
    pub path: String,
}

thread_local! {
    /// Each thread's scratch: the counts, inputs and activations of one forward pass.
    static SCRATCH: RefCell<(Vec<Count>, Vec<u32>, Activations)> = RefCell::new(Default::default());
}

impl LearnedValue {
    /// Reads the model at `path` for `game` (any game if `None`) with `encoding`
    /// ([`Model::load`]).
    ///
    /// # Errors
    ///
    /// As [`Model::load`]: the file is named.
    pub fn load(path: &str, game: Option<&str>, encoding: &Encoding) -> Result<LearnedValue> {
        Ok(LearnedValue {
            model: Model::load(Path::new(path), game, encoding)?,
            path: path.to_string(),
        })
    }

    /// The probability that the side to move wins the position whose counts `encode` writes
    /// (into a cleared buffer this thread reuses: a search values many leaves).
    pub fn value_of(&self, encode: impl FnOnce(&mut Vec<Count>)) -> f64 {
        SCRATCH.with(|s| {
            let (counts, inputs, act) = &mut *s.borrow_mut();
            counts.clear();
            encode(counts);
            inputs_of(counts, inputs);
            f64::from(sigmoid(self.model.net.forward(inputs, act)))
        })
    }

    /// The probability that the side to move wins the position of `counts`.
    pub fn value(&self, counts: &[Count]) -> f64 {
        self.value_of(|out| out.extend_from_slice(counts))
    }
}
