//! The words of a PGN file both the reader and the check of our own blocks read: a tag line,
//! the result tokens, dates and time controls.

use yolah_core::text::quote;

/// The longest tag value: a bound for untrusted files.
pub(super) const MAX_TAG_VALUE: usize = 4096;

/// The words that end a game's moves.
pub(super) const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// A game's tags, names and values, in file order.
pub(super) type Tags = Vec<(String, String)>;

/// Whether `text` is a PGN date, `YYYY.MM.DD` (`?` for an unknown digit).
pub(super) fn is_date(text: &str) -> bool {
    let digit = |c: char| c.is_ascii_digit() || c == '?';
    let parts: Vec<&str> = text.split('.').collect();
    parts.len() == 3
        && [4, 2, 2]
            .iter()
            .zip(&parts)
            .all(|(&n, part)| part.len() == n && part.chars().all(digit))
}

/// Whether `text` is a PGN time control: `-`, `?`, or periods joined by `:`, each
/// `[moves/]seconds[+increment]` (seconds with decimals, as we write them).
pub(super) fn is_time_control(text: &str) -> bool {
    let number = |t: &str| {
        let (whole, fraction) = t.split_once('.').unwrap_or((t, "0"));
        !whole.is_empty()
            && !fraction.is_empty()
            && whole
                .chars()
                .chain(fraction.chars())
                .all(|c| c.is_ascii_digit())
    };
    let period = |p: &str| {
        let (moves, time) = p.split_once('/').unwrap_or(("1", p));
        let (base, increment) = time.split_once('+').unwrap_or((time, "0"));
        moves.chars().all(|c| c.is_ascii_digit())
            && !moves.is_empty()
            && number(base)
            && number(increment)
    };
    text == "-" || text == "?" || text.split(':').all(period)
}

pub(super) fn short(text: &str) -> &str {
    match text.char_indices().nth(60) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}

/// `[Name "value"]`, the value unescaped.
pub(super) fn tag(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| format!("a tag is [Name \"value\"], not {}", quote(short(line))))?;
    let (name, quoted) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("a tag is [Name \"value\"], not {}", quote(short(line))))?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("bad tag name {}", quote(short(name))));
    }
    let quoted = quoted.trim();
    let body = quoted
        .strip_prefix('"')
        .and_then(|q| q.strip_suffix('"'))
        .ok_or_else(|| format!("tag {name}: its value must be in double quotes"))?;
    let mut value = String::new();
    let mut escaped = false;
    for c in body.chars() {
        match (escaped, c) {
            (false, '\\') => escaped = true,
            (false, '"') => {
                return Err(format!("tag {name}: a quote inside its value must be \\\""));
            }
            (_, c) => {
                value.push(c);
                escaped = false;
            }
        }
    }
    if escaped {
        return Err(format!("tag {name}: its value ends with a lone backslash"));
    }
    if value.len() > MAX_TAG_VALUE {
        return Err(format!(
            "tag {name}: its value is longer than {MAX_TAG_VALUE} bytes"
        ));
    }
    Ok((name.to_string(), value))
}
