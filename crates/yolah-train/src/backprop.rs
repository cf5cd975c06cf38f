//! The network's forward and backward pass for one position, written by hand over the flat
//! parameters (file order, [`Parameters::flat`](yolah_ai::eval::network::Parameters::flat)):
//! the first layer is sparse (only the ~30 inputs that are on touch their weights, forward
//! and backward), the layers behind it are small dense products in loops the compiler
//! vectorises. `tests` checks the gradients against central differences.

// The sizes and tensors go by the letters of the formulas (h, s, t, d; p, g, z, a).
#![allow(clippy::many_single_char_names)]

use yolah_ai::eval::network::{BOARD_INPUTS, INPUTS, Shape};

/// Where each tensor starts in the flat parameters.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The network's sizes.
    pub shape: Shape,
    /// The first layer's biases (its weights start at 0, input-major).
    pub bias1: usize,
    /// Each bucket's layers.
    pub stacks: Vec<StackAt>,
}

/// Where one bucket's tensors start.
#[derive(Clone, Copy, Debug)]
pub struct StackAt {
    hidden: usize,
    dense: usize,
    bias2: usize,
    third: usize,
    bias3: usize,
    output: usize,
    skip: usize,
    bias_out: usize,
}

impl Layout {
    /// The layout of `shape`'s parameters, in file order.
    pub fn new(shape: Shape) -> Layout {
        let (h, s, t, d, l) = (
            shape.hidden,
            shape.second,
            shape.third,
            shape.dense(),
            shape.last(),
        );
        let bias1 = INPUTS * h;
        let mut at = bias1 + h;
        let stacks = (0..shape.buckets)
            .map(|_| {
                let hidden = at;
                let dense = hidden + s * h;
                let bias2 = dense + s * d;
                let third = bias2 + s;
                let bias3 = third + t * s;
                let output = bias3 + t;
                let skip = output + l;
                let bias_out = skip + d;
                at = bias_out + 1;
                StackAt {
                    hidden,
                    dense,
                    bias2,
                    third,
                    bias3,
                    output,
                    skip,
                    bias_out,
                }
            })
            .collect();
        assert_eq!(at, shape.parameters(), "the layout covers every parameter");
        Layout {
            shape,
            bias1,
            stacks,
        }
    }
}

/// One position as the network sees it: the sparse inputs that are on, the dense inputs
/// (empty without the features) and the output bucket.
pub struct Inputs<'a> {
    /// The sparse inputs that are on.
    pub active: &'a [u16],
    /// The dense inputs (empty without the features).
    pub dense: &'a [f32],
    /// The output bucket.
    pub bucket: usize,
}

/// The sparse inputs of planes (black, white, holes) and the side to move, into `out`;
/// returns how many.
pub fn active_inputs(planes: &[u64; 3], white_to_move: bool, out: &mut [u16; 65]) -> usize {
    let mut n = 0;
    for (plane, &bits) in planes.iter().enumerate() {
        let mut bits = bits;
        while bits != 0 && n < 64 {
            out[n] = (plane * 64 + bits.trailing_zeros() as usize) as u16;
            n += 1;
            bits &= bits - 1;
        }
    }
    if white_to_move {
        out[n] = BOARD_INPUTS as u16;
        n += 1;
    }
    n
}

/// The activations of one forward pass, kept for its backward pass.
pub struct Scratch {
    /// First layer before and after the clipped `ReLU`.
    z1: Vec<f32>,
    a1: Vec<f32>,
    z2: Vec<f32>,
    a2: Vec<f32>,
    z3: Vec<f32>,
    a3: Vec<f32>,
    /// Gradients with respect to the layers' outputs.
    g1: Vec<f32>,
    g2: Vec<f32>,
    g3: Vec<f32>,
}

impl Scratch {
    /// Room for the activations of `shape`.
    pub fn new(shape: Shape) -> Scratch {
        let (h, s, t) = (shape.hidden, shape.second, shape.third);
        Scratch {
            z1: vec![0.0; h],
            a1: vec![0.0; h],
            z2: vec![0.0; s],
            a2: vec![0.0; s],
            z3: vec![0.0; t],
            a3: vec![0.0; t],
            g1: vec![0.0; h],
            g2: vec![0.0; s],
            g3: vec![0.0; t],
        }
    }
}

fn crelu(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

/// The clipped `ReLU`'s derivative: 1 strictly inside (0, 1).
fn inside(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 { 1.0 } else { 0.0 }
}

/// `Σ a[i] b[i]`, in 16 running sums so that the compiler vectorises it.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut sums = [0.0f32; 16];
    let (ca, ra) = (a.chunks_exact(16), a.chunks_exact(16).remainder());
    let rb = b.chunks_exact(16).remainder();
    for (x, y) in ca.zip(b.chunks_exact(16)) {
        for k in 0..16 {
            sums[k] += x[k] * y[k];
        }
    }
    let tail: f32 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    sums.iter().sum::<f32>() + tail
}

