//! Whether an unfinished last block is one of ours cut short by a kill: byte for byte the
//! start of a block as the writer makes it. Only then is it left out rather than refused.

use super::game::{escape, find_tag};
use super::tags::{RESULTS, Tags, is_date, is_time_control, short, tag};
use yolah_core::Position;
use yolah_core::text::quote;

/// The `Event` of the blocks yolah writes: a last block cut short is cut off only when it is
/// provably one of them ([`ours`]).
pub(super) const OUR_EVENTS: [&str; 4] = [
    "yolah match",
    "yolah tournament",
    "yolah gauntlet",
    "yolah serve",
];

/// Whether the unfinished block `text` is provably the start of one our writer wrote (see
/// [`block`]), cut short by a kill: byte for byte what [`block`] writes, as far as it goes —
/// its tags, in its order and its spelling, with values it can write, then its moves, laid out
/// in its lines, and only the comment its `Termination` calls for. Anything else (a note, a tag
/// of another program, a comment of a user's) says why it is not, and is never cut.
pub(super) fn ours(text: &str) -> Result<(), String> {
    let (head, body) = match text.find("\n\n") {
        Some(i) => (&text[..=i], Some(&text[i + 2..])),
        None => (text, None),
    };
    let mut tags: Tags = Vec::new();
    let mut partial = None;
    for line in head.split_inclusive('\n') {
        let Some(line) = line.strip_suffix('\n') else {
            partial = Some(line);
            break;
        };
        let (name, value) = tag(line)?;
        if line != format!("[{name} \"{}\"]", escape(&value)) {
            return Err(format!(
                "{} is not spelled as yolah writes it",
                quote(short(line))
            ));
        }
        our_tag_value(&name, &value)?;
        tags.push((name, value));
    }
    let names: Vec<&str> = tags.iter().map(|(name, _)| name.as_str()).collect();
    let orders = our_tag_orders();
    // The tags so far must start one of our orders.
    let (orders, names) = (&orders, &names);
    let fitting = move |n: usize| {
        orders
            .iter()
            .filter(move |order| order.len() >= n && order[..n] == names[..n])
    };
    if let Some(i) = (0..names.len()).find(|&i| fitting(i + 1).next().is_none()) {
        let mut expected: Vec<&str> = fitting(i).filter_map(|o| o.get(i).copied()).collect();
        expected.dedup();
        return Err(if expected.is_empty() {
            format!("a tag {} after yolah's last tag", names[i])
        } else {
            format!(
                "a tag {} where yolah writes {}",
                names[i],
                expected.join(" or ")
            )
        });
    }
    let get = |name: &str| find_tag(&tags, name);
    if let (Some(round), Some(number)) = (get("Round"), get("Game"))
        && number
            .parse::<u64>()
            .ok()
            .map(|n| (n + 1).to_string())
            .as_deref()
            != Some(round)
    {
        return Err(format!("Round {} but Game {}", quote(round), quote(number)));
    }
    if let (Some(result), Some(termination)) = (get("Result"), get("Termination"))
        && (result == "*") != (termination == "unterminated")
    {
        return Err(format!(
            "Result {} with Termination {}",
            quote(result),
            quote(termination)
        ));
    }
    let done = fitting(names.len()).any(|order| order.len() == names.len());
    if let Some(line) = partial {
        let fits = fitting(names.len())
            .filter_map(|order| order.get(names.len()))
            .any(|name| partial_tag_fits(line, name));
        if !fits {
            return Err(format!(
                "{} is not the start of yolah's next tag",
                quote(short(line))
            ));
        }
    }
    match body {
        None => Ok(()),
        Some(_) if !done => Err(format!(
            "its tags end after {} (yolah's end with WhiteScore)",
            names.last().unwrap_or(&"nothing")
        )),
        Some(body) => our_movetext(body, &tags),
    }
}

/// The tags our writer puts in a block, in its order ([`block`]): one sequence for each kind
/// of block it writes — with a `Run` or not, one clock or one a side, a `FEN` or not.
pub(super) fn our_tag_orders() -> Vec<Vec<&'static str>> {
    const FIRST: [&str; 8] = [
        "Event", "Site", "Date", "Round", "Black", "White", "Result", "Game",
    ];
    const LAST: [&str; 5] = [
        "Opening",
        "Termination",
        "PlyCount",
        "BlackScore",
        "WhiteScore",
    ];
    let mut orders = Vec::new();
    for run in [&[][..], &["Run"]] {
        for clocks in [
            &["TimeControl"][..],
            &["BlackTimeControl", "WhiteTimeControl"],
        ] {
            for start in [&[][..], &["SetUp", "FEN"]] {
                orders.push([&FIRST[..], run, clocks, start, &LAST].concat());
            }
        }
    }
    orders
}

