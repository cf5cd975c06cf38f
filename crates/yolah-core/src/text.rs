//! Text a user typed, shown back in error messages.

/// A text a user typed, quoted for an error message: at most 40 characters of it, control
/// characters (a newline) shown as spaces, so that the message stays one short line.
///
/// ```
/// assert_eq!(yolah_core::text::quote("e4g2"), "'e4g2'");
/// ```
pub fn quote(text: &str) -> String {
    format!("'{}'", clip(text))
}

/// A text a user typed, shown back (an echo): at most 40 characters of it, then `…`, control
/// characters shown as spaces.
pub fn clip(text: &str) -> String {
    const MAX: usize = 40;
    let mut clipped: String = text
        .chars()
        .take(MAX)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.chars().nth(MAX).is_some() {
        clipped.push('…');
    }
    clipped
}
