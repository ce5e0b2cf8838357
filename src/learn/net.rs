//! The value network: sparse one-hot input → hidden → second → 1, in the NNUE shape.
//!
//! The first layer is an embedding bag: a position switches on a few dozen of thousands of
//! binary inputs, and its hidden pre-activation is the bias plus the sum of those inputs' rows
//! of `w1` (the NNUE accumulator), so a forward pass costs `active × hidden` additions, then
//! the dense `hidden × second` layer and the output. Hidden layers are ReLU, the output a
//! logit whose sigmoid is the probability that the side to move wins.
//!
//! Training ([`Gradients`], [`Adam`]) is written by hand because the first layer's gradient is
//! sparse: only the rows of the batch's active inputs change, so a batch touches a few
//! thousand of `w1`'s rows, where a dense layer of a general library updates all of them (the
//! issue measured burn at ≈ 5k samples/s on the dense input; this trainer runs in one thread,
//! so its result does not depend on the thread count). The gradients are checked against
//! finite differences in this file's tests.

use rand::RngExt;
use rand_distr::StandardNormal;

use crate::rng::rng_from_seed;

/// The network's sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Binary inputs (one-hot features).
    pub inputs: usize,
    /// First hidden layer (the accumulator).
    pub hidden: usize,
    /// Second hidden layer.
    pub second: usize,
}

/// The weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    /// Sizes.
    pub shape: Shape,
    /// First layer, one row of `hidden` per input (`inputs × hidden`, row-major).
    pub w1: Vec<f32>,
    /// First layer's bias (`hidden`).
    pub b1: Vec<f32>,
    /// Second layer, one row of `hidden` per output (`second × hidden`, row-major).
    pub w2: Vec<f32>,
    /// Second layer's bias (`second`).
    pub b2: Vec<f32>,
    /// Output weights (`second`).
    pub w3: Vec<f32>,
    /// Output bias.
    pub b3: f32,
}

/// The activations of one forward pass, kept for the backward pass.
#[derive(Clone, Debug, Default)]
pub struct Activations {
    /// First layer's pre-activation (`hidden`).
    pub z1: Vec<f32>,
    /// First layer's output, ReLU of `z1`.
    pub h1: Vec<f32>,
    /// Second layer's pre-activation (`second`).
    pub z2: Vec<f32>,
    /// Second layer's output.
    pub h2: Vec<f32>,
    /// The output logit.
    pub logit: f32,
}

/// The logistic function, computed without overflow for any logit.
pub fn sigmoid(x: f32) -> f32 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// The binary cross-entropy of the logit `z` against the target `y` in [0, 1], in the stable
/// form `max(z, 0) − z·y + ln(1 + e^−|z|)` (no overflow or NaN for saturated logits).
pub fn log_loss(z: f32, y: f32) -> f32 {
    z.max(0.0) - z * y + (-z.abs()).exp().ln_1p()
}

impl Net {
    /// A network of `shape` with weights drawn from `seed`: He-normal for the dense layers,
    /// and for `w1` a normal of standard deviation `1 / sqrt(active)`, `active` being the
    /// typical number of inputs a position switches on; biases 0.
    pub fn new(shape: Shape, active: usize, seed: u64) -> Net {
        let mut rng = rng_from_seed(seed);
        let mut normal = |n: usize, sd: f32| -> Vec<f32> {
            (0..n)
                .map(|_| rng.sample::<f32, _>(StandardNormal) * sd)
                .collect()
        };
        let sd1 = 1.0 / (active.max(1) as f32).sqrt();
        let w1 = normal(shape.inputs * shape.hidden, sd1);
        let w2 = normal(
            shape.second * shape.hidden,
            (2.0 / shape.hidden as f32).sqrt(),
        );
        let w3 = normal(shape.second, (1.0 / shape.second as f32).sqrt());
        Net {
            shape,
            w1,
            b1: vec![0.0; shape.hidden],
            w2,
            b2: vec![0.0; shape.second],
            w3,
            b3: 0.0,
        }
    }

    /// The output logit for the inputs switched on (`active`, each `< inputs`), with the
    /// activations of the pass in `act`.
    pub fn forward(&self, active: &[u32], act: &mut Activations) -> f32 {
        let Shape { hidden, second, .. } = self.shape;
        act.z1.clear();
        act.z1.extend_from_slice(&self.b1);
        for &f in active {
            let row = &self.w1[f as usize * hidden..(f as usize + 1) * hidden];
            for (z, w) in act.z1.iter_mut().zip(row) {
                *z += w;
            }
        }
        act.h1.clear();
        act.h1.extend(act.z1.iter().map(|&z| z.max(0.0)));
        act.z2.clear();
        act.z2.extend((0..second).map(|j| {
            let row = &self.w2[j * hidden..(j + 1) * hidden];
            self.b2[j] + dot(row, &act.h1)
        }));
        act.h2.clear();
        act.h2.extend(act.z2.iter().map(|&z| z.max(0.0)));
        act.logit = self.b3 + dot(&self.w3, &act.h2);
        act.logit
    }

