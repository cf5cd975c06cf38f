//! A finished game reviewed, puzzles, and learning from one's mistakes.

use crate::support::*;
use fantoccini::Client;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// A server on loopback for one test, with an in-memory store, whose reviews search little
/// (2,000 nodes a position, the solver at 12 free squares at most): a game is reviewed in
/// seconds.
async fn review_server() -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let config = yolah_web::Config {
        review: yolah_ai::review::Settings {
            nodes: 2_000,
            exact_free: 12,
            exact_nodes: 100_000,
            time: std::time::Duration::from_hours(1),
        },
        ..yolah_web::Config::default()
    };
    tokio::spawn(yolah_web::serve(
        listener,
        config,
        yolah_web::Store::memory(),
    ));
    address
}

/// A finished game's review on the page. Not offered while a person plays;
/// once the game ends, Review asks the server, shows its progress, then each side's accuracy,
/// the graph over the whole game with the mistakes marked, their glyphs in the move list, and
/// the move shown judged; "Next mistake" steps to one, and a reload shows the kept review at
/// once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: cargo test -p yolah-web --test browser -- --ignored"]
async fn a_finished_game_is_reviewed_on_the_page() {
    let address = review_server().await;
    for (width, height, name) in [(1280, 800, "desktop"), (390, 844, "phone")] {
        let (_driver, client, port) = browser(width, height).await;
        client.goto(&format!("http://{address}/")).await.unwrap();
        // While a person plays, no review (nor evaluation) is offered.
        level_game(&client, 1, "black").await;
        wait_for(&client, "a game", |p| p["human"] == "yes").await;
        assert_unseen(&client, "review").await;
        // A game of two random players, over at once.
        custom_game(&client, "random", "random").await;
        let over = wait_for(&client, "the game's end", |p| {
            p["result"] != "" && p["players"] == "random|random"
        })
        .await;
        let plies = over["moves"].as_str().unwrap().split(' ').count();
        assert_seen(&client, "review-ask").await;
        click(&client, "review-ask").await;
        review_done(&client).await;
        assert_unseen(&client, "review-ask").await;
        assert_unseen(&client, "review-progress").await;
        assert_seen(&client, "review-summary").await;
        assert_seen(&client, "graph").await;
        let summary = text(&client, "review-summary").await;
        assert!(
            summary.contains("● black: accuracy") && summary.contains("○ white: accuracy"),
            "{name}: {summary}"
        );
        // The graph has every position's value: the review's, not a report's.
        let points = run(
            &client,
            "return Number(document.getElementById('graph').dataset.points);",
        )
        .await;
        assert_eq!(points, plies + 1, "{name}");
        // Random players err: their mistakes are marked, and Next mistake shows one judged.
        let glyphs = run(
            &client,
            "return [...document.querySelectorAll('#moves .glyph')].filter(g => g.getBoundingClientRect().width > 0).length;",
        )
        .await;
        assert!(glyphs.as_u64().unwrap() > 0, "{name}: no glyph seen");
        let marks = run(
            &client,
            "return document.querySelectorAll('#graph .mark').length;",
        )
        .await;
        assert_eq!(marks, glyphs, "{name}: a mark on the graph for each glyph");
        click(&client, "review-next").await;
        let shown = wait_for(&client, "a mistake shown", |p| p["viewing"] == "yes").await;
        // A finished game offers no takeback; one minus sign everywhere.
        assert_unseen(&client, "takeback").await;
        for id in ["pv", "review-move", "review-summary"] {
            let shown = text(&client, id).await;
            assert!(
                !shown.contains('-'),
                "{name}: a hyphen for a minus in {id}: {shown}"
            );
        }
        let judged = text(&client, "review-move").await;
        assert!(
            ["inaccuracy", "mistake", "blunder"]
                .iter()
                .any(|c| judged.contains(c)),
            "{name}: ply {}: {judged}",
            shown["view"]
        );
        assert!(
            judged.contains("best was") || judged.contains("solver:"),
            "{name}: {judged}"
        );
        assert_seen(&client, "review-move").await;
        arrow_on_its_squares(&client, name).await;
        screenshot(&client, &format!("{name}-review.png")).await;
        // The start, judged as a person reads it: black's value in points and per cent.
        click(&client, "first").await;
        let start = text(&client, "review-move").await;
        assert!(
            start.starts_with("the start: black ")
                && start.contains(" %)")
                && !start.contains("NaN"),
            "{name}: {start}"
        );
        // A reload shows the kept review without asking again.
        client.refresh().await.unwrap();
        review_done(&client).await;
        assert_seen(&client, "review-summary").await;
        assert_no_console_errors(&client, port, name).await;
        client.close().await.unwrap();
    }
}

