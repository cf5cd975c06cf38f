//! The unit tests of `zero.rs`.

use super::*;

/// Self-play with PUCT's root at `visits`, root noise `noise`, moves drawn for `explore`
/// plies, every move searched fully.
fn puct(visits: u64, noise: f32, explore: u32) -> SelfPlay {
    SelfPlay {
        visits,
        noise,
        explore,
        gumbel: None,
        cap: None,
        exact: None,
    }
}

fn some_samples(count: usize, seed: u64) -> Vec<Sample> {
    let network = Arc::new(Parameters::random(16, false, seed));
    let play = puct(16, 0.25, 10);
    let mut samples = play_games(&network, play, seed, 0..4);
    samples.truncate(count);
    samples
}

/// With the playout cap every move searched fully (`full` 1) gives the very samples of
/// a run without it; with a quarter of them, about a quarter of the moves are recorded,
/// every sample's policy still a full search's (its shares add up to 1 over visits of a
/// full search: multiples of 1/16), and the same seed gives the same samples.
#[test]
fn the_playout_cap_records_the_full_searches_only() {
    let network = Arc::new(Parameters::random(16, false, 3));
    let play = puct(16, 0.25, 10);
    let capped = |full: f64| SelfPlay {
        cap: Some(PlayoutCap { fast: 4, full }),
        ..play
    };
    let key = |samples: &[Sample]| -> Vec<(Position, Vec<u32>)> {
        samples
            .iter()
            .map(|s| (s.position, s.policy.iter().map(|x| x.to_bits()).collect()))
            .collect()
    };
    let plain = play_games(&network, play, 5, 0..6);
    assert_eq!(
        key(&play_games(&network, capped(1.0), 5, 0..6)),
        key(&plain)
    );
    let quarter = play_games(&network, capped(0.25), 5, 0..6);
    assert_eq!(
        key(&play_games(&network, capped(0.25), 5, 0..6)),
        key(&quarter)
    );
    // Each game has about 50 moves with a choice: about 12 recorded of each.
    let share = quarter.len() as f64 / plain.len() as f64;
    assert!(
        (0.1..0.45).contains(&share),
        "{} of {} recorded",
        quarter.len(),
        plain.len()
    );
    for sample in &quarter {
        let total: f32 = sample.policy.iter().sum();
        assert!((total - 1.0).abs() < 1e-4, "{total}");
        for share in &sample.policy {
            let visits = share * 16.0;
            assert!(
                (visits - visits.round()).abs() < 1e-3,
                "{share} of 16 visits"
            );
        }
    }
}

/// Every parameter's gradient agrees with a central difference of the loss, with and
/// without features (the value target half result, half search, the margin's loss
/// weighted 0.7).
#[test]
fn gradients_agree_with_finite_differences() {
    for features in [false, true] {
        gradients_agree(Parameters::random(16, features, 7));
    }
}

