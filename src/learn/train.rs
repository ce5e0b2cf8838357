//! Training a [`Net`] on a [`Dataset`], and how well it and the hand-written predictors
//! predict the winner, by turn.
//!
//! The split is by game, never by position: game `g` is a test game when
//! `mix64(g ⊕ SPLIT_TAG) mod 1000` is below the test share in thousandths, whatever the training seed, so models
//! trained with different seeds or widths are tested on the same games. Training is
//! mini-batch Adam on the mean log loss, batches drawn from a shuffle of the training
//! positions made from the seed and the epoch, in one thread: the model is a function of the
//! dataset and the settings alone. Training stops at the first batch whose loss, or the first
//! epoch after which a weight or the test loss, is not finite ([`Diverged`]).

use super::dataset::{Dataset, Label};
use super::encoding::input;
use super::net::{Activations, Adam, Gradients, Net, Shape, log_loss};
use crate::rng::{derive_rng, mix64};
use rand::RngExt;

/// Mixed into a game index to decide its side of the split.
const SPLIT_TAG: u64 = 0x07e5_75e7;

/// Tags the epochs' shuffles.
const SHUFFLE_TAG: u64 = 0x5_0ff1e;

/// The training settings.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainSettings {
    /// First hidden layer's width.
    pub hidden: usize,
    /// Second hidden layer's width.
    pub second: usize,
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions per Adam step.
    pub batch: usize,
    /// Adam's learning rate.
    pub rate: f32,
    /// Seed of the initial weights and the shuffles.
    pub seed: u64,
    /// Share of the games held out to test on, rounded to thousandths.
    pub test_fraction: f64,
}

/// Whether game `g` is a test game for a test share of `test_fraction`.
pub fn is_test_game(game: u32, test_fraction: f64) -> bool {
    let permille = (test_fraction * 1000.0).round() as u64;
    mix64(u64::from(game) ^ SPLIT_TAG) % 1000 < permille
}

/// A dataset's positions as the network's inputs, split by game.
pub struct Prepared {
    /// Position `i`'s inputs are `inputs[offsets[i]..offsets[i + 1]]`.
    inputs: Vec<u32>,
    offsets: Vec<usize>,
    /// Training positions.
    pub train: Vec<usize>,
    /// Test positions.
    pub test: Vec<usize>,
}

impl Prepared {
    /// The inputs of `data` and its split (`test_fraction` 1: every position is a test one).
    pub fn new(data: &Dataset, test_fraction: f64) -> Prepared {
        let inputs = data.counts.iter().map(|&(s, c)| input(s, c)).collect();
        let (test, train) =
            (0..data.len()).partition(|&i| is_test_game(data.games[i], test_fraction));
        Prepared {
            inputs,
            offsets: data.offsets.clone(),
            train,
            test,
        }
    }

    /// Position `i`'s inputs.
    pub fn inputs_of(&self, i: usize) -> &[u32] {
        &self.inputs[self.offsets[i]..self.offsets[i + 1]]
    }
}

/// One epoch's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochRow {
    /// 1-based epoch.
    pub epoch: u32,
    /// Mean log loss on the training positions during the epoch.
    pub train_loss: f64,
    /// Mean log loss on the test positions after it.
    pub test_loss: f64,
    /// Winner accuracy on the test positions after it.
    pub test_accuracy: f64,
}

/// Why training stopped before its last epoch: a number no longer finite, the learning rate
/// too large for the data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Diverged {
    /// The 1-based epoch it stopped in.
    pub epoch: u32,
    /// What was no longer finite: `"the training loss"`, `"a weight"` or `"the test loss"`.
    pub what: &'static str,
}

/// Trains a network on `data`'s training games; calls `epoch_done` after each epoch.
///
/// # Errors
///
/// [`Diverged`] at the first batch whose loss is not finite, or at the end of the first epoch
/// after which a weight or the test loss is not.
pub fn train(
    data: &Dataset,
    prepared: &Prepared,
    settings: &TrainSettings,
    mut epoch_done: impl FnMut(&EpochRow),
) -> Result<(Net, Vec<EpochRow>), Diverged> {
    let inputs = data.header.encoding.inputs();
    let shape = Shape {
        inputs,
        hidden: settings.hidden,
        second: settings.second,
    };
    let active = if data.is_empty() {
        1
    } else {
        data.counts.len() / data.len()
    };
    let mut net = Net::new(shape, active, settings.seed);
    let mut adam = Adam::new(shape, settings.rate);
    let mut grads = Gradients::new(shape);
    let mut act = Activations::default();
    let mut order = prepared.train.clone();
    let mut rows = Vec::new();
    for epoch in 1..=settings.epochs {
        let mut rng = derive_rng(settings.seed, &[SHUFFLE_TAG, u64::from(epoch)]);
        for i in (1..order.len()).rev() {
            let j = rng.random_range(0..=i);
            order.swap(i, j);
        }
        let diverged = |what| Diverged { epoch, what };
        let mut loss = 0.0;
        for batch in order.chunks(settings.batch.max(1)) {
            grads.clear();
            for &i in batch {
                let x = prepared.inputs_of(i);
                net.forward(x, &mut act);
                grads.add(&net, x, &act, data.labels[i].target());
            }
            if !grads.loss.is_finite() {
                return Err(diverged("the training loss"));
            }
            loss += grads.loss;
            adam.step(&mut net, &grads);
        }
        if !net.is_finite() {
            return Err(diverged("a weight"));
        }
        let test = score(&net, data, prepared, &prepared.test);
        if !test.log_loss.is_finite() {
            return Err(diverged("the test loss"));
        }
        let row = EpochRow {
            epoch,
            train_loss: loss / order.len().max(1) as f64,
            test_loss: test.log_loss,
            test_accuracy: test.accuracy,
        };
        epoch_done(&row);
        rows.push(row);
    }
    Ok((net, rows))
}

