//! The network, in every shape the inference runs (first layers of 128 to 1024 units, a third
//! layer, output buckets, with and without the features): its file format (round trip,
//! version 1 still read, every rejection), the incremental accumulator against a recomputed
//! one along random games, the integer inference against the float network, and our float
//! network against the training library's forward pass.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use yolah_ai::eval::network::{
    self, Accumulators, MAX_INPUT_WEIGHT, Network, Parameters, Shape, max_second_weight,
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

/// The shapes tested: the version-1 shape, each first-layer size that ships, a third layer,
/// buckets, and no features.
fn shapes() -> Vec<Shape> {
    let mut shapes = vec![Shape::V1];
    for hidden in [256, 512, 1024] {
        shapes.push(Shape {
            hidden,
            second: 32,
            ..Shape::V1
        });
    }
    shapes.push(Shape {
        hidden: 256,
        second: 32,
        third: 16,
        buckets: 4,
        features: true,
    });
    shapes.push(Shape {
        hidden: 128,
        second: 16,
        third: 8,
        buckets: 2,
        features: false,
    });
    shapes
}

/// Parameters of `shape` that use much of the range the format allows, so the integer path
/// is tested at its limits (large first-layer weights) as well as with a trained network's.
fn wide_parameters(shape: Shape, seed: u64) -> Parameters {
    let mut p = initial_parameters(shape, seed);
    let mut rng = SmallRng::seed_from_u64(seed);
    for w in &mut p.input {
        *w = rng.random_range(-MAX_INPUT_WEIGHT..MAX_INPUT_WEIGHT) / 8.0;
    }
    let second = max_second_weight(shape.hidden).min(0.5);
    for s in &mut p.stacks {
        for w in &mut s.hidden {
            *w = rng.random_range(-second..second);
        }
        for w in s.dense.iter_mut().chain(&mut s.third).chain(&mut s.output) {
            *w = rng.random_range(-1.0..1.0);
        }
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
    for shape in shapes() {
        let p = wide_parameters(shape, 1);
        let bytes = p.to_bytes(17);
        assert_eq!(bytes.len(), 64 + 4 * shape.parameters() + 4, "{shape}");
        assert_eq!(Parameters::from_bytes(&bytes).unwrap(), p, "{shape}");
        assert_eq!(network::epochs_of(&bytes), 17);
    }
    let shipped = Parameters::from_bytes(network::SHIPPED).unwrap();
    assert_eq!(
        Parameters::from_bytes(&shipped.to_bytes(network::epochs_of(network::SHIPPED))).unwrap(),
        shipped
    );
}

#[test]
fn bad_files_are_refused_with_the_reason() {
    let good = wide_parameters(Shape::V1, 2).to_bytes(1);
    let size = good.len();
    let mut cases: Vec<(Vec<u8>, &str)> = vec![
        (Vec::new(), "no YOLAHNET magic"),
        (b"YOLAHPOS".repeat(10), "no YOLAHNET magic"),
        (good[..size - 1].to_vec(), "cut short or padded"),
        (good[..100].to_vec(), "cut short or padded"),
        (good[..40].to_vec(), "shorter than a version-2 header"),
        ([good.as_slice(), &[0]].concat(), "cut short or padded"),
    ];
    let mut version = good.clone();
    version[8] = 3;
    cases.push((version, "version 3; this yolah reads versions 1 and 2"));
    // Shapes the header states that this code does not run, each with its reason.
    for (offset, value, reason) in [
        (10, 190, "190 sparse inputs"),
        (
            12,
            100,
            "100 first-layer units; this yolah runs multiples of 16 up to 2048",
        ),
        (12, 4096, "4096 first-layer units"),
        (14, 0, "layers of 0 and 0 units"),
        (16, 200, "layers of 16 and 200 units"),
        (18, 9, "9 output buckets"),
        (20, 7, "7 dense inputs"),
    ] {
        let mut shape = good.clone();
        shape[offset..offset + 2].copy_from_slice(&(value as u16).to_le_bytes());
        cases.push((shape, reason));
    }
    // A header that states another valid shape than the body holds: the sizes disagree.
    let mut other = good.clone();
    other[12..14].copy_from_slice(&256u16.to_le_bytes());
    cases.push((other, "a network file of shape 193x256x16x1 has"));
    // The parameter count the header states is the shape's (P=10 loaded).
    let mut count = good.clone();
    count[28..32].copy_from_slice(&10u32.to_le_bytes());
    cases.push((
        with_crc(count),
        "the header's parameter count is 10; a network of shape 193x128x16x1 has 27287",
    ));
    let mut flipped = good.clone();
    flipped[5000] ^= 1;
    cases.push((flipped, "checksum"));
    let mut nan = good.clone();
    nan[64..68].copy_from_slice(&f32::NAN.to_le_bytes());
    cases.push((with_crc(nan), "parameter 0 is NaN"));
    let mut large = good.clone();
    large[68..72].copy_from_slice(&4.0f32.to_le_bytes());
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
fn version_1_files_still_load() {
    // The network shipped before the third generation (the second generation, 128 units, the version-1
    // shape), written with a version-1 header, then the same parameters.
    let shipped = Parameters::from_bytes(include_bytes!(
        "../../../benches/results/nn-gen2/network.yolahnet"
    ))
    .unwrap();
    assert_eq!(shipped.shape, Shape::V1);
    let v2 = shipped.to_bytes(30);
    let mut v1 = Vec::new();
    v1.extend_from_slice(b"YOLAHNET");
    v1.extend_from_slice(&1u16.to_le_bytes());
    for size in [193u16, 128, 16, 22, 0] {
        v1.extend_from_slice(&size.to_le_bytes());
    }
    v1.extend_from_slice(&(Shape::V1.parameters() as u32).to_le_bytes());
    v1.extend_from_slice(&30u32.to_le_bytes());
    v1.resize(32, 0);
    v1.extend_from_slice(&v2[64..v2.len() - 4]);
    let crc = crc32fast::hash(&v1);
    v1.extend_from_slice(&crc.to_le_bytes());
    assert_eq!(Parameters::from_bytes(&v1).unwrap(), shipped);
    assert_eq!(network::epochs_of(&v1), 30);
    // A version-1 header of another shape is refused: version 1 had one.
    let mut other = v1.clone();
    other[12..14].copy_from_slice(&256u16.to_le_bytes());
    let error = Parameters::from_bytes(&other).unwrap_err().to_string();
    assert!(error.contains("version 1 had only 193x128x16x1"), "{error}");
    // And its parameter count is the shape's.
    let mut count = v1.clone();
    count[20..24].copy_from_slice(&27_286u32.to_le_bytes());
    let n = count.len() - 4;
    let crc = crc32fast::hash(&count[..n]);
    count[n..].copy_from_slice(&crc.to_le_bytes());
    let error = Parameters::from_bytes(&count).unwrap_err().to_string();
    assert!(error.contains("parameter count is 27286"), "{error}");
}

#[test]
fn the_accumulators_follow_play_and_undo() {
    for shape in [Shape::V1, shapes()[3]] {
        accumulators_follow(&Network::new(wide_parameters(shape, 3)));
    }
}

/// Along random games, with moves undone and played again at random (as a search does), and
/// positions evaluated only now and then (the updates wait for them), the accumulator of the
/// line's end is always the one computed from scratch.
fn accumulators_follow(net: &Network) {
    let mut rng = SmallRng::seed_from_u64(4);
    for _ in 0..50 {
        let mut position = Position::start();
        let mut line = Accumulators::new(net, &position);
        let mut played = Vec::new();
        let mut checks = 0;
        while !position.game_over() {
            if !played.is_empty() && rng.random_range(0..4) == 0 {
                let m = played.pop().unwrap();
                position.undo(m);
                line.pop();
            } else {
                let legal = position.moves();
                let m = legal[rng.random_range(0..legal.len())];
                line.push(position.side_to_move(), m);
                position.play(m);
                played.push(m);
            }
            if rng.random_range(0..3) == 0 {
                assert_eq!(*line.current(net), net.accumulator(&position), "{position}");
                checks += 1;
            }
        }
        while let Some(m) = played.pop() {
            position.undo(m);
            line.pop();
            assert_eq!(
                *line.current(net),
                net.accumulator(&position),
                "undone to {position}"
            );
        }
        assert!(checks > 5, "{checks} checks");
        // A new root, and another network's size, start over.
        let other = Network::new(wide_parameters(shapes()[0], 9));
        let mut start = Position::start();
        line.reset(&other, &start);
        assert_eq!(*line.current(&other), other.accumulator(&start));
        let m = start.moves()[0];
        line.push(start.side_to_move(), m);
        start.play(m);
        assert_eq!(*line.current(&other), other.accumulator(&start));
    }
}

#[test]
fn the_integer_network_is_the_float_network() {
    let shipped = Parameters::from_bytes(network::SHIPPED).unwrap();
    let mut all = vec![shipped];
    for shape in shapes() {
        all.push(wide_parameters(shape, 5));
        all.push(initial_parameters(shape, 6));
    }
    for parameters in all {
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
        // Rounding to 1/255 in the first layer, its halving to 0..=128 and the second
        // layer's i8 weights (each unit's to 1/127 of its largest) move the output by
        // hundredths of a point; the second layer adds up one rounding per first-layer unit,
        // so the bound grows as the square root of their count: 0.1 points at 128 units,
        // twice that through a third layer (these test weights of up to 1 on 32 units can
        // double an error on its way out). The worst seen with i8 weights: 0.126 for the
        // shipped network (0.076 with the i16 weights before), 0.235 at 1024 units (0.211).
        let layers = if parameters.shape.third > 0 { 2.0 } else { 1.0 };
        let bound = 0.1 * layers * (parameters.shape.hidden as f32 / 128.0).sqrt();
        assert!(
            worst < bound,
            "{}: integer and float differ by {worst} points (bound {bound})",
            parameters.shape
        );
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
    let mut all = Vec::new();
    for shape in shapes() {
        all.push(wide_parameters(shape, 8));
        all.push(initial_parameters(shape, 9));
    }
    for parameters in all {
        let trainer = Trainer::new(&parameters, settings.clone());
        assert_eq!(trainer.parameters(), parameters);
        let positions = random_positions(60, 10);
        assert!(positions.len() > 2000);
        let theirs = trainer.forward(&positions);
        for (position, theirs) in positions.iter().zip(theirs) {
            let ours = parameters.forward(position);
            assert!(
                (ours - theirs).abs() <= 1e-4 * (1.0 + theirs.abs()),
                "{}: {position}: ours {ours}, the trainer's {theirs}",
                parameters.shape
            );
        }
    }
}
