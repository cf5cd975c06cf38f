//! Game review on the server (`/games/ID/review.json`): a finished kept game judged move by
//! move by [`yolah_ai::review`], as `yolah review` does, once, and kept in the store.
//!
//! `POST` asks for a game's review and `GET` reads it; both answer with its status as JSON:
//! - `200 {"status": "done", …the review}`: every move's class, values, the engine's line and
//!   the solver's verdict, each side's accuracy (`yolah review --json`'s `review`);
//! - `202 {"status": "queued", "ahead": N}` or `202 {"status": "reviewing", "done": D,
//!   "total": T}`: asked, not done; ask again in a second;
//! - `200 {"status": "none"}`: nobody asked yet (`GET` only);
//! - `404 {"error": …}`: no such game kept here;
//! - `409`: the game is still being played (no review of a live game, as on lichess);
//! - `500 {"status": "failed", "error": …}`: the review could not be kept (a full disk, say);
//!   asking again tries again; `503`: too many reviews waiting, or no memory for the thread.
//!
//! Reviews run one at a time on a thread of their own, which ends when none waits (its
//! engine's and solver's tables go with it, and the server's memory it held). A review kept is of the moves it judged: a game
//! whose moves differ is reviewed afresh.

use crate::game::Table;
use crate::store::Store;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Json, Response};
use serde_json::{Value, json};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use yolah_ai::review::{Reviewer, Settings};
use yolah_core::{Move, Position};

/// Reviews that may wait at once; more are refused until some are done.
pub const MAX_WAITING: usize = 16;

/// A review's state, as the JSON says it.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// Kept: the review's JSON.
    Done(Value),
    /// Waiting.
    Queued {
        /// Reviews before it (the one being made included).
        ahead: usize,
    },
    /// Being made.
    Reviewing {
        /// Searches done.
        done: usize,
        /// Of these.
        total: usize,
    },
    /// The last try failed, for this reason.
    Failed(String),
    /// Nobody asked.
    None,
}

/// Why a game's review cannot be read or asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// No such game (404).
    Unknown(String),
    /// The game is not over (409).
    Playing(String),
    /// Too many reviews wait (503).
    Busy(String),
    /// The game or the store cannot be read (500).
    Broken(String),
}

/// A game to review.
struct Job {
    id: String,
    /// Who asked for it (none: not a client of the server's): a client may have at most its
    /// share of the waiting reviews.
    client: Option<std::net::IpAddr>,
    /// Its moves, separated by spaces, as the store keeps them with the review.
    moves_text: String,
    start: Position,
    moves: Vec<Move>,
}

impl Job {
    /// Whether this is a review of game `id` as `moves` (a game whose moves changed since,
    /// by an undo, is another review).
    fn is(&self, id: &str, moves: &str) -> bool {
        self.id == id && self.moves_text == moves
    }
}

/// The review being made.
struct Current {
    id: String,
    moves_text: String,
    done: usize,
    total: usize,
}

#[derive(Default)]
struct Queue {
    waiting: VecDeque<Job>,
    current: Option<Current>,
    /// The last failure of a game's review: the moves it was of, and why.
    failed: HashMap<String, (String, String)>,
    /// Whether a reviewing thread runs; set and cleared under the lock, by whoever starts it
    /// and by the thread itself as it finds nothing to do, so a request always finds either a
    /// thread that will take its game or none.
    working: bool,
}

impl Queue {
    /// Where the review of game `id` as `moves` stands in the queue, if it is there.
    fn place(&self, id: &str, moves: &str) -> Option<Status> {
        if let Some(current) = &self.current
            && current.id == id
            && current.moves_text == moves
        {
            return Some(Status::Reviewing {
                done: current.done,
                total: current.total,
            });
        }
        let place = self.waiting.iter().position(|j| j.is(id, moves))?;
        Some(Status::Queued {
            ahead: place + usize::from(self.current.is_some()),
        })
    }
}

/// What a reviewing thread holds while it runs (the server's memory reservation for its
/// tables): given back when the thread ends.
pub type Held = Box<dyn Send>;

