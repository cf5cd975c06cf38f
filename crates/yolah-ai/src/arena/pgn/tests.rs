//! The PGN reader's and writer's tests.

use super::game::*;
use super::read::*;
use super::tags::*;
use super::write::*;
use crate::arena::record::{GameRecord, PROVED};
use std::fs::OpenOptions;
use std::io;
use std::path::Path;
use yolah_core::Position;

#[test]
fn dates_are_the_calendar_dates() {
    assert_eq!(civil_from_days(0), (1970, 1, 1));
    assert_eq!(civil_from_days(20_417), (2025, 11, 25));
    assert_eq!(civil_from_days(11_016), (2000, 2, 29));
}

#[test]
fn time_controls_are_written_in_seconds() {
    let tc = |t: &str| time_control_tag(t.parse().unwrap());
    assert_eq!(tc("10s+100ms"), "10+0.1");
    assert_eq!(tc("1min"), "60");
    assert_eq!(tc("500ms+5ms"), "0.5+0.005");
}

#[test]
fn tags_are_escaped_and_read_back() {
    let value = r#"engine:cmd=sh -c "echo \x""#;
    let line = format!("[Black \"{}\"]", escape(value));
    assert_eq!(tag(&line), Ok(("Black".to_string(), value.to_string())));
    assert!(tag("[Black unquoted]").is_err());
    assert!(tag("[Black \"a\"b\"]").is_err());
    assert!(tag("[B!ack \"x\"]").is_err());
}

/// A game of random legal moves from the start, played to its end, as the runner records
/// it (game `number` of run `run`).
fn random_record(seed: u64, number: u64, run: &str) -> GameRecord {
    let mut position = Position::start();
    let mut moves = Vec::new();
    let mut state = seed | 1;
    while !position.game_over() {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let legal = position.moves();
        let m = legal.as_slice()[(state >> 33) as usize % legal.len()];
        position.play(m);
        moves.push(m.to_string());
    }
    let outcome = position.outcome().expect("the game is over");
    GameRecord {
        game: number,
        config: run.to_string(),
        black: "random".to_string(),
        white: "random:seed=2".to_string(),
        result: crate::arena::record::result_text(outcome).to_string(),
        forfeit: String::new(),
        black_score: position.score(yolah_core::Color::Black),
        white_score: position.score(yolah_core::Color::White),
        opening_plies: 2,
        start: String::new(),
        black_ms: 1.0,
        white_ms: 1.0,
        black_max_ms: 1.0,
        white_max_ms: 1.0,
        black_left_ms: None,
        white_left_ms: None,
        black_tc: String::new(),
        white_tc: String::new(),
        adjudicated: String::new(),
        moves: moves.join(" "),
    }
}

fn event() -> Event {
    Event {
        name: "yolah match".to_string(),
        date: "2026.11.25".to_string(),
    }
}

/// Two whole games of ours.
fn two_games() -> String {
    let mut text = block(&event(), &random_record(1, 0, "00000000000000aa"));
    text.push_str(&block(&event(), &random_record(2, 1, "00000000000000aa")));
    text
}

// A file that is not ours is refused, whatever its end; only a block of
// ours cut short, after whole games, is cut.
#[test]
fn only_a_last_block_of_ours_cut_short_is_cut() {
    for foreign in [
        "my notes on the openings\nthe second line has no end",
        "no newline at all",
        "name,score\nalice,3",
        "[Event \"club\"]\n[White \"a\"]\n[Black \"b\"]",
        "[Event \"club\"]\n[Site \"yolah\"]\n\n1. a1:b2",
        "[Event \"yolah match\"]\n[Site \"elsewhere\"]\n",
    ] {
        assert!(
            parse(foreign).is_err(),
            "{foreign:?} was taken for a cut game"
        );
        let after_games = format!("{}{foreign}", two_games());
        assert!(parse(&after_games).is_err(), "{foreign:?} after games");
    }
    // Every prefix of a block of ours, after two whole games, is cut at the block's start
    // (or, once its result is there, read whole).
    let whole = two_games();
    let third = block(&event(), &random_record(3, 2, "00000000000000aa"));
    let result_end = third.trim_end().len();
    for k in 1..third.len() {
        let text = format!("{whole}{}", &third[..k]);
        let (games, cut) = parse(&text).unwrap_or_else(|e| panic!("prefix {k}: {e}"));
        if k >= result_end {
            assert_eq!((games.len(), cut), (3, None), "prefix {k}");
        } else {
            assert_eq!((games.len(), cut), (2, Some(whole.len())), "prefix {k}");
        }
    }
    // A block of ours cut short with nothing whole before it.
    let (games, cut) = parse(&third[..40]).unwrap();
    assert_eq!((games.len(), cut), (0, Some(0)));
}

