//! Learned state evaluation, knowing nothing of games: positions as counts
//! ([`encoding`]), the dataset file ([`dataset`]), the NNUE-shaped value network and its
//! hand-written sparse trainer ([`net`], [`train`]), and the model file in the safetensors
//! format ([`model`]), and a model as a leaf evaluation ([`value`]).
//!
//! A game takes part by declaring an encoding ([`crate::kit::GameKit::encoding`],
//! [`crate::kit::GameKit::encode`]); `playstyles dataset` records its self-play positions,
//! `playstyles train` fits a network to them, and a search reads the model back for its leaves.
pub mod dataset;
pub mod encoding;
pub mod model;
pub mod net;
pub mod train;
pub mod value;