fn gradients_agree(mut network: Parameters) {
    const MARGIN_WEIGHT: f32 = 0.7;
    // Biases and heads away from zero, so every path carries gradient.
    let mut rng = SmallRng::seed_from_u64(3);
    for array in network.arrays_mut() {
        for x in array.iter_mut() {
            *x += (rng.random::<f32>() - 0.5) * 0.2;
        }
    }
    let samples = some_samples(6, 1);
    let loss = |net: &Parameters| -> f64 {
        samples
            .iter()
            .map(|s| {
                let mut g = Gradient::like(net);
                let part = backward(
                    net,
                    s,
                    0.5,
                    MARGIN_WEIGHT,
                    &mut Activations::default(),
                    &mut g,
                );
                f64::from(part.policy)
                    + f64::from(part.value)
                    + f64::from(MARGIN_WEIGHT * part.margin)
            })
            .sum()
    };
    let mut gradient = Gradient::like(&network);
    for s in &samples {
        backward(
            &network,
            s,
            0.5,
            MARGIN_WEIGHT,
            &mut Activations::default(),
            &mut gradient,
        );
    }
    // The loss at parameter `k` of array `a` moved by `step`.
    let moved = |a: usize, k: usize, step: f32| {
        let mut net = network.clone();
        net.arrays_mut()[a][k] += step;
        loss(&net)
    };
    let (mut checked, mut kinks) = (0, 0);
    let eps = 1e-3f32;
    for a in 0..network.arrays().len() {
        let len = network.arrays()[a].len();
        for k in (0..len).step_by((len / 400).max(1)) {
            let analytic = f64::from(gradient.0.arrays()[a][k]);
            let tolerance = 2e-2 * (1.0 + analytic.abs());
            let (below, here, above) = (moved(a, k, -eps), moved(a, k, 0.0), moved(a, k, eps));
            let (left, right) = (
                (here - below) / f64::from(eps),
                (above - here) / f64::from(eps),
            );
            // Where the slopes on either side differ, a relu changes sides within the
            // step: the loss has a kink there, and no difference is its gradient.
            if (left - right).abs() >= tolerance / 2.0 {
                kinks += 1;
                continue;
            }
            let numeric = (above - below) / (2.0 * f64::from(eps));
            assert!(
                (numeric - analytic).abs() < tolerance,
                "array {a}[{k}]: numeric {numeric}, analytic {analytic}"
            );
            checked += usize::from(analytic != 0.0);
        }
    }
    assert!(checked > 100, "{checked} nonzero gradients checked");
    let margin = (gradient.0.margin.iter()).filter(|&&g| g != 0.0).count();
    assert!(
        margin > 8,
        "{margin} of the margin head's gradients are not 0"
    );
    if network.features {
        let features = (gradient.0.wf.iter()).filter(|&&g| g != 0.0).count();
        assert!(
            features > 50,
            "{features} of the features' gradients are not 0"
        );
    }
    assert!(
        kinks * 20 < checked,
        "{kinks} kinks skipped, {checked} checked"
    );
}

#[test]
fn samples_survive_their_file_and_damage_is_refused() {
    let samples = some_samples(200, 2);
    assert!(samples.len() > 100);
    let bytes = samples_to_bytes(&samples);
    let back = samples_from_bytes(&bytes).expect("its own file");
    assert_eq!(back.len(), samples.len());
    for (a, b) in samples.iter().zip(&back) {
        assert_eq!(a.position, b.position);
        assert_eq!(a.result.to_bits(), b.result.to_bits());
        assert!((a.search - b.search).abs() <= 0.5 / SEARCH_SCALE);
        assert_eq!(a.margin, b.margin);
        for (x, y) in a.policy.iter().zip(&b.policy) {
            assert!((x - y).abs() < 1e-4);
        }
    }
    let mut damaged = bytes.clone();
    damaged[100] ^= 1;
    assert!(samples_from_bytes(&damaged).unwrap_err().contains("hash"));
    assert!(samples_from_bytes(&bytes[..bytes.len() - 3]).is_err());
    assert!(
        samples_from_bytes(b"not a samples file at all")
            .unwrap_err()
            .contains("YOLAHZS3")
    );
    // The file's hash made right after a change.
    let rehash = |bytes: &mut Vec<u8>| {
        let body = bytes.len() - 8;
        let hash = fnv1a(&bytes[..body]);
        bytes[body..].copy_from_slice(&hash.to_le_bytes());
    };
    let mut outside = samples[..1].to_vec();
    outside[0].search = 1.0;
    let mut bytes = samples_to_bytes(&outside);
    // The search's value is the two bytes after the result: 32,767 becomes 32,767 + 1.
    bytes[12 + 29] = 0x00;
    bytes[12 + 30] = 0x80;
    rehash(&mut bytes);
    assert!(
        samples_from_bytes(&bytes)
            .unwrap_err()
            .contains("the search's value -1.00003")
    );
    // A margin whose sign disagrees with the result (the byte after the search's
    // value), its hash made right, then one out of the squares' reach: refused.
    let mut won = samples[..1].to_vec();
    won[0].result = 1.0;
    won[0].margin = Some(3.0);
    let mut bytes = samples_to_bytes(&won);
    bytes[12 + 31] = (-3i8) as u8;
    rehash(&mut bytes);
    assert!(
        samples_from_bytes(&bytes)
            .unwrap_err()
            .contains("a final margin of -3 points with the result 1")
    );
    let free = 64 - won[0].position.occupied().count();
    bytes[12 + 31] = (free + 1) as u8;
    rehash(&mut bytes);
    let error = samples_from_bytes(&bytes).unwrap_err();
    assert!(
        error.contains(&format!("where the lead is 0 with {free} squares free")),
        "{error}"
    );
    bytes[12 + 31] = free as u8;
    rehash(&mut bytes);
    assert!(samples_from_bytes(&bytes).is_ok());
}