/// The blocks of every kind our writer makes: with and without a run, one clock or one a
/// side, a start position, each way a game ends (a forfeit's comment longer than a line).
fn blocks_of_every_kind() -> Vec<String> {
    let base = random_record(3, 2, "00000000000000aa");
    let first: Vec<&str> = base.moves.split_whitespace().take(9).collect();
    let cut = GameRecord {
        moves: first.join(" "),
        // White is to move after nine moves.
        result: "0-1".to_string(),
        ..base.clone()
    };
    let kinds = [
        base.clone(),
        GameRecord {
            config: String::new(),
            black_tc: "10s+100ms".to_string(),
            white_tc: "1s".to_string(),
            start: "w6b/8/8/3bw3/3wb3/8/8/b6w b 0 0 0".to_string(),
            ..base.clone()
        },
        GameRecord {
            forfeit: "lost on time: thought 2 s with 1 s left".to_string(),
            ..cut.clone()
        },
        GameRecord {
            forfeit: format!("illegal move {}", "x}y ".repeat(30)),
            ..cut.clone()
        },
        GameRecord {
            forfeit: RESIGNED.to_string(),
            ..cut.clone()
        },
        GameRecord {
            adjudicated: PROVED.to_string(),
            ..base.clone()
        },
        GameRecord {
            result: "*".to_string(),
            ..cut
        },
    ];
    kinds.iter().map(|record| block(&event(), record)).collect()
}

// A last block is cut only when it is, byte for byte, the start of one
// our writer wrote; a block that merely starts with our first tags (a user's notes) is
// refused, and so is any change to one of ours.
#[test]
fn a_block_that_only_starts_like_ours_is_not_cut() {
    let whole = two_games();
    for third in blocks_of_every_kind() {
        let result_end = third.trim_end().len();
        for k in 1..result_end {
            let text = format!("{whole}{}", &third[..k]);
            let (games, cut) = parse(&text).unwrap_or_else(|e| panic!("{third}\n{k}: {e}"));
            assert_eq!(
                (games.len(), cut),
                (2, Some(whole.len())),
                "{third}\nprefix {k}"
            );
        }
    }
    let ours = block(&event(), &random_record(3, 2, "00000000000000aa"));
    let (tags, moves) = ours.split_once("\n\n").unwrap();
    let first_line = moves.lines().next().unwrap();
    let one_line = moves.replace('\n', " ");
    let foreign = [
        // The issue's file: our first two tags, then a user's.
        "[Event \"yolah match\"]\n[Site \"yolah\"]\n[Note \"keep me\"]\n\n{my notes\n\
         on the openings\n"
            .to_string(),
        "[Event \"yolah match\"]\n[Site \"yolah\"]\n[Note \"keep".to_string(),
        "[Event \"yolah match\"]\n[Site \"yolah\"]\nmy notes".to_string(),
        // Our tags, then a user's comment, note or tag.
        format!("{tags}\n\n{{my notes"),
        format!("{tags}\n\n{{my notes}} 1. "),
        format!("{tags}\n\nmy notes"),
        format!("{tags}\n[Note \"keep me\"]\n"),
        format!("{tags}\n{{my notes"),
        // Our tags, spelled or ordered otherwise, or with values we never write.
        tags.replacen("[Site \"yolah\"]", "[Site  \"yolah\"]", 1),
        tags.replacen("[Site \"yolah\"]\n[Date", "[Date", 1),
        tags.replacen("[Round \"3\"]", "[Round \"4\"]", 1) + "\n",
        tags.replacen("[Termination \"normal\"]", "[Termination \"bored\"]", 1),
        tags.replacen(
            "[PlyCount \"71\"]",
            "[PlyCount \"18446744073709551615\"]",
            1,
        ) + "\n\n1. ",
        // Our moves, then a user's comment; or laid out otherwise.
        format!("{tags}\n\n{first_line} {{my notes"),
        format!("{tags}\n\n{}\n", first_line.replace(' ', "\n")),
        format!("{tags}\n\n{first_line}  "),
        format!(
            "{tags}\n\n{} ",
            &one_line[..one_line[..120].rfind(' ').unwrap()]
        ),
    ];
    for text in &foreign {
        assert!(parse(text).is_err(), "{text:?} was taken for a cut game");
        let after_games = format!("{whole}{text}");
        assert!(parse(&after_games).is_err(), "{text:?} after games");
    }
    let error = parse(&format!("{whole}{}", foreign[0])).unwrap_err();
    assert_eq!(error.line, whole.lines().count() + 1, "{error}");
    assert!(
        error.reason.contains("a tag Note where yolah writes Date"),
        "{error}"
    );
}

