//! The schedule, the records and the tournament directory: create, resume, damage.

use std::collections::HashMap;
use std::io::Write;
use yolah_ai::arena::record::{GameRecord, read_records};
use yolah_ai::arena::tournament::{Config, Crosstable, Store, play_scheduled};

fn config(games_per_pair: u32) -> Config {
    Config {
        specs: vec![
            "random:seed=1".into(),
            "random:seed=2".into(),
            "montecarlo:iterations=50".into(),
        ],
        games_per_pair,
        random_plies: 4,
        seed: 11,
    }
}

#[test]
fn every_pair_meets_in_swapped_pairs_of_games() {
    for games_per_pair in [1, 4, 5] {
        let config = config(games_per_pair);
        let schedule = config.schedule();
        assert_eq!(schedule.len(), 3 * games_per_pair as usize);
        let mut by_opening: HashMap<u64, Vec<(usize, usize)>> = HashMap::new();
        for (n, game) in schedule.iter().enumerate() {
            assert_eq!(game.game, n as u64);
            by_opening
                .entry(game.opening_seed)
                .or_default()
                .push((game.black, game.white));
        }
        for pairings in by_opening.values() {
            match pairings.as_slice() {
                [(a, b), (c, d)] => assert_eq!((a, b), (d, c), "colours swapped"),
                [_] => assert_eq!(games_per_pair % 2, 1, "only an odd count leaves one"),
                other => panic!("an opening used {} times", other.len()),
            }
        }
        assert_eq!(
            schedule,
            config.schedule(),
            "the schedule is a function of the config"
        );
    }
}

#[test]
fn records_round_trip_and_damage_is_refused() {
    let config = config(2);
    let specs = config.players().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = Store::new(dir.path());
    let mut writer = store.create(&config).unwrap();
    let records: Vec<GameRecord> = config
        .schedule()
        .into_iter()
        .take(4)
        .map(|game| play_scheduled(&config, &specs, game))
        .collect();
    for record in &records {
        writer.write(record).unwrap();
    }
    drop(writer);
    let games = dir.path().join("games.csv");
    assert_eq!(read_records(&games).unwrap(), records);
    let table = Crosstable::new(&config.specs, &records).unwrap();
    assert_eq!((0..3).map(|i| table.games(i)).sum::<u32>(), 8);

    // A second start in the same directory would lose the games: refused.
    let error = store.create(&config).err().unwrap().to_string();
    assert!(error.contains("add --resume"), "{error}");

    // A partial row (a kill during a write) is cut; the complete rows stay.
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&games)
        .unwrap();
    file.write_all(b"4,random:seed=1,random:se").unwrap();
    drop(file);
    let resumed = store.resume().unwrap();
    assert!(resumed.cut_partial_row);
    assert_eq!(resumed.records, records);
    assert_eq!(resumed.config, config);
    drop(resumed);

    // A tampered move is found and located.
    let text = std::fs::read_to_string(&games).unwrap();
    let first_move = records[1].moves.split(' ').next().unwrap();
    let tampered = text.replacen(
        &records[1].moves,
        &records[1].moves.replacen(first_move, "a1:h8", 1),
        1,
    );
    std::fs::write(&games, &tampered).unwrap();
    let error = store.resume().err().unwrap().to_string();
    assert!(
        error.contains("line 3") && error.contains("illegal"),
        "{error}"
    );

    // A game recorded twice is refused.
    let doubled = format!("{text}{}", text.lines().nth(1).unwrap());
    std::fs::write(&games, format!("{doubled}\n")).unwrap();
    let error = store.resume().err().unwrap().to_string();
    assert!(error.contains("recorded twice"), "{error}");

    // A result that does not match the moves is refused.
    let wrong = text.replacen(
        &records[0].result,
        if records[0].result == "1-0" {
            "0-1"
        } else {
            "1-0"
        },
        1,
    );
    std::fs::write(&games, wrong).unwrap();
    let error = store.resume().err().unwrap().to_string();
    assert!(error.contains("the record says"), "{error}");
}

#[test]
fn a_directory_without_a_tournament_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let error = Store::new(dir.path()).resume().err().unwrap().to_string();
    assert!(error.contains("tournament.json"), "{error}");
    std::fs::write(dir.path().join("tournament.json"), "{\"specs\": 3}").unwrap();
    let error = Store::new(dir.path()).resume().err().unwrap().to_string();
    assert!(
        error.contains("tournament.json") && error.contains("invalid type"),
        "{error}"
    );
}