/// `y += alpha × x`.
fn axpy(y: &mut [f32], alpha: f32, x: &[f32]) {
    for (y, x) in y.iter_mut().zip(x) {
        *y += alpha * x;
    }
}

/// The network's output for `inputs` (the rest of the game's margin for black, in points),
/// keeping the activations in `scratch`.
pub fn forward(layout: &Layout, p: &[f32], inputs: &Inputs, scratch: &mut Scratch) -> f32 {
    let shape = layout.shape;
    let (h, s, t, d) = (shape.hidden, shape.second, shape.third, shape.dense());
    let st = layout.stacks[inputs.bucket];
    scratch
        .z1
        .copy_from_slice(&p[layout.bias1..layout.bias1 + h]);
    for &i in inputs.active {
        let i = usize::from(i);
        axpy(&mut scratch.z1, 1.0, &p[i * h..(i + 1) * h]);
    }
    for (a, &z) in scratch.a1.iter_mut().zip(&scratch.z1) {
        *a = crelu(z);
    }
    for k in 0..s {
        let z = p[st.bias2 + k]
            + dot(&p[st.hidden + k * h..st.hidden + (k + 1) * h], &scratch.a1)
            + dot(&p[st.dense + k * d..st.dense + (k + 1) * d], inputs.dense);
        scratch.z2[k] = z;
        scratch.a2[k] = crelu(z);
    }
    let last = if t > 0 {
        for m in 0..t {
            let z =
                p[st.bias3 + m] + dot(&p[st.third + m * s..st.third + (m + 1) * s], &scratch.a2);
            scratch.z3[m] = z;
            scratch.a3[m] = crelu(z);
        }
        &scratch.a3
    } else {
        &scratch.a2
    };
    p[st.bias_out]
        + dot(&p[st.output..st.output + last.len()], last)
        + dot(&p[st.skip..st.skip + d], inputs.dense)
}

/// Adds to `grad` the gradient of `g × output` with respect to the parameters, for the
/// forward pass `scratch` holds (the last [`forward`] of the same inputs).
pub fn backward(
    layout: &Layout,
    p: &[f32],
    inputs: &Inputs,
    scratch: &mut Scratch,
    g: f32,
    grad: &mut [f32],
) {
    let shape = layout.shape;
    let (h, s, t, d) = (shape.hidden, shape.second, shape.third, shape.dense());
    let st = layout.stacks[inputs.bucket];
    let Scratch {
        z1,
        a1,
        z2,
        a2,
        z3,
        a3,
        g1,
        g2,
        g3,
    } = scratch;
    grad[st.bias_out] += g;
    axpy(&mut grad[st.skip..st.skip + d], g, inputs.dense);
    // The output on the last hidden layer (the third, or the second without one).
    let (z_last, a_last, g_last) = if t > 0 {
        (&z3[..], &a3[..], &mut g3[..])
    } else {
        (&z2[..], &a2[..], &mut g2[..])
    };
    let n = a_last.len();
    axpy(&mut grad[st.output..st.output + n], g, a_last);
    for m in 0..n {
        g_last[m] = g * p[st.output + m] * inside(z_last[m]);
    }
    if t > 0 {
        layer_backward(p, grad, (st.third, st.bias3), g3, a2, g2);
        for k in 0..s {
            g2[k] *= inside(z2[k]);
        }
    }
    layer_backward(p, grad, (st.hidden, st.bias2), g2, a1, g1);
    for (k, &g) in g2.iter().enumerate() {
        axpy(
            &mut grad[st.dense + k * d..st.dense + (k + 1) * d],
            g,
            inputs.dense,
        );
    }
    for (g, &z) in g1.iter_mut().zip(z1.iter()) {
        *g *= inside(z);
    }
    axpy(&mut grad[layout.bias1..layout.bias1 + h], 1.0, g1);
    for &i in inputs.active {
        let i = usize::from(i);
        axpy(&mut grad[i * h..(i + 1) * h], 1.0, g1);
    }
}