/// The server's reviews: the store they are kept in, and the queue.
pub struct Reviews {
    store: Arc<Store>,
    settings: Settings,
    queue: Mutex<Queue>,
}

fn lock(queue: &Mutex<Queue>) -> MutexGuard<'_, Queue> {
    queue
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Whether `id` could be a game's id (hex, 1 to 64 characters): anything else is not looked up.
fn id_like(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_hexdigit())
}

impl Reviews {
    /// Reviews of the games of `store`, each searched as `settings` say.
    pub fn new(store: Arc<Store>, settings: Settings) -> Arc<Reviews> {
        Arc::new(Reviews {
            store,
            settings,
            queue: Mutex::default(),
        })
    }

    /// The finished game `id`, as a job.
    fn job(&self, id: &str) -> Result<Job, Refused> {
        let unknown = || {
            Refused::Unknown(format!(
                "no game {} is kept here",
                yolah_core::text::quote(id)
            ))
        };
        if !id_like(id) {
            return Err(unknown());
        }
        let kept = self
            .store
            .load(id)
            .map_err(Refused::Broken)?
            .ok_or_else(unknown)?;
        let saved = kept.saved;
        if saved.result.is_none() {
            return Err(Refused::Playing(format!(
                "game {id} is still being played: it is reviewed once it ends"
            )));
        }
        // Read and checked as a game opened again is.
        let table = Table::restore(&saved)
            .map_err(|why| Refused::Broken(format!("game {id} does not read: {why}")))?;
        let (start, moves) = table.played();
        Ok(Job {
            id: id.to_string(),
            client: None,
            moves_text: saved.moves.join(" "),
            start,
            moves: moves.to_vec(),
        })
    }

    /// The status of `job`'s review, without asking for it. The queue is read before the
    /// store: the thread keeps a review before it says it is done, so a review is never
    /// missed between the two.
    fn status_of(&self, job: &Job) -> Result<Status, Refused> {
        if let Some(status) = lock(&self.queue).place(&job.id, &job.moves_text) {
            return Ok(status);
        }
        if let Some((moves, review)) = self.store.review(&job.id).map_err(Refused::Broken)?
            && moves == job.moves_text
        {
            match serde_json::from_str::<Value>(&review) {
                Ok(review) if review.is_object() => return Ok(Status::Done(review)),
                // A damaged row is made again when asked.
                _ => eprintln!(
                    "yolah serve: the kept review of game {} does not read; it is made again \
                     when asked",
                    job.id
                ),
            }
        }
        Ok(match lock(&self.queue).failed.get(&job.id) {
            Some((moves, why)) if *moves == job.moves_text => Status::Failed(why.clone()),
            _ => Status::None,
        })
    }

    /// The review of game `id` as it stands (`GET`).
    pub fn status(&self, id: &str) -> Result<Status, Refused> {
        self.status_of(&self.job(id)?)
    }

