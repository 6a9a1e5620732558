//! The owner's report: the visit counts ([`super::store`]) and the leads (with the attribution each lead keeps)
//! over a range of days, joined by landing page, source, campaign and device, as one value that
//! [`super::render`] and [`super::html`] print.
//!
//! Visitors are counted per day (the salt changes every day), so over a range a person who came on three days is
//! three visitors. A lead's source is its `utm_source`, else the host of the other site its visit came from, else
//! `direct`, as for visits; its page is the path of its landing page (else of the page it was sent from).
//!
//! What became of the leads made in the range, by the status history (`status_changes`, migration 0012) and their
//! status now: the speed to lead ([`Speed`]: business minutes, src/hours.rs, from a lead to the first change of
//! its status away from `new`) and the funnel ([`Funnel`]: visitors, leads, contacted, quoted, won), by source
//! and by campaign.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use time::{Date, Duration};

use super::classify::Device;
use super::store::{self, Count, Dimension, day_text};
use crate::hours::WeekHours;
use crate::store::{DbPool, Source as Form, StoreError};

mod leads;
use leads::{LeadSeen, Outcome, history_of, leads_in, speed};

/// The days counted, both included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    pub since: Date,
    pub until: Date,
}

impl Range {
    /// The `days` days up to and including `until`.
    pub fn last(days: i64, until: Date) -> Range {
        Range {
            since: until.saturating_sub(Duration::days(days - 1)),
            until,
        }
    }

    /// The number of days, both ends included.
    pub fn length(&self) -> i64 {
        (self.until - self.since).whole_days() + 1
    }

    fn days(&self) -> impl Iterator<Item = Date> {
        let until = self.until;
        std::iter::successors(Some(self.since), move |day| {
            day.next_day().filter(|next| *next <= until)
        })
    }
}

#[derive(Debug, Serialize)]
pub struct Report {
    pub totals: Totals,
    pub pages: Vec<PageRow>,
    pub sources: Vec<SourceRow>,
    pub campaigns: Vec<CampaignRow>,
    pub devices: Vec<DeviceRow>,
    pub days: Vec<DayRow>,
    pub speed: Speed,
    pub funnel: Funnel,
}

#[derive(Debug, Serialize)]
pub struct Totals {
    pub since: String,
    pub until: String,
    pub visitors: i64,
    pub pageviews: i64,
    pub leads: i64,
    /// Leads by the form they came from (`quote`, `contact`, and any form added later).
    pub leads_by_form: BTreeMap<&'static str, i64>,
    /// Leads per visitor; `null` without visitors.
    pub conversion_rate: Option<f64>,
}

#[derive(Debug, Serialize)]
pub struct PageRow {
    pub path: String,
    pub pageviews: i64,
    pub visitors: i64,
    /// Leads whose visit began on this page.
    pub leads: i64,
}

#[derive(Debug, Serialize)]
pub struct SourceRow {
    pub source: String,
    pub visitors: i64,
    pub leads: i64,
    pub conversion_rate: Option<f64>,
}

#[derive(Debug, Serialize)]
pub struct CampaignRow {
    pub campaign: String,
    pub visitors: i64,
    pub leads: i64,
    pub conversion_rate: Option<f64>,
}

#[derive(Debug, Serialize)]
pub struct DeviceRow {
    pub device: &'static str,
    pub visitors: i64,
    pub pageviews: i64,
    pub leads: i64,
}

#[derive(Debug, Serialize)]
pub struct DayRow {
    pub day: String,
    pub visitors: i64,
    pub pageviews: i64,
    pub leads: i64,
}

/// Speed to lead: how soon the agency took up the leads made in the range, in business minutes (src/hours.rs: the
/// hours of content/facts.toml in the `time_zone` setting's zone), from the lead's `created_at` to the earliest
/// `changed_at` of its status changes away from `new` (by a status link or `truckins leads status`).
#[derive(Debug, Default, Serialize)]
pub struct Speed {
    /// The zone the business hours are in: the `time_zone` setting, else the server's.
    pub time_zone: String,
    /// The business hours counted, e.g. `Monday 08:00-18:00, ..., Sunday closed`.
    pub business_hours: String,
    /// One business day in minutes: the most any one day of the week is open (600 for 08:00 to 18:00; 1,440
    /// without business hours). A lead at 10:00 on a Tuesday is taken up within one business day by 10:00 on
    /// Wednesday; one made on a Sunday, by Monday's closing.
    pub business_day_minutes: i64,
    /// Every lead made in the range.
    pub overall: SpeedFigures,
    /// The same per source (as in `sources`), each source with leads, most leads first.
    pub sources: Vec<SourceSpeed>,
}

