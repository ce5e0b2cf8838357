//! A trained model as a leaf evaluation: the probability that the side to move wins, from a
//! position's counts.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

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

    /// [`LearnedValue::load`] once per file: the models read so far are kept for the process
    /// (keyed by path, game and encoding), and a file read again only if its length or
    /// modification time changed. A tournament builds its agents for every game: 100 games
    /// of two one-leaf learned Alpha-Betas took 3.3 s with a read per agent, 2.1 s with this
    /// (≈ 6 ms a read of the 13 MB Prismata model).
    ///
    /// # Errors
    ///
    /// As [`LearnedValue::load`].
    pub fn shared(path: &str, game: Option<&str>, encoding: &Encoding) -> Result<Arc<Self>> {
        type Key = (String, Option<String>, Encoding);
        type Stamp = (u64, Option<SystemTime>);
        type Models = HashMap<Key, (Stamp, Arc<LearnedValue>)>;
        static MODELS: Mutex<Option<Models>> = Mutex::new(None);
        let stamp = std::fs::metadata(path)
            .ok()
            .map(|m| (m.len(), m.modified().ok()));
        let key = (path.to_string(), game.map(str::to_string), encoding.clone());
        if let Some(stamp) = stamp {
            let models = MODELS.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some((at, value)) = models.as_ref().and_then(|m| m.get(&key))
                && *at == stamp
            {
                return Ok(value.clone());
            }
        }
        let value = Arc::new(LearnedValue::load(path, game, encoding)?);
        if let Some(stamp) = stamp {
            let mut models = MODELS.lock().unwrap_or_else(PoisonError::into_inner);
            models
                .get_or_insert_with(HashMap::new)
                .insert(key, (stamp, value.clone()));
        }
        Ok(value)
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
