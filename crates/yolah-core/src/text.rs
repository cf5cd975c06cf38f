//! Text a user typed, shown back in error messages.

/// A text a user typed, quoted for an error message: at most 40 characters of it, control
/// characters (a newline) shown as spaces, so that the message stays one short line.
pub fn quote(text: &str) -> String {
    const MAX: usize = 40;
    let mut quoted: String = text
        .chars()
        .take(MAX)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.chars().nth(MAX).is_some() {
        quoted.push('…');
    }
    format!("'{quoted}'")
}