/// The `Termination` values our writer gives ([`ending`]).
pub(super) const OUR_TERMINATIONS: [&str; 5] = [
    "normal",
    "unterminated",
    "adjudication",
    "time forfeit",
    "rules infraction",
];

/// Whether `value` is one our writer can give tag `name`.
pub(super) fn our_tag_value(name: &str, value: &str) -> Result<(), String> {
    let number = |max: u64| {
        value
            .parse::<u64>()
            .is_ok_and(|n| n <= max && n.to_string() == value)
    };
    let fits = match name {
        "Event" => OUR_EVENTS.contains(&value),
        "Site" => value == "yolah",
        "Date" => is_date(value),
        "Round" | "Game" => number(u64::MAX),
        // At most 56 moves (the free squares), each pass answered by a move.
        "PlyCount" => number(112),
        "BlackScore" | "WhiteScore" => number(u64::from(u8::MAX)),
        "Result" => RESULTS.contains(&value),
        "TimeControl" | "BlackTimeControl" | "WhiteTimeControl" => is_time_control(value),
        "SetUp" => value == "1",
        "FEN" => value.parse::<Position>().is_ok(),
        "Termination" => OUR_TERMINATIONS.contains(&value),
        _ => true,
    };
    if fits {
        Ok(())
    } else {
        Err(format!(
            "{name} {} is not a value yolah writes",
            quote(short(value))
        ))
    }
}

/// Whether `line`, the last line and cut short, is the start of a tag line `name` as our
/// writer spells it.
pub(super) fn partial_tag_fits(line: &str, name: &str) -> bool {
    let head = format!("[{name} \"");
    if head.starts_with(line) {
        return true;
    }
    let Some(rest) = line.strip_prefix(&head) else {
        return false;
    };
    let start_of = |value: &str| format!("{value}\"]").starts_with(rest);
    match name {
        "Event" => OUR_EVENTS.iter().any(|event| start_of(event)),
        "Site" => start_of("yolah"),
        "SetUp" => start_of("1"),
        _ => {
            // A value escaped as `escape` does, as far as it goes, then perhaps its end.
            let mut chars = rest.chars();
            while let Some(c) = chars.next() {
                match c {
                    '\\' if !matches!(chars.next(), None | Some('\\' | '"')) => return false,
                    '"' => return matches!(chars.as_str(), "" | "]"),
                    c if c.is_control() => return false,
                    _ => {}
                }
            }
            true
        }
    }
}

/// What our writer puts at one place of a block's moves.
#[derive(Clone, Copy)]
pub(super) enum Word<'a> {
    /// Exactly this text: a move number, a comment known from the tags, the result.
    Exact(&'a str),
    /// A move: `a1:b2`.
    Move,
    /// The comment of a forfeit: `{…}` on one line, starting with `prefix`.
    Forfeit(&'a str),
}

impl Word<'_> {
    /// Whether `word` is this word whole.
    fn is(self, word: &str) -> bool {
        match self {
            Word::Move => word.len() == 5 && self.starts(word),
            Word::Exact(text) => word == text,
            Word::Forfeit(prefix) => word.strip_suffix('}').is_some_and(|inner| {
                inner.len() > 1 && inner.starts_with(prefix) && !inner.contains(['}', '\n'])
            }),
        }
    }

    /// Whether `word` is the start of this word (cut short).
    fn starts(self, word: &str) -> bool {
        match self {
            Word::Move => {
                let shape = [
                    b"abcdefgh".as_slice(),
                    b"12345678",
                    b":",
                    b"abcdefgh",
                    b"12345678",
                ];
                word.len() <= 5
                    && word
                        .bytes()
                        .zip(shape)
                        .all(|(b, allowed)| allowed.contains(&b))
            }
            Word::Exact(text) => text.starts_with(word),
            Word::Forfeit(prefix) => {
                (word.starts_with(prefix) || prefix.starts_with(word))
                    && !word.contains(['}', '\n'])
            }
        }
    }

    /// Its length, when it is known.
    fn len(self) -> Option<usize> {
        match self {
            Word::Move => Some(5),
            Word::Exact(text) => Some(text.len()),
            Word::Forfeit(_) => None,
        }
    }
}

