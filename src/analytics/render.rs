//! The report as text: aligned tables for the terminal, and JSON for programs (its top-level names are the
//! report's: `totals`, `pages`, `sources`, `campaigns`, `devices`, `days`, `speed`, `funnel`; docs/report.md, "What the
//! site earns", lists them). The HTML file is [`super::html`].

use std::fmt::Write;

use super::report::{CampaignRow, DeviceRow, FunnelCounts, PageRow, Report, SpeedFigures};

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

/// A median of minutes as people read it: `30`, `24.5`, `-` without one.
pub fn minutes(median: Option<f64>) -> String {
    median.map_or_else(|| "-".to_string(), |minutes| format!("{minutes}"))
}

/// The speed to lead's column headings in the table.
const SPEED_HEADINGS: [&str; 8] = [
    "source",
    "leads",
    "answered",
    "untouched",
    "median",
    "in 5 min",
    "in 1 h",
    "in 1 day",
];

/// The cells of one row of speed figures after its name: leads, answered, untouched, median minutes, and the
/// shares within 5 minutes, 1 hour and 1 business day.
pub fn speed_cells(figures: &SpeedFigures) -> Vec<String> {
    vec![
        figures.leads.to_string(),
        figures.answered.to_string(),
        figures.untouched.to_string(),
        minutes(figures.median_minutes),
        percent(figures.share_within_5_minutes),
        percent(figures.share_within_60_minutes),
        percent(figures.share_within_1_business_day),
    ]
}

/// A page's cells after its path: views, visitors, leads.
pub fn page_cells(row: &PageRow) -> Vec<String> {
    [row.pageviews, row.visitors, row.leads]
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// A campaign's cells after its name: visitors, leads, conversion.
pub fn campaign_cells(row: &CampaignRow) -> Vec<String> {
    vec![
        row.visitors.to_string(),
        row.leads.to_string(),
        percent(row.conversion_rate),
    ]
}

/// A device's row: its kind, visitors, views, leads.
pub fn device_cells(row: &DeviceRow) -> Vec<String> {
    let counts = [row.visitors, row.pageviews, row.leads];
    std::iter::once(row.device.to_string())
        .chain(counts.iter().map(ToString::to_string))
        .collect()
}

/// The cells of one funnel row after its name: visitors, leads, contacted, quoted, won.
pub fn funnel_cells(counts: &FunnelCounts) -> Vec<String> {
    [
        counts.visitors,
        counts.leads,
        counts.contacted,
        counts.quoted,
        counts.won,
    ]
    .iter()
    .map(ToString::to_string)
    .collect()
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
        report
            .pages
            .iter()
            .map(|row| [vec![row.path.clone()], page_cells(row)].concat()),
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
        report
            .campaigns
            .iter()
            .map(|row| [vec![row.campaign.clone()], campaign_cells(row)].concat()),
    );
    section(
        &mut out,
        "Devices",
        &["device", "visitors", "pageviews", "leads"],
        report.devices.iter().map(device_cells),
    );
    let speed = &report.speed;
    let _ = write!(
        out,
        "\nSpeed to lead: business minutes from a lead to its first status beyond new\n\
         ({}; a business day is {} minutes)",
        speed.time_zone, speed.business_day_minutes
    );
    section(
        &mut out,
        "",
        &SPEED_HEADINGS,
        std::iter::once((String::from("all"), &speed.overall))
            .chain(
                speed
                    .sources
                    .iter()
                    .map(|row| (row.source.clone(), &row.figures)),
            )
            .map(|(name, figures)| [vec![name], speed_cells(figures)].concat()),
    );
    section(
        &mut out,
        "Funnel by source",
        &["source", "visitors", "leads", "contacted", "quoted", "won"],
        report
            .funnel
            .sources
            .iter()
            .map(|row| [vec![row.source.clone()], funnel_cells(&row.counts)].concat()),
    );
    section(
        &mut out,
        "Funnel by campaign",
        &[
            "campaign",
            "visitors",
            "leads",
            "contacted",
            "quoted",
            "won",
        ],
        report
            .funnel
            .campaigns
            .iter()
            .map(|row| [vec![row.campaign.clone()], funnel_cells(&row.counts)].concat()),
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

/// A titled table (an empty title: the line before is its title): the first column left-aligned, the others
/// (numbers) right-aligned; `(none)` when empty.
fn section(
    out: &mut String,
    title: &str,
    headings: &[&str],
    rows: impl Iterator<Item = Vec<String>>,
) {
    let rows: Vec<Vec<String>> = rows.collect();
    match title {
        "" => out.push('\n'),
        title => {
            let _ = writeln!(out, "\n{title}");
        }
    }
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