    /// Asks for the review of game `id` (`POST`): queued unless it is done or being made. A
    /// reviewing thread is started if none runs, holding what `reserve` gives (the memory of
    /// its tables, [`yolah_ai::review::MEMORY_MB`]) while it runs.
    pub fn ask(
        self: &Arc<Reviews>,
        id: &str,
        client: Option<std::net::IpAddr>,
        reserve: impl FnOnce() -> Result<Held, String>,
    ) -> Result<Status, Refused> {
        let mut job = self.job(id)?;
        job.client = client;
        let status = self.status_of(&job)?;
        if !matches!(
            status,
            Status::None | Status::Failed(_) | Status::Queued { .. }
        ) {
            return Ok(status);
        }
        let mut queue = lock(&self.queue);
        let (id, moves_text) = (job.id.clone(), job.moves_text.clone());
        let mut added = false;
        if !queue.waiting.iter().any(|j| j.is(&id, &moves_text)) {
            // A waiting review of this game's moves before an undo is stale.
            queue.waiting.retain(|j| j.id != id);
            if queue.waiting.len() >= MAX_WAITING {
                return Err(Refused::Busy(format!(
                    "{MAX_WAITING} reviews are waiting already; ask again in a minute"
                )));
            }
            let share = crate::slots::share(MAX_WAITING);
            let mine = queue.waiting.iter().filter(|j| j.client == client).count();
            if client.is_some() && mine >= share {
                return Err(Refused::Busy(format!(
                    "this address has {mine} reviews waiting, its share of the server's \
                     {MAX_WAITING}; ask again once one is done"
                )));
            }
            queue.failed.remove(&id);
            queue.waiting.push_back(job);
            added = true;
        }
        if !queue.working {
            let started = reserve().map_err(Refused::Busy).and_then(|held| {
                let reviews = Arc::clone(self);
                std::thread::Builder::new()
                    .name("review".to_string())
                    .spawn(move || reviews.work(held))
                    .map_err(|e| Refused::Broken(format!("cannot start reviewing: {e}")))
            });
            if let Err(refused) = started {
                if added {
                    queue.waiting.pop_back();
                }
                return Err(refused);
            }
            queue.working = true;
        }
        if let Some(status) = queue.place(&id, &moves_text) {
            return Ok(status);
        }
        // Made meanwhile.
        drop(queue);
        self.status(&id)
    }

    /// The reviewing thread: the waiting games one by one, until none waits.
    fn work(self: Arc<Reviews>, held: Held) {
        // A thread that panics says so of its game and that nobody reviews, so the next
        // request starts another (the games waiting wait for it).
        struct Panicked<'a>(&'a Reviews);
        impl Drop for Panicked<'_> {
            fn drop(&mut self) {
                if std::thread::panicking() {
                    let mut queue = lock(&self.0.queue);
                    if let Some(current) = queue.current.take() {
                        queue.failed.insert(
                            current.id,
                            (
                                current.moves_text,
                                "the review stopped unexpectedly".to_string(),
                            ),
                        );
                    }
                    queue.working = false;
                }
            }
        }
        let _panicked = Panicked(&self);
        let mut reviewer = Reviewer::new(self.settings, None);
        loop {
            let job = {
                let mut queue = lock(&self.queue);
                let Some(job) = queue.waiting.pop_front() else {
                    // Under the lock: a game asked for from now on starts another thread.
                    queue.working = false;
                    break;
                };
                queue.current = Some(Current {
                    id: job.id.clone(),
                    moves_text: job.moves_text.clone(),
                    done: 0,
                    total: (job.moves.len() + 1) * 2,
                });
                job
            };
            let review = reviewer.review(&job.start, &job.moves, |done, total| {
                if let Some(current) = lock(&self.queue).current.as_mut() {
                    current.done = done;
                    current.total = total;
                }
            });
            let json = serde_json::to_string(&review).expect("a review serialises");
            let kept = self.store.keep_review(&job.id, &job.moves_text, &json);
            let mut queue = lock(&self.queue);
            queue.current = None;
            if let Err(why) = kept {
                eprintln!("yolah serve: the review of game {}: {why}", job.id);
                queue.failed.insert(job.id, (job.moves_text, why));
            }
        }
        drop(reviewer);
        drop(held);
    }
}

