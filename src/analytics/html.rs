//! The report as one HTML file to open anywhere, a phone included: inline CSS, inline SVG charts, no script and
//! nothing fetched from anywhere (no font, image, style or link to another address), so it can be mailed or copied
//! and opened offline. Every text from the counts (paths, sources, campaigns) is escaped.

use std::fmt::Write;

use super::render::{campaign_cells, device_cells, funnel_cells, page_cells, percent, speed_cells};
use super::report::Report;
use crate::text::escape_html as escape;

/// Rows shown in each "top" table.
const TOP: usize = 10;

const STYLE: &str = "\
body{margin:0;font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1f2933;background:#f5f7fa}\
main{max-width:48rem;margin:0 auto;padding:1rem}\
h1{font-size:1.5rem;margin:.5rem 0 0}h2{font-size:1.15rem;margin:2rem 0 .5rem}\
.range{color:#52606d;margin:0 0 1rem}\
.totals{display:grid;grid-template-columns:repeat(auto-fit,minmax(9rem,1fr));gap:.75rem;margin:0;padding:0}\
.totals div{background:#fff;border-radius:.5rem;padding:.75rem;box-shadow:0 1px 2px rgba(0,0,0,.12)}\
.totals dt{color:#52606d;font-size:.85rem}.totals dd{margin:0;font-size:1.6rem;font-weight:600}\
.totals small{display:block;font-size:.8rem;font-weight:400;color:#52606d}\
figure{margin:0 0 1rem;background:#fff;border-radius:.5rem;padding:.75rem;box-shadow:0 1px 2px rgba(0,0,0,.12)}\
figcaption{color:#52606d;font-size:.85rem}svg{display:block;width:100%;height:auto}\
.scroll{overflow-x:auto;background:#fff;border-radius:.5rem;box-shadow:0 1px 2px rgba(0,0,0,.12)}\
table{border-collapse:collapse;width:100%;font-size:.95rem}\
th,td{padding:.4rem .6rem;text-align:right;white-space:nowrap;border-bottom:1px solid #e4e7eb}\
th:first-child,td:first-child{text-align:left;white-space:normal;word-break:break-all}\
th{font-size:.8rem;color:#52606d;font-weight:600}\
.bar{display:inline-block;height:.6rem;background:#2f80ed;border-radius:.3rem;vertical-align:middle;margin-right:.4rem}\
footer{color:#52606d;font-size:.8rem;margin:2rem 0 1rem}";