/// The backward pass of a dense layer whose weights (unit-major) and biases start at `at`:
/// given the gradient `g` on its units' sums and its `input`, adds the weights' and biases'
/// gradients to `grad` and sets `g_input` to the gradient on the input.
fn layer_backward(
    p: &[f32],
    grad: &mut [f32],
    (weights, bias): (usize, usize),
    g: &[f32],
    input: &[f32],
    g_input: &mut [f32],
) {
    let n = input.len();
    g_input.fill(0.0);
    for (k, &g) in g.iter().enumerate() {
        if g == 0.0 {
            continue;
        }
        grad[bias + k] += g;
        let row = weights + k * n;
        axpy(&mut grad[row..row + n], g, input);
        axpy(g_input, g, &p[row..row + n]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};
    use yolah_ai::eval::network::{DENSE, Parameters};
    use yolah_core::Position;

    /// A small network of every kind of layer, its weights random in ±`scale`.
    fn parameters(shape: Shape, scale: f32, seed: u64) -> Vec<f32> {
        let mut rng = SmallRng::seed_from_u64(seed);
        (0..shape.parameters())
            .map(|_| rng.random_range(-scale..scale))
            .collect()
    }

    fn positions(seed: u64) -> Vec<Position> {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut out = Vec::new();
        let mut position = Position::start();
        while !position.game_over() {
            out.push(position);
            let moves = position.moves();
            position.play(moves[rng.random_range(0..moves.len())]);
        }
        out
    }

    #[test]
    fn forward_is_the_reference_network() {
        for shape in [
            Shape::V1,
            Shape {
                hidden: 32,
                second: 8,
                third: 4,
                buckets: 3,
                features: false,
            },
        ] {
            let layout = Layout::new(shape);
            let flat = parameters(shape, 0.3, 1);
            let reference = Parameters::from_flat(shape, &flat);
            let mut scratch = Scratch::new(shape);
            for position in positions(2) {
                let (planes, white) = crate::train::planes(&position);
                let mut active = [0u16; 65];
                let n = active_inputs(&planes, white, &mut active);
                let dense = yolah_ai::eval::network::dense_inputs(&position);
                let inputs = Inputs {
                    active: &active[..n],
                    dense: &dense[..shape.dense()],
                    bucket: shape.bucket(yolah_ai::eval::network::free_squares(&position)),
                };
                let ours = forward(&layout, &flat, &inputs, &mut scratch);
                let theirs = reference.forward(&position);
                assert!(
                    (ours - theirs).abs() <= 1e-4 * (1.0 + theirs.abs()),
                    "{shape}: {position}: {ours} against {theirs}"
                );
            }
        }
    }

    /// Every parameter's gradient against a central difference of the output, on positions
    /// where no unit sits within the step of a kink of the clipped `ReLU` (there the two
    /// one-sided slopes differ and no difference is right).
    #[test]
    fn gradients_are_the_numerical_ones() {
        let shape = Shape {
            hidden: 16,
            second: 8,
            third: 4,
            buckets: 2,
            features: true,
        };
        let layout = Layout::new(shape);
        let flat = parameters(shape, 0.25, 3);
        let mut rng = SmallRng::seed_from_u64(4);
        let mut scratch = Scratch::new(shape);
        let mut checked = 0;
        for position in positions(5).into_iter().step_by(5) {
            let (planes, white) = crate::train::planes(&position);
            let mut active = [0u16; 65];
            let n = active_inputs(&planes, white, &mut active);
            let dense: Vec<f32> = (0..DENSE).map(|_| rng.random_range(-1.0..1.0)).collect();
            let inputs = Inputs {
                active: &active[..n],
                dense: &dense,
                bucket: shape.bucket(yolah_ai::eval::network::free_squares(&position)),
            };
            let mut grad = vec![0.0; flat.len()];
            forward(&layout, &flat, &inputs, &mut scratch);
            backward(&layout, &flat, &inputs, &mut scratch, 1.0, &mut grad);
            let step = 1e-3f32;
            let near_kink = |s: &Scratch| {
                let margin = 5e-3;
                s.z1.iter()
                    .chain(&s.z2)
                    .chain(&s.z3)
                    .any(|&z| z.abs() < margin || (z - 1.0).abs() < margin)
            };
            if near_kink(&scratch) {
                continue;
            }
            let mut moved = flat.clone();
            for i in 0..flat.len() {
                moved[i] = flat[i] + step;
                let up = forward(&layout, &moved, &inputs, &mut scratch);
                moved[i] = flat[i] - step;
                let down = forward(&layout, &moved, &inputs, &mut scratch);
                moved[i] = flat[i];
                let numerical = (up - down) / (2.0 * step);
                assert!(
                    (numerical - grad[i]).abs() <= 2e-3 * (1.0 + numerical.abs()),
                    "parameter {i}: backward {} against {numerical}",
                    grad[i]
                );
            }
            checked += 1;
        }
        assert!(checked >= 3, "only {checked} positions away from the kinks");
    }
}