/// An endless input of copies of `block`, `copies` times: never held whole.
struct Copies {
    block: Vec<u8>,
    copies: usize,
    at: usize,
}

impl io::Read for Copies {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.copies == 0 {
            return Ok(0);
        }
        let n = out.len().min(self.block.len() - self.at);
        out[..n].copy_from_slice(&self.block[self.at..self.at + n]);
        self.at += n;
        if self.at == self.block.len() {
            self.at = 0;
            self.copies -= 1;
        }
        Ok(n)
    }
}

// A file is read game by game, holding one game's text at most and
// reading no further ahead than the line after it.
#[test]
fn a_file_is_read_game_by_game_in_bounded_memory() {
    let block = two_games().into_bytes();
    let copies = 4000; // 8000 games, 9 MB
    let mut reader = PgnReader::new(io::BufReader::new(Copies {
        block: block.clone(),
        copies,
        at: 0,
    }));
    let mut games = 0;
    let mut most_held = 0;
    while let Some(game) = reader.next() {
        let game = game.unwrap();
        games += 1;
        assert_eq!(
            game.tag("Game"),
            Some(if games % 2 == 1 { "0" } else { "1" })
        );
        most_held = most_held.max(reader.held());
        // Read no further than the end of this game's last line.
        let pair_end = (games as u64).div_ceil(2) * block.len() as u64;
        assert!(reader.offset() <= pair_end, "game {games} read ahead");
    }
    assert_eq!((games, reader.cut()), (2 * copies, None));
    assert!(
        most_held < 8 * 1024,
        "held {most_held} bytes for games of {} bytes",
        block.len() / 2
    );
    // Bounds for what a hostile file holds: a line, a game.
    let long_line = format!("[Event \"{}\"]\n", "x".repeat(MAX_LINE));
    let error = parse(&long_line).unwrap_err();
    assert!(error.reason.contains("a line longer than"), "{error}");
    let long_game = format!(
        "[Event \"x\"]\n\n{}",
        "{a comment}\n".repeat(MAX_GAME_TEXT / 12 + 1)
    );
    let error = parse(&long_game).unwrap_err();
    assert!(error.reason.contains("a game of more than"), "{error}");
}

fn writer_at(path: &Path, done: &[GameRecord]) -> Result<PgnWriter, String> {
    PgnWriter::open(path, event(), done)
}

fn games_in(path: &Path) -> Vec<PgnGame> {
    parse(&std::fs::read_to_string(path).unwrap()).unwrap().0
}

