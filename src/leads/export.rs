//! Lead export for the CLI: RFC 4180 CSV that is safe to open in a spreadsheet, or JSON.
//! A cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return could run as a formula in a spreadsheet,
//! so it is prefixed with an apostrophe (OWASP's advice for CSV injection).

use std::io::Write;

use super::store::{COLUMNS, Lead};

pub fn write_csv(leads: &[Lead], out: &mut dyn Write) -> std::io::Result<()> {
    write_row(out, COLUMNS.iter().map(|c| c.to_string()))?;
    for lead in leads {
        let value = serde_json::to_value(lead).unwrap_or_default();
        write_row(
            out,
            COLUMNS.iter().map(|column| match &value[*column] {
                serde_json::Value::Null => String::new(),
                serde_json::Value::String(text) => text.clone(),
                other => other.to_string(),
            }),
        )?;
    }
    Ok(())
}

pub fn write_json(leads: &[Lead], out: &mut dyn Write) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, leads)?;
    writeln!(out)
}

fn write_row(out: &mut dyn Write, cells: impl Iterator<Item = String>) -> std::io::Result<()> {
    let line = cells
        .map(|cell| csv_cell(&cell))
        .collect::<Vec<_>>()
        .join(",");
    out.write_all(line.as_bytes())?;
    out.write_all(b"\r\n")
}

/// One CSV field: neutralised if it could be read as a formula, quoted if it holds a comma, quote or line break.
pub fn csv_cell(text: &str) -> String {
    let neutral = if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_string()
    };
    if neutral.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", neutral.replace('"', "\"\""))
    } else {
        neutral
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_cells_are_neutralised_and_quoted_per_rfc_4180() {
        assert_eq!(
            csv_cell("=HYPERLINK(\"http://x\")"),
            "\"'=HYPERLINK(\"\"http://x\"\")\""
        );
        assert_eq!(csv_cell("+1 555"), "'+1 555");
        assert_eq!(csv_cell("-2"), "'-2");
        assert_eq!(csv_cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv_cell("\tx"), "'\tx");
        assert_eq!(csv_cell("\rx"), "\"'\rx\"");
        assert_eq!(csv_cell("a,b"), "\"a,b\"");
        assert_eq!(csv_cell("line\nbreak"), "\"line\nbreak\"");
        assert_eq!(csv_cell("plain"), "plain");
    }

    #[test]
    fn csv_has_a_header_and_one_row_per_lead() {
        let lead = Lead {
            id: 7,
            name: "Dana".into(),
            message: Some("Hi, \"there\"".into()),
            ..Lead::default()
        };
        let mut out = Vec::new();
        write_csv(&[lead], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.split("\r\n").collect();
        assert!(lines[0].starts_with("id,source,status,created_at,name,email"));
        assert!(lines[1].starts_with("7,,,,Dana,"));
        assert!(lines[1].contains("\"Hi, \"\"there\"\"\""));
    }
}