/// Waits until the page shows a done review (2 minutes at most).
async fn review_done(client: &Client) {
    let start = Instant::now();
    loop {
        let status = run(
            client,
            "return document.getElementById('review').dataset.status || '';",
        )
        .await;
        if status == "done" {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_mins(2),
            "no review in time: {status}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Plays `m` on the puzzles page: its piece, then its target.
async fn puzzle_move(client: &Client, m: &str) {
    let (from, to) = m.split_once(':').unwrap();
    square(client, from).await.click().await.unwrap();
    square(client, to).await.click().await.unwrap();
}

/// Plays the solution of the puzzle shown, move by move, each reply waited for; returns it.
async fn solve_shown<'a>(client: &Client, puzzle: &'a Value) -> Vec<&'a str> {
    let solution: Vec<&str> = puzzle["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    for (k, m) in solution.iter().enumerate().step_by(2) {
        puzzle_move(client, m).await;
        if k + 1 < solution.len() {
            let reply = solution[k + 1];
            wait_text(client, "status", |t| {
                t.contains(&format!("The reply: {reply}"))
            })
            .await;
        }
    }
    let verdict = wait_text(client, "status", |t| t.starts_with("Solved!")).await;
    assert!(verdict.contains(&solution.join(" ")), "{verdict}");
    solution
}

/// The puzzles page at both sizes, each a new browser. A puzzle solved
/// (each move of the solution clicked, each reply played on the board), then one failed (a
/// move the proof says is worse): what to find, the verdict, the solution with every move's
/// proved value, Next puzzle, and the streak and rating, each on screen.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: cargo test -p yolah-web --test browser -- --ignored"]
async fn a_puzzle_solved_and_one_failed() {
    let address = memory_server().await;
    for (width, height, name) in [(1280, 800, "desktop"), (390, 844, "phone")] {
        let (_driver, client, port) = browser(width, height).await;
        client
            .goto(&format!("http://{address}/puzzles"))
            .await
            .unwrap();
        let task = wait_text(&client, "task", |t| t.contains("to move:")).await;
        assert!(
            task.ends_with("find the only winning move.")
                || task.ends_with("find the only move that saves the draw."),
            "{name}: {task}"
        );
        for id in ["board", "task", "status", "solution", "standing"] {
            assert_seen(&client, id).await;
        }
        assert_unseen(&client, "next").await;
        assert_unseen(&client, "proof").await;
        // The board fits the screen, its squares square.
        let board = layout(&client, "board").await;
        let side = board["width"].as_f64().unwrap();
        assert!(side > 300.0 && side <= f64::from(width), "{name}: {board}");
        assert!(
            (side - board["height"].as_f64().unwrap()).abs() < 2.0,
            "{name}"
        );
        let all = run(
            &client,
            "return fetch('/puzzles.json?count=1000').then(r => r.json());",
        )
        .await;
        let solution_of = |id: &Value| -> Value {
            all.as_array()
                .unwrap()
                .iter()
                .find(|p| p["id"] == *id)
                .unwrap()
                .clone()
        };
        // Solved: each of the solver's moves clicked, each reply waited for.
        let shown = run(&client, "return puzzles.puzzle.id;").await;
        let puzzle = solution_of(&shown);
        let solution = solve_shown(&client, &puzzle).await;
        screenshot(&client, &format!("puzzle-solved-{name}.png")).await;
        assert_seen(&client, "proof").await;
        assert_seen(&client, "next").await;
        assert_unseen(&client, "solution").await;
        let proof = text(&client, "proof").await;
        assert_eq!(
            proof.lines().count(),
            puzzle["moves"].as_array().unwrap().len(),
            "{name}: every legal move proved: {proof}"
        );
        let top = proof.lines().next().unwrap();
        assert!(
            top.starts_with(solution[0]) && top.ends_with("(the solution)"),
            "{name}: the solution first: {proof}"
        );
        let standing = text(&client, "standing").await;
        assert!(
            standing.contains("streak\n1") || standing.contains("streak 1"),
            "{name}: {standing}"
        );
        // Failed: the next puzzle, a move its proof says is worse.
        click(&client, "next").await;
        wait_text(&client, "status", |t| t.starts_with("Puzzle rated")).await;
        let second = run(&client, "return puzzles.puzzle.id;").await;
        assert_ne!(second, shown, "{name}: a new puzzle");
        let puzzle = solution_of(&second);
        let wrong = puzzle["moves"][1][0].as_str().unwrap();
        puzzle_move(&client, wrong).await;
        let verdict = wait_text(&client, "status", |t| t.starts_with("Not that.")).await;
        let first = puzzle["solution"][0].as_str().unwrap();
        assert!(verdict.contains(first), "{name}: {verdict}");
        assert_seen(&client, "proof").await;
        assert_seen(&client, "next").await;
        let standing = text(&client, "standing").await;
        assert!(
            standing.contains("streak\n0") || standing.contains("streak 0"),
            "{name}: {standing}"
        );
        assert!(standing.contains("1 of 2"), "{name}: {standing}");
        screenshot(&client, &format!("puzzle-failed-{name}.png")).await;
        // A reload keeps the browser's standing: the server has it.
        client.refresh().await.unwrap();
        wait_text(&client, "standing", |t| t.contains("1 of 2")).await;
        assert_no_console_errors(&client, port, name).await;
        client.close().await.unwrap();
    }
}

/// Learn from your mistakes. A person plays a whole game against level 1,
/// has it reviewed, and walks through their own mistakes and blunders as puzzles: the position
/// before each, the review's answer hidden; the move played again is refused, a hint picks up
/// the piece, the review's best move is right (clicked on the board); the next one's answer
/// shown; a summary at the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: cargo test -p yolah-web --test browser -- --ignored"]
async fn a_player_learns_from_their_mistakes() {
    let address = review_server().await;
    for (width, height, name) in [(1280, 800, "desktop"), (390, 844, "phone")] {
        let (_driver, client, port) = browser(width, height).await;
        client.goto(&format!("http://{address}/")).await.unwrap();
        let review = erring_game_reviewed(&client).await;
        let moves = review["moves"].as_array().unwrap();
        let mistakes: Vec<usize> = (0..moves.len())
            .filter(|&i| {
                moves[i]["side"] == "black"
                    && ["mistake", "blunder"].contains(&moves[i]["class"].as_str().unwrap())
            })
            .collect();
        assert!(
            mistakes.len() >= 2,
            "{name}: a player of last moves errs: {mistakes:?}"
        );
        assert_seen(&client, "practice-start").await;
        assert_eq!(
            text(&client, "practice-start").await,
            format!("Learn from your mistakes ({})", mistakes.len())
        );
        click(&client, "practice-start").await;
        first_mistake(
            &client,
            name,
            &moves[mistakes[0]],
            mistakes[0],
            mistakes.len(),
        )
        .await;
        // The second: its answer shown.
        click(&client, "practice-next").await;
        let second_view = mistakes[1].to_string();
        wait_for(&client, "the second mistake's position", |p| {
            p["view"] == second_view.as_str()
        })
        .await;
        assert_unseen(&client, "arrow").await;
        click(&client, "practice-answer").await;
        let answer = text(&client, "practice-say").await;
        assert!(
            answer.contains(&format!(
                "The answer: {}",
                moves[mistakes[1]]["best"].as_str().unwrap()
            )),
            "{name}: {answer}"
        );
        assert_unseen(&client, "practice-hint").await;
        // The rest skipped: the summary counts each.
        for _ in 2..mistakes.len() {
            click(&client, "practice-next").await;
        }
        click(&client, "practice-next").await;
        let summary = wait_text(&client, "practice-say", |t| t.starts_with("Done")).await;
        assert!(
            summary.starts_with(&format!(
                "Done: {} mistakes; found at the first try 0, found after a try or a hint 1, answer shown 1, skipped {}.",
                mistakes.len(),
                mistakes.len() - 2
            )),
            "{name}: {summary}"
        );
        // Counted once a mistake: the first found after a try, the second's answer shown.
        assert!(
            summary.ends_with(
                "In this browser, 0 of 2 mistakes found at the first try (apart from the puzzle rating)."
            ),
            "{name}: {summary}"
        );
        click(&client, "practice-stop").await;
        assert_unseen(&client, "practice").await;
        assert_seen(&client, "practice-start").await;
        assert_no_console_errors(&client, port, name).await;
        client.close().await.unwrap();
    }
}

/// Learning from the first of `count` mistakes (`first`, the move of index `index`): its
/// position shown, the answer hidden, the move played refused, a hint, the best move right.
async fn first_mistake(client: &Client, name: &str, first: &Value, index: usize, count: usize) {
    // The first: the position before it, the review's answer (arrow, lines) hidden.
    let first_view = index.to_string();
    let at = wait_for(client, "the first mistake's position", |p| {
        p["view"] == first_view.as_str()
    })
    .await;
    board_shows(client, &at, index).await;
    assert_seen(client, "practice").await;
    assert_unseen(client, "practice-start").await;
    assert_unseen(client, "arrow").await;
    assert_unseen(client, "pv").await;
    assert_unseen(client, "explorer").await;
    let say = text(client, "practice-say").await;
    assert!(
        say.starts_with(&format!("1 of {count}: at "))
            && say.contains(&format!(
                "black played {}",
                first["played"].as_str().unwrap()
            ))
            && say.ends_with("Find a better move for black."),
        "{name}: {say}"
    );
    // The move played is not it.
    let played = first["played"].as_str().unwrap();
    click_move(client, played).await;
    let say = wait_text(client, "practice-say", |t| t.contains("is not it")).await;
    assert!(
        say.contains(&format!("{played} is not it: that is the move played")),
        "{name}: {say}"
    );
    assert_eq!(page(client).await["view"], first_view.as_str());
    // A hint picks up the best move's piece: its targets are marked.
    let best = first["best"].as_str().unwrap();
    click(client, "practice-hint").await;
    let (from, to) = best.split_once(':').unwrap();
    let marked = run(
        client,
        &format!(
            "return {{selected: document.querySelector('[data-square=\"{from}\"]').classList.contains('selected'),
                     target: document.querySelector('[data-square=\"{to}\"]').classList.contains('target')}};"
        ),
    )
    .await;
    assert_eq!(
        marked,
        json!({"selected": true, "target": true}),
        "{name}: {best}"
    );
    let say = text(client, "practice-say").await;
    assert!(
        say.ends_with("Find a better move for black. Hint: the marked piece."),
        "{name}: {say}"
    );
    screenshot(client, &format!("{name}-mistakes.png")).await;
    square(client, to).await.click().await.unwrap();
    let say = wait_text(client, "practice-say", |t| t.contains("Right")).await;
    assert!(say.contains(&format!("Right: {best}")), "{name}: {say}");
    // Answered: the review's line may show again.
    if first["line"].as_array().is_some_and(|l| !l.is_empty()) {
        assert_seen(client, "pv").await;
    }
}