// A new run adds all its games, even to a file holding the same run's
// games; a resumed run adds those it missed, once.
#[test]
fn a_new_run_adds_all_its_games_and_a_resumed_run_those_it_missed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pgn");
    let run: Vec<GameRecord> = (0..4)
        .map(|n| random_record(10 + n, n, "00000000000000bb"))
        .collect();
    for _ in 0..2 {
        let mut writer = writer_at(&path, &[]).unwrap();
        for record in &run {
            writer.write(record).unwrap();
        }
    }
    assert_eq!(games_in(&path).len(), 8);
    // A third run, killed after two games (the record file had three)...
    {
        let mut writer = writer_at(&path, &[]).unwrap();
        writer.write(&run[0]).unwrap();
        writer.write(&run[1]).unwrap();
    }
    // ... resumed: the third game of the record file is added, and nothing else.
    let third = random_record(99, 2, "00000000000000bb");
    writer_at(&path, &[run[0].clone(), run[1].clone(), third.clone()]).unwrap();
    let games = games_in(&path);
    assert_eq!(games.len(), 11);
    assert!(same_game(&games[10], &third));
    // Resumed again: nothing is missing.
    writer_at(&path, &[run[0].clone(), run[1].clone(), third]).unwrap();
    assert_eq!(games_in(&path).len(), 11);
}

// One run at a time writes a PGN file.
#[test]
fn a_second_writer_is_refused_while_the_first_holds_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pgn");
    let mut first = writer_at(&path, &[]).unwrap();
    first
        .write(&random_record(1, 0, "00000000000000cc"))
        .unwrap();
    let before = yolah_testkit::writers::Untouched::take(&path);
    let error = writer_at(&path, &[]).unwrap_err();
    yolah_testkit::writers::assert_one_line(&error);
    assert!(error.contains("in use by another run"), "{error}");
    // Through a link to it too.
    let link = dir.path().join("link.pgn");
    std::os::unix::fs::symlink(&path, &link).unwrap();
    assert!(writer_at(&link, &[]).is_err());
    before.assert();
    drop(first);
    writer_at(&link, &[]).unwrap();
}

/// Appends newlines to `path` (blank lines between games) until `room` bytes are left in
/// its last page: a block written next fills the page and needs another.
fn pad_to_page_end(path: &Path, room: u64) {
    let len = std::fs::metadata(path).unwrap().len();
    let pad = (4096 - room + 4096 - len % 4096) % 4096;
    let mut file = OpenOptions::new().append(true).open(path).unwrap();
    io::Write::write_all(&mut file, &vec![b'\n'; pad as usize]).unwrap();
}

// A write that fails (a full disk) is cut back, but never past bytes
// another writer added meanwhile; the games before it stay.
#[test]
fn a_failed_write_never_cuts_another_writers_bytes() {
    let disk = yolah_testkit::writers::SmallDisk::new(64 * 1024);
    let path = disk.path().join("games.pgn");
    let mut writer = writer_at(&path, &[]).unwrap();
    writer
        .write(&random_record(1, 0, "00000000000000dd"))
        .unwrap();
    // Another program appends, ignoring the lock; then the disk fills up.
    let other = block(&event(), &random_record(2, 7, "00000000000000ee"));
    let mut file = OpenOptions::new().append(true).open(&path).unwrap();
    io::Write::write_all(&mut file, other.as_bytes()).unwrap();
    pad_to_page_end(&path, 300);
    let before = std::fs::read_to_string(&path).unwrap();
    disk.fill();
    let error = writer.write(&random_record(3, 1, "00000000000000dd"));
    assert!(error.is_err(), "the disk is full");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with(&before), "the other writer's game was cut");
    // What this write left is the start of a block of ours: cut when read.
    let (games, cut) = parse(&text).unwrap();
    assert_eq!((games.len(), cut), (2, Some(before.len())));
    // Alone, a write that fails half way is undone whole.
    disk.free();
    std::fs::remove_file(&path).unwrap();
    std::fs::write(&path, "").unwrap();
    pad_to_page_end(&path, 300);
    let mut writer = writer_at(&path, &[]).unwrap();
    let kept = std::fs::read(&path).unwrap();
    disk.fill();
    assert!(
        writer
            .write(&random_record(4, 1, "00000000000000dd"))
            .is_err()
    );
    assert_eq!(std::fs::read(&path).unwrap(), kept);
}

