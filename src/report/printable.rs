//! User text made safe to show: names read from configs and CSV files may hold control
//! characters (a NUL, an ESC that would drive the terminal, characters XML 1.0 forbids in an
//! SVG even escaped). They are written visibly as `\u{1b}` text, so nothing is lost or hidden.

use std::borrow::Cow;
use std::fmt::Write;

/// `s` for one line (a table cell, a chart label, a name in a message): every control
/// character (and the noncharacters U+FFFE and U+FFFF, which XML forbids) written as
/// `\u{HEX}`.
pub fn printable(s: &str) -> Cow<'_, str> {
    escaped(s, |_| false)
}

/// `s` for text of several lines (an error message, a page): as [`printable`], but line
/// feeds and tabs kept.
pub fn printable_text(s: &str) -> Cow<'_, str> {
    escaped(s, |c| matches!(c, '\n' | '\t'))
}

/// True if `s` holds a character [`printable`] would escape.
pub fn has_control(s: &str) -> bool {
    s.chars().any(unshowable)
}

fn unshowable(c: char) -> bool {
    c.is_control() || matches!(c, '\u{fffe}' | '\u{ffff}')
}

fn escaped(s: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    let escape = |c: char| unshowable(c) && !keep(c);
    if !s.chars().any(escape) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if escape(c) {
            // Writing to a String cannot fail.
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_written_visibly_and_the_rest_is_kept() {
        assert_eq!(printable("a\0b\u{1b}[31mc"), "a\\u{0}b\\u{1b}[31mc");
        assert_eq!(printable("tab\there\r\n"), "tab\\u{9}here\\u{d}\\u{a}");
        assert_eq!(printable("\u{9b}\u{ffff}"), "\\u{9b}\\u{ffff}");
        assert_eq!(
            printable_text("one\n\ttwo\u{7f}\r"),
            "one\n\ttwo\\u{7f}\\u{d}"
        );
        assert!(matches!(
            printable("plain é <&>"),
            Cow::Borrowed("plain é <&>")
        ));
        assert!(has_control("a\u{1b}") && !has_control("a b"));
    }
}
