//! The unit tests of `game.rs`.

use super::*;

#[test]
fn pages_may_ask_for_bounded_players_only() {
    for (text, expected) in [
        ("engine:cmd=/bin/sh", "other programs"),
        (
            "minimax:weights=/etc/passwd",
            "network files cannot be read",
        ),
        (
            "minimax:eval=nn,net=/etc/passwd",
            "network files cannot be read",
        ),
        // Any spelling of a file option is refused before anything is read: a file
        // that exists and holds JSON would otherwise echo its fields.
        (
            "minimax:WEIGHTS=/etc/passwd",
            "network files cannot be read",
        ),
        (
            "minimax: weights =Cargo.toml",
            "network files cannot be read",
        ),
        (
            "minimax:eval=nn,Net=/nonexistent",
            "network files cannot be read",
        ),
        (
            " Minimax : tt=8 , NET=/etc/passwd",
            "network files cannot be read",
        ),
        ("mcts:threads=2", "one thread"),
        ("minimax:tt=1024", "tt is at most 64"),
        ("mcts:tree=4096", "tree is at most 128"),
        ("mcts:time=1h", "at most 10s"),
        ("chess", "unknown player 'chess'"),
    ] {
        let error = Side::parse(text).unwrap_err();
        assert!(error.contains(expected), "{text}: {error}");
    }
    let Ok(Side::Machine(spec)) = Side::parse("minimax:depth=30") else {
        panic!("minimax:depth=30 is allowed");
    };
    assert_eq!(spec.limits().time, Some(MAX_MOVE_TIME), "capped by time");
    assert!(matches!(Side::parse(" human "), Ok(Side::Human)));
    assert!(matches!(Side::parse("random"), Ok(Side::Machine(_))));
}

#[test]
fn a_game_follows_the_rules_and_undoes_to_the_humans_turn() {
    let mut table = Table::new("human", "random", None, None).unwrap();
    assert!(table.machine_to_move().is_none());
    assert!(table.human_move("a1:a1").unwrap_err().contains("illegal"));
    assert!(table.human_move("e4").is_err());
    table.human_move("a1:c3").unwrap();
    assert!(table.machine_to_move().is_some());
    assert_eq!(
        table.human_move("h8:h7").unwrap_err(),
        "it is the machine's turn"
    );
    let reply = table.position().moves()[0];
    table.machine_move(reply);
    assert_eq!(table.state(false).moves.len(), 2);
    table.undo().unwrap();
    let state = table.state(false);
    assert!(state.moves.is_empty());
    assert_eq!(state.position, Position::start().to_string());
    assert_eq!(table.undo().unwrap_err(), "nothing to undo");
    assert!(Table::new("human", "human", Some("8/8 b 0 0 0"), None).is_err());
}

#[test]
fn a_human_without_a_move_passes_and_a_finished_game_has_a_result() {
    let walled = "bbx5/bbx5/xxx5/8/8/8/8/wwww4 b 2 3 6";
    let table = Table::new("human", "human", Some(walled), None).unwrap();
    let state = table.state(false);
    assert_eq!(state.moves, ["a1:a1"]);
    assert_eq!(state.side, "white");
    let over = "xxbxxbxx/wxxxwxxx/xxxxxxxw/xxxxxxxx/xbxxxxxx/xxxxxxxb/xxwxxxxx/xxxxxxxx b 24 32 64";
    let state = Table::new("human", "mcts", Some(over), None)
        .unwrap()
        .state(false);
    assert_eq!(state.result.as_deref(), Some("white wins 24-32"));
    assert!(state.legal.is_empty());
}

