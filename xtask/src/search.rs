//! Random search for one square's magic multiplier (book listing 12).

use crate::bitboard::Bitboard;
use crate::magic::Magic;
use crate::slider::{Slider, subsets};
use crate::square::Square;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A magic found for one square, with the number of candidates tried.
pub struct Found {
    pub magic: u64,
    pub candidates: u64,
}

/// Searches a magic for `slider` on `square`. The random stream depends only on
/// (`seed`, `slider`, `square`), so the result does not depend on thread scheduling.
pub fn find_magic(slider: Slider, square: Square, seed: u64) -> Found {
    let mask = slider.relevant_mask(square);
    let bits = mask.count();
    let occupancies: Vec<Bitboard> = subsets(mask).collect();
    let attacks: Vec<Bitboard> = occupancies
        .iter()
        .map(|&occupied| slider.reachable(square, occupied))
        .collect();

    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(stream(slider, square));
    // `epoch[i] == round` marks slot i as filled during this round: no clearing between rounds.
    let mut epoch = vec![0u64; 1 << bits];
    let mut filled = vec![Bitboard::EMPTY; 1 << bits];
    for round in 1.. {
        // Few set bits make good magics: AND three random numbers (book listing 12, line 80).
        let magic = rng.next_u64() & rng.next_u64() & rng.next_u64();
        // Cheap rejection (Stockfish): the mask's top byte must spread over enough bits.
        if (mask.0.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        let trial = Magic {
            mask: mask.0,
            magic,
            offset: 0,
            shift: 64 - bits,
        };
        let perfect = occupancies
            .iter()
            .zip(&attacks)
            .all(|(&occupied, &attack)| {
                let i = trial.local_index(occupied);
                if epoch[i] == round {
                    // A collision is harmless when both occupancies give the same moves.
                    filled[i] == attack
                } else {
                    epoch[i] = round;
                    filled[i] = attack;
                    true
                }
            });
        if perfect {
            return Found {
                magic,
                candidates: round,
            };
        }
    }
    unreachable!("the candidate loop only ends by returning")
}

fn stream(slider: Slider, square: Square) -> u64 {
    let kind = match slider {
        Slider::Orthogonal => 0,
        Slider::Diagonal => 1,
    };
    kind * 64 + square.index() as u64
}
