//! The content model: what each file of `content/` must hold, and the document the web app reads.
//!
//! The types read from TOML deny unknown fields, so a misspelt field is a build error naming it. Fields marked
//! `skip_deserializing` are filled in by the checks (`site::check`); the order of fields is the order of the JSON
//! document (`to_json`), which the web app reads.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Everything the site says: the one document handed to the web app.
#[derive(Serialize, TS)]
pub struct Content {
    pub site: Site,
    pub forms: Forms,
    pub home: Home,
    pub testimonials: Vec<Testimonial>,
    pub faq: Vec<Faq>,
    pub products: Vec<Product>,
    /// The structured pages of `content/pages/*.toml`, by file stem; each page's component reads its own shape.
    #[ts(
        type = "Record<string, Record<string, unknown> & { title: string; description: string }>"
    )]
    pub pages: BTreeMap<String, serde_json::Value>,
    pub documents: Vec<Document>,
    pub posts: Vec<Post>,
    pub categories: Vec<&'static str>,
    /// Every image under `content/images`, as paths relative to it.
    pub images: Vec<String>,
}

/// `facts.toml`: the agency's facts, which are the same in every language (numbers, addresses, names, times), kept
/// once for both. The words beside them (the description, the hours' labels) are in each language's `site.toml`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Facts {
    pub brand: String,
    /// The name the page titles end with (`About Us | <short_brand>`) when `brand` leaves too little room in the
    /// 60 characters a search result shows.
    pub short_brand: Option<String>,
    pub legal_name: String,
    pub phone: String,
    pub phone_e164: String,
    pub email: String,
    pub base_url: String,
    pub founded: u16,
    pub offer_valid_until: toml::value::Datetime,
    pub address: Address,
    pub hours: Vec<OpeningHours>,
    #[serde(default)]
    pub licenses: Vec<License>,
    pub claims: Option<ClaimsLine>,
    #[serde(default)]
    pub social: BTreeMap<String, String>,
    #[serde(default)]
    pub authors: Vec<Author>,
    #[serde(default)]
    pub insurers: Vec<Insurer>,
}

/// An insurance company the agency places policies with, whose claims line `/report-a-claim` shows and whose id
/// the claim form may name.
#[derive(Deserialize, Serialize, TS, Clone)]
#[serde(deny_unknown_fields)]
pub struct Insurer {
    /// Lower-case words joined by hyphens (`great-plains-mutual`): the form's value.
    pub id: String,
    pub name: String,
    /// As people dial it, and as `+1...` for `tel:` links.
    pub claims_phone: String,
    pub claims_phone_e164: String,
    /// Where a claim can be reported online (https).
    pub claims_url: String,
    /// Invented for the sample agency: refused when the site is built for a real address.
    #[serde(default, skip_serializing)]
    #[ts(skip)]
    pub sample: bool,
}

/// One `[[hours]]` of `facts.toml`: the days and times of a line of the hours card (its label is words).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpeningHours {
    pub days: Vec<String>,
    pub opens: Option<String>,
    pub closes: Option<String>,
}

/// A person the blog posts name as their author (`author = "..."` must be one of them).
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct Author {
    pub name: String,
    /// Invented for the sample agency: refused when the site is built for a real address.
    #[serde(default)]
    pub sample: bool,
}

/// `site.toml` (and `es/site.toml`): the words that go with the facts, in one language.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteWords {
    pub description: String,
    /// The label of each `[[hours]]` of `facts.toml`, in its order ("Monday - Friday").
    pub hours_labels: Vec<String>,
}

/// The agency as the web app reads it: `facts.toml` with one language's `site.toml`.
#[derive(Serialize, TS)]
pub struct Site {
    pub brand: String,
    /// What every `<title>` ends with: facts.toml's `short_brand`, else `brand`.
    pub short_brand: String,
    pub legal_name: String,
    pub description: String,
    pub phone: String,
    pub phone_e164: String,
    pub email: String,
    pub base_url: String,
    pub founded: u16,
    #[serde(serialize_with = "date_as_text")]
    #[ts(type = "string")]
    pub offer_valid_until: toml::value::Datetime,
    pub address: Address,
    pub hours: Vec<Hours>,
    pub licenses: Vec<License>,
    /// A claims line that answers around the clock; without one the site never promises 24/7 claims help.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub claims: Option<ClaimsLine>,
    /// What `{claims}` says (filled in by the build), for pages that show it beside the phone number.
    pub claims_text: String,
    pub social: BTreeMap<String, String>,
    /// The insurers the agency places with, for `/report-a-claim` (none: the page says to call the agency).
    pub insurers: Vec<Insurer>,
    /// The blog's authors (checked by the build; the web app reads each post's `author`).
    #[serde(skip)]
    #[ts(skip)]
    pub authors: Vec<Author>,
}