/// A game against level 1 in which the person plays each turn's last legal move (a player
/// who errs), then reviewed: returns the review (`/games/ID/review.json`).
async fn erring_game_reviewed(client: &Client) -> Value {
    level_game(client, 1, "black").await;
    let mut now = wait_for(client, "a game against level 1", |p| {
        p["players"] == "human|random" && p["human"] == "yes"
    })
    .await;
    while now["result"] == "" {
        let legal = now["legal"].as_str().unwrap().to_string();
        let mv = legal.split(' ').next_back().unwrap().to_string();
        click_move(client, &mv).await;
        let before = now["ply"].clone();
        now = wait_for(client, "the move taken", |p| {
            p["ply"] != before && (p["result"] != "" || p["human"] == "yes")
        })
        .await;
    }
    assert_unseen(client, "practice-start").await;
    click(client, "review-ask").await;
    review_done(client).await;
    run(
        client,
        "return fetch('/games/' + page.kept.id + '/review.json').then(r => r.json());",
    )
    .await
}

/// Clicks move `mv` on the board: its piece, then its target.
async fn click_move(client: &Client, mv: &str) {
    let (from, to) = mv.split_once(':').unwrap();
    square(client, from).await.click().await.unwrap();
    square(client, to).await.click().await.unwrap();
}

