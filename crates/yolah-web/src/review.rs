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
//!   asking again tries again; `503`: too many reviews waiting.
//!
//! Reviews run one at a time on a thread of their own, which ends when none waits (its
//! engine's and solver's tables go with it). A review kept is of the moves it judged: a game
//! whose moves differ is reviewed afresh.

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
    /// Its moves, separated by spaces, as the store keeps them with the review.
    moves_text: String,
    start: Position,
    moves: Vec<Move>,
}

#[derive(Default)]
struct Queue {
    waiting: VecDeque<Job>,
    /// The game being reviewed, and its progress.
    current: Option<(String, usize, usize)>,
    failed: HashMap<String, String>,
    /// Whether the thread that reviews is running.
    working: bool,
}

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
        let broken = |why: String| Refused::Broken(format!("game {id} does not read: {why}"));
        let start: Position = saved.start.parse().map_err(|e| broken(format!("{e}")))?;
        let mut position = start;
        let mut moves = Vec::with_capacity(saved.moves.len());
        for text in &saved.moves {
            let m: Move = text.parse().map_err(|e| broken(format!("{e}")))?;
            position
                .check_move(m)
                .map_err(|e| broken(format!("{text}: {e}")))?;
            position.play(m);
            moves.push(m);
        }
        Ok(Job {
            id: id.to_string(),
            moves_text: saved.moves.join(" "),
            start,
            moves,
        })
    }

    /// The status of `job`'s review, without asking for it.
    fn status_of(&self, job: &Job) -> Result<Status, Refused> {
        if let Some((moves, review)) = self.store.review(&job.id).map_err(Refused::Broken)?
            && moves == job.moves_text
        {
            let review = serde_json::from_str(&review).map_err(|e| {
                Refused::Broken(format!("the review of game {} does not read: {e}", job.id))
            })?;
            return Ok(Status::Done(review));
        }
        let queue = lock(&self.queue);
        if let Some((id, done, total)) = &queue.current
            && *id == job.id
        {
            return Ok(Status::Reviewing {
                done: *done,
                total: *total,
            });
        }
        if let Some(place) = queue.waiting.iter().position(|j| j.id == job.id) {
            return Ok(Status::Queued {
                ahead: place + usize::from(queue.current.is_some()),
            });
        }
        Ok(queue
            .failed
            .get(&job.id)
            .map_or(Status::None, |why| Status::Failed(why.clone())))
    }

    /// The review of game `id` as it stands (`GET`).
    pub fn status(&self, id: &str) -> Result<Status, Refused> {
        self.status_of(&self.job(id)?)
    }

    /// Asks for the review of game `id` (`POST`): queued unless it is done, made or waiting.
    pub fn ask(self: &Arc<Reviews>, id: &str) -> Result<Status, Refused> {
        let job = self.job(id)?;
        match self.status_of(&job)? {
            Status::None | Status::Failed(_) => {}
            status => return Ok(status),
        }
        let mut queue = lock(&self.queue);
        if queue.waiting.iter().any(|j| j.id == job.id)
            || queue.current.as_ref().is_some_and(|c| c.0 == job.id)
        {
            drop(queue);
            return self.status_of(&job);
        }
        if queue.waiting.len() >= MAX_WAITING {
            return Err(Refused::Busy(format!(
                "{MAX_WAITING} reviews are waiting already; ask again in a minute"
            )));
        }
        queue.failed.remove(&job.id);
        queue.waiting.push_back(job);
        let ahead = queue.waiting.len() - 1 + usize::from(queue.current.is_some());
        if !queue.working {
            queue.working = true;
            let reviews = Arc::clone(self);
            std::thread::Builder::new()
                .name("review".to_string())
                .spawn(move || reviews.work())
                .map_err(|e| {
                    queue.working = false;
                    Refused::Broken(format!("cannot start reviewing: {e}"))
                })?;
        }
        Ok(Status::Queued { ahead })
    }

    /// The reviewing thread: the waiting games one by one, until none waits.
    fn work(self: Arc<Reviews>) {
        // However this thread ends (a panic included), the queue says nobody reviews, so the
        // next request starts another.
        struct Done<'a>(&'a Reviews);
        impl Drop for Done<'_> {
            fn drop(&mut self) {
                let mut queue = lock(&self.0.queue);
                if let Some((id, _, _)) = queue.current.take() {
                    queue
                        .failed
                        .insert(id, "the review stopped unexpectedly".to_string());
                }
                queue.working = false;
            }
        }
        let _done = Done(&self);
        let mut reviewer = Reviewer::new(self.settings, None);
        loop {
            let job = {
                let mut queue = lock(&self.queue);
                let Some(job) = queue.waiting.pop_front() else {
                    return;
                };
                queue.current = Some((job.id.clone(), 0, (job.moves.len() + 1) * 2));
                job
            };
            let review = reviewer.review(&job.start, &job.moves, |done, total| {
                if let Some(current) = lock(&self.queue).current.as_mut() {
                    current.1 = done;
                    current.2 = total;
                }
            });
            let json = serde_json::to_string(&review).expect("a review serialises");
            let kept = self.store.keep_review(&job.id, &job.moves_text, &json);
            let mut queue = lock(&self.queue);
            queue.current = None;
            if let Err(why) = kept {
                eprintln!("yolah serve: the review of game {}: {why}", job.id);
                queue.failed.insert(job.id, why);
            }
        }
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
        /// Forgets the reviews waiting (the one being made goes on): a test's queue does not
        /// outlive it.
        fn forget_waiting(&self) {
            lock(&self.queue).waiting.clear();
        }
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
        // Searches long enough that no review ends while the others are asked for.
        let reviews = Reviews::new(Arc::clone(&store), Settings::default());
        let answers: Vec<_> = ids.iter().map(|id| reviews.ask(id)).collect();
        reviews.forget_waiting();
        let accepted = answers.iter().filter(|a| a.is_ok()).count();
        assert!(
            (MAX_WAITING..=MAX_WAITING + 1).contains(&accepted),
            "{answers:?}"
        );
        let Some(Err(Refused::Busy(why))) = answers.last() else {
            panic!("{answers:?}")
        };
        assert!(why.contains("ask again"), "{why}");
        // Each accepted one was told its place.
        for (k, answer) in answers.iter().take(MAX_WAITING).enumerate() {
            match answer {
                Ok(Status::Queued { ahead }) => assert!(*ahead <= k, "{answer:?}"),
                other => panic!("{other:?}"),
            }
        }
        // Asking twice does not queue twice.
        assert!(matches!(
            reviews.ask(&ids[0]),
            Ok(Status::Reviewing { .. } | Status::Queued { .. })
        ));
    }
}