#[test]
fn a_clock_runs_for_the_side_to_move_and_flags_it() {
    let tc: TimeControl = "60ms+0".parse().unwrap();
    let mut table = Table::new("human", "human", None, Some(tc)).unwrap();
    let clocks = table.state(false).clocks.unwrap();
    assert_eq!((clocks.black_ms, clocks.white_ms), (60, 60));
    assert_eq!(clocks.running.as_deref(), Some("black"));
    assert_eq!(clocks.control, "60ms+0");
    table.human_move("a1:c3").unwrap();
    let clocks = table.state(false).clocks.unwrap();
    assert!(clocks.black_ms < 60 && clocks.white_ms == 60, "{clocks:?}");
    assert!(!table.check_flag());
    std::thread::sleep(Duration::from_millis(70));
    assert!(table.check_flag());
    let state = table.state(false);
    assert_eq!(state.result.as_deref(), Some("black wins on time"));
    assert!(state.legal.is_empty());
    assert_eq!(table.human_move("h8:h7").unwrap_err(), "the game is over");
    assert!(table.deadline().is_none());
    // Undo takes the clocks back with the moves.
    table.undo().unwrap();
    assert!(table.state(false).result.is_none());
    assert_eq!(table.state(false).clocks.unwrap().black_ms, 60);
}

/// An analysis thinks on the position the page shows; a move played
/// (on the last position) or moves taken back past it bring it back to the last.
#[test]
fn an_analysis_follows_the_position_shown() {
    let mut table = Table::analysis(None).unwrap();
    let moves = ["a1:c3", "h1:f3", "h8:h7"].map(String::from);
    table.replay(&moves).unwrap();
    assert_eq!(table.to_analyse().unwrap().0, 3);
    table.focus(Some(1)).unwrap();
    let (ply, position) = table.to_analyse().unwrap();
    assert_eq!(ply, 1);
    let mut after_one = Position::start();
    after_one.play("a1:c3".parse().unwrap());
    assert_eq!(position, after_one);
    table.focus(None).unwrap();
    assert_eq!(table.to_analyse().unwrap().0, 3);
    table.focus(Some(3)).unwrap();
    assert_eq!(
        table.to_analyse().unwrap().0,
        3,
        "the last position is no focus"
    );
    assert_eq!(
        table.focus(Some(4)).unwrap_err(),
        "the game has 3 moves, not 4"
    );
    table.focus(Some(2)).unwrap();
    table.undo_to(1).unwrap();
    assert_eq!(table.to_analyse().unwrap().0, 1, "taken back past it");
    table.focus(Some(0)).unwrap();
    let legal = table.state(false).legal[0].clone();
    table.human_move(&legal).unwrap();
    assert_eq!(
        table.to_analyse().unwrap().0,
        2,
        "a move is on the last position"
    );
    let mut game = Table::new("human", "random", None, None).unwrap();
    assert!(
        game.focus(Some(0))
            .unwrap_err()
            .contains("only an analysis")
    );
}

/// An analysis finished with a position (proved, or thought its longest)
/// searches it no more and shows as paused there; a move, an earlier position shown or
/// moves taken back and others played bring a position it has not finished with, which it
/// searches; Go searches a finished one again; the person's Stop holds across a move.
#[test]
fn an_analysis_finished_with_a_position_goes_on_to_the_next() {
    let mut table = Table::analysis(None).unwrap();
    table.replay(&["a1:c3", "h1:f3"].map(String::from)).unwrap();
    table.analysed(2);
    assert!(table.to_analyse().is_none() && table.state(false).paused);
    table.focus(Some(1)).unwrap();
    assert_eq!(
        table.to_analyse().unwrap().0,
        1,
        "an earlier position shown"
    );
    assert!(!table.state(false).paused);
    table.analysed(1);
    table.focus(None).unwrap();
    assert!(
        table.to_analyse().is_none(),
        "finished with: not searched again"
    );
    let legal = table.state(false).legal;
    table.human_move(&legal[0]).unwrap();
    assert_eq!(table.to_analyse().unwrap().0, 3, "a move");
    table.analysed(3);
    assert!(table.to_analyse().is_none());
    table.resume().unwrap();
    assert_eq!(table.to_analyse().unwrap().0, 3, "Go searches again");
    table.analysed(3);
    table.undo_to(2).unwrap();
    assert!(
        table.to_analyse().is_none(),
        "the same position after 2 moves"
    );
    table.human_move(&legal[1]).unwrap();
    assert_eq!(table.to_analyse().unwrap().0, 3, "another move 3");
    table.pause().unwrap();
    let legal = table.state(false).legal;
    table.human_move(&legal[0]).unwrap();
    assert!(table.to_analyse().is_none() && table.state(false).paused);
    table.resume().unwrap();
    assert_eq!(table.to_analyse().unwrap().0, 4);
    assert_eq!(table.resume().unwrap_err(), "nothing is paused");
}