/// Each sample's margin is its game's final score difference for its side to move:
/// the sign of its result, the same for every position of one side in a game, opposite
/// for the other side's.
#[test]
fn each_sample_keeps_its_game_s_final_margin() {
    let network = Arc::new(Parameters::random(16, false, 11));
    let mut decided = 0;
    for n in 0..6 {
        let samples = play_game(&network, puct(16, 0.25, 10), n);
        let first = samples[0].margin.expect("a margin");
        let first_mover = samples[0].position.side_to_move();
        for s in &samples {
            let m = s.margin.expect("a margin");
            assert_eq!(sign(m), sign(s.result), "{m} with {}", s.result);
            let same = s.position.side_to_move() == first_mover;
            let expected = if same { first } else { -first };
            assert!((m - expected).abs() < 0.5, "{m} against {expected}");
            // The lead can change by no more than the squares left to move to.
            let p = &s.position;
            let mover = p.side_to_move();
            let now = f32::from(p.score(mover)) - f32::from(p.score(mover.opponent()));
            assert!((m - now).abs() <= 64.0 - p.occupied().count() as f32);
        }
        decided += usize::from(first != 0.0);
    }
    assert!(decided >= 3, "{decided} of 6 games decided");
}

/// With exact targets the same games are played, and each sample the solver proves
/// (those with at most 14 free squares, from the end back) learns its value with best
/// play: its margin a solver of its own proves for it, its result that margin's sign.
/// The others keep their game's; the samples still pass the reader's checks. A random
/// network's games are far from best play, so some exact targets differ from the game's.
#[test]
fn exact_targets_are_the_solver_s_values() {
    const FREE: u32 = 14;
    let network = Arc::new(Parameters::random(16, false, 13));
    let exact = Exact {
        free: FREE,
        nodes: 1_000_000,
    };
    let mut solver = yolah_ai::players::minimax::Minimax::solver(16, 1);
    let (mut proved, mut changed) = (0, 0);
    for n in 0..4 {
        let game = play_game(&network, puct(16, 0.25, 10), n);
        let labelled = play_game(
            &network,
            SelfPlay {
                exact: Some(exact),
                ..puct(16, 0.25, 10)
            },
            n,
        );
        assert_eq!(game.len(), labelled.len());
        for (g, l) in game.iter().zip(&labelled) {
            assert_eq!(g.position, l.position);
            assert_eq!(g.policy, l.policy);
            let free = 64 - l.position.occupied().count();
            if free > FREE {
                assert_eq!(g, l, "{}", l.position);
                continue;
            }
            let margin = solver.prove(&l.position, 10_000_000).expect("proved");
            assert_eq!(l.margin, Some(margin as f32), "{}", l.position);
            assert_eq!(sign(l.result), margin.signum(), "{}", l.position);
            proved += 1;
            changed += usize::from(g.margin != l.margin);
        }
        let read = samples_from_bytes(&samples_to_bytes(&labelled)).expect("reads");
        let targets = |s: &[Sample]| -> Vec<(u32, Option<u32>)> {
            s.iter()
                .map(|s| (s.result.to_bits(), s.margin.map(f32::to_bits)))
                .collect()
        };
        assert_eq!(targets(&read), targets(&labelled));
    }
    assert!(proved >= 20, "{proved} samples proved");
    assert!(
        changed >= 1,
        "{changed} of {proved} exact margins differ from the games'"
    );
}