/// The whole page.
pub fn page(report: &Report) -> String {
    let totals = &report.totals;
    let mut out = String::with_capacity(16 * 1024);
    let title = format!("Site report, {} to {}", totals.since, totals.until);
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n\
         <h1>Site report</h1>\n<p class=\"range\">{} to {} (UTC days)</p>\n",
        totals.since, totals.until
    );
    let forms: Vec<String> = totals
        .leads_by_form
        .iter()
        .map(|(form, count)| format!("{count} {form}"))
        .collect();
    let _ = write!(
        out,
        "<dl class=\"totals\">\n\
         <div><dt>Visitors</dt><dd>{}</dd></div>\n\
         <div><dt>Page views</dt><dd>{}</dd></div>\n\
         <div><dt>Leads</dt><dd>{}<small>{}</small></dd></div>\n\
         <div><dt>Conversion</dt><dd>{}<small>leads per visitor</small></dd></div>\n</dl>\n",
        totals.visitors,
        totals.pageviews,
        totals.leads,
        escape(&forms.join(", ")),
        percent(totals.conversion_rate)
    );

    out.push_str("<h2>Visitors and leads per day</h2>\n");
    let days = &report.days;
    let first_last = match (days.first(), days.last()) {
        (Some(first), Some(last)) => format!("{} to {}", first.day, last.day),
        _ => String::new(),
    };
    for (what, color, values) in [
        (
            "Visitors",
            "#2f80ed",
            days.iter()
                .map(|day| (day.day.as_str(), day.visitors))
                .collect::<Vec<_>>(),
        ),
        (
            "Leads",
            "#27ae60",
            days.iter()
                .map(|day| (day.day.as_str(), day.leads))
                .collect(),
        ),
    ] {
        let most = values.iter().map(|(_, value)| *value).max().unwrap_or(0);
        let _ = write!(
            out,
            "<figure>\n{}\n<figcaption>{what} per day, {first_last}; most in a day: {most}</figcaption>\n</figure>\n",
            bars(&format!("{what} per day"), &values, color)
        );
    }

    out.push_str("<h2>Top pages</h2>\n");
    table_more(
        report.pages.len(),
        &mut out,
        &["Page", "Views", "Visitors", "Leads"],
        report
            .pages
            .iter()
            .take(TOP)
            .map(|row| [vec![escape(&row.path)], page_cells(row)].concat()),
    );
    out.push_str("<h2>Top sources</h2>\n");
    table_more(
        report.sources.len(),
        &mut out,
        &["Source", "Visitors", "Leads"],
        report.sources.iter().take(TOP).map(|row| {
            vec![
                escape(&row.source),
                row.visitors.to_string(),
                row.leads.to_string(),
            ]
        }),
    );
    out.push_str("<h2>Conversion per source</h2>\n");
    let best = report
        .sources
        .iter()
        .filter_map(|row| row.conversion_rate)
        .fold(0.0_f64, f64::max);
    table_more(
        report.sources.len(),
        &mut out,
        &["Source", "Leads per visitor"],
        report.sources.iter().take(TOP).map(|row| {
            let width = match row.conversion_rate {
                Some(rate) if best > 0.0 => (rate / best * 100.0).round(),
                _ => 0.0,
            };
            vec![
                escape(&row.source),
                format!(
                    "<span class=\"bar\" style=\"width:{width}%;max-width:6rem\"></span>{}",
                    percent(row.conversion_rate)
                ),
            ]
        }),
    );
    out.push_str("<h2>Campaigns</h2>\n");
    table_more(
        report.campaigns.len(),
        &mut out,
        &["Campaign", "Visitors", "Leads", "Conversion"],
        report
            .campaigns
            .iter()
            .take(TOP)
            .map(|row| [vec![escape(&row.campaign)], campaign_cells(row)].concat()),
    );
    let speed = &report.speed;
    let _ = writeln!(
        out,
        "<h2>Speed to lead</h2>\n<p>Business minutes from a lead to its first status beyond new, counted in the \
         agency's hours ({}; {}). One business day is {} minutes. The shares are of all the leads: a lead still new \
         is not answered.</p>",
        escape(&speed.business_hours),
        escape(&speed.time_zone),
        speed.business_day_minutes
    );
    table_more(
        speed.sources.len(),
        &mut out,
        &[
            "Source",
            "Leads",
            "Answered",
            "Still new",
            "Median minutes",
            "Within 5 min",
            "Within 1 hour",
            "Within 1 business day",
        ],
        std::iter::once(("All sources", &speed.overall))
            .chain(
                speed
                    .sources
                    .iter()
                    .take(TOP)
                    .map(|row| (row.source.as_str(), &row.figures)),
            )
            .map(|(name, figures)| [vec![escape(name)], speed_cells(figures)].concat()),
    );
    let funnel_headings =
        |first: &'static str| [first, "Visitors", "Leads", "Contacted", "Quoted", "Won"];
    out.push_str(
        "<h2>Funnel by source</h2>\n<p>The leads made in these days, as far as they got: contacted (answered), \
         quoted (or won), won.</p>\n",
    );
    table_more(
        report.funnel.sources.len(),
        &mut out,
        &funnel_headings("Source"),
        report
            .funnel
            .sources
            .iter()
            .take(TOP)
            .map(|row| [vec![escape(&row.source)], funnel_cells(&row.counts)].concat()),
    );
    out.push_str("<h2>Funnel by campaign</h2>\n");
    table_more(
        report.funnel.campaigns.len(),
        &mut out,
        &funnel_headings("Campaign"),
        report
            .funnel
            .campaigns
            .iter()
            .take(TOP)
            .map(|row| [vec![escape(&row.campaign)], funnel_cells(&row.counts)].concat()),
    );
    out.push_str("<h2>Devices</h2>\n");
    table(
        &mut out,
        &["Device", "Visitors", "Views", "Leads"],
        report.devices.iter().map(device_cells),
    );
    out.push_str(
        "<footer>Counted by the site's own server: no cookies, no IP addresses or user agents kept; a visitor \
         counts once a day. Sources are the campaign's utm_source, else the website that linked, else direct.\
         </footer>\n</main>\n</body>\n</html>\n",
    );
    out
}

