//! The report as text: aligned tables for the terminal, and JSON for programs (its top-level names are the
//! report's: `totals`, `pages`, `sources`, `campaigns`, `devices`, `days`). The HTML file is [`super::html`].

use std::fmt::Write;

use super::report::Report;

/// The report as pretty JSON, ending with a line break.
pub fn json(report: &Report) -> String {
    let mut text = serde_json::to_string_pretty(report).unwrap_or_default();
    text.push('\n');
    text
}

/// A rate as a percentage with one decimal, `-` without visitors.
pub fn percent(rate: Option<f64>) -> String {
    rate.map_or_else(|| "-".to_string(), |rate| format!("{:.1}%", rate * 100.0))
}

/// The report as tables for a terminal.
pub fn table(report: &Report) -> String {
    let totals = &report.totals;
    let mut out = String::new();
    let forms: Vec<String> = totals
        .leads_by_form
        .iter()
        .map(|(form, count)| format!("{form} {count}"))
        .collect();
    let _ = writeln!(
        out,
        "Site report, {} to {} (UTC days)\n\nvisitors {}   pageviews {}   leads {} ({})   conversion {}",
        totals.since,
        totals.until,
        totals.visitors,
        totals.pageviews,
        totals.leads,
        forms.join(", "),
        percent(totals.conversion_rate)
    );
    section(
        &mut out,
        "Pages",
        &["path", "pageviews", "visitors", "leads"],
        report.pages.iter().map(|row| {
            vec![
                row.path.clone(),
                row.pageviews.to_string(),
                row.visitors.to_string(),
                row.leads.to_string(),
            ]
        }),
    );
    section(
        &mut out,
        "Sources",
        &["source", "visitors", "leads", "conversion"],
        report.sources.iter().map(|row| {
            vec![
                row.source.clone(),
                row.visitors.to_string(),
                row.leads.to_string(),
                percent(row.conversion_rate),
            ]
        }),
    );
    section(
        &mut out,
        "Campaigns",
        &["campaign", "visitors", "leads", "conversion"],
        report.campaigns.iter().map(|row| {
            vec![
                row.campaign.clone(),
                row.visitors.to_string(),
                row.leads.to_string(),
                percent(row.conversion_rate),
            ]
        }),
    );
    section(
        &mut out,
        "Devices",
        &["device", "visitors", "pageviews", "leads"],
        report.devices.iter().map(|row| {
            vec![
                row.device.to_string(),
                row.visitors.to_string(),
                row.pageviews.to_string(),
                row.leads.to_string(),
            ]
        }),
    );
    section(
        &mut out,
        "Days",
        &["day", "visitors", "pageviews", "leads"],
        report.days.iter().map(|row| {
            vec![
                row.day.clone(),
                row.visitors.to_string(),
                row.pageviews.to_string(),
                row.leads.to_string(),
            ]
        }),
    );
    out
}

/// A titled table: the first column left-aligned, the others (numbers) right-aligned; `(none)` when empty.
fn section(
    out: &mut String,
    title: &str,
    headings: &[&str],
    rows: impl Iterator<Item = Vec<String>>,
) {
    let rows: Vec<Vec<String>> = rows.collect();
    let _ = writeln!(out, "\n{title}");
    if rows.is_empty() {
        let _ = writeln!(out, "  (none)");
        return;
    }
    let width = |column: usize| {
        rows.iter()
            .map(|row| row[column].chars().count())
            .chain([headings[column].len()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..headings.len()).map(width).collect();
    let line = |cells: Vec<&str>| {
        let mut text = String::from(" ");
        for (column, cell) in cells.iter().enumerate() {
            let pad = widths[column].saturating_sub(cell.chars().count());
            if column == 0 {
                text.push_str(&format!(" {cell}{}", " ".repeat(pad)));
            } else {
                text.push_str(&format!("  {}{cell}", " ".repeat(pad)));
            }
        }
        text.trim_end().to_string()
    };
    let _ = writeln!(out, "{}", line(headings.to_vec()));
    for row in &rows {
        let _ = writeln!(out, "{}", line(row.iter().map(String::as_str).collect()));
    }
}