/// A file made before the final margin was kept: `tests/data/zs2-games.bin`, eight games
/// written by the build of 31d6428 (`yolah zero --out DIR --generations 1 --games 8
/// --visits 4 --hidden 8 --epochs 1 --test-games 2 --opponent random --threads 1 --seed
/// 5`, its `gen-001/games-0000.bin`). It still reads, with no margins; the trainer leaves
/// the margin head alone on them.
#[test]
fn files_without_the_margin_still_read() {
    let old = include_bytes!("../../tests/data/zs2-games.bin");
    assert_eq!(&old[..8], SAMPLES_MAGIC_WITHOUT_MARGIN);
    let samples = samples_from_bytes(old).expect("a YOLAHZS2 file");
    assert!(samples.len() > 100, "{} samples", samples.len());
    assert!(samples.iter().all(|s| s.margin.is_none()));
    assert!(
        samples
            .iter()
            .any(|s| s.search.to_bits() != s.result.to_bits())
    );
    let mut trainer = Trainer::new(Parameters::random(8, false, 2), 1e-3);
    trainer.margin_weight = 1.0;
    // Without decay: on these samples the margin's gradient alone could move the head.
    trainer.weight_decay = 0.0;
    let head = (trainer.network.margin.clone(), trainer.network.margin_bias);
    let value = trainer.network.value.clone();
    trainer.train(&samples, 1, 64, false, 1, &mut |_, losses| {
        assert_eq!(losses.margin.to_bits(), 0);
    });
    assert_eq!(trainer.network.margin, head.0);
    assert_eq!(trainer.network.margin_bias.to_bits(), head.1.to_bits());
    assert_ne!(trainer.network.value, value);
}

/// A file made before the search's value was kept: `tests/data/zs1-games.bin`, eight
/// games written by the build of bed1542 (`yolah zero --out DIR --generations 1 --games 8
/// --visits 4 --hidden 8 --epochs 1 --test-games 2 --opponent random --threads 1 --seed 5`,
/// its `gen-001/games-0000.bin`). It still reads, each sample's search value its result,
/// and written again as `YOLAHZS3` it reads back the same, still without margins.
#[test]
fn files_without_the_search_value_still_read() {
    let old = include_bytes!("../../tests/data/zs1-games.bin");
    assert_eq!(&old[..8], SAMPLES_MAGIC_RESULT_ONLY);
    let samples = samples_from_bytes(old).expect("a YOLAHZS1 file");
    assert!(samples.len() > 100, "{} samples", samples.len());
    assert!(
        samples
            .iter()
            .all(|s| s.search.to_bits() == s.result.to_bits())
    );
    assert!(samples.iter().any(|s| s.result != 0.0));
    let again = samples_from_bytes(&samples_to_bytes(&samples)).expect("its new file");
    for (a, b) in samples.iter().zip(&again) {
        assert_eq!(a.position, b.position);
        assert_eq!(a.result.to_bits(), b.result.to_bits());
        assert_eq!(a.search.to_bits(), b.search.to_bits());
        assert_eq!(a.policy, b.policy);
        assert_eq!(b.margin, None);
    }
}

/// The search's value is its children's values weighted by their visits: with enough
/// visits, it says who wins more often than it is wrong in the games' last positions.
#[test]
fn the_search_value_leans_towards_the_result_late_in_games() {
    let network = Arc::new(Parameters::random(16, false, 9));
    let play = puct(200, 0.0, 0);
    let samples = play_games(&network, play, 9, 0..16);
    let late: Vec<&Sample> = samples
        .iter()
        .filter(|s| s.position.occupied().count() >= 54 && s.result != 0.0)
        .collect();
    assert!(late.len() > 20, "{} late positions", late.len());
    let agree = late.iter().filter(|s| s.search * s.result > 0.0).count();
    assert!(
        agree * 4 > late.len() * 3,
        "{agree} of {} agree in sign",
        late.len()
    );
    assert!(samples.iter().all(|s| (-1.0..=1.0).contains(&s.search)));
}

