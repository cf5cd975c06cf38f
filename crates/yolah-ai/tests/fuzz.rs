//! Mutated inputs never panic: positions, moves, player specs, record rows and PGN games, each a valid
//! text with random edits (bytes replaced, inserted or deleted, pieces of other inputs
//! spliced in), fed to the parsers and to what runs on what they accept. `cargo test` builds
//! with overflow checks and debug assertions on, so an arithmetic overflow is a panic here too.
//! 5 × 2,500 = 12,500 inputs a run.

use proptest::prelude::*;
use yolah_ai::Spec;
use yolah_ai::arena::pgn;
use yolah_ai::arena::record::RecordFile;
use yolah_ai::eval::{Features, Weights};
use yolah_core::{Move, Position};

const CASES: u32 = 2_500;

const POSITIONS: &[&str] = &[
    "w6b/8/8/3bw3/3wb3/8/8/b6w b 0 0 0",
    "xxxbxx1x/xxxxxwxx/xxxx1xxb/xw1xx1xx/bxxxx3/xxw1xxxx/1x1xxwx1/x1xxxbxx b 21 23 46",
    "xxbxxbxx/wxxxwxxx/xxxxxxxw/xxxxxxxx/xbxxxxxx/xxxxxxxb/xxwxxxxx/xxxxxxxx b 24 32 64",
    "bbxxxxxx/bbxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxx1w/xxxxw1ww w 28 26 55",
];

const MOVES: &[&str] = &["e4:g2", "a1:a1", "h8:h1", "d5:d8", "b3:c4"];

const SPECS: &[&str] = &[
    "mcts:time=100ms,c=0.7,threads=2",
    "minimax:depth=8,tt=64,lmr=off",
    "montecarlo:iterations=20000,seed=7",
    "random:seed=18446744073709551615",
    "minimax:nodes=200000,time=1.5s",
    "mcts:tree=96,time=1h",
    "minimax:tc=10s+100ms,depth=3",
    "engine:option.Hash=64,option.Player=mcts,time=20ms,cmd=yolah engine",
];

const PGN: &[&str] = &[
    "[Event \"yolah match\"]\n[Black \"minimax\"]\n[White \"random\"]\n[Result \"*\"]\n\n1. e4:g2 d4:b2 *\n\n",
    "[Event \"x\"]\n[FEN \"xxxbxx1x/xxxxxwxx/xxxx1xxb/xw1xx1xx/bxxxx3/xxw1xxxx/1x1xxwx1/x1xxxbxx b 21 23 46\"]\n[Termination \"normal\"]\n\n{a comment} 1-0\n\n",
];

const ROWS: &[&str] = &[
    "0,0123456789abcdef,random:seed=1,random:seed=2,1-0,33,27,4,0.1,0.1,0.0,0.0,e4:g2 d4:b2",
    "3,,\"mcts:time=20ms,c=0.5\",random,1/2-1/2,30,30,4,12.5,0.0,1.2,0.0,a1:a1",
];

const HEADER: &str = "game,config,black,white,result,black_score,white_score,opening_plies,\
                      black_ms,white_ms,black_max_ms,white_max_ms,moves";

/// One edit: (kind, where, byte).
type Edit = (u8, usize, u8);

/// Applies `edits` to `text`; `other` is another input whose pieces may be spliced in.
fn mutate(text: &str, other: &str, edits: &[Edit]) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for &(kind, at, byte) in edits {
        let at = if bytes.is_empty() {
            0
        } else {
            at % bytes.len()
        };
        match kind % 6 {
            0 if !bytes.is_empty() => bytes[at] = byte,
            1 => bytes.insert(at, byte),
            2 if !bytes.is_empty() => {
                bytes.remove(at);
            }
            // Characters the formats care about.
            3 => {
                let special = b":/ ,=x9-\n\"";
                bytes.insert(at, special[usize::from(byte) % special.len()]);
            }
            4 => {
                let piece = &other.as_bytes()[..usize::from(byte) % (other.len() + 1)];
                bytes.splice(at..at, piece.iter().copied());
            }
            _ => bytes.truncate(at),
        }
    }
    bytes
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    proptest::collection::vec((any::<u8>(), any::<usize>(), any::<u8>()), 1..6)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: CASES,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn mutated_positions_never_panic(i in 0..POSITIONS.len(), j in 0..POSITIONS.len(), edits in edits()) {
        let bytes = mutate(POSITIONS[i], POSITIONS[j], &edits);
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(mut position) = text.parse::<Position>() {
            // What runs on an accepted position: moves, play and undo, the evaluation, a
            // short search, and the text again.
            let _ = position.to_string().parse::<Position>().unwrap();
            let moves = position.moves();
            let _ = Features::of(&position);
            let _ = Weights::tuned().evaluate(&position);
            if !position.game_over() {
                let m = moves.as_slice()[0];
                position.play(m);
                position.undo(m);
                let spec: Spec = "minimax:depth=2,tt=1".parse().unwrap();
                let report = spec.agent(1).choose(&position);
                prop_assert!(position.check_move(report.mv).is_ok());
            }
        }
    }

    #[test]
    fn mutated_moves_never_panic(i in 0..MOVES.len(), j in 0..POSITIONS.len(), edits in edits()) {
        let bytes = mutate(MOVES[i], POSITIONS[j], &edits);
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(m) = text.parse::<Move>() {
            for position in POSITIONS {
                let position: Position = position.parse().unwrap();
                let _ = position.check_move(m);
            }
        }
    }

    #[test]
    fn mutated_specs_never_panic(i in 0..SPECS.len(), j in 0..SPECS.len(), edits in edits()) {
        let bytes = mutate(SPECS[i], SPECS[j], &edits);
        let text = String::from_utf8_lossy(&bytes);
        match text.parse::<Spec>() {
            // Accepted: its limits, and its canonical text parses to the same player.
            Ok(spec) => {
                let _ = spec.limits();
                let again: Spec = spec.to_string().parse().unwrap();
                prop_assert_eq!(again, spec);
            }
            Err(error) => prop_assert!(!error.to_string().contains('\n')),
        }
    }

    #[test]
    fn mutated_record_rows_never_panic(i in 0..ROWS.len(), j in 0..ROWS.len(), edits in edits()) {
        let row = mutate(ROWS[i], ROWS[j], &edits);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv");
        let mut file = format!("{HEADER}\n").into_bytes();
        file.extend_from_slice(&row);
        std::fs::write(&path, &file).unwrap();
        let _ = RecordFile::read(&path);
    }

    #[test]
    fn mutated_pgn_never_panics(i in 0..PGN.len(), j in 0..PGN.len(), edits in edits()) {
        let bytes = mutate(PGN[i], PGN[j], &edits);
        let text = String::from_utf8_lossy(&bytes);
        match pgn::parse(&text) {
            // Accepted: every game's moves are legal from its start.
            Ok((games, _)) => {
                for game in games {
                    let _ = game.end();
                }
            }
            Err(error) => prop_assert!(!error.to_string().contains('\n')),
        }
    }
}