/// The speed figures of a set of leads. The shares are of all its leads (a lead still `new` counts as not taken
/// up), to 4 decimals, `null` without leads.
#[derive(Debug, Default, Clone, PartialEq, Serialize)]
pub struct SpeedFigures {
    pub leads: i64,
    /// Leads whose status changed away from `new` (with the time it did).
    pub answered: i64,
    /// Leads whose status is `new` now.
    pub untouched: i64,
    /// The median of the answered leads' business minutes (the mean of the middle two for an even number);
    /// `null` without answered leads.
    pub median_minutes: Option<f64>,
    /// Answered leads within 5 business minutes (a started minute counts whole: 5 min 1 s is 6).
    pub within_5_minutes: i64,
    pub within_60_minutes: i64,
    /// Answered within `business_day_minutes`.
    pub within_1_business_day: i64,
    pub share_within_5_minutes: Option<f64>,
    pub share_within_60_minutes: Option<f64>,
    pub share_within_1_business_day: Option<f64>,
}

#[derive(Debug, Serialize)]
pub struct SourceSpeed {
    pub source: String,
    #[serde(flatten)]
    pub figures: SpeedFigures,
}

/// What the visits and leads of each source and campaign became: the leads made in the range, as their history
/// and their status say now.
#[derive(Debug, Default, Serialize)]
pub struct Funnel {
    /// Every source with visitors or leads, in the order of `sources`.
    pub sources: Vec<SourceFunnel>,
    /// Every campaign with visitors or leads, in the order of `campaigns`.
    pub campaigns: Vec<CampaignFunnel>,
}

/// One row of the funnel, each figure a count of people or leads.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FunnelCounts {
    pub visitors: i64,
    pub leads: i64,
    /// Leads that ever left `new` (a change away from it, or another status now).
    pub contacted: i64,
    /// Leads that were ever `quoted`, or are `won`.
    pub quoted: i64,
    /// Leads that are `won` now.
    pub won: i64,
}

#[derive(Debug, Serialize)]
pub struct SourceFunnel {
    pub source: String,
    #[serde(flatten)]
    pub counts: FunnelCounts,
}

#[derive(Debug, Serialize)]
pub struct CampaignFunnel {
    pub campaign: String,
    #[serde(flatten)]
    pub counts: FunnelCounts,
}

/// Leads per visitor, to 4 decimals; `None` without visitors.
fn rate(leads: i64, visitors: i64) -> Option<f64> {
    (visitors > 0).then(|| (leads as f64 / visitors as f64 * 10_000.0).round() / 10_000.0)
}