    /// The probability that the side to move wins, for the inputs switched on.
    pub fn predict(&self, active: &[u32], act: &mut Activations) -> f32 {
        sigmoid(self.forward(active, act))
    }

    /// Whether every weight is a finite number.
    pub fn is_finite(&self) -> bool {
        [&self.w1, &self.b1, &self.w2, &self.b2, &self.w3]
            .iter()
            .all(|v| v.iter().all(|x| x.is_finite()))
            && self.b3.is_finite()
    }

    /// Weights in all.
    pub fn parameters(&self) -> usize {
        self.w1.len() + self.b1.len() + self.w2.len() + self.b2.len() + self.w3.len() + 1
    }
}

/// A dot product, summed in 8 lanes so that the compiler vectorises it; the order of the sums
/// is fixed, so the result is the same on every run.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let mut ca = a.chunks_exact(8);
    let mut cb = b.chunks_exact(8);
    for (x, y) in (&mut ca).zip(&mut cb) {
        for k in 0..8 {
            lanes[k] += x[k] * y[k];
        }
    }
    let tail: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    lanes.iter().sum::<f32>() + tail
}

/// A batch's gradients of the mean loss; `w1`'s are kept only for the rows the batch touched.
#[derive(Clone, Debug)]
pub struct Gradients {
    /// The touched rows of `w1`, in the order the batch first touched them.
    pub rows: Vec<u32>,
    /// Their gradients (`rows.len() × hidden`).
    pub w1: Vec<f32>,
    /// Where each input's row sits in `rows` (`u32::MAX`: untouched).
    slot: Vec<u32>,
    /// Gradient of `b1`.
    pub b1: Vec<f32>,
    /// Gradient of `w2`.
    pub w2: Vec<f32>,
    /// Gradient of `b2`.
    pub b2: Vec<f32>,
    /// Gradient of `w3`.
    pub w3: Vec<f32>,
    /// Gradient of `b3`.
    pub b3: f32,
    /// Samples added.
    pub samples: usize,
    /// Their summed loss.
    pub loss: f64,
    dz1: Vec<f32>,
    dz2: Vec<f32>,
}

impl Gradients {
    /// Zero gradients for a network of `shape`.
    pub fn new(shape: Shape) -> Self {
        Gradients {
            rows: Vec::new(),
            w1: Vec::new(),
            slot: vec![u32::MAX; shape.inputs],
            b1: vec![0.0; shape.hidden],
            w2: vec![0.0; shape.second * shape.hidden],
            b2: vec![0.0; shape.second],
            w3: vec![0.0; shape.second],
            b3: 0.0,
            samples: 0,
            loss: 0.0,
            dz1: vec![0.0; shape.hidden],
            dz2: vec![0.0; shape.second],
        }
    }

    /// Back to zero, keeping the allocations.
    pub fn clear(&mut self) {
        for &r in &self.rows {
            self.slot[r as usize] = u32::MAX;
        }
        self.rows.clear();
        self.w1.clear();
        for g in [&mut self.b1, &mut self.w2, &mut self.b2, &mut self.w3] {
            g.fill(0.0);
        }
        self.b3 = 0.0;
        self.samples = 0;
        self.loss = 0.0;
    }

    /// Adds the gradient of one sample's loss (`log_loss(logit, target)`, summed, not yet
    /// averaged) after `net.forward(active, act)`.
    pub fn add(&mut self, net: &Net, active: &[u32], act: &Activations, target: f32) {
        let Shape { hidden, second, .. } = net.shape;
        self.samples += 1;
        self.loss += f64::from(log_loss(act.logit, target));
        let d3 = sigmoid(act.logit) - target;
        self.b3 += d3;
        for j in 0..second {
            self.w3[j] += d3 * act.h2[j];
            self.dz2[j] = if act.z2[j] > 0.0 { d3 * net.w3[j] } else { 0.0 };
        }
        self.dz1.fill(0.0);
        for j in 0..second {
            let d = self.dz2[j];
            if d == 0.0 {
                continue;
            }
            self.b2[j] += d;
            let grow = &mut self.w2[j * hidden..(j + 1) * hidden];
            for (g, h) in grow.iter_mut().zip(&act.h1) {
                *g += d * h;
            }
            let wrow = &net.w2[j * hidden..(j + 1) * hidden];
            for (dz, w) in self.dz1.iter_mut().zip(wrow) {
                *dz += d * w;
            }
        }
        for (dz, &z) in self.dz1.iter_mut().zip(&act.z1) {
            if z <= 0.0 {
                *dz = 0.0;
            }
        }
        for (g, d) in self.b1.iter_mut().zip(&self.dz1) {
            *g += d;
        }
        for &f in active {
            let s = &mut self.slot[f as usize];
            if *s == u32::MAX {
                *s = self.rows.len() as u32;
                self.rows.push(f);
                self.w1.extend(std::iter::repeat_n(0.0, hidden));
            }
            let at = *s as usize * hidden;
            for (g, d) in self.w1[at..at + hidden].iter_mut().zip(&self.dz1) {
                *g += d;
            }
        }
    }
}