#[test]
fn a_shared_game_replays_checked_and_goes_on_from_there() {
    let mut table = Table::analysis(None).unwrap();
    table
        .replay(&["a1:c3".to_string(), "h1:f3".to_string()])
        .unwrap();
    let state = table.state(false);
    assert_eq!(state.moves, ["a1:c3", "h1:f3"]);
    assert!(state.analysis && table.to_analyse().is_some());
    let mut bad = Table::new("human", "random", None, None).unwrap();
    let error = bad
        .replay(&["a1:c3".to_string(), "a1:a2".to_string()])
        .unwrap_err();
    assert_eq!(
        error,
        "move 2 'a1:a2' (white to play) is illegal: a1 holds a hole, not a white piece"
    );
    // A list with a bad move plays none of it.
    assert!(bad.state(false).moves.is_empty());
    let error = bad.replay(&["e4".to_string()]).unwrap_err();
    assert!(error.starts_with("move 1:"), "{error}");
    let many = vec!["a1:a1".to_string(); MAX_MOVES + 1];
    assert!(bad.replay(&many).unwrap_err().contains("at most"));
    // A watched game pauses where it is taken back, and resumes.
    let mut watched = Table::new("random", "random", None, None).unwrap();
    watched.replay(&["a1:c3".to_string()]).unwrap();
    assert!(watched.resign().is_err());
    watched.undo().unwrap();
    assert!(watched.state(false).paused && watched.machine_to_move().is_none());
    watched.resume().unwrap();
    assert!(watched.machine_to_move().is_some());
    assert_eq!(watched.resume().unwrap_err(), "nothing is paused");
}

/// A page's long clock gives a long share of it, but no machine move
/// passes the per-move cap.
#[test]
fn a_long_clock_does_not_lift_the_cap_on_a_machine_move() {
    for tc in ["1h", "2min", "10min+5s"] {
        let table = Table::new("minimax", "human", None, Some(tc.parse().unwrap())).unwrap();
        let spec = table
            .machine_to_move()
            .expect("the machine is black")
            .clone();
        let time = table.machine_limits(&spec).time.unwrap();
        assert!(time <= MAX_MOVE_TIME, "{tc}: {time:?}");
    }
}

/// A paused watched game's clock stands still: it does not lose on
/// time while paused, and its turn goes on with the time it had used.
#[test]
fn a_paused_clock_stands_still() {
    let tc: TimeControl = "60ms".parse().unwrap();
    let mut watched = Table::new("random", "random", None, Some(tc)).unwrap();
    watched.pause().unwrap();
    assert!(watched.deadline().is_none());
    std::thread::sleep(Duration::from_millis(100));
    assert!(!watched.check_flag(), "lost on time while paused");
    let clocks = watched.state(false).clocks.unwrap();
    assert_eq!(clocks.running, None, "a paused clock does not run");
    assert!(clocks.since_ms < 60, "{clocks:?}");
    watched.resume().unwrap();
    assert!(watched.deadline().is_some());
    std::thread::sleep(Duration::from_millis(80));
    assert!(watched.check_flag(), "the clock runs again after resume");
    // An undo pauses a watched game, and its clock with it.
    let mut undone = Table::new("random", "random", None, Some(tc)).unwrap();
    undone.replay(&["a1:c3".to_string()]).unwrap();
    undone.undo().unwrap();
    std::thread::sleep(Duration::from_millis(100));
    assert!(!undone.check_flag(), "lost on time while paused by an undo");
}
