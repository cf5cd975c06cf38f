//! Every binary format checked whole: each byte of a small file flipped, one at a time, is
//! refused (with the offset where the format has one) or reads as exactly the same thing; none
//! reads as something else. The explorer's database has the same test beside its code.

use rand::SeedableRng;
use rand::rngs::SmallRng;
use yolah_ai::data::{self, Header, Sample};
use yolah_ai::eval::network::parameters::Parameters;
use yolah_ai::eval::network::shape::Shape;
use yolah_core::Position;

/// `good` with byte `at` flipped.
fn flipped(good: &[u8], at: usize) -> Vec<u8> {
    let mut bytes = good.to_vec();
    bytes[at] ^= 0xFF;
    bytes
}

/// Each byte of `good` flipped in turn is refused by `read`.
fn every_flip_refused<T, E>(good: &[u8], read: impl Fn(&[u8]) -> Result<T, E>) {
    assert!(read(good).is_ok());
    for at in 0..good.len() {
        assert!(
            read(&flipped(good, at)).is_err(),
            "byte {at} of {} flipped: read as a network",
            good.len()
        );
    }
}

#[test]
fn every_flipped_byte_of_a_network_is_refused() {
    let shape = Shape {
        hidden: 16,
        second: 2,
        third: 0,
        buckets: 1,
        features: false,
    };
    every_flip_refused(
        &Parameters::zeros(shape).to_bytes(3),
        Parameters::from_bytes,
    );
}

#[test]
fn every_flipped_byte_of_an_alphazero_network_is_refused() {
    use yolah_ai::players::alphazero::network::Parameters;
    every_flip_refused(
        &Parameters::random(8, false, 5).to_bytes(),
        Parameters::from_bytes,
    );
}

/// Training data: a flip is refused with its offset, or read as a last block cut short (said,
/// with its offset), or (the run's fingerprint, which names the run and is checked against it
/// on resume) reads the same samples and games.
#[test]
fn every_flipped_byte_of_training_data_is_refused_or_reads_the_same() {
    let mut rng = SmallRng::seed_from_u64(3);
    let mut bytes = Header {
        fingerprint: 0x0123_4567_89ab_cdef,
        shard: None,
    }
    .to_bytes()
    .to_vec();
    for game in 0..2 {
        let mut position = Position::start();
        let mut samples = Vec::new();
        for _ in 0..3 + game {
            position.play(position.random_move(&mut rng));
            samples.push(Sample {
                position,
                result: 1,
                margin: 3,
                score: 120,
                exact: (game == 1).then_some(2),
            });
        }
        data::write_block(&mut bytes, data::VERSION, &samples).unwrap();
    }
    let good = data::read(&bytes).unwrap();
    assert_eq!(good.blocks, [3, 4]);
    let mut same = 0;
    for at in 0..bytes.len() {
        match data::read(&flipped(&bytes, at)) {
            Err(error) => assert!(
                error.to_string().contains("offset") || error.to_string().contains("byte"),
                "byte {at}: {error}"
            ),
            // A block's count flipped reads as a last block cut short (as a kill leaves
            // one): said, with its offset, and nothing after it read.
            Ok(read) if read.damaged.is_some() => {
                let damage = read.damaged.as_ref().unwrap();
                assert!(damage.offset <= at as u64, "byte {at}: {damage}");
                assert!(good.blocks.starts_with(&read.blocks), "byte {at}");
                assert!(good.samples.starts_with(&read.samples), "byte {at}");
            }
            Ok(read) => {
                assert!(
                    read.samples == good.samples && read.blocks == good.blocks,
                    "byte {at} flipped: read as other data"
                );
                assert!(
                    (16..24).contains(&at),
                    "byte {at} flipped: read as the same"
                );
                same += 1;
            }
        }
    }
    assert_eq!(same, 8, "the fingerprint's bytes read the same samples");
}