/// Adam (Kingma & Ba) over the network's weights, lazy on `w1`: a row's moments and weights
/// change only in the batches that touch it (as PyTorch's `SparseAdam`), with the bias
/// correction of the global step.
#[derive(Clone, Debug)]
pub struct Adam {
    /// Learning rate.
    pub rate: f32,
    /// Decay of the first moment.
    pub beta1: f32,
    /// Decay of the second moment.
    pub beta2: f32,
    /// Added to the second moment's root.
    pub epsilon: f32,
    step: i32,
    m: Net,
    v: Net,
}

impl Adam {
    /// Adam for a network of `shape`, with the usual decays (0.9, 0.999) and ε = 1e-8.
    pub fn new(shape: Shape, rate: f32) -> Self {
        let zero = Net {
            shape,
            w1: vec![0.0; shape.inputs * shape.hidden],
            b1: vec![0.0; shape.hidden],
            w2: vec![0.0; shape.second * shape.hidden],
            b2: vec![0.0; shape.second],
            w3: vec![0.0; shape.second],
            b3: 0.0,
        };
        Adam {
            rate,
            beta1: 0.9,
            beta2: 0.999,
            epsilon: 1e-8,
            step: 0,
            m: zero.clone(),
            v: zero,
        }
    }

    /// One step of `net` down the mean of the gradients `g` (summed over `g.samples`).
    pub fn step(&mut self, net: &mut Net, g: &Gradients) {
        if g.samples == 0 {
            return;
        }
        self.step += 1;
        let scale = 1.0 / g.samples as f32;
        let c1 = 1.0 - self.beta1.powi(self.step);
        let c2 = 1.0 - self.beta2.powi(self.step);
        let rule = Rule {
            beta1: self.beta1,
            beta2: self.beta2,
            rate: self.rate * c2.sqrt() / c1,
            epsilon: self.epsilon,
            scale,
        };
        let hidden = net.shape.hidden;
        for (k, &r) in g.rows.iter().enumerate() {
            let at = r as usize * hidden;
            rule.apply(
                &mut net.w1[at..at + hidden],
                &mut self.m.w1[at..at + hidden],
                &mut self.v.w1[at..at + hidden],
                &g.w1[k * hidden..(k + 1) * hidden],
            );
        }
        rule.apply(&mut net.b1, &mut self.m.b1, &mut self.v.b1, &g.b1);
        rule.apply(&mut net.w2, &mut self.m.w2, &mut self.v.w2, &g.w2);
        rule.apply(&mut net.b2, &mut self.m.b2, &mut self.v.b2, &g.b2);
        rule.apply(&mut net.w3, &mut self.m.w3, &mut self.v.w3, &g.w3);
        rule.apply(
            std::slice::from_mut(&mut net.b3),
            std::slice::from_mut(&mut self.m.b3),
            std::slice::from_mut(&mut self.v.b3),
            &[g.b3],
        );
    }
}

/// One Adam step's constants.
struct Rule {
    beta1: f32,
    beta2: f32,
    /// The learning rate with both bias corrections folded in.
    rate: f32,
    epsilon: f32,
    /// 1 / samples: turns summed gradients into means.
    scale: f32,
}