// A file that is not ours, or not only ours, is refused and left byte
// for byte, directly or through a link.
#[test]
fn a_foreign_file_is_refused_and_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let mut foreign = yolah_testkit::writers::foreign_files();
    foreign.push(("a CSV record file", b"game,config\n0,x".to_vec()));
    foreign.push((
        "games of ours, then a note",
        format!("{}my note", two_games()).into_bytes(),
    ));
    for (what, bytes) in foreign {
        let path = dir.path().join("foreign.pgn");
        std::fs::write(&path, &bytes).unwrap();
        let link = dir.path().join("link.pgn");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&path, &link).unwrap();
        let before = yolah_testkit::writers::Untouched::take(&path);
        for target in [&path, &link] {
            let error = writer_at(target, &[]).expect_err(what);
            yolah_testkit::writers::assert_one_line(&error);
            before.assert();
        }
    }
}

// Every tag that can be checked is checked; an adjudication is proved
// again.
#[test]
fn forged_tags_and_adjudications_are_refused() {
    let record = random_record(5, 0, "00000000000000aa");
    let good = block(&event(), &record);
    parse(&good).unwrap();
    let plies = record.moves.split_whitespace().count();
    let scores = format!("[BlackScore \"{}\"]", record.black_score);
    let forgeries = [
        (
            format!("[PlyCount \"{plies}\"]"),
            format!("[PlyCount \"{}\"]", plies + 1),
            "PlyCount",
        ),
        (
            format!("[Result \"{}\"]", record.result),
            "[Result \"*\"]".to_string(),
            "Result",
        ),
        (
            scores.clone(),
            format!("[BlackScore \"{}\"]", record.black_score + 1),
            "BlackScore",
        ),
        (
            "[Termination \"normal\"]".to_string(),
            "[Termination \"bored\"]".to_string(),
            "Termination",
        ),
        // A finished game is not going on.
        (
            "[Termination \"normal\"]".to_string(),
            "[Termination \"unterminated\"]".to_string(),
            "Termination",
        ),
        (
            "[Round \"1\"]".to_string(),
            "[Round \"7\"]".to_string(),
            "Round",
        ),
        (
            "[Date \"2026.11.25\"]".to_string(),
            "[Date \"yesterday\"]".to_string(),
            "Date",
        ),
        (
            "[TimeControl \"-\"]".to_string(),
            "[TimeControl \"fast\"]".to_string(),
            "TimeControl",
        ),
    ];
    for (from, to, name) in forgeries {
        assert!(good.contains(&from), "{from}");
        let forged = good.replacen(&from, &to, 1);
        let error = parse(&forged).expect_err(name);
        assert!(error.reason.contains(name), "{name}: {error}");
    }
    let opening = good.lines().find(|l| l.starts_with("[Opening ")).unwrap();
    let forged = good.replacen(opening, "[Opening \"h8:h7 a8:a7\"]", 1);
    assert!(parse(&forged).unwrap_err().reason.contains("Opening"));
    // An adjudication after two moves, with nothing proved: refused.
    let moves: Vec<&str> = record.moves.split_whitespace().take(2).collect();
    let forged = GameRecord {
        moves: moves.join(" "),
        adjudicated: PROVED.to_string(),
        result: "0-1".to_string(),
        black_score: 2,
        white_score: 40,
        ..record.clone()
    };
    let error = parse(&block(&event(), &forged)).unwrap_err();
    assert!(error.reason.contains("no proof"), "{error}");
    // A game over by the rules whose score tags are not its position's.
    let forged = good.replacen(&scores, "[BlackScore \"0\"]", 1);
    if record.black_score != 0 {
        assert!(parse(&forged).is_err());
    }
    // A forfeit after the end of the game.
    let forfeit = GameRecord {
        forfeit: "lost on time: thought 2 s with 1 s left".to_string(),
        ..record
    };
    assert!(parse(&block(&event(), &forfeit)).is_err());
}