/// A loaded game: a finished game opened in analysis (a link, a PGN) is
/// not kept, so "Review this game" keeps it as a game between two people; its review then
/// offers every mistake of both sides to learn from.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: cargo test -p yolah-web --test browser -- --ignored"]
async fn a_loaded_game_is_reviewed_and_its_mistakes_learnt_from() {
    let address = review_server().await;
    for (width, height, name) in [(1280, 800, "desktop"), (390, 844, "phone")] {
        let (_driver, client, port) = browser(width, height).await;
        // A finished game's moves, as another program would give them.
        client.goto(&format!("http://{address}/")).await.unwrap();
        custom_game(&client, "random", "random:seed=5").await;
        let over = wait_for(&client, "the game's end", |p| {
            p["result"] != "" && p["players"] == "random|random:seed=5"
        })
        .await;
        let moves = over["moves"].as_str().unwrap().replace(' ', ",");
        // Opened in analysis: not kept, so no review; "Review this game" is offered at its end.
        client
            .goto(&format!("http://{address}/?moves={moves}"))
            .await
            .unwrap();
        wait_for(&client, "the analysis at the end", |p| {
            p["analysis"] == "yes" && p["moves"] == over["moves"]
        })
        .await;
        assert_unseen(&client, "review").await;
        assert_seen(&client, "review-game").await;
        key(&client, "ArrowLeft").await;
        assert_unseen(&client, "review-game").await;
        key(&client, "End").await;
        click(&client, "review-game").await;
        wait_for(&client, "the game kept", |p| {
            p["analysis"] == "no" && p["players"] == "human|human" && p["moves"] == over["moves"]
        })
        .await;
        assert_unseen(&client, "review-game").await;
        click(&client, "review-ask").await;
        review_done(&client).await;
        let review = run(
            &client,
            "return fetch('/games/' + page.kept.id + '/review.json').then(r => r.json());",
        )
        .await;
        // Both sides are the person's: every mistake and blunder of the game.
        let mistakes = review["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| ["mistake", "blunder"].contains(&m["class"].as_str().unwrap()))
            .count();
        assert!(mistakes > 0, "{name}: random players err");
        assert_eq!(
            text(&client, "practice-start").await,
            format!("Learn from your mistakes ({mistakes})")
        );
        click(&client, "practice-start").await;
        let say = wait_text(&client, "practice-say", |t| t.starts_with("1 of ")).await;
        assert!(say.contains("Find a better move for "), "{name}: {say}");
        assert_no_console_errors(&client, port, name).await;
        client.close().await.unwrap();
    }
}