#[test]
fn a_symmetric_sample_keeps_its_shares_on_the_images_of_its_moves() {
    for sample in some_samples(30, 3) {
        for symmetry in Symmetry::ALL {
            let image = transformed(&sample, symmetry);
            let total: f32 = image.policy.iter().sum();
            let before: f32 = sample.policy.iter().sum();
            assert!((total - before).abs() < 1e-5);
            assert_eq!(image.result.to_bits(), sample.result.to_bits());
        }
    }
}

/// Training lowers both losses on the games it learns from (the policy's to within half
/// its distance to the targets' entropy).
#[test]
fn training_fits_its_samples() {
    let samples = some_samples(400, 4);
    let mut trainer = Trainer::new(Parameters::random(32, false, 4), 3e-3);
    // The cross-entropy cannot fall below the targets' own entropy.
    let entropy: f32 = samples
        .iter()
        .map(|s| {
            -s.policy
                .iter()
                .filter(|&&p| p > 0.0)
                .map(|p| p * p.ln())
                .sum::<f32>()
        })
        .sum::<f32>()
        / samples.len() as f32;
    let before = losses(&trainer.network, &samples);
    trainer.train(&samples, 30, 64, false, 1, &mut |_, _| {});
    let after = losses(&trainer.network, &samples);
    assert!(
        after.policy - entropy < 0.5 * (before.policy - entropy),
        "entropy {entropy}: {before:?} → {after:?}"
    );
    assert!(after.value < 0.8 * before.value, "{before:?} → {after:?}");
}

/// With the margin's weight, training fits the margin head to the games' final margins
/// (its squared error falls by more than half); without it, the head is left as it is
/// (weight decay too leaves it alone).
#[test]
fn training_fits_the_margins_when_told() {
    let samples = some_samples(400, 8);
    let spread = samples
        .iter()
        .map(|s| (s.margin.expect("a margin") / MARGIN_SCALE).powi(2))
        .sum::<f32>()
        / samples.len() as f32;
    assert!(spread > 0.005, "{spread}");
    let trained = |weight: f32| {
        let mut trainer = Trainer::new(Parameters::random(32, false, 8), 3e-3);
        trainer.margin_weight = weight;
        trainer.train(&samples, 30, 64, false, 1, &mut |_, _| {});
        trainer.network
    };
    let start = Parameters::random(32, false, 8);
    let before = losses(&start, &samples).margin;
    let after = losses(&trained(1.0), &samples).margin;
    assert!(after < 0.5 * before, "{before} → {after}");
    let untrained = trained(0.0);
    assert_eq!(untrained.margin, start.margin);
    assert_eq!(untrained.margin_bias.to_bits(), start.margin_bias.to_bits());
}

/// With the search's value as the whole target, training fits the search's values, not
/// the results: here the opposite of the results.
#[test]
fn training_fits_the_search_values_when_told() {
    let mut samples = some_samples(400, 6);
    for s in &mut samples {
        s.search = -s.result;
    }
    let error = |network: &Parameters, target: fn(&Sample) -> f32| -> f32 {
        let mut act = Activations::default();
        let total: f32 = samples
            .iter()
            .map(|s| {
                let moves = s.position.moves();
                let v = network
                    .forward(&s.position, moves.as_slice(), &mut act)
                    .value;
                (v - target(s)).powi(2)
            })
            .sum();
        total / samples.len() as f32
    };
    let mut trainer = Trainer::new(Parameters::random(32, false, 6), 3e-3);
    trainer.value_mix = 1.0;
    let before = error(&trainer.network, |s| s.search);
    trainer.train(&samples, 30, 64, false, 1, &mut |_, _| {});
    let after = error(&trainer.network, |s| s.search);
    let to_results = error(&trainer.network, |s| s.result);
    assert!(after < 0.8 * before, "{before} → {after}");
    assert!(after < 0.5 * to_results, "{after} against {to_results}");
}