/// Turn buckets of the accuracy tables: turns `[lo, hi)`, the last one open (`hi` =
/// `u16::MAX` standing for every later turn, `u16::MAX` included).
pub const BUCKETS: [(u16, u16); 4] = [(0, 10), (10, 20), (20, 30), (30, u16::MAX)];

/// A bucket's name (`10-19`, `30+`).
pub fn bucket_name(b: (u16, u16)) -> String {
    if b.1 == u16::MAX {
        format!("{}+", b.0)
    } else {
        format!("{}-{}", b.0, b.1 - 1)
    }
}

/// The index in [`BUCKETS`] of the bucket of `turn`: the last whose first turn it reaches.
pub fn bucket_of(turn: u16) -> usize {
    BUCKETS
        .iter()
        .rposition(|&(lo, _)| turn >= lo)
        .expect("the first bucket starts at turn 0")
}

/// How well one predictor predicts the results of some positions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Score {
    /// Positions.
    pub positions: usize,
    /// Positions of games with a winner (those the accuracy is over).
    pub decided: usize,
    /// Share of decided positions whose winner the predictor named (a value of exactly ½
    /// counts half).
    pub accuracy: f64,
    /// Mean log loss (the network only; NaN for the hand-written predictors, whose 0 and 1
    /// would give infinities).
    pub log_loss: f64,
    /// Mean squared error of the predicted probability against the result (0, ½, 1).
    pub brier: f64,
}

/// Sums of a [`Score`] being taken.
#[derive(Default)]
struct Tally {
    positions: usize,
    decided: usize,
    correct: f64,
    log_loss: f64,
    brier: f64,
}

impl Tally {
    fn add(&mut self, p: f32, label: Label, logit: Option<f32>) {
        self.positions += 1;
        let y = label.target();
        if label != Label::Draw {
            self.decided += 1;
            self.correct += if p == 0.5 {
                0.5
            } else if (p > 0.5) == (label == Label::Win) {
                1.0
            } else {
                0.0
            };
        }
        if let Some(z) = logit {
            self.log_loss += f64::from(log_loss(z, y));
        }
        self.brier += f64::from((p - y) * (p - y));
    }

    fn score(&self, with_loss: bool) -> Score {
        let n = self.positions.max(1) as f64;
        Score {
            positions: self.positions,
            decided: self.decided,
            accuracy: self.correct / self.decided.max(1) as f64,
            log_loss: if with_loss {
                self.log_loss / n
            } else {
                f64::NAN
            },
            brier: self.brier / n,
        }
    }
}

/// The network's score on `positions`.
pub fn score(net: &Net, data: &Dataset, prepared: &Prepared, positions: &[usize]) -> Score {
    let mut t = Tally::default();
    let mut act = Activations::default();
    for &i in positions {
        let z = net.forward(prepared.inputs_of(i), &mut act);
        t.add(super::net::sigmoid(z), data.labels[i], Some(z));
    }
    t.score(true)
}

/// One row of the accuracy table: a predictor's score on a turn bucket.
#[derive(Clone, Debug, PartialEq)]
pub struct BucketScore {
    /// `model` or a hand-written predictor's name.
    pub predictor: String,
    /// The bucket's name, or `all`.
    pub turns: String,
    /// The score.
    pub score: Score,
}

