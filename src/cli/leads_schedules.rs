//! `leads show`'s part for a quote's schedules and documents (issue 39): each list as a compact table (its columns
//! in the contract's order, each cell clipped so a row stays one line, nothing a visitor typed shown raw), the
//! losses' total, and the documents by name, type and size (never their bytes).

use std::io::Write;

use contract::forms::documents::size_text;
use truckins::store::documents::Document;
use truckins::store::schedules::losses_total;
use truckins::store::{self, Lead};
use truckins::text::dollars;

use super::leads::clip;

/// The widest a cell is shown: enough for a VIN, a make or a short description.
const CELL_WIDTH: usize = 24;

/// The lead's schedules, the losses' total and its documents; nothing for a lead with none of them.
pub fn print(out: &mut dyn Write, lead: &Lead, documents: &[Document]) -> std::io::Result<()> {
    let vehicles = rows(lead.vehicle_schedule.as_ref());
    let drivers = rows(lead.driver_schedule.as_ref());
    let losses = rows(lead.loss_history.as_ref());
    let number = |n: Option<i64>| n.map(|n| n.to_string()).unwrap_or_default();
    let money = |n: Option<i64>| n.map(dollars).unwrap_or_default();
    let text = |t: &Option<String>| t.clone().unwrap_or_default();
    table(
        out,
        "Vehicles",
        &[
            "year",
            "make",
            "model",
            "vin",
            "stated value",
            "garaging ZIP",
        ],
        vehicles.iter().map(|v| {
            vec![
                v.year.to_string(),
                v.make.clone(),
                text(&v.model),
                v.vin.clone(),
                money(v.stated_value),
                text(&v.garaging_zip),
            ]
        }),
    )?;
    table(
        out,
        "Drivers",
        &[
            "name",
            "born",
            "license state",
            "years",
            "violations 3y",
            "accidents 3y",
        ],
        drivers.iter().map(|d| {
            vec![
                d.name.clone(),
                d.date_of_birth.clone(),
                d.license_state.clone(),
                number(d.years_experience),
                number(d.violations_3y),
                number(d.accidents_3y),
            ]
        }),
    )?;
    table(
        out,
        "Losses",
        &["date", "kind", "amount", "description"],
        losses.iter().map(|l| {
            vec![
                l.date.clone(),
                l.kind.clone(),
                dollars(l.amount),
                text(&l.description),
            ]
        }),
    )?;
    if !losses.is_empty() {
        writeln!(out, "  total of losses: {}", dollars(losses_total(losses)))?;
    }
    if !documents.is_empty() {
        writeln!(out, "\nDocuments ({})", documents.len())?;
        for document in documents {
            writeln!(
                out,
                "  {}  {}, {}",
                clip(&document.file_name, 60),
                clip(&document.media_type, 30),
                size_text(document.size as usize, false)
            )?;
        }
    }
    Ok(())
}

/// A stored list's rows; none for a list not sent.
fn rows<T>(list: Option<&store::schedules::Rows<T>>) -> &[T] {
    list.map_or(&[], |rows| rows.0.as_slice())
}

/// A list under its title and count, one clipped row a line, columns aligned; nothing for an empty list.
fn table(
    out: &mut dyn Write,
    title: &str,
    header: &[&str],
    rows: impl Iterator<Item = Vec<String>>,
) -> std::io::Result<()> {
    let rows: Vec<Vec<String>> = rows
        .map(|row| row.iter().map(|cell| clip(cell, CELL_WIDTH)).collect())
        .collect();
    if rows.is_empty() {
        return Ok(());
    }
    writeln!(out, "\n{title} ({})", rows.len())?;
    let mut widths: Vec<usize> = header.iter().map(|name| name.chars().count()).collect();
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<String>| -> String {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(cell, width)| format!("{cell}{}", " ".repeat(width - cell.chars().count())))
            .collect();
        padded.join("  ").trim_end().to_string()
    };
    writeln!(
        out,
        "  #   {}",
        line(header.iter().map(|h| h.to_string()).collect())
    )?;
    for (index, row) in rows.into_iter().enumerate() {
        writeln!(out, "  {:<3} {}", index + 1, line(row))?;
    }
    Ok(())
}
