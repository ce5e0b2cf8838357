//! The speed of a learned evaluation ([`bench_learned`]): encoding a position as counts, the
//! network's forward pass, and both, per position, on turn-start states of cheap self-play.

use std::hint::black_box;

use serde::Serialize;

use super::measure::{median, time_batches};
use crate::game::Turn;
use crate::kit::GameKit;
use crate::learn::encoding::inputs_of;
use crate::learn::net::Activations;
use crate::learn::value::LearnedValue;

/// Passes over the states, each timed; the median pass is reported.
const PASSES: usize = 7;

/// What [`bench_learned`] measured, nanoseconds per position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LearnedBench {
    /// Positions timed.
    pub positions: usize,
    /// Mean counts a position switches on.
    pub active: f64,
    /// [`SearchSupport::encode`](crate::agent::SearchSupport::encode).
    pub encode_ns: f64,
    /// The forward pass from counts (inputs, then the network).
    pub forward_ns: f64,
    /// Both: [`LearnedValue::value`] of an encoded state.
    pub encode_forward_ns: f64,
    /// Positions a second at `encode_forward_ns`.
    pub per_second: f64,
}

impl LearnedBench {
    /// The result as a two-column table.
    pub fn to_table(&self) -> String {
        format!(
            "positions          {}\nactive counts      {:.1}\nencode             {:.3} us\nforward            {:.3} us\nencode + forward   {:.3} us\nper second         {:.0}",
            self.positions,
            self.active,
            self.encode_ns / 1e3,
            self.forward_ns / 1e3,
            self.encode_forward_ns / 1e3,
            self.per_second
        )
    }
}

/// Times `value` on the turn-start states of one game per level played by `warmup` agents
/// (the game's [`crate::bench::AgentBenchSet::warmup`]).
///
/// # Errors
///
/// What building the warmup agent or playing its games reports.
pub fn bench_learned<G: GameKit>(
    game: &G,
    levels: &[G::Level],
    value: &LearnedValue,
    warmup: &str,
    seed: u64,
) -> crate::Result<LearnedBench> {
    let mut states = Vec::new();
    for (i, level) in levels.iter().enumerate() {
        let s0 = crate::arena::initial_state(game, level, seed ^ i as u64);
        let mut agents = (0..game.num_players(&s0))
            .map(|_| crate::agents::build_agent(game, warmup))
            .collect::<crate::Result<Vec<_>>>()?;
        let mut last = None;
        crate::arena::play_match(game, level, &mut agents, seed ^ i as u64, |s, _| {
            if let Turn::Player(p) = game.turn(s) {
                if last != Some(p) {
                    states.push((s.clone(), p));
                }
                last = Some(p);
            }
        })?;
    }
    let mut counts = Vec::new();
    let encoded: Vec<Vec<_>> = states
        .iter()
        .map(|(s, p)| {
            game.encode(s, *p, &mut counts);
            counts.clone()
        })
        .collect();
    let n = states.len().max(1);
    let active = encoded.iter().map(Vec::len).sum::<usize>() as f64 / n as f64;
    let pass = |f: &mut dyn FnMut(usize)| {
        let mut ns = time_batches(
            || {
                for k in 0..states.len() {
                    f(k);
                }
            },
            PASSES,
            1,
        );
        median(&mut ns) / n as f64
    };
    let encode_ns = pass(&mut |k| {
        let (s, p) = &states[k];
        game.encode(s, *p, &mut counts);
        black_box(&counts);
    });
    let mut inputs = Vec::new();
    let mut act = Activations::default();
    let forward_ns = pass(&mut |k| {
        inputs_of(&encoded[k], &mut inputs);
        black_box(value.model.net.forward(&inputs, &mut act));
    });
    let encode_forward_ns = pass(&mut |k| {
        let (s, p) = &states[k];
        game.encode(s, *p, &mut counts);
        black_box(value.value(&counts));
    });
    Ok(LearnedBench {
        positions: states.len(),
        active,
        encode_ns,
        forward_ns,
        encode_forward_ns,
        per_second: 1e9 / encode_forward_ns,
    })
}