/// The network's and every hand-written predictor's scores on `positions`, per turn bucket
/// and over all (`all` first), the network first.
pub fn scores_by_turn(
    net: &Net,
    data: &Dataset,
    prepared: &Prepared,
    positions: &[usize],
) -> Vec<BucketScore> {
    let names: Vec<String> = std::iter::once("model".to_string())
        .chain(data.header.predictors.iter().cloned())
        .collect();
    let k = names.len();
    let mut tallies: Vec<Vec<Tally>> = (0..=BUCKETS.len())
        .map(|_| (0..k).map(|_| Tally::default()).collect())
        .collect();
    let mut act = Activations::default();
    for &i in positions {
        let z = net.forward(prepared.inputs_of(i), &mut act);
        let b = 1 + bucket_of(data.turns[i]);
        let label = data.labels[i];
        for at in [0, b] {
            tallies[at][0].add(super::net::sigmoid(z), label, Some(z));
            for (p, &v) in data.predictions_of(i).iter().enumerate() {
                tallies[at][1 + p].add(v, label, None);
            }
        }
    }
    let mut out = Vec::new();
    for (bi, row) in tallies.iter().enumerate() {
        let turns = if bi == 0 {
            "all".to_string()
        } else {
            bucket_name(BUCKETS[bi - 1])
        };
        for (p, t) in row.iter().enumerate() {
            out.push(BucketScore {
                predictor: names[p].clone(),
                turns: turns.clone(),
                score: t.score(p == 0),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::dataset::{Header, Record, encode_records, file_bytes};
    use crate::learn::encoding::Encoding;

    /// Games where slot 0's count decides the winner: the side to move wins with more of it
    /// than the opponent's slot 1.
    fn toy(games: u32) -> Dataset {
        let mut body = Vec::new();
        let mut positions = 0;
        for g in 0..games {
            let own = (g * 7) % 11 + 1;
            let other = (g * 3) % 11 + 1;
            let label = match own.cmp(&other) {
                std::cmp::Ordering::Greater => Label::Win,
                std::cmp::Ordering::Less => Label::Loss,
                std::cmp::Ordering::Equal => Label::Draw,
            };
            let recs: Vec<Record> = (0..3)
                .map(|t| Record {
                    turn: t * 12,
                    label,
                    predictions: vec![0.5],
                    counts: vec![(0, own as u16), (1, other as u16), (2, 1 + t)],
                })
                .collect();
            positions += recs.len() as u64;
            encode_records(g, &recs, &mut body);
        }
        let header = Header {
            game: "toy".into(),
            rules: String::new(),
            encoding: Encoding {
                name: "toy".into(),
                version: 1,
                fingerprint: String::new(),
                slots: 3,
            },
            predictors: vec!["coin".into()],
            games: u64::from(games),
            positions,
            config: String::new(),
            first_game: 0,
        };
        Dataset::parse(&file_bytes(&header, &body)).unwrap()
    }

    fn settings() -> TrainSettings {
        TrainSettings {
            hidden: 16,
            second: 8,
            epochs: 30,
            batch: 16,
            rate: 1e-2,
            seed: 5,
            test_fraction: 0.2,
        }
    }

    #[test]
    fn a_diverging_training_stops_at_the_first_number_not_finite() {
        let data = toy(100);
        let prepared = Prepared::new(&data, 0.2);
        let mut epochs = 0;
        let wild = TrainSettings {
            rate: 1e30,
            ..settings()
        };
        let stopped = train(&data, &prepared, &wild, |_| epochs += 1).unwrap_err();
        assert_eq!(stopped.epoch, 1, "{stopped:?}");
        assert_eq!(epochs, 0, "no epoch finished");
    }

    #[test]
    fn the_last_turn_bucket_holds_every_later_turn() {
        let mut data = toy(40);
        let n = data.len();
        for (i, t) in data.turns.iter_mut().enumerate() {
            *t = if i % 2 == 0 { u16::MAX } else { 31 };
        }
        let prepared = Prepared::new(&data, 0.5);
        let net = Net::new(
            Shape {
                inputs: data.header.encoding.inputs(),
                hidden: 4,
                second: 2,
            },
            3,
            1,
        );
        let all: Vec<usize> = (0..n).collect();
        let table = scores_by_turn(&net, &data, &prepared, &all);
        let late = table
            .iter()
            .find(|r| r.predictor == "model" && r.turns == "30+")
            .unwrap();
        assert_eq!(late.score.positions, n);
    }

    #[test]
    fn training_learns_the_rule_and_is_reproducible() {
        let data = toy(400);
        let prepared = Prepared::new(&data, 0.2);
        assert!(!prepared.test.is_empty() && prepared.train.len() > prepared.test.len());
        for &i in &prepared.test {
            assert!(is_test_game(data.games[i], 0.2));
        }
        let (net, rows) = train(&data, &prepared, &settings(), |_| {}).unwrap();
        let last = rows.last().unwrap();
        assert!(last.test_accuracy > 0.95, "{rows:?}");
        assert!(last.train_loss < rows[0].train_loss);
        let (again, _) = train(&data, &prepared, &settings(), |_| {}).unwrap();
        assert_eq!(net, again);
        let table = scores_by_turn(&net, &data, &prepared, &prepared.test);
        let coin = table
            .iter()
            .find(|r| r.predictor == "coin" && r.turns == "all")
            .unwrap();
        assert_eq!(coin.score.accuracy, 0.5);
        assert!(coin.score.log_loss.is_nan());
        let buckets: Vec<&str> = table
            .iter()
            .filter(|r| r.predictor == "model")
            .map(|r| r.turns.as_str())
            .collect();
        assert_eq!(buckets, ["all", "0-9", "10-19", "20-29", "30+"]);
        let all = &table[0].score;
        assert_eq!(all.positions, prepared.test.len());
    }
}