/// A bar chart of one value per day as inline SVG (described for screen readers by its label).
fn bars(label: &str, values: &[(&str, i64)], color: &str) -> String {
    const WIDTH: usize = 600;
    const HEIGHT: usize = 120;
    let most = values
        .iter()
        .map(|(_, value)| *value)
        .max()
        .unwrap_or(0)
        .max(1);
    let slot = WIDTH as f64 / values.len().max(1) as f64;
    let mut svg = format!(
        "<svg viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" aria-label=\"{}\">",
        escape(label)
    );
    let _ = write!(
        svg,
        "<rect x=\"0\" y=\"{}\" width=\"{WIDTH}\" height=\"1\" fill=\"#cbd2d9\"/>",
        HEIGHT - 1
    );
    for (index, (day, value)) in values.iter().enumerate() {
        let height = (*value as f64 / most as f64 * (HEIGHT - 4) as f64).round();
        let _ = write!(
            svg,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{height:.1}\" fill=\"{color}\">\
             <title>{}: {value}</title></rect>",
            index as f64 * slot + slot * 0.1,
            (HEIGHT - 1) as f64 - height,
            (slot * 0.8).max(0.5),
            escape(day)
        );
    }
    svg.push_str("</svg>");
    svg
}

/// [`table`] of the first [`TOP`] of `all` rows, and a line saying how many more there are (in the JSON and the
/// terminal's table).
fn table_more(
    all: usize,
    out: &mut String,
    headings: &[&str],
    rows: impl Iterator<Item = Vec<String>>,
) {
    table(out, headings, rows);
    if all > TOP {
        let _ = writeln!(
            out,
            "<p>{} more, in the report's JSON or table (truckins report --format json).</p>",
            all - TOP
        );
    }
}

/// A table in a horizontally scrolling box (wide tables stay readable on a phone); cells are HTML already.
fn table(out: &mut String, headings: &[&str], rows: impl Iterator<Item = Vec<String>>) {
    let rows: Vec<Vec<String>> = rows.collect();
    if rows.is_empty() {
        out.push_str("<p>None in these days.</p>\n");
        return;
    }
    out.push_str("<div class=\"scroll\"><table>\n<thead><tr>");
    for heading in headings {
        let _ = write!(out, "<th scope=\"col\">{heading}</th>");
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in rows {
        out.push_str("<tr>");
        for cell in row {
            let _ = write!(out, "<td>{cell}</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table></div>\n");
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::super::report::{CampaignRow, Report, Totals};

    #[test]
    fn analytics_html_campaigns_show_the_top_ones_and_how_many_more() {
        let campaigns = (0..13)
            .map(|n| CampaignRow {
                campaign: format!("campaign-{n:02}"),
                visitors: 100 - n,
                leads: 0,
                conversion_rate: Some(0.0),
            })
            .collect();
        let report = Report {
            totals: Totals {
                since: "2026-03-01".into(),
                until: "2026-03-28".into(),
                visitors: 0,
                pageviews: 0,
                leads: 0,
                leads_by_form: BTreeMap::new(),
                conversion_rate: None,
            },
            pages: Vec::new(),
            sources: Vec::new(),
            campaigns,
            devices: Vec::new(),
            days: Vec::new(),
            speed: Default::default(),
            funnel: Default::default(),
        };
        let page = super::page(&report);
        assert!(page.contains("campaign-09") && !page.contains("campaign-10"));
        assert!(page.contains("<p>3 more, "), "{page}");
    }
}
