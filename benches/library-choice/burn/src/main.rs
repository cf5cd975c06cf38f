use burn::module::Module;
use burn::nn::{Linear, LinearConfig};
use burn::optim::{AdamConfig, GradientsParams, Optimizer};
use burn::tensor::{Device, Tensor, TensorData, activation::sigmoid};
use std::time::Instant;

const N: usize = 500_000;
const B: usize = 1024;
const I: usize = 193;

#[derive(Module, Debug)]
struct Net {
    l1: Linear,
    l2: Linear,
    l3: Linear,
}

impl Net {
    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        let h = self.l1.forward(x).clamp(0.0, 1.0);
        let h = self.l2.forward(h).clamp(0.0, 1.0);
        self.l3.forward(h)
    }
}

fn main() {
    let device = Device::default().autodiff();
    let mut net = Net {
        l1: LinearConfig::new(I, 128).init(&device),
        l2: LinearConfig::new(128, 32).init(&device),
        l3: LinearConfig::new(32, 1).init(&device),
    };
    let mut opt = AdamConfig::new().init();
    let mut state = 1u64;
    let mut next = || { state ^= state << 13; state ^= state >> 7; state ^= state << 17; state };
    let mut x = vec![0f32; N * I];
    let mut y = vec![0f32; N];
    for r in 0..N {
        for _ in 0..28 { x[r * I + (next() % 192) as usize] = 1.0; }
        y[r] = (next() % 1000) as f32 / 1000.0;
    }
    let start = Instant::now();
    let mut total = 0f32;
    for b in 0..N / B {
        let xb = Tensor::<2>::from_data(TensorData::new(x[b * B * I..(b + 1) * B * I].to_vec(), [B, I]), &device);
        let yb = Tensor::<2>::from_data(TensorData::new(y[b * B..(b + 1) * B].to_vec(), [B, 1]), &device);
        let out = sigmoid(net.forward(xb));
        let loss = (out - yb).powi_scalar(2).mean();
        total += loss.clone().into_scalar::<f32>();
        let grads = GradientsParams::from_grads(loss.backward(), &net);
        net = opt.step(1e-3, net, grads);
    }
    println!("burn: one epoch of {N} samples, batch {B}: {:.2} s, loss {:.4}", start.elapsed().as_secs_f64(), total / (N / B) as f32);
}
