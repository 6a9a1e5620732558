//! The site's addresses that code on both sides names: the pages the header, footer and forms link to, the
//! thank-you pages the server redirects to, and the prerendered error pages the server answers with.

pub const HOME: &str = "/";
/// The start of the status links of the agency's e-mail (`/lead-status/12/contacted?until=...&sig=...`): the
/// server's own pages, never the site's.
pub const LEAD_STATUS: &str = "/lead-status/";
pub const QUOTE: &str = "/get-quote";
pub const PRODUCTS: &str = "/products";
pub const COVERAGE_TYPES: &str = "/coverage-types";
pub const ABOUT: &str = "/about";
pub const CONTACT: &str = "/contact";
pub const FAQ: &str = "/faq";
pub const BLOG: &str = "/blog";
pub const PARTNERS: &str = "/partners";
pub const PRIVACY: &str = "/privacy";
pub const TERMS: &str = "/terms";
pub const SITEMAP: &str = "/sitemap";
/// Certificates of insurance for existing clients (issue 13).
pub const CERTIFICATE_REQUEST: &str = "/certificate-request";
/// Where a visitor takes back their consent to be contacted (issue 25).
pub const OPT_OUT: &str = "/opt-out";
/// What to do after an accident, the insurers' claims lines and the first notice of loss (issue 28).
pub const REPORT_A_CLAIM: &str = "/report-a-claim";
/// A client's request to change a policy: a unit, a driver, an address, a lienholder (issue 28).
pub const POLICY_CHANGE: &str = "/policy-change";

/// Where a form posted without JavaScript lands (below its page, so the header's current page stays right).
pub const QUOTE_THANK_YOU: &str = "/get-quote/thank-you";
pub const CONTACT_THANK_YOU: &str = "/contact/thank-you";
pub const COI_THANK_YOU: &str = "/certificate-request/thank-you";
pub const CLAIM_THANK_YOU: &str = "/report-a-claim/thank-you";
pub const POLICY_CHANGE_THANK_YOU: &str = "/policy-change/thank-you";
/// Where the opt-out form posted without JavaScript lands: what happens next.
pub const OPT_OUT_RECEIVED: &str = "/opt-out/received";
/// Where "Speed up your quote" posted without JavaScript lands once the details are stored.
pub const DETAILS_THANK_YOU: &str = "/get-quote/details-received";
/// The query parameter that carries a quote's details token to [`QUOTE_THANK_YOU`] after a plain form post: the
/// server fills it into the page's "Speed up your quote" form.
pub const DETAILS_TOKEN_PARAMETER: &str = "details";

/// The query parameter that carries a claim's or a change request's reference (`CLM-000123`, `CHG-000045`) to
/// [`CLAIM_THANK_YOU`] or [`POLICY_CHANGE_THANK_YOU`] after a plain form post: the server fills it into the page
/// (`forms::markers::REFERENCE`), so a person without JavaScript sees the reference too.
pub const REFERENCE_PARAMETER: &str = "reference";

/// The DOT lookup, `GET /api/carriers/<dot>`: the quote form's "Is this your company?" asks it.
pub const CARRIERS_API: &str = "/api/carriers";
/// A quote's documents (issue 39): loss runs and the like, one file per multipart post with the details token.
pub const DOCUMENTS_API: &str = "/api/leads/documents";
/// The agency's one signed page of a quote's whole submission (`/lead-submission/ID?...&sig=`), and a document of it.
pub const LEAD_SUBMISSION: &str = "/lead-submission/";
pub const LEAD_DOCUMENTS: &str = "/lead-documents/";

/// The error pages, prerendered like the others under `_errors/` (a folder the server never serves by its name).
pub mod error_pages {
    pub const NOT_FOUND: &str = "_errors/404.html";
    pub const BLOG_POST_NOT_FOUND: &str = "_errors/blog-404.html";
    pub const BAD_REQUEST: &str = "_errors/400.html";
    pub const SERVER_ERROR: &str = "_errors/500.html";
}

/// Every page address above, by the name the web app uses (`routes.pages.quote`).
pub const PAGES: [(&str, &str); 16] = [
    ("home", HOME),
    ("quote", QUOTE),
    ("products", PRODUCTS),
    ("coverageTypes", COVERAGE_TYPES),
    ("about", ABOUT),
    ("contact", CONTACT),
    ("faq", FAQ),
    ("blog", BLOG),
    ("partners", PARTNERS),
    ("privacy", PRIVACY),
    ("terms", TERMS),
    ("sitemap", SITEMAP),
    ("certificateRequest", CERTIFICATE_REQUEST),
    ("optOut", OPT_OUT),
    ("reportAClaim", REPORT_A_CLAIM),
    ("policyChange", POLICY_CHANGE),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thank_you_pages_sit_below_their_form_pages() {
        assert!(QUOTE_THANK_YOU.starts_with(QUOTE));
        assert!(CONTACT_THANK_YOU.starts_with(CONTACT));
        assert!(COI_THANK_YOU.starts_with(CERTIFICATE_REQUEST));
        assert!(OPT_OUT_RECEIVED.starts_with(OPT_OUT));
        assert!(CLAIM_THANK_YOU.starts_with(REPORT_A_CLAIM));
        assert!(POLICY_CHANGE_THANK_YOU.starts_with(POLICY_CHANGE));
    }

    #[test]
    fn the_client_service_pages_have_spanish_counterparts_below_es() {
        use crate::locale::Locale;
        assert_eq!(Locale::Es.page(REPORT_A_CLAIM), "/es/report-a-claim");
        assert_eq!(Locale::Es.page(POLICY_CHANGE), "/es/policy-change");
        assert_eq!(
            Locale::Es.page(CLAIM_THANK_YOU),
            "/es/report-a-claim/thank-you"
        );
        let names: Vec<&str> = PAGES.iter().map(|(name, _)| *name).collect();
        assert!(names.contains(&"reportAClaim") && names.contains(&"policyChange"));
    }
}
