//! Games between two people in two browsers (and whoever watches): a registry of rooms, each a
//! [`Table`] of two humans shared by the connections that joined it. A side is held by a
//! secret token, so a page that reconnects (a reload, a dropped network) gets its side back;
//! a room nobody is connected to is forgotten after a grace period.

use crate::game::Table;
use crate::message::{RoomMessage, ServerMessage};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::broadcast;
use yolah_ai::TimeControl;
use yolah_core::Color;

/// Messages a room keeps for a slow member before it must catch up from the state.
const BACKLOG: usize = 64;

/// Where a connection sits in a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// Plays this side.
    Side(Color),
    /// Watches.
    Spectator,
}

/// A game between two browsers.
pub struct Room {
    id: String,
    inner: Mutex<Inner>,
    updates: broadcast::Sender<ServerMessage>,
}

struct Inner {
    table: Table,
    /// Each side's secret, once a page has taken it.
    tokens: [Option<String>; 2],
    /// Connections holding each side now.
    present: [usize; 2],
    spectators: usize,
    /// The side that asked to take the last move back.
    takeback: Option<Color>,
    /// Since when nobody has been connected.
    empty_since: Option<Instant>,
}

/// `words` random 64-bit words in hex, from the thread's cryptographic generator.
fn secret(words: usize) -> String {
    let words: Vec<String> = (0..words)
        .map(|_| format!("{:016x}", rand::random::<u64>()))
        .collect();
    words.concat()
}

impl Room {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The room's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Takes a seat: the side `token` holds, else a free side (`prefer`red first), else a
    /// spectator's. Returns the seat and the side's token.
    pub fn join(&self, token: Option<&str>, prefer: Option<Color>) -> (Seat, Option<String>) {
        let mut inner = self.lock();
        inner.empty_since = None;
        let held = Color::ALL
            .into_iter()
            .find(|c| token.is_some() && inner.tokens[c.index()].as_deref() == token);
        let free = || {
            let order = match prefer {
                Some(Color::White) => [Color::White, Color::Black],
                _ => [Color::Black, Color::White],
            };
            order
                .into_iter()
                .find(|c| inner.tokens[c.index()].is_none())
        };
        if let Some(side) = held.or_else(free) {
            let token = inner.tokens[side.index()]
                .get_or_insert_with(|| secret(2))
                .clone();
            inner.present[side.index()] += 1;
            (Seat::Side(side), Some(token))
        } else {
            inner.spectators += 1;
            (Seat::Spectator, None)
        }
    }

    /// A connection leaves its seat (its side stays held by its token).
    pub fn leave(&self, seat: Seat) {
        let mut inner = self.lock();
        match seat {
            Seat::Side(side) => inner.present[side.index()] -= 1,
            Seat::Spectator => inner.spectators -= 1,
        }
        if inner.present == [0, 0] && inner.spectators == 0 {
            inner.empty_since = Some(Instant::now());
        }
    }

    /// `seat`'s move.
    pub fn play(&self, seat: Seat, text: &str) -> Result<(), String> {
        let mut inner = self.lock();
        let Seat::Side(side) = seat else {
            return Err("spectators do not move".to_string());
        };
        if !inner.table.over() && inner.table.position().side_to_move() != side {
            return Err(format!("it is {}'s turn", side.opponent()));
        }
        inner.table.human_move(text)?;
        inner.takeback = None;
        Ok(())
    }

    /// `seat` resigns.
    pub fn resign(&self, seat: Seat) -> Result<(), String> {
        let Seat::Side(side) = seat else {
            return Err("spectators do not resign".to_string());
        };
        self.lock().table.resign_side(side)
    }

    /// `seat` asks to take the last move back; when the other side has asked too, it is.
    pub fn takeback(&self, seat: Seat) -> Result<(), String> {
        let Seat::Side(side) = seat else {
            return Err("spectators do not take moves back".to_string());
        };
        let mut inner = self.lock();
        match inner.takeback {
            Some(asker) if asker != side => {
                inner.table.undo()?;
                inner.takeback = None;
            }
            _ if inner.table.moves() == 0 => return Err("nothing to undo".to_string()),
            _ => inner.takeback = Some(side),
        }
        Ok(())
    }

