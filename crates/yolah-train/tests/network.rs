//! The network: its file format (round trip, every rejection), the incremental accumulator
//! against a recomputed one along random games, the integer inference against the float
//! network, and our float network against the training library's forward pass.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use yolah_ai::eval::network::{
    self, FILE_SIZE, HIDDEN, INPUTS, MAX_INPUT_WEIGHT, Network, Parameters,
};
use yolah_core::{Color, Position};
use yolah_train::train::{Settings, Trainer, initial_parameters};

/// Every position of `games` random games, from the start.
fn random_positions(games: usize, seed: u64) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut positions = Vec::new();
    for _ in 0..games {
        let mut position = Position::start();
        while !position.game_over() {
            positions.push(position);
            let moves = position.moves();
            position.play(moves[rng.random_range(0..moves.len())]);
        }
        positions.push(position);
    }
    positions
}

/// Parameters that use the whole range the format allows, so the integer path is tested at
/// its limits (large first-layer weights) as well as with a trained network's.
fn wide_parameters(seed: u64) -> Parameters {
    let mut p = initial_parameters(seed);
    let mut rng = SmallRng::seed_from_u64(seed);
    for w in &mut p.input {
        *w = rng.random_range(-MAX_INPUT_WEIGHT..MAX_INPUT_WEIGHT) / 8.0;
    }
    for w in &mut p.hidden {
        *w = rng.random_range(-0.5..0.5);
    }
    for w in &mut p.dense {
        *w = rng.random_range(-1.0..1.0);
    }
    for w in &mut p.output {
        *w = rng.random_range(-1.0..1.0);
    }
    p
}

fn with_crc(mut bytes: Vec<u8>) -> Vec<u8> {
    let n = bytes.len() - 4;
    let crc = crc32fast::hash(&bytes[..n]);
    bytes[n..].copy_from_slice(&crc.to_le_bytes());
    bytes
}

#[test]
fn files_round_trip() {
    let p = wide_parameters(1);
    let bytes = p.to_bytes(17);
    assert_eq!(bytes.len(), FILE_SIZE);
    assert_eq!(Parameters::from_bytes(&bytes).unwrap(), p);
    assert_eq!(network::epochs_of(&bytes), 17);
    let shipped = Parameters::from_bytes(network::SHIPPED).unwrap();
    assert_eq!(
        Parameters::from_bytes(&shipped.to_bytes(network::epochs_of(network::SHIPPED))).unwrap(),
        shipped
    );
}

#[test]
fn bad_files_are_refused_with_the_reason() {
    let good = wide_parameters(2).to_bytes(1);
    let mut cases: Vec<(Vec<u8>, &str)> = vec![
        (Vec::new(), "no YOLAHNET magic"),
        (b"YOLAHPOS".repeat(10), "no YOLAHNET magic"),
        (good[..FILE_SIZE - 1].to_vec(), "cut short or padded"),
        (good[..100].to_vec(), "cut short or padded"),
        ([good.as_slice(), &[0]].concat(), "cut short or padded"),
    ];
    let mut version = good.clone();
    version[8] = 2;
    cases.push((version, "version 2"));
    let mut shape = good.clone();
    shape[12] = 64;
    cases.push((shape, "architecture 193x64x16x1 with 22 dense inputs"));
    let mut flipped = good.clone();
    flipped[5000] ^= 1;
    cases.push((flipped, "checksum"));
    let mut nan = good.clone();
    nan[32..36].copy_from_slice(&f32::NAN.to_le_bytes());
    cases.push((with_crc(nan), "parameter 0 is NaN"));
    let mut large = good.clone();
    large[36..40].copy_from_slice(&4.0f32.to_le_bytes());
    cases.push((with_crc(large), "parameter 1 is 4, outside ±1.9"));
    for (bytes, reason) in cases {
        let error = Parameters::from_bytes(&bytes).unwrap_err().to_string();
        assert!(error.contains(reason), "{error:?} should say {reason:?}");
        assert!(!error.contains('\n'));
    }
    let missing = Network::load(std::path::Path::new("/nonexistent/net.yolahnet")).unwrap_err();
    assert!(
        missing
            .to_string()
            .starts_with("cannot read network '/nonexistent/net.yolahnet'")
    );
}

#[test]
fn the_accumulator_follows_play_and_undo() {
    let net = Network::new(wide_parameters(3));
    let mut rng = SmallRng::seed_from_u64(4);
    for _ in 0..50 {
        let mut position = Position::start();
        let mut acc = net.accumulator(&position);
        let mut line = Vec::new();
        while !position.game_over() {
            let legal = position.moves();
            let m = legal[rng.random_range(0..legal.len())];
            let mover = position.side_to_move();
            net.play(&mut acc, mover, m);
            position.play(m);
            line.push((mover, m));
            assert_eq!(acc, net.accumulator(&position), "after {m} in {position}");
        }
        while let Some((mover, m)) = line.pop() {
            position.undo(m);
            net.undo(&mut acc, mover, m);
            assert_eq!(acc, net.accumulator(&position), "after undoing {m}");
        }
    }
}

#[test]
fn the_integer_network_is_the_float_network() {
    let shipped = Parameters::from_bytes(network::SHIPPED).unwrap();
    for parameters in [wide_parameters(5), initial_parameters(6), shipped] {
        let net = Network::new(parameters.clone());
        let mut worst = 0.0f32;
        for position in random_positions(60, 7) {
            let float = parameters.forward(&position);
            let integer = net.rest_for_black(&net.accumulator(&position), &position);
            worst = worst.max((float - integer).abs());
            // The search's value adds the points scored and takes the mover's side.
            let scored =
                f32::from(position.score(Color::Black)) - f32::from(position.score(Color::White));
            let sign = if position.side_to_move() == Color::Black {
                1.0
            } else {
                -1.0
            };
            let value = net.evaluate(&net.accumulator(&position), &position);
            assert!((value as f32 - sign * 100.0 * (scored + integer)).abs() <= 1.0);
        }
        // Rounding to 1/255 in the first layer and 1/256 in the second moves the output by
        // hundredths of a point.
        assert!(worst < 0.1, "integer and float differ by {worst} points");
    }
}

#[test]
fn our_float_network_is_the_training_librarys() {
    let settings = Settings {
        batch: 64,
        learning_rate: 1e-3,
        epochs: 1,
        seed: 1,
    };
    for parameters in [wide_parameters(8), initial_parameters(9)] {
        let trainer = Trainer::new(&parameters, settings.clone()).unwrap();
        assert_eq!(trainer.parameters().unwrap(), parameters);
        let positions = random_positions(60, 10);
        assert!(positions.len() > 2000);
        let theirs = trainer.forward(&positions).unwrap();
        for (position, theirs) in positions.iter().zip(theirs) {
            let ours = parameters.forward(position);
            assert!(
                (ours - theirs).abs() <= 1e-4 * (1.0 + theirs.abs()),
                "{position}: ours {ours}, candle's {theirs}"
            );
        }
    }
    assert_eq!(INPUTS * HIDDEN, network::BOARD_INPUTS * HIDDEN + HIDDEN);
}
