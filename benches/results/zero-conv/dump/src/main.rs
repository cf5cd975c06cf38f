//! Dumps `YOLAHZS1` self-play samples as raw little-endian arrays numpy can read, with the
//! network's own conventions (`network.rs`): the planes from `active_inputs`, the features from
//! `mover_features`, the legal moves' policy rows from `move_row` in `position.moves()` order.
//!
//! `zero-conv-dump OUT_DIR PREFIX GEN_DIR...` writes into OUT_DIR:
//! - PREFIX.planes.u8   [N][192]  1 where an input is on (mover, opponent, holes × 64 squares)
//! - PREFIX.feat.f32    [N][22]
//! - PREFIX.rows.i16    [N][MAXM] policy rows of the legal moves, -1 past the last
//! - PREFIX.share.f32   [N][MAXM] visit shares (0 past the last)
//! - PREFIX.z.f32       [N]       result for the mover
//! - PREFIX.json        counts and shapes
//!   and, once, `sym.json`: for each of the 8 symmetries the image of every square and of
//!   every policy row, and whether the features were found invariant under them.
//!
//! `zero-conv-dump --losses NETWORK GEN_DIR...` prints the Rust trainer's mean losses of
//! NETWORK on those samples (a reference for the PyTorch port).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use yolah_ai::players::alphazero::network::{
    MOVES, Parameters, active_inputs, move_row, mover_features,
};
use yolah_core::{Move, Square, Symmetry};
use yolah_train::zero::{Sample, losses, samples_from_bytes};

const MAXM: usize = 128;

fn read_gen(dir: &Path) -> Vec<Sample> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .expect("a generation directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.starts_with("games-") && name.ends_with(".bin")
        })
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let bytes = fs::read(&f).expect("readable");
        let samples = samples_from_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        out.extend(samples);
    }
    out
}

fn write(path: &Path, bytes: &[u8]) {
    fs::File::create(path).and_then(|mut f| f.write_all(bytes)).expect("writable");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args[0] == "--losses" {
        let network = Parameters::load(Path::new(&args[1])).expect("a network");
        let samples: Vec<Sample> = args[2..].iter().flat_map(|d| read_gen(Path::new(d))).collect();
        let l = losses(&network, &samples);
        println!("rust losses of {} on {} samples: policy {:.5} value {:.5}", args[1], samples.len(), l.policy, l.value);
        return;
    }
    let out = Path::new(&args[0]);
    let prefix = &args[1];
    fs::create_dir_all(out).expect("out dir");
    let (mut planes, mut feat, mut rows, mut share, mut z) = (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut n = 0usize;
    let (mut max_moves, mut worst_sum, mut inputs) = (0usize, 0.0f32, Vec::new());
    let mut invariant = true;
    for dir in &args[2..] {
        let samples = read_gen(Path::new(dir));
        eprintln!("{dir}: {} samples", samples.len());
        for (k, s) in samples.iter().enumerate() {
            let p = &s.position;
            active_inputs(p, &mut inputs);
            let mut plane = [0u8; 192];
            for &i in &inputs {
                plane[usize::from(i)] = 1;
            }
            planes.extend_from_slice(&plane);
            let f = mover_features(p);
            for x in f {
                feat.extend_from_slice(&x.to_le_bytes());
            }
            // The features under the symmetries (checked on a subset: they cost).
            if k % 97 == 0 {
                for sym in Symmetry::ALL {
                    let g = mover_features(&sym.position(p));
                    if f.iter().zip(&g).any(|(a, b)| (a - b).abs() > 1e-6) {
                        invariant = false;
                    }
                }
            }
            let moves = p.moves();
            assert_eq!(moves.len(), s.policy.len());
            assert!(moves.len() <= MAXM, "{} moves", moves.len());
            max_moves = max_moves.max(moves.len());
            let total: f32 = s.policy.iter().sum();
            worst_sum = worst_sum.max((total - 1.0).abs());
            for j in 0..MAXM {
                let (r, sh) = if j < moves.len() {
                    let r = move_row(moves[j]);
                    assert!(r < MOVES);
                    (r as i16, s.policy[j])
                } else {
                    (-1, 0.0)
                };
                rows.extend_from_slice(&r.to_le_bytes());
                share.extend_from_slice(&sh.to_le_bytes());
            }
            z.extend_from_slice(&s.result.to_le_bytes());
            n += 1;
        }
    }
    write(&out.join(format!("{prefix}.planes.u8")), &planes);
    write(&out.join(format!("{prefix}.feat.f32")), &feat);
    write(&out.join(format!("{prefix}.rows.i16")), &rows);
    write(&out.join(format!("{prefix}.share.f32")), &share);
    write(&out.join(format!("{prefix}.z.f32")), &z);
    let meta = format!(
        "{{\"n\": {n}, \"maxm\": {MAXM}, \"max_moves_seen\": {max_moves}, \"worst_share_sum_error\": {worst_sum}, \"features_invariant_under_symmetries\": {invariant}}}\n"
    );
    write(&out.join(format!("{prefix}.json")), meta.as_bytes());
    eprintln!("{prefix}: {meta}");
    // The symmetries' maps of squares and of policy rows.
    let mut sq = Vec::new();
    let mut row_maps = Vec::new();
    for sym in Symmetry::ALL {
        let squares: Vec<String> = Square::all().map(|s| sym.square(s).index().to_string()).collect();
        sq.push(format!("[{}]", squares.join(",")));
        let mut map = vec![usize::MAX; MOVES];
        map[0] = 0;
        for from in Square::all() {
            for to in Square::all() {
                let (df, dr) = (to.file() - from.file(), to.rank() - from.rank());
                if from != to && (df == 0 || dr == 0 || df.abs() == dr.abs()) {
                    let m = Move::new(from, to);
                    map[move_row(m)] = move_row(sym.mv(m));
                }
            }
        }
        assert!(map.iter().all(|&r| r < MOVES));
        let strs: Vec<String> = map.iter().map(usize::to_string).collect();
        row_maps.push(format!("[{}]", strs.join(",")));
    }
    let sym = format!(
        "{{\"square\": [{}], \"row\": [{}], \"features_invariant\": {invariant}}}\n",
        sq.join(","),
        row_maps.join(",")
    );
    write(&out.join("sym.json"), sym.as_bytes());
}
