//! Build step: turns `content/` and `web/` into the site that the binary embeds.
//!
//! 1. Reads every file of `content/`, checks it (a mistake stops the build naming the file, the field and the
//!    problem) and renders Markdown with comrak, code blocks highlighted by syntect into CSS classes.
//! 2. Writes the result as one JSON document, `$OUT_DIR/content.json`, the only input the web app reads.
//! 3. Installs the web app's packages when needed (npm) and runs `web/scripts/build.mjs`, which type-checks,
//!    bundles with Vite, prerenders every route and compresses the output into `$OUT_DIR/site`, the folder that
//!    rust-embed embeds into the binary.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

use comrak::adapters::SyntaxHighlighterAdapter;
use comrak::options::Plugins;
use comrak::plugins::syntect::{SyntectAdapter, SyntectAdapterBuilder};
use serde::{Deserialize, Serialize};

/// The blog categories a post may have, in the order of the blog's filter buttons.
const CATEGORIES: [&str; 7] = [
    "Insurance Tips",
    "Regulations",
    "Safety",
    "Cost Savings",
    "Industry News",
    "Technology",
    "Specialized Coverage",
];
/// The states and DC by postal code, for licences and the structured data's `areaServed`.
const US_STATES: [(&str, &str); 51] = [
    ("AL", "Alabama"),
    ("AK", "Alaska"),
    ("AZ", "Arizona"),
    ("AR", "Arkansas"),
    ("CA", "California"),
    ("CO", "Colorado"),
    ("CT", "Connecticut"),
    ("DE", "Delaware"),
    ("DC", "District of Columbia"),
    ("FL", "Florida"),
    ("GA", "Georgia"),
    ("HI", "Hawaii"),
    ("ID", "Idaho"),
    ("IL", "Illinois"),
    ("IN", "Indiana"),
    ("IA", "Iowa"),
    ("KS", "Kansas"),
    ("KY", "Kentucky"),
    ("LA", "Louisiana"),
    ("ME", "Maine"),
    ("MD", "Maryland"),
    ("MA", "Massachusetts"),
    ("MI", "Michigan"),
    ("MN", "Minnesota"),
    ("MS", "Mississippi"),
    ("MO", "Missouri"),
    ("MT", "Montana"),
    ("NE", "Nebraska"),
    ("NV", "Nevada"),
    ("NH", "New Hampshire"),
    ("NJ", "New Jersey"),
    ("NM", "New Mexico"),
    ("NY", "New York"),
    ("NC", "North Carolina"),
    ("ND", "North Dakota"),
    ("OH", "Ohio"),
    ("OK", "Oklahoma"),
    ("OR", "Oregon"),
    ("PA", "Pennsylvania"),
    ("RI", "Rhode Island"),
    ("SC", "South Carolina"),
    ("SD", "South Dakota"),
    ("TN", "Tennessee"),
    ("TX", "Texas"),
    ("UT", "Utah"),
    ("VT", "Vermont"),
    ("VA", "Virginia"),
    ("WA", "Washington"),
    ("WV", "West Virginia"),
    ("WI", "Wisconsin"),
    ("WY", "Wyoming"),
];
const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    for watched in [
        "content",
        "web/src",
        "web/scripts",
        "web/package.json",
        "web/package-lock.json",
        "web/vite.config.ts",
        "web/tsconfig.json",
    ] {
        println!("cargo:rerun-if-changed={watched}");
    }

    let content = match load_content(&root.join("content")) {
        Ok(content) => content,
        Err(problems) => {
            eprintln!(
                "\nThe content in content/ has {} problem(s):",
                problems.len()
            );
            for problem in &problems {
                eprintln!("  - {problem}");
            }
            eprintln!();
            std::process::exit(1);
        }
    };
    // The server stores the consent text with each lead: the same words the form shows.
    write_file(
        &out_dir.join("consent.txt"),
        content.forms.consent_text.as_bytes(),
    );
    write_file(
        &out_dir.join("consent-version.txt"),
        content.forms.consent_version.as_bytes(),
    );
    // The quote form's insurance type values, which the server accepts (one per line).
    let types: Vec<&str> = content
        .forms
        .insurance_types
        .iter()
        .map(|t| t.value.as_str())
        .collect();
    write_file(
        &out_dir.join("insurance-types.txt"),
        types.join("\n").as_bytes(),
    );
    // The base URL the pages are built with; the server rewrites it when configured with another.
    write_file(
        &out_dir.join("base-url.txt"),
        content.site.base_url.as_bytes(),
    );
    let content_json = out_dir.join("content.json");
    let json = expand_placeholders(
        &serde_json::to_string_pretty(&content).expect("content serialises"),
        &content.site,
        &content.forms,
    );
    write_file(&content_json, json.as_bytes());
    // The Vite dev server (README: front-end edit loop) reads the same document from a fixed, git-ignored place.
    write_file(&root.join("web/.generated/content.json"), json.as_bytes());

    let web = root.join("web");
    install_web_packages(&web);
    let site_dir = out_dir.join("site");
    run(
        Command::new("node")
            .arg("scripts/build.mjs")
            .current_dir(&web)
            .env("TRUCKINS_BUILD_CONTENT", &content_json)
            .env("TRUCKINS_BUILD_WORK_DIR", out_dir.join("web-build"))
            .env("TRUCKINS_BUILD_SITE_DIR", &site_dir)
            // The CSP hash of the stylesheet every page inlines; src/security.rs includes it.
            .env(
                "TRUCKINS_BUILD_STYLE_HASH_FILE",
                out_dir.join("style-hash.txt"),
            ),
        "building the web app (web/scripts/build.mjs)",
    );
}