impl Rule {
    fn apply(&self, w: &mut [f32], m: &mut [f32], v: &mut [f32], g: &[f32]) {
        for (((w, m), v), g) in w.iter_mut().zip(m.iter_mut()).zip(v.iter_mut()).zip(g) {
            let g = g * self.scale;
            *m = self.beta1 * *m + (1.0 - self.beta1) * g;
            *v = self.beta2 * *v + (1.0 - self.beta2) * g * g;
            *w -= self.rate * *m / (v.sqrt() + self.epsilon);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Net {
        let shape = Shape {
            inputs: 12,
            hidden: 9,
            second: 5,
        };
        let mut net = Net::new(shape, 3, 7);
        // Biases away from 0 so that some units are off and some on.
        for (k, b) in net.b1.iter_mut().enumerate() {
            *b = 0.3 * (k as f32 - 4.0) / 4.0;
        }
        for (k, b) in net.b2.iter_mut().enumerate() {
            *b = 0.2 * (k as f32 - 2.0);
        }
        net.b3 = -0.1;
        net
    }

    /// The summed loss of `samples` for `net`, in f64 from f32 passes.
    fn loss(net: &Net, samples: &[(Vec<u32>, f32)]) -> f64 {
        let mut act = Activations::default();
        samples
            .iter()
            .map(|(a, y)| f64::from(log_loss(net.forward(a, &mut act), *y)))
            .sum()
    }

    #[test]
    fn gradients_match_finite_differences() {
        let net = small();
        let samples = vec![
            (vec![0, 3, 7], 1.0),
            (vec![1, 3, 11], 0.0),
            (vec![2, 7], 0.5),
            (vec![4, 5, 6, 11], 1.0),
        ];
        let mut g = Gradients::new(net.shape);
        let mut act = Activations::default();
        for (a, y) in &samples {
            net.forward(a, &mut act);
            g.add(&net, a, &act, *y);
        }
        let base = loss(&net, &samples);
        assert!((g.loss - base).abs() < 1e-4, "{} vs {base}", g.loss);
        // Central differences in each parameter, compared with the analytic gradient.
        let h = 1e-2f32;
        let check = |name: &str, k: usize, analytic: f32, set: &dyn Fn(&mut Net, f32)| {
            let (mut up, mut down) = (net.clone(), net.clone());
            set(&mut up, h);
            set(&mut down, -h);
            let numeric = (loss(&up, &samples) - loss(&down, &samples)) / (2.0 * f64::from(h));
            let err = (numeric - f64::from(analytic)).abs();
            assert!(
                err <= 2e-3 + 2e-2 * numeric.abs(),
                "{name}[{k}]: analytic {analytic}, numeric {numeric}"
            );
        };
        let hidden = net.shape.hidden;
        let mut w1_checked = 0;
        for input in 0..net.shape.inputs {
            for j in 0..hidden {
                let analytic = g
                    .rows
                    .iter()
                    .position(|&r| r as usize == input)
                    .map_or(0.0, |s| g.w1[s * hidden + j]);
                check("w1", input * hidden + j, analytic, &|n, d| {
                    n.w1[input * hidden + j] += d
                });
                w1_checked += usize::from(analytic != 0.0);
            }
        }
        assert!(w1_checked > 10, "only {w1_checked} non-zero w1 gradients");
        for j in 0..hidden {
            check("b1", j, g.b1[j], &|n, d| n.b1[j] += d);
        }
        for k in 0..net.w2.len() {
            check("w2", k, g.w2[k], &|n, d| n.w2[k] += d);
        }
        for j in 0..net.shape.second {
            check("b2", j, g.b2[j], &|n, d| n.b2[j] += d);
            check("w3", j, g.w3[j], &|n, d| n.w3[j] += d);
        }
        check("b3", 0, g.b3, &|n, d| n.b3 += d);
    }

    #[test]
    fn the_loss_is_finite_for_saturated_logits() {
        for z in [-1e4f32, -80.0, 0.0, 80.0, 1e4] {
            for y in [0.0, 0.5, 1.0] {
                let l = log_loss(z, y);
                assert!(l.is_finite() && l >= 0.0, "loss({z}, {y}) = {l}");
            }
            let s = sigmoid(z);
            assert!((0.0..=1.0).contains(&s), "sigmoid({z}) = {s}");
        }
        assert!(log_loss(1e4, 1.0) < 1e-6);
        assert!((log_loss(-1e4, 1.0) - 1e4).abs() < 1.0);
    }

    #[test]
    fn adam_learns_a_separable_rule_and_untouched_rows_stay() {
        // Input 0 on: a win; input 1 on: a loss; inputs 2..: noise; input 11 never on.
        let mut net = small();
        let before = net.clone();
        let mut adam = Adam::new(net.shape, 1e-2);
        let mut g = Gradients::new(net.shape);
        let mut act = Activations::default();
        let samples: Vec<(Vec<u32>, f32)> = (0..40u32)
            .map(|k| (vec![k % 2, 2 + k % 9], if k % 2 == 0 { 1.0 } else { 0.0 }))
            .collect();
        let start = loss(&net, &samples);
        for _ in 0..200 {
            g.clear();
            for (a, y) in &samples {
                net.forward(a, &mut act);
                g.add(&net, a, &act, *y);
            }
            adam.step(&mut net, &g);
        }
        let end = loss(&net, &samples);
        assert!(end < 0.1 * start, "loss {start} -> {end}");
        assert!(net.predict(&[0, 5], &mut act) > 0.9);
        assert!(net.predict(&[1, 5], &mut act) < 0.1);
        let h = net.shape.hidden;
        assert_eq!(net.w1[11 * h..12 * h], before.w1[11 * h..12 * h]);
    }
}
