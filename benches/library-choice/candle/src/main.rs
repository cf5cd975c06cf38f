use candle_core::{DType, Device, Tensor, D};
use candle_nn::{linear, AdamW, Linear, Module, Optimizer, ParamsAdamW, VarBuilder, VarMap};
use std::time::Instant;

const N: usize = 500_000;
const B: usize = 1024;
const I: usize = 193;

fn main() -> candle_core::Result<()> {
    let dev = Device::Cpu;
    let map = VarMap::new();
    let vb = VarBuilder::from_varmap(&map, DType::F32, &dev);
    let l1 = linear(I, 128, vb.pp("l1"))?;
    let l2 = linear(128, 32, vb.pp("l2"))?;
    let l3 = linear(32, 1, vb.pp("l3"))?;
    let mut opt = AdamW::new(map.all_vars(), ParamsAdamW { lr: 1e-3, ..Default::default() })?;
    // Synthetic sparse inputs: 8 pieces and ~20 holes set per row.
    let mut state = 1u64;
    let mut next = || { state ^= state << 13; state ^= state >> 7; state ^= state << 17; state };
    let mut x = vec![0f32; N * I];
    let mut y = vec![0f32; N];
    for r in 0..N {
        for _ in 0..28 { x[r * I + (next() % 192) as usize] = 1.0; }
        y[r] = (next() % 1000) as f32 / 1000.0;
    }
    let forward = |x: &Tensor, l1: &Linear, l2: &Linear, l3: &Linear| -> candle_core::Result<Tensor> {
        let h = l1.forward(x)?.clamp(0f32, 1f32)?;
        let h = l2.forward(&h)?.clamp(0f32, 1f32)?;
        l3.forward(&h)
    };
    let start = Instant::now();
    let mut total = 0f32;
    for b in 0..N / B {
        let xb = Tensor::from_slice(&x[b * B * I..(b + 1) * B * I], (B, I), &dev)?;
        let yb = Tensor::from_slice(&y[b * B..(b + 1) * B], (B, 1), &dev)?;
        let out = candle_nn::ops::sigmoid(&forward(&xb, &l1, &l2, &l3)?)?;
        let loss = (out - yb)?.sqr()?.mean_all()?;
        opt.backward_step(&loss)?;
        total += loss.to_scalar::<f32>()?;
    }
    let _ = D::Minus1;
    println!("candle: one epoch of {N} samples, batch {B}: {:.2} s, loss {:.4}", start.elapsed().as_secs_f64(), total / (N / B) as f32);
    Ok(())
}
