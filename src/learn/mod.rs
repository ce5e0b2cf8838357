//! Learned state evaluation, knowing nothing of games: positions as counts
//! ([`encoding`]), the dataset file ([`dataset`]), the NNUE-shaped value network and its
//! hand-written sparse trainer ([`net`], [`train`]), and the model file in the safetensors
//! format ([`model`]), a model as a leaf evaluation ([`value`]) and as the generic searches' knowledge
//! ([`knowledge`]).
//!
//! A game takes part by declaring an encoding ([`crate::agent::SearchSupport::encoding`],
//! [`crate::agent::SearchSupport::encode`]); `playstyles dataset` records its self-play positions,
//! `playstyles train` fits a network to them, and a search reads the model back for its leaves.
pub mod dataset;
pub mod encoding;
pub mod knowledge;
pub mod model;
pub mod net;
pub mod train;
pub mod value;
