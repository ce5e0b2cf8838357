//! CSV tables of strings: a header row, then one row per record (RFC 4180 quoting, `\n` line
//! ends), written atomically. Numbers are formatted by the caller, so the bytes written are
//! exactly what the caller decided (and identical from run to run).

use std::io::Cursor;
use std::path::Path;

use crate::error::{Error, Result};
use crate::files::{DATA_LIMIT, read_bytes, write_atomic};

/// A CSV table: column names and rows of cells.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CsvTable {
    /// Column names.
    pub header: Vec<String>,
    /// Rows, each as long as the header.
    pub rows: Vec<Vec<String>>,
}

impl CsvTable {
    /// An empty table with these columns.
    pub fn new(header: Vec<String>) -> Self {
        CsvTable {
            header,
            rows: Vec::new(),
        }
    }

    /// The table as CSV bytes.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the table's first column if a row's length differs from the
    /// header's (a bug of the caller, reported rather than written).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut w = ::csv::WriterBuilder::new()
            .terminator(::csv::Terminator::Any(b'\n'))
            .from_writer(Vec::new());
        let shape = |e: ::csv::Error| {
            Error::config(
                self.header.first().map_or("csv", String::as_str),
                format!("malformed table: {e}"),
            )
        };
        w.write_record(&self.header).map_err(shape)?;
        for row in &self.rows {
            w.write_record(row).map_err(shape)?;
        }
        w.into_inner()
            .map_err(|e| Error::io("<csv>", std::io::Error::other(e.to_string())))
    }

    /// Writes the table to `path` atomically ([`write_atomic`]).
    ///
    /// # Errors
    ///
    /// As [`CsvTable::to_bytes`]; [`Error::Io`] naming the file if writing fails.
    pub fn write(&self, path: &Path) -> Result<()> {
        write_atomic(path, &self.to_bytes()?)
    }

    /// Writes the table to `path` as [`CsvTable::write`] does, unless the file holds these
    /// very bytes already (a command resumed with nothing to do writes nothing).
    ///
    /// # Errors
    ///
    /// As [`CsvTable::write`]; [`Error::Io`] naming the file if something that is not a
    /// regular file is there.
    pub fn write_if_changed(&self, path: &Path) -> Result<()> {
        let bytes = self.to_bytes()?;
        if crate::files::present(path)? && read_bytes(path, DATA_LIMIT)? == bytes {
            return Ok(());
        }
        write_atomic(path, &bytes)
    }
}

/// A CSV reader over the file at `path` (read whole, at most [`DATA_LIMIT`] bytes) whose
/// header must be exactly `columns`.
///
/// # Errors
///
/// [`Error::Io`] naming the file if it cannot be read or is larger than the limit;
/// [`Error::Data`] naming it if its header is not `columns` (the message gives the expected
/// header).
pub fn read_with_header(path: &Path, columns: &[&str]) -> Result<::csv::Reader<Cursor<Vec<u8>>>> {
    let bytes = read_bytes(path, DATA_LIMIT)?;
    let mut r = ::csv::Reader::from_reader(Cursor::new(bytes));
    let header = r
        .headers()
        .map_err(|e| Error::data(path, 0, e.to_string()))?;
    if header.iter().ne(columns.iter().copied()) {
        return Err(Error::data(
            path,
            0,
            format!("unexpected header; expected `{}`", columns.join(",")),
        ));
    }
    Ok(r)
}

/// Checks that no two columns of `header`, the header of the CSV file `path`, have one name
/// (a reader that finds columns by name would read one of them and ignore the other).
///
/// # Errors
///
/// [`Error::Data`] naming the file, line 1 and the column.
pub fn check_unique_columns<'a>(
    path: &Path,
    header: impl IntoIterator<Item = &'a str>,
) -> Result<()> {
    let mut seen = std::collections::HashMap::new();
    for (i, name) in header.into_iter().enumerate() {
        if let Some(first) = seen.insert(name, i + 1) {
            return Err(Error::data(
                path,
                1,
                format!(
                    "column `{name}` appears twice (columns {first} and {})",
                    i + 1
                ),
            ));
        }
    }
    Ok(())
}

/// The error for a record of the CSV file `path` that cannot be read, naming the file and the
/// line (the reader's, else `line`). A row with more or fewer fields than the header, as a row
/// cut short by a crash or a truncated copy leaves, is said to be so plainly.
pub fn record_error(path: &Path, line: usize, e: &::csv::Error) -> Error {
    let line = e.position().map_or(line, |p| p.line() as usize);
    let reason = match e.kind() {
        ::csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => {
            format!("{len} fields where the header has {expected_len} (a truncated or damaged row)")
        }
        _ => e.to_string(),
    };
    Error::data(path, line, reason)
}

/// Checks that the rate `name` read from a table is a number in [0, 1] (NaN is not).
///
/// # Errors
///
/// What is wrong, in words (the caller names the file and line).
pub fn check_rate(name: &str, x: f64) -> std::result::Result<(), String> {
    if (0.0..=1.0).contains(&x) {
        Ok(())
    } else {
        Err(format!("`{name}` is {x}, not a rate in [0, 1]"))
    }
}

/// Checks that the number `name` read from a table is finite (not NaN or infinite).
///
/// # Errors
///
/// What is wrong, in words (the caller names the file and line).
pub fn check_finite(name: &str, x: f64) -> std::result::Result<(), String> {
    if x.is_finite() {
        Ok(())
    } else {
        Err(format!("`{name}` is {x}, not a finite number"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_with_commas_and_quotes_are_quoted() {
        let mut t = CsvTable::new(vec!["name".into(), "value".into()]);
        t.rows.push(vec!["a,b".into(), "say \"hi\"".into()]);
        t.rows.push(vec!["plain".into(), String::new()]);
        let text = String::from_utf8(t.to_bytes().unwrap()).unwrap();
        assert_eq!(text, "name,value\n\"a,b\",\"say \"\"hi\"\"\"\nplain,\n");
    }

    #[test]
    fn a_column_named_twice_is_named_with_both_places() {
        let path = Path::new("dir/t.csv");
        check_unique_columns(path, ["a", "b", "c"]).unwrap();
        let msg = check_unique_columns(path, ["a", "b", "a"])
            .unwrap_err()
            .to_string();
        assert_eq!(
            msg,
            "dir/t.csv: line 1: column `a` appears twice (columns 1 and 3)"
        );
    }

    #[test]
    fn a_short_row_is_named_by_file_and_line() {
        let bytes = b"a,b,c\n1,2,3\n4,5\n";
        let mut r = ::csv::Reader::from_reader(&bytes[..]);
        let e = r.records().nth(1).unwrap().unwrap_err();
        let msg = record_error(Path::new("dir/t.csv"), 0, &e).to_string();
        assert!(
            msg.starts_with("dir/t.csv: line 3: 2 fields where the header has 3"),
            "{msg}"
        );
    }

    #[test]
    fn a_ragged_row_is_an_error() {
        let mut t = CsvTable::new(vec!["a".into(), "b".into()]);
        t.rows.push(vec!["1".into()]);
        assert!(t.to_bytes().is_err());
    }
}