/// The report over `range`.
pub fn build(pool: &DbPool, range: Range) -> Result<Report, StoreError> {
    let connection = pool.get()?;
    let (since, until) = (day_text(range.since), day_text(range.until));
    let leads = leads_in(&connection, range)?;
    let counts = |dimension: &Dimension| store::counts(&connection, dimension, &since, &until);
    let per_value = |counts: Vec<Count>| {
        let mut sums: HashMap<String, (i64, i64)> = HashMap::new();
        for count in counts {
            let sum = sums.entry(count.value).or_default();
            sum.0 += count.views;
            sum.1 += count.visitors;
        }
        sums
    };
    let tally = |key: &dyn Fn(&LeadSeen) -> Option<String>| {
        let mut tally: HashMap<String, i64> = HashMap::new();
        for lead in &leads {
            if let Some(key) = key(lead) {
                *tally.entry(key).or_default() += 1;
            }
        }
        tally
    };

    let per_day = per_value(
        counts(&store::TOTAL)?
            .into_iter()
            .map(|count| Count {
                value: count.day.clone(),
                ..count
            })
            .collect(),
    );
    let leads_per_day = tally(&|lead| Some(lead.day.clone()));
    let days: Vec<DayRow> = range
        .days()
        .map(|day| {
            let day = day_text(day);
            let (pageviews, visitors) = per_day.get(&day).copied().unwrap_or_default();
            DayRow {
                leads: leads_per_day.get(&day).copied().unwrap_or_default(),
                day,
                visitors,
                pageviews,
            }
        })
        .collect();

    let visitors = days.iter().map(|day| day.visitors).sum();
    let pageviews = days.iter().map(|day| day.pageviews).sum();
    let mut leads_by_form: BTreeMap<&'static str, i64> =
        Form::ALL.iter().map(|form| (form.as_str(), 0)).collect();
    for lead in &leads {
        *leads_by_form.entry(lead.form.as_str()).or_default() += 1;
    }
    let lead_count = leads.len() as i64;
    let totals = Totals {
        since: since.clone(),
        until: until.clone(),
        visitors,
        pageviews,
        leads: lead_count,
        leads_by_form,
        conversion_rate: rate(lead_count, visitors),
    };

    let mut page_counts = per_value(counts(&store::PAGE)?);
    let page_leads = tally(&|lead| lead.landing.clone());
    for path in page_leads.keys() {
        page_counts.entry(path.clone()).or_default();
    }
    let mut pages: Vec<PageRow> = page_counts
        .into_iter()
        .map(|(path, (pageviews, visitors))| PageRow {
            leads: page_leads.get(&path).copied().unwrap_or_default(),
            path,
            pageviews,
            visitors,
        })
        .collect();
    pages.sort_by(|a, b| (b.pageviews, b.leads, &a.path).cmp(&(a.pageviews, a.leads, &b.path)));

    let source_rows = joined(
        per_value(counts(&store::SOURCE)?),
        tally(&|lead| Some(lead.source.clone())),
    );
    let campaign_rows = joined(
        per_value(counts(&store::CAMPAIGN)?),
        tally(&|lead| (!lead.campaign.is_empty()).then(|| lead.campaign.clone())),
    );
    let history = history_of(&connection, range)?;
    let outcomes: Vec<(&LeadSeen, Outcome)> = leads
        .iter()
        .map(|lead| (lead, Outcome::of(lead, history.get(&lead.id))))
        .collect();
    let funnel_of = |visitors: i64, key: &dyn Fn(&LeadSeen) -> bool| {
        let mut counts = FunnelCounts {
            visitors,
            ..FunnelCounts::default()
        };
        for (_, outcome) in outcomes.iter().filter(|(lead, _)| key(lead)) {
            counts.leads += 1;
            counts.contacted += i64::from(outcome.contacted);
            counts.quoted += i64::from(outcome.quoted);
            counts.won += i64::from(outcome.won);
        }
        counts
    };
    let funnel = Funnel {
        sources: source_rows
            .iter()
            .map(|(source, visitors, _)| SourceFunnel {
                source: source.clone(),
                counts: funnel_of(*visitors, &|lead| lead.source == *source),
            })
            .collect(),
        campaigns: campaign_rows
            .iter()
            .map(|(campaign, visitors, _)| CampaignFunnel {
                campaign: campaign.clone(),
                counts: funnel_of(*visitors, &|lead| lead.campaign == *campaign),
            })
            .collect(),
    };
    let speed = speed(&outcomes, WeekHours::built().business_day_minutes());

    let sources = source_rows
        .into_iter()
        .map(|(source, visitors, leads)| SourceRow {
            source,
            visitors,
            leads,
            conversion_rate: rate(leads, visitors),
        })
        .collect();
    let campaigns = campaign_rows
        .into_iter()
        .map(|(campaign, visitors, leads)| CampaignRow {
            campaign,
            visitors,
            leads,
            conversion_rate: rate(leads, visitors),
        })
        .collect();

    let device_counts = per_value(counts(&store::DEVICE)?);
    let device_leads = tally(&|lead| Some(lead.device.as_str().to_string()));
    let devices = Device::ALL
        .iter()
        .map(|device| {
            let (pageviews, visitors) = device_counts
                .get(device.as_str())
                .copied()
                .unwrap_or_default();
            DeviceRow {
                device: device.as_str(),
                visitors,
                pageviews,
                leads: device_leads
                    .get(device.as_str())
                    .copied()
                    .unwrap_or_default(),
            }
        })
        .collect();

    Ok(Report {
        totals,
        pages,
        sources,
        campaigns,
        devices,
        days,
        speed,
        funnel,
    })
}

/// Visitors and leads per name, for every name with either, most visitors first (then most leads, then by name).
fn joined(
    counts: HashMap<String, (i64, i64)>,
    leads: HashMap<String, i64>,
) -> Vec<(String, i64, i64)> {
    let mut names: Vec<String> = counts.keys().chain(leads.keys()).cloned().collect();
    names.sort();
    names.dedup();
    let mut rows: Vec<(String, i64, i64)> = names
        .into_iter()
        .map(|name| {
            let visitors = counts.get(&name).map_or(0, |(_, visitors)| *visitors);
            let leads = leads.get(&name).copied().unwrap_or_default();
            (name, visitors, leads)
        })
        .collect();
    rows.sort_by(|a, b| (b.1, b.2, &a.0).cmp(&(a.1, a.2, &b.0)));
    rows
}