    /// `seat` declines the other side's request to take the last move back.
    pub fn decline(&self, seat: Seat) -> Result<(), String> {
        let Seat::Side(side) = seat else {
            return Err("spectators do not answer takebacks".to_string());
        };
        let mut inner = self.lock();
        match inner.takeback {
            Some(asker) if asker != side => {
                inner.takeback = None;
                Ok(())
            }
            _ => Err("there is no takeback to decline".to_string()),
        }
    }

    /// When the side to move runs out of time.
    pub fn deadline(&self) -> Option<Instant> {
        self.lock().table.deadline()
    }

    /// Flags the side to move if its time is out; whether the game ended so just now.
    pub fn check_flag(&self) -> bool {
        let mut inner = self.lock();
        let over = inner.table.over();
        inner.table.check_flag() && !over
    }

    /// The state and who is there, for a member in `seat` with `token`.
    pub fn messages(&self, seat: Seat, token: Option<String>) -> Vec<ServerMessage> {
        let inner = self.lock();
        vec![
            ServerMessage::Room(self.room_message(&inner, seat, token)),
            ServerMessage::State(Box::new(inner.table.state(false))),
        ]
    }

    fn room_message(&self, inner: &Inner, seat: Seat, token: Option<String>) -> RoomMessage {
        RoomMessage {
            id: self.id.clone(),
            seat: match seat {
                Seat::Side(side) => side.to_string(),
                Seat::Spectator => "spectator".to_string(),
            },
            token,
            present: [inner.present[0] > 0, inner.present[1] > 0],
            spectators: inner.spectators,
            takeback: inner.takeback.map(|side| side.to_string()),
        }
    }

    /// Tells every member the state and who is there (each member adds its own seat).
    pub fn publish(&self) {
        let inner = self.lock();
        let presence = self.room_message(&inner, Seat::Spectator, None);
        let _ = self.updates.send(ServerMessage::Room(presence));
        let _ = self
            .updates
            .send(ServerMessage::State(Box::new(inner.table.state(false))));
    }

    /// The room's news, for a member.
    pub fn subscribe(&self) -> broadcast::Receiver<ServerMessage> {
        self.updates.subscribe()
    }

    /// Whether nobody has sat in it for `grace`: then it is dropped.
    pub fn forgotten(&self, grace: Duration) -> bool {
        self.lock()
            .empty_since
            .is_some_and(|t| t.elapsed() >= grace)
    }
}

/// Every room of a server.
#[derive(Default)]
pub struct Rooms {
    rooms: Mutex<HashMap<String, Arc<Room>>>,
}

impl Rooms {
    /// A new room for a game between two people from `position`, with a clock if `tc` sets
    /// one; at most `max` rooms, those nobody has been in for `grace` forgotten first.
    pub fn create(
        &self,
        position: Option<&str>,
        tc: Option<TimeControl>,
        max: usize,
        grace: Duration,
    ) -> Result<Arc<Room>, String> {
        let table = Table::new("human", "human", position, tc)?;
        let mut rooms = self
            .rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        rooms.retain(|_, room| !room.forgotten(grace));
        if rooms.len() >= max {
            return Err(format!(
                "the server has {max} shared games already; try later"
            ));
        }
        let room = Arc::new(Room {
            id: secret(1),
            inner: Mutex::new(Inner {
                table,
                tokens: [None, None],
                present: [0, 0],
                spectators: 0,
                takeback: None,
                empty_since: Some(Instant::now()),
            }),
            updates: broadcast::channel(BACKLOG).0,
        });
        rooms.insert(room.id.clone(), Arc::clone(&room));
        Ok(room)
    }

    /// Whether `room` is still one of the server's (not forgotten and dropped).
    pub fn holds(&self, room: &Arc<Room>) -> bool {
        self.rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&room.id)
            .is_some_and(|kept| Arc::ptr_eq(kept, room))
    }

    /// The room `id`, unless forgotten.
    pub fn find(&self, id: &str, grace: Duration) -> Result<Arc<Room>, String> {
        let mut rooms = self
            .rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        rooms.retain(|_, room| !room.forgotten(grace));
        rooms.get(id.trim()).cloned().ok_or_else(|| {
            format!(
                "no shared game {}: its link is wrong, or everyone left it long ago",
                yolah_core::text::quote(id)
            )
        })
    }
}
