//! A small RFC 4180 reader for the schedules a fleet pastes or uploads (issue 39): cells separated by commas,
//! records by CRLF, LF or CR; a cell in double quotes may hold commas, line breaks and doubled quotes (`""` for `"`);
//! a byte-order mark at the start is dropped (spreadsheets write one). Lenient where a person's paste is harmless
//! (spaces around a quoted cell, a quote inside an unquoted cell kept as typed), strict where the cells' bounds would
//! be a guess: text after a closing quote, or a quote never closed, makes that record unreadable rather than
//! silently shifting its columns. Not the `csv` crate the census import and the exports use: it joins text after a
//! closing quote to the cell and lets an unclosed quote take the rest of the paste, where a person must be told which
//! line to fix (and the browser's reader, web/src/islands/csv.ts, follows these same rules).

/// One record (line) of the text: its cells as written (unquoted, not trimmed), and whether it could be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub cells: Vec<String>,
    pub readable: bool,
}

impl Record {
    /// A record of blank cells only (an empty line among others).
    pub fn is_blank(&self) -> bool {
        self.cells.iter().all(|cell| cell.trim().is_empty())
    }
}

/// Every record of `text`, in order; the text's last line break ends its last record rather than starting another.
pub fn records(text: &str) -> Vec<Record> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut records = Vec::new();
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut readable = true;
    // Inside a quoted cell; just after a quoted cell's closing quote; anything written in this record yet.
    let (mut quoted, mut closed, mut started) = (false, false, false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    cell.push('"');
                }
                '"' => (quoted, closed) = (false, true),
                _ => cell.push(c),
            }
            continue;
        }
        match c {
            ',' => {
                cells.push(std::mem::take(&mut cell));
                (closed, started) = (false, true);
            }
            // CRLF: the LF ends the record.
            '\r' if chars.peek() == Some(&'\n') => {}
            '\r' | '\n' => {
                cells.push(std::mem::take(&mut cell));
                records.push(Record {
                    cells: std::mem::take(&mut cells),
                    readable,
                });
                (readable, closed, started) = (true, false, false);
            }
            // A quote opens a quoted cell only at the cell's start (spaces before it are dropped).
            '"' if !closed && cell.trim().is_empty() => {
                cell.clear();
                (quoted, started) = (true, true);
            }
            // After a closing quote only spaces may come before the comma or the line's end.
            _ if closed => readable &= c == ' ' || c == '\t',
            _ => {
                cell.push(c);
                started = true;
            }
        }
    }
    if quoted {
        // A quote never closed: where its cell ends is anyone's guess.
        readable = false;
    }
    if started || !cell.is_empty() || !readable {
        cells.push(cell);
        records.push(Record { cells, readable });
    }
    records
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(text: &str) -> Vec<Vec<String>> {
        records(text).into_iter().map(|r| r.cells).collect()
    }

    #[test]
    fn plain_cells_and_every_kind_of_line_end() {
        assert_eq!(cells("a,b,c\n1,2,3\n"), [["a", "b", "c"], ["1", "2", "3"]]);
        assert_eq!(cells("a,b\r\n1,2\r\n"), [["a", "b"], ["1", "2"]]);
        assert_eq!(cells("a,b\r1,2"), [["a", "b"], ["1", "2"]]);
        assert_eq!(cells("a,,\n"), [["a", "", ""]]);
        assert!(records("").is_empty());
    }

    #[test]
    fn quoted_cells_hold_commas_line_breaks_and_doubled_quotes() {
        let text = "name,description\r\n\"Ortiz, Luis\",\"Rear-ended\r\nat a \"\"light\"\"\"\r\n";
        assert_eq!(
            cells(text),
            [
                vec!["name", "description"],
                vec!["Ortiz, Luis", "Rear-ended\r\nat a \"light\""]
            ]
        );
        assert!(records(text).iter().all(|r| r.readable));
        assert_eq!(cells("\"\",x"), [["", "x"]]);
        assert_eq!(cells("  \"a\"  ,b"), [["a", "b"]]);
    }

    #[test]
    fn a_byte_order_mark_is_dropped() {
        assert_eq!(cells("\u{feff}year,make\n"), [["year", "make"]]);
    }

    #[test]
    fn a_quote_inside_a_plain_cell_is_kept_as_typed() {
        assert_eq!(cells("12\" wheels,x"), [["12\" wheels", "x"]]);
    }

    #[test]
    fn text_after_a_closing_quote_or_an_unclosed_quote_is_unreadable() {
        let read = records("a,b\n\"x\"y,2\n3,4\n");
        assert_eq!(
            read.iter().map(|r| r.readable).collect::<Vec<_>>(),
            [true, false, true]
        );
        let open = records("a,b\n\"never closed,2\n3,4");
        assert_eq!(open.len(), 2);
        assert!(!open[1].readable);
    }

    #[test]
    fn blank_lines_are_blank_records() {
        let read = records("a,b\n\n , \n1,2");
        assert!(!read[0].is_blank());
        assert!(read[1].is_blank() && read[2].is_blank());
        assert_eq!(read.len(), 4);
    }
}