/// The longest line of moves our writer makes (but for a word longer alone).
pub(super) const MOVE_LINE: usize = 79;

/// Whether `body`, the moves of an unfinished block whose tags are `tags`, is what our writer
/// writes as far as it goes: the numbered moves the `PlyCount` tag counts, the comment its
/// `Termination` calls for, the result; each word after a space, or a newline where the line
/// would pass [`MOVE_LINE`] characters.
pub(super) fn our_movetext(body: &str, tags: &[(String, String)]) -> Result<(), String> {
    let get = |name: &str| find_tag(tags, name).unwrap_or_default();
    let plies: usize = get("PlyCount").parse().unwrap_or_default();
    let result = get("Result");
    let loser = if result == "1-0" { "white" } else { "black" };
    let resigns = format!("{{{loser} resigns}}");
    let adjudicated = format!(
        "{{adjudicated: proved final scores {}-{}}}",
        get("BlackScore"),
        get("WhiteScore")
    );
    // The words after the moves: the comments that may come first, and whether one must.
    let (comments, needed): (Vec<Word>, bool) = match get("Termination") {
        "normal" => (vec![Word::Exact(&resigns)], false),
        "adjudication" => (vec![Word::Exact(&adjudicated)], true),
        "time forfeit" => (vec![Word::Forfeit("{lost on time")], true),
        "rules infraction" => (vec![Word::Forfeit("{")], true),
        _ => (Vec::new(), false),
    };
    let refuse = |word: &str, what: &str| Err(format!("{} is not {what}", quote(short(word))));
    let mut moves = 0;
    let mut numbered = false;
    let mut commented = false;
    let mut line = 0;
    let mut rest = body;
    loop {
        // What may come next.
        let number = format!("{}.", moves / 2 + 1);
        let next: Vec<Word> = if moves < plies {
            if moves % 2 == 0 && !numbered {
                vec![Word::Exact(&number)]
            } else {
                vec![Word::Move]
            }
        } else if commented || comments.is_empty() {
            vec![Word::Exact(result)]
        } else if needed {
            comments.clone()
        } else {
            [comments.as_slice(), &[Word::Exact(result)]].concat()
        };
        let separator = if line == 0 {
            None
        } else {
            let Some(c) = rest.chars().next() else {
                return Ok(());
            };
            if c != ' ' && c != '\n' {
                return Err(format!(
                    "{} where yolah writes a space or a new line",
                    quote(short(rest))
                ));
            }
            rest = &rest[1..];
            Some(c)
        };
        // A word our writer puts after `separator`, for a word of `len` bytes (any, unknown).
        let fits = |len: Option<usize>| match (separator, len) {
            (Some(c), Some(len)) => (c == '\n') == (line + 1 + len > MOVE_LINE),
            // The first word, or a forfeit's comment of any length.
            (None, _) | (Some(_), None) => true,
        };
        let end = if rest.starts_with('{') {
            rest.find('}').map(|i| i + 1)
        } else {
            rest.find([' ', '\n', '{'])
        };
        let Some(end) = end else {
            // The last word, cut short (or whole, the kill just after it).
            let word = rest;
            let fits_next = next.iter().any(|w| {
                w.starts(word) && fits(w.len().or((separator == Some(' ')).then_some(word.len())))
            });
            return if fits_next {
                Ok(())
            } else {
                refuse(word, "what yolah writes there")
            };
        };
        let word = &rest[..end];
        let Some(&kind) = next.iter().find(|w| w.is(word)) else {
            return refuse(word, "what yolah writes there");
        };
        if !fits(Some(word.len())) {
            return refuse(word, "laid out as yolah writes it");
        }
        match kind {
            Word::Move => {
                moves += 1;
                numbered = false;
            }
            _ if moves < plies => numbered = true,
            _ if word == result && (commented || !needed) => {
                // The result, whole: the block would have been read whole.
                return Ok(());
            }
            _ => commented = true,
        }
        line = if separator == Some('\n') || line == 0 {
            word.len()
        } else {
            line + 1 + word.len()
        };
        rest = &rest[end..];
    }
}
