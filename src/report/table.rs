//! Aligned plain-text tables for the terminal: the first column left-aligned, the others
//! right-aligned (they hold numbers), columns separated by two spaces.

use super::printable::printable;

/// Formats `header` and `rows` as an aligned table, one line per row, each ending in `\n`.
/// Rows shorter than the header are padded with empty cells; widths count characters. Control
/// characters in a cell (a name read from a file) are written visibly ([`printable`]).
pub fn aligned(header: &[String], rows: &[Vec<String>]) -> String {
    let shown =
        |row: &[String]| -> Vec<String> { row.iter().map(|c| printable(c).into_owned()).collect() };
    let header: &[String] = &shown(header);
    let rows: &[Vec<String>] = &rows.iter().map(|r| shown(r)).collect::<Vec<_>>();
    let cols = header
        .len()
        .max(rows.iter().map(Vec::len).max().unwrap_or(0));
    let mut widths = vec![0; cols];
    for row in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)) {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)) {
        let mut line = String::new();
        for (c, &w) in widths.iter().enumerate() {
            let cell = row.get(c).map_or("", String::as_str);
            if c == 0 {
                line += &format!("{cell:<w$}");
            } else {
                line += &format!("  {cell:>w$}");
            }
        }
        out += line.trim_end();
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn columns_line_up() {
        let t = aligned(
            &strings(&["pairing", "wins"]),
            &[strings(&["a", "10"]), strings(&["longer", "7"])],
        );
        assert_eq!(t, "pairing  wins\na          10\nlonger      7\n");
    }

    #[test]
    fn a_control_character_in_a_cell_is_shown_not_sent_to_the_terminal() {
        let t = aligned(&strings(&["pairing"]), &[strings(&["a\u{1b}[2Jb"])]);
        assert_eq!(t, "pairing\na\\u{1b}[2Jb\n");
    }
}
