//! The shell of every HTML page the tool writes: one self-contained file (inline CSS, SVG and
//! script; nothing fetched), opened from disk by any browser. Markup is built with `maud`,
//! which escapes every interpolated string.

use maud::{DOCTYPE, Markup, PreEscaped, html};

use super::printable::printable_text;

/// The style sheet of every page.
const CSS: &str = r#"
:root { --ink: #222; --muted: #666; --line: #ddd; --accent: #2162a8; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, sans-serif; color: var(--ink); margin: 0; background: #f6f5f1; }
header { background: #fff; border-bottom: 1px solid var(--line); padding: 12px 24px; }
header h1 { font-size: 20px; margin: 0; }
header p { margin: 4px 0 0; color: var(--muted); }
main { padding: 16px 24px; display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 12px 16px; }
section h2 { font-size: 16px; margin: 0 0 8px; }
code, pre { font: 12px/1.4 ui-monospace, monospace; background: #f2f1ec; border-radius: 3px; }
code { padding: 1px 4px; overflow-wrap: anywhere; }
pre { padding: 8px; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
table { border-collapse: collapse; }
td, th { padding: 2px 8px; text-align: left; border-bottom: 1px solid #eee; vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
.muted { color: var(--muted); }
.controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 6px 0; }
.replay { max-width: 1100px; }
.controls input[type=range] { flex: 1; min-width: 200px; }
button { font: inherit; padding: 3px 12px; border: 1px solid var(--line); border-radius: 4px; background: #fff; cursor: pointer; }
button:hover { border-color: var(--accent); }
.actions { max-height: 420px; min-width: 260px; max-width: 380px; overflow-y: auto; margin: 0; padding-left: 32px; font-size: 12px; }
.legend { display: grid; grid-template-columns: repeat(auto-fill, minmax(190px, 1fr)); gap: 2px 12px; font-size: 12px; }
.legend div { display: flex; align-items: center; gap: 6px; }
.replay-body { display: flex; gap: 16px; flex-wrap: wrap; align-items: flex-start; }
.board svg { display: block; border: 1px solid var(--line); }
"#;

/// The `generator` of every page, by which a command recognises a page it wrote
/// ([`written_here`]).
pub const GENERATOR: &str = "playstyles";

/// True if the file at `path` starts as a page of [`page`] does (its head names
/// [`GENERATOR`]).
pub fn written_here(path: &std::path::Path) -> bool {
    let marker = format!("<meta name=\"generator\" content=\"{GENERATOR}\">");
    crate::files::head(path, 4096)
        .is_ok_and(|head| String::from_utf8_lossy(&head).contains(&marker))
}

/// A whole page: `title` as heading and window title, `subtitle` under it, `body` in the main
/// area and `script` run once the page is loaded. Control characters of user text (names read
/// from files) are written visibly ([`printable_text`]).
pub fn page(title: &str, subtitle: &str, body: Markup, script: &str) -> String {
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="generator" content=(GENERATOR);
                title { (title) }
                style { (PreEscaped(CSS)) }
            }
            body {
                header {
                    h1 { (title) }
                    @if !subtitle.is_empty() {
                        p { (subtitle) }
                    }
                }
                main { (body) }
                script { (PreEscaped(script)) }
            }
        }
    }
    .into_string();
    printable_text(&page).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_on_a_page_are_shown_as_text() {
        let p = page("a\u{0}b", "", html! { p { "c\u{1b}d" } }, "");
        assert!(p.contains("a\\u{0}b") && p.contains("c\\u{1b}d"), "{p}");
        assert!(!p.contains('\u{0}') && !p.contains('\u{1b}'));
    }

    #[test]
    fn a_page_escapes_its_title_and_keeps_its_script() {
        let p = page("a <b>", "", html! { p { "x & y" } }, "let a = 1 < 2;");
        assert!(p.starts_with("<!DOCTYPE html>"));
        assert!(p.contains("<title>a &lt;b&gt;</title>"));
        assert!(p.contains("x &amp; y"));
        assert!(p.contains("<script>let a = 1 < 2;</script>"));
    }
}