#[derive(Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct ClaimsLine {
    pub name: String,
    pub phone: String,
    pub phone_e164: String,
}

#[derive(Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Address {
    pub street: String,
    pub city: String,
    pub region: String,
    pub postal_code: String,
    pub country: String,
    /// An invented address (the sample agency's): refused when the site is built for a real address.
    #[serde(default, skip_serializing)]
    #[ts(skip)]
    pub sample: bool,
}

/// A line of the hours card: `facts.toml`'s days and times with the language's label.
#[derive(Serialize, TS)]
pub struct Hours {
    pub label: String,
    pub days: Vec<String>,
    pub opens: Option<String>,
    pub closes: Option<String>,
}

#[derive(Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct License {
    pub state: String,
    pub number: String,
    /// The state's name for structured data (`areaServed`), filled in from `state` by the build.
    #[serde(skip_deserializing)]
    pub state_name: String,
}

/// `home.toml`.
#[derive(Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Home {
    pub title: String,
    pub description: String,
    pub hero: Hero,
    pub why: Vec<TitledText>,
}

#[derive(Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Hero {
    pub headline: String,
    pub subtext: String,
}

#[derive(Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct TitledText {
    pub title: String,
    pub text: String,
}

/// `testimonials.toml`: three testimonials, or none (the home page then goes without the section).
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Testimonials {
    #[serde(default)]
    pub testimonials: Vec<Testimonial>,
}

#[derive(Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Testimonial {
    pub name: String,
    pub position: String,
    pub content: String,
    pub rating: u8,
    /// Invented for the sample agency: a fake testimonial, refused when the site is built for a real address.
    #[serde(default, skip_serializing)]
    #[ts(skip)]
    pub sample: bool,
}

/// `faq.toml`.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FaqFile {
    pub faq: Vec<Faq>,
}

#[derive(Deserialize, Serialize, Clone, TS)]
#[serde(deny_unknown_fields)]
pub struct Faq {
    pub question: String,
    pub answer: String,
}

/// `products/<slug>.toml`.
#[derive(Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Product {
    /// The file's stem, filled in by the build.
    #[serde(default)]
    pub slug: String,
    pub kind: String,
    pub order: u32,
    pub title: String,
    pub menu_label: String,
    pub description: String,
    pub card_description: String,
    pub features: Vec<String>,
    pub min_coverage: Option<String>,
    pub required_by: Option<String>,
    #[serde(default)]
    pub on_products_page: bool,
    pub insurance_type: String,
    pub overview: String,
    pub coverage_points: Vec<String>,
    pub benefits: Vec<String>,
    pub types_heading: Option<String>,
    pub types: Option<Vec<String>>,
    /// `products/<slug>.svg`, filled in by the build.
    #[serde(default)]
    pub image: String,
    pub image_alt: String,
    #[serde(default)]
    pub faqs: Vec<Faq>,
}

/// The front matter of `blog/<slug>.md`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PostFrontMatter {
    pub title: String,
    /// The `<title>` when `title` is too long for a search result (brand included).
    pub seo_title: Option<String>,
    pub excerpt: String,
    /// The meta description when the excerpt does not fit one (70-160 characters).
    pub description: Option<String>,
    pub category: String,
    pub date: toml::value::Datetime,
    pub author: String,
    #[serde(default)]
    pub featured: bool,
    pub image: Option<String>,
    pub image_alt: Option<String>,
}

/// A blog post as the web app reads it.
#[derive(Serialize, TS)]
pub struct Post {
    pub slug: String,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub seo_title: Option<String>,
    pub excerpt: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub description: Option<String>,
    pub category: String,
    pub date: String,
    pub author: String,
    pub featured: bool,
    pub image: String,
    pub image_alt: String,
    pub reading_minutes: usize,
    pub html: String,
    /// The words of `html`, for the blog search.
    pub text: String,
}

/// The front matter of `pages/*.md`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DocumentFrontMatter {
    pub title: String,
    pub description: String,
    pub updated: toml::value::Datetime,
}

/// A page of prose (`pages/*.md`: privacy, terms, ...) as the web app reads it.
#[derive(Serialize, TS)]
pub struct Document {
    pub slug: String,
    pub title: String,
    pub description: String,
    pub updated: String,
    pub html: String,
}

/// `forms.toml`.
#[derive(Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Forms {
    pub consent_version: String,
    pub consent_text: String,
    /// The words of `consent_text` that name the opt-out page ("the opt-out page"): the form shows them as a link to
    /// it, while the text stored with a lead stays plain, word for word as shown.
    pub opt_out_link: String,
    pub insurance_types: Vec<InsuranceType>,
}

#[derive(Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct InsuranceType {
    pub value: String,
    pub label: String,
}

/// TOML dates reach the web app as plain "2026-12-31" text.
fn date_as_text<S: serde::Serializer>(
    date: &toml::value::Datetime,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&date.to_string())
}