/// A status or a refusal as the HTTP answer.
pub fn respond(answer: Result<Status, Refused>) -> Response {
    let (code, body) = match answer {
        Ok(Status::Done(mut review)) => {
            if let Some(fields) = review.as_object_mut() {
                fields.insert("status".to_string(), json!("done"));
            }
            (StatusCode::OK, review)
        }
        Ok(Status::Queued { ahead }) => (
            StatusCode::ACCEPTED,
            json!({"status": "queued", "ahead": ahead}),
        ),
        Ok(Status::Reviewing { done, total }) => (
            StatusCode::ACCEPTED,
            json!({"status": "reviewing", "done": done, "total": total}),
        ),
        Ok(Status::Failed(why)) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            json!({"status": "failed", "error": why}),
        ),
        Ok(Status::None) => (
            StatusCode::OK,
            json!({"status": "none", "hint": "not reviewed: POST to this address to ask"}),
        ),
        Err(Refused::Unknown(why)) => (StatusCode::NOT_FOUND, json!({"error": why})),
        Err(Refused::Playing(why)) => (StatusCode::CONFLICT, json!({"error": why})),
        Err(Refused::Busy(why)) => (StatusCode::SERVICE_UNAVAILABLE, json!({"error": why})),
        Err(Refused::Broken(why)) => (StatusCode::INTERNAL_SERVER_ERROR, json!({"error": why})),
    };
    (code, Json(body)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Saved;
    use crate::store::{Kept, Kind};

    impl Reviews {
        /// Says a thread reviews (none does): what is asked for then waits, and no search
        /// runs in the test.
        fn pretend_working(&self) {
            lock(&self.queue).working = true;
        }
    }

    /// A reservation of nothing, as `ask` takes one.
    #[expect(clippy::unnecessary_wraps, reason = "ask's reserve returns a Result")]
    fn nothing() -> Result<Held, String> {
        Ok(Box::new(()))
    }

    /// A finished game kept as `id`: each side plays its first legal move to the end.
    fn finished(store: &Arc<Store>, id: &str) -> Vec<String> {
        let mut position = Position::start();
        let mut moves = Vec::new();
        while !position.game_over() {
            let m = position.moves()[0];
            position.play(m);
            moves.push(m.to_string());
        }
        let saved = Saved {
            black: "human".into(),
            white: "human".into(),
            start: Position::start().to_string(),
            tc: None,
            moves: moves.clone(),
            clocks: Vec::new(),
            flagged: None,
            resigned: None,
            turn_ms: 0,
            paused: false,
            result: Some("over".into()),
        };
        let kept = Kept {
            id: id.into(),
            kind: Kind::Own,
            tokens: [Some("t".into()), Some("t".into())],
            key: None,
            saved,
        };
        std::mem::forget(store.create(&kept, None, 60).unwrap());
        moves
    }

    #[test]
    fn a_review_of_other_moves_is_stale() {
        let store = Arc::new(Store::memory());
        let moves = finished(&store, "ab");
        let reviews = Reviews::new(Arc::clone(&store), Settings::default());
        store
            .keep_review("ab", "a1:a2", r#"{"moves": []}"#)
            .unwrap();
        assert_eq!(reviews.status("ab"), Ok(Status::None));
        store
            .keep_review("ab", &moves.join(" "), r#"{"moves": []}"#)
            .unwrap();
        assert_eq!(reviews.status("ab"), Ok(Status::Done(json!({"moves": []}))));
        // A review is kept only of a game that is.
        let gone = store.keep_review("cd", "", "{}").unwrap_err();
        assert!(gone.contains("no longer in the database"), "{gone}");
    }

    #[test]
    fn reviews_wait_in_a_bounded_queue() {
        let store = Arc::new(Store::memory());
        let ids: Vec<String> = (0..MAX_WAITING + 2).map(|k| format!("{k:02x}")).collect();
        for id in &ids {
            finished(&store, id);
        }
        let reviews = Reviews::new(Arc::clone(&store), Settings::default());
        reviews.pretend_working();
        let answers: Vec<_> = ids
            .iter()
            .map(|id| reviews.ask(id, None, nothing))
            .collect();
        for (k, answer) in answers.iter().enumerate() {
            if k < MAX_WAITING {
                assert_eq!(*answer, Ok(Status::Queued { ahead: k }));
            } else {
                let Err(Refused::Busy(why)) = answer else {
                    panic!("{answer:?}")
                };
                assert!(why.contains("ask again"), "{why}");
            }
        }
        // Asking twice does not queue twice.
        assert_eq!(
            reviews.ask(&ids[3], None, nothing),
            Ok(Status::Queued { ahead: 3 })
        );
        assert_eq!(reviews.status(&ids[3]), Ok(Status::Queued { ahead: 3 }));
    }

    /// The attack on the review queue's bounds: one address filled the queue of 16, and every other
    /// was refused; now an address has at most its share of it.
    #[test]
    fn an_address_has_its_share_of_the_waiting_reviews() {
        let store = Arc::new(Store::memory());
        let ids: Vec<String> = (0..8).map(|k| format!("{k:02x}")).collect();
        for id in &ids {
            finished(&store, id);
        }
        let reviews = Reviews::new(Arc::clone(&store), Settings::default());
        reviews.pretend_working();
        let (one, other) = (
            Some(std::net::IpAddr::from([127, 0, 0, 2])),
            Some(std::net::IpAddr::from([127, 0, 0, 3])),
        );
        let share = crate::slots::share(MAX_WAITING);
        for id in &ids[..share] {
            assert!(reviews.ask(id, one, nothing).is_ok());
        }
        let Err(Refused::Busy(why)) = reviews.ask(&ids[share], one, nothing) else {
            panic!("over its share")
        };
        assert!(why.contains("its share"), "{why}");
        assert!(reviews.ask(&ids[share], other, nothing).is_ok());
    }

    /// A game whose moves changed after it was asked for (an undo, then another end) is
    /// reviewed as it is now: the waiting review of the moves before goes.
    #[test]
    fn a_game_changed_while_its_review_waits_is_reviewed_as_it_is() {
        let store = Arc::new(Store::memory());
        let moves = finished(&store, "ab");
        let reviews = Reviews::new(Arc::clone(&store), Settings::default());
        reviews.pretend_working();
        assert_eq!(
            reviews.ask("ab", None, nothing),
            Ok(Status::Queued { ahead: 0 })
        );
        let mut saved = store.load("ab").unwrap().unwrap().saved;
        saved.moves.truncate(moves.len() - 2);
        saved.resigned = Some("black".into());
        store.save("ab", None, &saved).unwrap();
        assert_eq!(
            reviews.status("ab"),
            Ok(Status::None),
            "not the old moves' review"
        );
        assert_eq!(
            reviews.ask("ab", None, nothing),
            Ok(Status::Queued { ahead: 0 })
        );
        let queue = lock(&reviews.queue);
        assert_eq!(queue.waiting.len(), 1);
        assert_eq!(queue.waiting[0].moves.len(), moves.len() - 2);
    }

    /// A kept review that does not read is made again when asked, not refused for ever.
    #[test]
    fn a_damaged_review_is_made_again() {
        let store = Arc::new(Store::memory());
        let moves = finished(&store, "ab");
        let reviews = Reviews::new(Arc::clone(&store), Settings::default());
        reviews.pretend_working();
        for damaged in ["not json", "[1]"] {
            store.keep_review("ab", &moves.join(" "), damaged).unwrap();
            assert_eq!(reviews.status("ab"), Ok(Status::None), "{damaged}");
        }
        assert_eq!(
            reviews.ask("ab", None, nothing),
            Ok(Status::Queued { ahead: 0 })
        );
    }

    /// No memory for the reviewing thread: the request is refused with the reason and
    /// nothing waits; asked again with room, the thread starts.
    #[test]
    fn a_review_without_memory_is_refused_and_nothing_waits() {
        let store = Arc::new(Store::memory());
        finished(&store, "ab");
        let reviews = Reviews::new(
            Arc::clone(&store),
            Settings {
                nodes: 50,
                exact_free: 0,
                exact_nodes: 1,
                time: std::time::Duration::from_hours(1),
            },
        );
        let refused = reviews.ask("ab", None, || {
            Err("the server's memory is spent".to_string())
        });
        assert_eq!(
            refused,
            Err(Refused::Busy("the server's memory is spent".to_string()))
        );
        assert_eq!(reviews.status("ab"), Ok(Status::None));
        assert!(reviews.ask("ab", None, nothing).is_ok());
        let deadline = std::time::Instant::now() + std::time::Duration::from_mins(2);
        while !matches!(reviews.status("ab"), Ok(Status::Done(_))) {
            assert!(std::time::Instant::now() < deadline, "no review");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
}