// ---------------------------------------------------------------------------------------------------------------
// Content model: what each file must hold. `deny_unknown_fields` turns a misspelt field into a build error.
// ---------------------------------------------------------------------------------------------------------------

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Site {
    brand: String,
    legal_name: String,
    description: String,
    phone: String,
    phone_e164: String,
    email: String,
    base_url: String,
    founded: u16,
    #[serde(serialize_with = "date_as_text")]
    offer_valid_until: toml::value::Datetime,
    address: Address,
    hours: Vec<Hours>,
    #[serde(default)]
    licenses: Vec<License>,
    /// A claims line that answers around the clock; without one the site never promises 24/7 claims help.
    #[serde(skip_serializing_if = "Option::is_none")]
    claims: Option<ClaimsLine>,
    /// What `{claims}` says (filled in by the build), for pages that show it beside the phone number.
    #[serde(skip_deserializing)]
    claims_text: String,
    #[serde(default)]
    social: BTreeMap<String, String>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct ClaimsLine {
    name: String,
    phone: String,
    phone_e164: String,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Address {
    street: String,
    city: String,
    region: String,
    postal_code: String,
    country: String,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Hours {
    label: String,
    days: Vec<String>,
    opens: Option<String>,
    closes: Option<String>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct License {
    state: String,
    number: String,
    /// The state's name for structured data (`areaServed`), filled in from `state` by the build.
    #[serde(skip_deserializing)]
    state_name: String,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Home {
    title: String,
    description: String,
    hero: Hero,
    why: Vec<TitledText>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Hero {
    headline: String,
    subtext: String,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct TitledText {
    title: String,
    text: String,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Testimonials {
    testimonials: Vec<Testimonial>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Testimonial {
    name: String,
    position: String,
    content: String,
    rating: u8,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct FaqFile {
    faq: Vec<Faq>,
}

#[derive(Deserialize, Serialize, Clone)]
#[serde(deny_unknown_fields)]
struct Faq {
    question: String,
    answer: String,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Product {
    #[serde(default)]
    slug: String,
    kind: String,
    order: u32,
    title: String,
    menu_label: String,
    description: String,
    card_description: String,
    features: Vec<String>,
    min_coverage: Option<String>,
    required_by: Option<String>,
    #[serde(default)]
    on_products_page: bool,
    insurance_type: String,
    overview: String,
    coverage_points: Vec<String>,
    benefits: Vec<String>,
    types_heading: Option<String>,
    types: Option<Vec<String>>,
    #[serde(default)]
    image: String,
    image_alt: String,
    #[serde(default)]
    faqs: Vec<Faq>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PostFrontMatter {
    title: String,
    /// The `<title>` when `title` is too long for a search result (brand included).
    seo_title: Option<String>,
    excerpt: String,
    /// The meta description when the excerpt does not fit one (70-160 characters).
    description: Option<String>,
    category: String,
    date: toml::value::Datetime,
    author: String,
    #[serde(default)]
    featured: bool,
    image: Option<String>,
    image_alt: Option<String>,
}

#[derive(Serialize)]
struct Post {
    slug: String,
    title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    seo_title: Option<String>,
    excerpt: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    category: String,
    date: String,
    author: String,
    featured: bool,
    image: String,
    image_alt: String,
    reading_minutes: usize,
    html: String,
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DocumentFrontMatter {
    title: String,
    description: String,
    updated: toml::value::Datetime,
}

#[derive(Serialize)]
struct Document {
    slug: String,
    title: String,
    description: String,
    updated: String,
    html: String,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Forms {
    consent_version: String,
    consent_text: String,
    insurance_types: Vec<InsuranceType>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct InsuranceType {
    value: String,
    label: String,
}

#[derive(Serialize)]
struct Content {
    site: Site,
    forms: Forms,
    home: Home,
    testimonials: Vec<Testimonial>,
    faq: Vec<Faq>,
    products: Vec<Product>,
    /// The structured pages of `content/pages/*.toml`, by file stem; each page's component reads its own shape.
    pages: BTreeMap<String, serde_json::Value>,
    documents: Vec<Document>,
    posts: Vec<Post>,
    categories: Vec<&'static str>,
    /// Every image under `content/images`, as paths relative to it.
    images: Vec<String>,
}

// ---------------------------------------------------------------------------------------------------------------
// Loading and checking
// ---------------------------------------------------------------------------------------------------------------

/// Collects problems instead of stopping at the first, so one build run lists everything to fix.
struct Problems(Vec<String>);

impl Problems {
    fn add(&mut self, file: &Path, message: impl fmt::Display) {
        self.0.push(format!("{}: {message}", display_path(file)));
    }

    fn check(&mut self, ok: bool, file: &Path, message: impl FnOnce() -> String) {
        if !ok {
            self.add(file, message());
        }
    }
}

fn display_path(path: &Path) -> String {
    let text = path.display().to_string();
    match text.find("content/") {
        Some(at) => text[at..].to_string(),
        None => text,
    }
}

fn load_content(dir: &Path) -> Result<Content, Vec<String>> {
    let mut problems = Problems(Vec::new());
    let markdown = MarkdownRenderer::new();

    let images = list_files(&dir.join("images"), "svg", &mut problems)
        .into_iter()
        .filter_map(|path| {
            path.strip_prefix(dir.join("images"))
                .ok()
                .map(|p| p.to_string_lossy().replace('\\', "/"))
        })
        .collect::<Vec<_>>();
    let image_set: HashSet<&str> = images.iter().map(String::as_str).collect();

    let mut site: Option<Site> = read_toml(&dir.join("site.toml"), &mut problems);
    if let Some(site) = &mut site {
        check_site(site, &dir.join("site.toml"), &mut problems);
        check_round_the_clock_promises(dir, site.claims.is_some(), &mut problems);
    }

    let home: Option<Home> = read_toml(&dir.join("home.toml"), &mut problems);
    if let Some(home) = &home {
        let file = dir.join("home.toml");
        problems.check(home.why.len() == 4, &file, || {
            format!(
                "field `why`: expected exactly 4 cards, found {}",
                home.why.len()
            )
        });
        check_description(&home.description, "description", &file, &mut problems);
    }

    let testimonials: Option<Testimonials> =
        read_toml(&dir.join("testimonials.toml"), &mut problems);
    if let Some(t) = &testimonials {
        let file = dir.join("testimonials.toml");
        problems.check(t.testimonials.len() == 3, &file, || {
            format!(
                "field `testimonials`: expected exactly 3, found {}",
                t.testimonials.len()
            )
        });
        for (i, entry) in t.testimonials.iter().enumerate() {
            problems.check((1..=5).contains(&entry.rating), &file, || {
                format!(
                    "testimonial {}: field `rating`: {} is not from 1 to 5",
                    i + 1,
                    entry.rating
                )
            });
        }
    }

    let forms: Option<Forms> = read_toml(&dir.join("forms.toml"), &mut problems);
    if let Some(forms) = &forms {
        problems.check(
            forms.consent_text.len() > 100,
            &dir.join("forms.toml"),
            || "field `consent_text`: the full consent wording is required".into(),
        );
        // The privacy policy quotes it through `{consent_text}`, into HTML as well as text.
        for (field, value) in [
            ("consent_text", &forms.consent_text),
            ("consent_version", &forms.consent_version),
        ] {
            problems.check(
                !value.contains(['<', '>', '&', '{']),
                &dir.join("forms.toml"),
                || format!("field `{field}`: write it without < > & or {{"),
            );
        }
        let values: HashSet<&str> = forms
            .insurance_types
            .iter()
            .map(|t| t.value.as_str())
            .collect();
        problems.check(
            !values.is_empty() && values.len() == forms.insurance_types.len(),
            &dir.join("forms.toml"),
            || "`insurance_types`: give at least one, each with its own `value`".into(),
        );
    }
    let insurance_types: Vec<String> = forms
        .as_ref()
        .map(|f| f.insurance_types.iter().map(|t| t.value.clone()).collect())
        .unwrap_or_default();

    let faq: Option<FaqFile> = read_toml(&dir.join("faq.toml"), &mut problems);
    if let Some(f) = &faq {
        problems.check(f.faq.len() == 6, &dir.join("faq.toml"), || {
            format!(
                "field `faq`: expected exactly 6 entries, found {}",
                f.faq.len()
            )
        });
    }

    let products = load_products(
        &dir.join("products"),
        &image_set,
        &insurance_types,
        &mut problems,
    );
    // The spec's fixed lists: the menus, /products and /coverage-types are built from these.
    let products_file = dir.join("products");
    let vehicles = products.iter().filter(|p| p.kind == "vehicle").count();
    let coverages = products.iter().filter(|p| p.kind == "coverage");
    let on_products_page = coverages.clone().filter(|p| p.on_products_page).count();
    for (what, expected, found) in [
        ("vehicle types (`kind = \"vehicle\"`)", 7, vehicles),
        ("coverages (`kind = \"coverage\"`)", 9, coverages.count()),
        (
            "coverages shown on /products (`on_products_page = true`)",
            6,
            on_products_page,
        ),
    ] {
        problems.check(found == expected, &products_file, || {
            format!("expected {expected} {what}, found {found}")
        });
    }
    let pages = load_pages(&dir.join("pages"), &mut problems);
    let documents = load_documents(&dir.join("pages"), &markdown, &mut problems);
    let posts = load_posts(&dir.join("blog"), &image_set, &markdown, &mut problems);

    match (site, forms, home, testimonials, faq) {
        (Some(site), Some(forms), Some(home), Some(testimonials), Some(faq))
            if problems.0.is_empty() =>
        {
            Ok(Content {
                site,
                forms,
                home,
                testimonials: testimonials.testimonials,
                faq: faq.faq,
                products,
                pages,
                documents,
                posts,
                categories: CATEGORIES.to_vec(),
                images,
            })
        }
        _ => Err(problems.0),
    }
}

fn check_site(site: &mut Site, file: &Path, problems: &mut Problems) {
    for license in &mut site.licenses {
        match US_STATES.iter().find(|(code, _)| *code == license.state) {
            Some((_, name)) => license.state_name = (*name).to_string(),
            None => problems.add(
                file,
                format!(
                    "[[licenses]] state {:?}: not a US state's two-letter code like TX",
                    license.state
                ),
            ),
        }
    }
    problems.check(!site.licenses.is_empty(), file, || {
        "[[licenses]]: name at least one state the agency is licensed in (structured data's areaServed)".into()
    });
    if let Some(claims) = &site.claims {
        // Both go into text and HTML alike through `{claims}` (see `expand_placeholders`).
        problems.check(
            !claims.name.trim().is_empty() && !claims.name.contains(['<', '>', '&', '{']),
            file,
            || "[claims] field `name`: give the line's name, without < > & or {".into(),
        );
        problems.check(!claims.phone.contains(['<', '>', '&', '{']), file, || {
            "[claims] field `phone`: write it as people dial it, e.g. (555) 010-0199".into()
        });
        problems.check(is_e164(&claims.phone_e164), file, || {
            "[claims] field `phone_e164`: must look like +15550100142".into()
        });
    }
    check_offer_valid_until(&site.offer_valid_until, build_date(), file, problems);
    site.claims_text = claims_text(site.claims.as_ref());
    problems.check(
        site.base_url.starts_with("https://") || site.base_url.starts_with("http://"),
        file,
        || "field `base_url`: must start with https:// or http://".into(),
    );
    problems.check(!site.base_url.ends_with('/'), file, || {
        "field `base_url`: must not end with a slash".into()
    });
    problems.check(is_e164(&site.phone_e164), file, || {
        "field `phone_e164`: must look like +15550100142".into()
    });
    problems.check(site.email.contains('@'), file, || {
        "field `email`: not an e-mail address".into()
    });
    for hours in &site.hours {
        for day in &hours.days {
            problems.check(WEEKDAYS.contains(&day.as_str()), file, || {
                format!("hours `{}`: unknown day {day:?}", hours.label)
            });
        }
        for time in [&hours.opens, &hours.closes].into_iter().flatten() {
            problems.check(is_clock_time(time), file, || {
                format!(
                    "hours `{}`: {time:?} is not a 24-hour time like 08:00",
                    hours.label
                )
            });
        }
        problems.check(
            hours.opens.is_some() == hours.closes.is_some(),
            file,
            || {
                format!(
                    "hours `{}`: give both `opens` and `closes`, or neither (closed)",
                    hours.label
                )
            },
        );
    }
    for (network, url) in &site.social {
        problems.check(
            ["facebook", "instagram", "linkedin", "x", "youtube"].contains(&network.as_str()),
            file,
            || format!("[social]: unknown network {network:?}"),
        );
        problems.check(url.starts_with("https://"), file, || {
            format!("[social] {network}: {url:?} must be an https:// address")
        });
    }
}

fn is_e164(number: &str) -> bool {
    number.len() > 8 && number.starts_with('+') && number[1..].chars().all(|c| c.is_ascii_digit())
}

/// Search engines show an offer's `priceValidUntil`; a date in the past, or about to be, makes the data stale.
const OFFER_MIN_DAYS_AHEAD: i64 = 60;

fn check_offer_valid_until(
    valid_until: &toml::value::Datetime,
    today: i64,
    file: &Path,
    problems: &mut Problems,
) {
    let Some(date) = valid_until.date.filter(|_| valid_until.time.is_none()) else {
        problems.add(
            file,
            "field `offer_valid_until`: give a plain date like 2027-12-31",
        );
        return;
    };
    let days_left =
        days_from_civil(i64::from(date.year), date.month.into(), date.day.into()) - today;
    problems.check(days_left >= OFFER_MIN_DAYS_AHEAD, file, || {
        format!(
            "field `offer_valid_until`: {valid_until} is {days_left} days after the build date; \
             it must be at least {OFFER_MIN_DAYS_AHEAD} days ahead (set a later date, e.g. the end of next year)"
        )
    });
}

/// Today as days since 1970-01-01 (UTC), or the day of `SOURCE_DATE_EPOCH` for a reproducible build.
fn build_date() -> i64 {
    println!("cargo:rerun-if-env-changed=SOURCE_DATE_EPOCH");
    let seconds = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|text| text.trim().parse::<i64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |elapsed| elapsed.as_secs() as i64)
        });
    seconds.div_euclid(86_400)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (years counted in 400-year eras of 146,097 days).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_from_march = (month + 9) % 12;
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// Copy about claims may promise help around the clock only with the line that gives it: `{claims}` says the
/// `[claims]` line of site.toml, and without one nobody answers claims around the clock, so no page may say so.
fn check_round_the_clock_promises(dir: &Path, has_claims_line: bool, problems: &mut Problems) {
    let mut files = list_files(dir, "toml", problems);
    files.extend(list_files(dir, "md", problems));
    // The folder's README describes the content; it is not on the site.
    for file in files.into_iter().filter(|f| !f.ends_with("README.md")) {
        let Some(text) = read_text(&file, problems) else {
            continue;
        };
        let is_toml = file.extension().is_some_and(|e| e == "toml");
        for (number, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            let promises = lower.contains("claim")
                && [
                    "24/7",
                    "24x7",
                    "around the clock",
                    "round-the-clock",
                    "24 hours a day",
                    "at any hour",
                ]
                .iter()
                .any(|promise| lower.contains(promise));
            if !promises || (is_toml && line.trim_start().starts_with('#')) {
                continue;
            }
            if !has_claims_line {
                problems.add(
                    &file,
                    format!(
                        "line {}: promises claims help around the clock, but site.toml has no [claims] line; \
                         say `{{claims}}` instead (it tells how claims are reported after hours)",
                        number + 1
                    ),
                );
            } else if !line.contains("{claims}") {
                problems.add(
                    &file,
                    format!(
                        "line {}: promises claims help around the clock; name the line that gives it with `{{claims}}`",
                        number + 1
                    ),
                );
            }
        }
    }
}

/// The words that stand for facts kept elsewhere, so the copy and the facts cannot disagree:
/// `{consent_text}` and `{consent_version}` (content/forms.toml) and `{claims}` (how claims are reported around the
/// clock: the `[claims]` line of site.toml, or the insurer's line on the policy documents).
fn placeholders(site: &Site, forms: &Forms) -> [(&'static str, String); 3] {
    [
        ("{consent_text}", forms.consent_text.clone()),
        ("{consent_version}", forms.consent_version.clone()),
        ("{claims}", site.claims_text.clone()),
    ]
}

fn claims_text(line: Option<&ClaimsLine>) -> String {
    match line {
        Some(line) => format!(
            "Claims are taken around the clock by {} at {}.",
            line.name, line.phone
        ),
        None => {
            "After hours, report a claim to your insurance company's claims line, printed on your \
                 policy documents and ID cards; we follow up with you on the next business day."
                .to_string()
        }
    }
}

/// Fills the placeholders into the content document. It holds text and rendered Markdown alike, so the values
/// are JSON-escaped here and were checked to hold nothing HTML would read as markup.
fn expand_placeholders(json: &str, site: &Site, forms: &Forms) -> String {
    let mut json = json.to_string();
    for (token, value) in placeholders(site, forms) {
        let escaped = serde_json::to_string(&value).expect("a string serialises");
        json = json.replace(token, &escaped[1..escaped.len() - 1]);
    }
    json
}

fn is_clock_time(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 5
        && bytes[2] == b':'
        && text[..2].parse::<u8>().is_ok_and(|h| h < 24)
        && text[3..].parse::<u8>().is_ok_and(|m| m < 60)
}

fn check_description(text: &str, field: &str, file: &Path, problems: &mut Problems) {
    let length = text.chars().count();
    problems.check((70..=160).contains(&length), file, || {
        format!(
            "field `{field}`: a meta description must be 70 to 160 characters to fit a search result, found {length}"
        )
    });
}

fn load_products(
    dir: &Path,
    images: &HashSet<&str>,
    insurance_types: &[String],
    problems: &mut Problems,
) -> Vec<Product> {
    let mut products = Vec::new();
    for file in list_files(dir, "toml", problems) {
        let Some(mut product) = read_toml::<Product>(&file, problems) else {
            continue;
        };
        product.slug = file_stem(&file);
        let p = &product;
        problems.check(
            ["vehicle", "coverage"].contains(&p.kind.as_str()),
            &file,
            || {
                format!(
                    "field `kind`: {:?} is neither \"vehicle\" nor \"coverage\"",
                    p.kind
                )
            },
        );
        problems.check(p.coverage_points.len() == 8, &file, || {
            format!(
                "field `coverage_points`: expected exactly 8, found {}",
                p.coverage_points.len()
            )
        });
        problems.check(p.benefits.len() == 7, &file, || {
            format!(
                "field `benefits`: expected exactly 7, found {}",
                p.benefits.len()
            )
        });
        problems.check(p.features.len() == 3, &file, || {
            format!(
                "field `features`: expected exactly 3, found {}",
                p.features.len()
            )
        });
        problems.check(
            insurance_types.contains(&p.insurance_type),
            &file,
            || {
                format!(
                    "field `insurance_type`: {:?} is not one of forms.toml's insurance types {insurance_types:?}",
                    p.insurance_type
                )
            },
        );
        problems.check(
            p.types.is_some() == p.types_heading.is_some(),
            &file,
            || "fields `types` and `types_heading` go together".into(),
        );
        if p.kind == "coverage" {
            problems.check(
                p.min_coverage.is_some() && p.required_by.is_some(),
                &file,
                || "a coverage needs `min_coverage` and `required_by`".into(),
            );
        }
        check_description(&p.description, "description", &file, problems);
        let image = format!("products/{}.svg", p.slug);
        problems.check(images.contains(image.as_str()), &file, || {
            format!("no illustration: content/images/{image} is missing")
        });
        product.image = image;
        products.push(product);
    }
    // Vehicles first, then coverages, each by `order`.
    products.sort_by_key(|p| (p.kind != "vehicle", p.order));
    for kind in ["vehicle", "coverage"] {
        let mut seen = HashSet::new();
        for p in products.iter().filter(|p| p.kind == kind) {
            if !seen.insert(p.order) {
                problems.add(
                    &dir.join(format!("{}.toml", p.slug)),
                    format!("field `order`: {} is used twice", p.order),
                );
            }
        }
    }
    products
}

/// What a field of a page's copy must be.
enum Shape {
    /// Non-empty text.
    Text,
    /// A table with these fields, each present and not empty.
    Table(&'static [&'static str]),
    /// Exactly this many entries (`[[name]]`), each with these fields present and not empty.
    Rows(usize, &'static [&'static str]),
}

/// The copy each page of `content/pages/*.toml` must hold beyond `title` and `description`: checked here so that a
/// mistake names the file and the field instead of failing the prerender somewhere in React. Keep in step with the
/// list in content/README.md and the types the pages read it with (web/src/pages/InfoPages.tsx).
const PAGE_SHAPES: [(&str, &[(&str, Shape)]); 6] = [
    (
        "about",
        &[
            ("intro", Shape::Text),
            ("mission", Shape::Table(&["heading", "body"])),
            ("values", Shape::Rows(3, &["title", "text"])),
            ("reasons", Shape::Rows(4, &["title", "text"])),
        ],
    ),
    ("blog", &[("heading", Shape::Text), ("intro", Shape::Text)]),
    (
        "contact",
        &[("heading", Shape::Text), ("intro", Shape::Text)],
    ),
    (
        "coverage-types",
        &[
            ("heading", Shape::Text),
            ("intro", Shape::Text),
            ("package", Shape::Rows(4, &["title", "text"])),
            ("faq", Shape::Rows(5, &["question", "answer"])),
        ],
    ),
    (
        "get-quote",
        &[
            ("heading", Shape::Text),
            ("subtext", Shape::Text),
            ("why", Shape::Rows(4, &["title", "text"])),
            ("checklist", Shape::Table(&["business", "vehicles"])),
            ("note", Shape::Text),
        ],
    ),
    (
        "products",
        &[("heading", Shape::Text), ("intro", Shape::Text)],
    ),
];

/// Whether a TOML value holds something: text that is not blank, a list or table that is not empty.
fn is_filled(value: &toml::Value) -> bool {
    match value {
        toml::Value::String(text) => !text.trim().is_empty(),
        toml::Value::Array(items) => !items.is_empty() && items.iter().all(is_filled),
        toml::Value::Table(table) => !table.is_empty(),
        _ => true,
    }
}

fn check_page_shape(
    page: &toml::Value,
    shape: &[(&str, Shape)],
    file: &Path,
    problems: &mut Problems,
) {
    let missing_in = |table: &toml::Value, fields: &[&str]| -> Vec<String> {
        fields
            .iter()
            .filter(|field| !table.get(**field).is_some_and(is_filled))
            .map(|field| format!("`{field}`"))
            .collect()
    };
    for (field, expected) in shape {
        let value = page.get(*field);
        match expected {
            Shape::Text => problems.check(
                value
                    .and_then(toml::Value::as_str)
                    .is_some_and(|t| !t.trim().is_empty()),
                file,
                || format!("field `{field}`: text is required"),
            ),
            Shape::Table(fields) => match value.filter(|v| v.is_table()) {
                None => problems.add(file, format!("`[{field}]` is missing")),
                Some(table) => {
                    let missing = missing_in(table, fields);
                    problems.check(missing.is_empty(), file, || {
                        format!("`[{field}]` lacks {}", missing.join(", "))
                    });
                }
            },
            Shape::Rows(count, fields) => {
                let rows = value
                    .and_then(toml::Value::as_array)
                    .map(Vec::as_slice)
                    .unwrap_or_default();
                problems.check(rows.len() == *count, file, || {
                    format!(
                        "`[[{field}]]`: expected exactly {count} entries, found {}",
                        rows.len()
                    )
                });
                for (number, row) in rows.iter().enumerate() {
                    let missing = missing_in(row, fields);
                    problems.check(missing.is_empty(), file, || {
                        format!(
                            "`[[{field}]]` entry {}: lacks {}",
                            number + 1,
                            missing.join(", ")
                        )
                    });
                }
            }
        }
    }
}

fn load_pages(dir: &Path, problems: &mut Problems) -> BTreeMap<String, serde_json::Value> {
    let mut pages = BTreeMap::new();
    for (name, _) in PAGE_SHAPES {
        let file = dir.join(format!("{name}.toml"));
        problems.check(file.is_file(), &file, || {
            "the page's copy is missing".into()
        });
    }
    for file in list_files(dir, "toml", problems) {
        let Some(value) = read_toml::<toml::Value>(&file, problems) else {
            continue;
        };
        match PAGE_SHAPES
            .iter()
            .find(|(name, _)| *name == file_stem(&file))
        {
            Some((_, shape)) => check_page_shape(&value, shape, &file, problems),
            None => problems.add(
                &file,
                format!(
                    "no page reads this file; the pages with copy here are {}",
                    PAGE_SHAPES.map(|(name, _)| name).join(", ")
                ),
            ),
        }
        for field in ["title", "description"] {
            match value.get(field).and_then(toml::Value::as_str) {
                Some(text) if field == "description" => {
                    check_description(text, field, &file, problems)
                }
                Some(_) => {}
                None => problems.add(&file, format!("field `{field}` is missing")),
            }
        }
        match serde_json::to_value(&value) {
            Ok(json) => {
                pages.insert(file_stem(&file), json);
            }
            Err(error) => problems.add(&file, error),
        }
    }
    pages
}

fn load_documents(
    dir: &Path,
    markdown: &MarkdownRenderer,
    problems: &mut Problems,
) -> Vec<Document> {
    let mut documents = Vec::new();
    for file in list_files(dir, "md", problems) {
        let Some((front, body)) = read_front_matter::<DocumentFrontMatter>(&file, problems) else {
            continue;
        };
        check_description(&front.description, "description", &file, problems);
        documents.push(Document {
            slug: file_stem(&file),
            title: front.title,
            description: front.description,
            updated: front.updated.to_string(),
            html: markdown.render(&body, &file, problems),
        });
    }
    documents
}

fn load_posts(
    dir: &Path,
    images: &HashSet<&str>,
    markdown: &MarkdownRenderer,
    problems: &mut Problems,
) -> Vec<Post> {
    let mut posts = Vec::new();
    for file in list_files(dir, "md", problems) {
        let Some((front, body)) = read_front_matter::<PostFrontMatter>(&file, problems) else {
            continue;
        };
        let slug = file_stem(&file);
        problems.check(
            !slug.is_empty()
                && slug
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            &file,
            || "the file name (the post's slug) may hold only a-z, 0-9 and -".into(),
        );
        problems.check(CATEGORIES.contains(&front.category.as_str()), &file, || {
            format!(
                "field `category`: {:?} is not one of {CATEGORIES:?}",
                front.category
            )
        });
        problems.check(front.excerpt.chars().count() <= 200, &file, || {
            "field `excerpt`: at most 200 characters".into()
        });
        if let Some(description) = &front.description {
            check_description(description, "description", &file, problems);
        }
        let date_ok = front.date.date.is_some() && front.date.time.is_none();
        problems.check(date_ok, &file, || {
            "field `date`: give a plain date like 2026-03-14".into()
        });
        let image = front
            .image
            .unwrap_or_else(|| format!("blog/{}.svg", category_slug(&front.category)));
        problems.check(images.contains(image.as_str()), &file, || {
            format!("field `image`: content/images/{image} does not exist")
        });
        problems.check(!body.trim_start().starts_with("# "), &file, || {
            "the body must not start with a `#` heading: the page shows the title; use `##`".into()
        });
        let html = markdown.render(&body, &file, problems);
        let text = plain_text(&html);
        let words = text.split_whitespace().count();
        posts.push(Post {
            image_alt: front
                .image_alt
                .unwrap_or_else(|| format!("Illustration for {}", front.category)),
            slug,
            title: front.title,
            seo_title: front.seo_title,
            excerpt: front.excerpt,
            description: front.description,
            category: front.category,
            date: front.date.to_string(),
            author: front.author,
            featured: front.featured,
            image,
            reading_minutes: words.div_ceil(220).max(1),
            html,
            text,
        });
    }
    posts.sort_by(|a, b| b.date.cmp(&a.date).then(a.slug.cmp(&b.slug)));
    let featured = posts.iter().filter(|p| p.featured).count();
    if !posts.is_empty() && featured != 1 {
        problems.add(
            dir,
            format!("exactly one post must have `featured = true`, found {featured}"),
        );
    }
    posts
}

/// TOML dates reach the web app as plain "2026-12-31" text.
fn date_as_text<S: serde::Serializer>(
    date: &toml::value::Datetime,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&date.to_string())
}

fn category_slug(category: &str) -> String {
    category.to_lowercase().replace(' ', "-")
}

fn file_stem(file: &Path) -> String {
    file.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn list_files(dir: &Path, extension: &str, problems: &mut Problems) -> Vec<PathBuf> {
    fn walk(dir: &Path, extension: &str, found: &mut Vec<PathBuf>) -> std::io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() {
                walk(&path, extension, found)?;
            } else if path.extension().is_some_and(|e| e == extension) {
                found.push(path);
            }
        }
        Ok(())
    }
    let mut found = Vec::new();
    if dir.is_dir()
        && let Err(error) = walk(dir, extension, &mut found)
    {
        problems.add(dir, format!("cannot be read: {error}"));
    }
    found.sort();
    found
}

fn read_text(file: &Path, problems: &mut Problems) -> Option<String> {
    match std::fs::read_to_string(file) {
        Ok(text) => Some(text),
        Err(error) => {
            problems.add(file, format!("cannot be read: {error}"));
            None
        }
    }
}

fn read_toml<T: serde::de::DeserializeOwned>(file: &Path, problems: &mut Problems) -> Option<T> {
    let text = read_text(file, problems)?;
    toml::from_str(&text)
        .map_err(|error| problems.add(file, error.to_string().trim_end()))
        .ok()
}

/// Splits a Markdown file into its TOML front matter (between the first two `+++` lines) and its body.
fn read_front_matter<T: serde::de::DeserializeOwned>(
    file: &Path,
    problems: &mut Problems,
) -> Option<(T, String)> {
    let text = read_text(file, problems)?.replace("\r\n", "\n");
    let Some(rest) = text.strip_prefix("+++\n") else {
        problems.add(
            file,
            "must start with a `+++` line opening the front matter",
        );
        return None;
    };
    let Some((front, body)) = rest.split_once("\n+++\n") else {
        problems.add(file, "the front matter is not closed by a `+++` line");
        return None;
    };
    let front = toml::from_str(front)
        .map_err(|error| {
            problems.add(
                file,
                format!("front matter: {}", error.to_string().trim_end()),
            )
        })
        .ok()?;
    Some((front, body.to_string()))
}

/// The words of rendered HTML, for the blog search and reading time.
fn plain_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                text.push(' ');
            }
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    let text = text
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

// ---------------------------------------------------------------------------------------------------------------
// Markdown
// ---------------------------------------------------------------------------------------------------------------

struct MarkdownRenderer {
    highlighter: CodeHighlighter,
}

impl MarkdownRenderer {
    fn new() -> Self {
        Self {
            highlighter: CodeHighlighter(SyntectAdapterBuilder::new().css().build()),
        }
    }

    fn render(&self, markdown: &str, file: &Path, problems: &mut Problems) -> String {
        let mut options = comrak::Options::default();
        options.extension.table = true;
        options.extension.strikethrough = true;
        options.extension.autolink = true;
        // Content is written by the agency, but raw HTML would bypass the CSP-safe markup: refuse it.
        options.render.r#unsafe = false;
        let mut plugins = Plugins::default();
        plugins.render.codefence_syntax_highlighter = Some(&self.highlighter);
        let html = comrak::markdown_to_html_with_plugins(markdown, &options, &plugins);
        if html.contains("<!-- raw HTML omitted -->") {
            problems.add(
                file,
                "raw HTML is not allowed in Markdown; write it in Markdown",
            );
        }
        if html.contains("<h1") {
            problems.add(
                file,
                "use `##` headings and below: the page's title is its only `#` heading",
            );
        }
        html
    }
}

/// Highlights fenced code into CSS classes (no inline styles, which the site's CSP forbids), reading a fence without
/// a language as JavaScript and mapping the languages syntect's default set lacks onto their nearest relative.
struct CodeHighlighter(SyntectAdapter);

impl CodeHighlighter {
    fn language(info: Option<&str>) -> &str {
        match info.map(|l| l.split([',', ' ']).next().unwrap_or("").trim()) {
            None | Some("") => "js",
            Some("javascript" | "js" | "jsx" | "typescript" | "ts" | "tsx" | "mjs") => "js",
            Some("bash" | "sh" | "shell" | "console" | "zsh") => "bash",
            Some(other) => other,
        }
    }

    fn label(info: Option<&str>) -> &'static str {
        match info.map(|l| l.split([',', ' ']).next().unwrap_or("").trim()) {
            Some("typescript" | "ts") => "TypeScript",
            Some("tsx") => "TSX",
            Some("jsx") => "JSX",
            Some("bash" | "sh" | "shell" | "console" | "zsh") => "Shell",
            Some("css") => "CSS",
            Some("json") => "JSON",
            Some("html") => "HTML",
            Some("toml") => "TOML",
            None | Some("") | Some("javascript" | "js" | "mjs") => "JavaScript",
            Some(_) => "Code",
        }
    }
}

impl SyntaxHighlighterAdapter for CodeHighlighter {
    fn write_highlighted(
        &self,
        output: &mut dyn fmt::Write,
        lang: Option<&str>,
        code: &str,
    ) -> fmt::Result {
        self.0
            .write_highlighted(output, Some(Self::language(lang)), code)
    }

    fn write_pre_tag(
        &self,
        output: &mut dyn fmt::Write,
        attributes: HashMap<&'static str, std::borrow::Cow<'_, str>>,
    ) -> fmt::Result {
        let lang = attributes.get("lang").map(|l| l.as_ref());
        // tabindex: a scrollable code block must be reachable by keyboard.
        write!(
            output,
            "<pre class=\"code-block\" data-language=\"{}\" tabindex=\"0\">",
            Self::label(lang)
        )
    }

    fn write_code_tag(
        &self,
        output: &mut dyn fmt::Write,
        attributes: HashMap<&'static str, std::borrow::Cow<'_, str>>,
    ) -> fmt::Result {
        self.0.write_code_tag(output, attributes)
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The web app
// ---------------------------------------------------------------------------------------------------------------

/// Installs the web app's packages when `node_modules` is missing or older than the lockfile, so a clean clone
/// builds with nothing installed by hand and an unchanged lockfile costs nothing.
///
/// `npm install --no-save` rather than `npm ci`: the versions are pinned and come from the lockfile all the same,
/// but `npm ci` insists that every optional platform binary (Tailwind's for macOS, Windows, ...) be listed in the
/// lockfile, and a registry mirror that carries only Linux builds leaves them out, so `npm ci` would always fail.
fn install_web_packages(web: &Path) {
    let lockfile = web.join("package-lock.json");
    let installed = web.join("node_modules/.package-lock.json");
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let up_to_date =
        matches!((modified(&installed), modified(&lockfile)), (Some(i), Some(l)) if i >= l);
    if !up_to_date {
        run(
            Command::new("npm")
                .args([
                    "install",
                    "--include=dev",
                    "--no-save",
                    "--no-audit",
                    "--no-fund",
                    "--loglevel=error",
                ])
                .current_dir(web),
            "installing the web app's packages (npm install in web/)",
        );
    }
}

fn run(command: &mut Command, what: &str) {
    match command.status() {
        Ok(status) if status.success() => {}
        Ok(status) => {
            eprintln!("\nFailed while {what}: {status}. The output above says why.\n");
            std::process::exit(1);
        }
        Err(error) => {
            eprintln!(
                "\nCould not start {what}: {error}. Is Node.js 20 or later installed and on PATH?\n"
            );
            std::process::exit(1);
        }
    }
}

fn write_file(path: &Path, bytes: &[u8]) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .unwrap_or_else(|e| panic!("creating {}: {e}", parent.display()));
    }
    // Leave an unchanged file untouched so tools watching it (the Vite dev server) are not woken for nothing.
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return;
    }
    std::fs::write(path, bytes).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
}
