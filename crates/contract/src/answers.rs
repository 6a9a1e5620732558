//! The server's own sentences to visitors, beside the forms' ([`crate::forms`]): what a lead post is told when it
//! cannot be read, is refused as a whole or fails, and the API's answers by status. Written here once in English so
//! that [`crate::locale::Locale::text`] gives their Spanish from the same table as the forms' words.

/// Above the form when fields need correcting (no-JavaScript answer).
pub const CORRECT_FIELDS: &str = "Please correct the fields marked below.";
/// The start of the no-JavaScript page's sentence for a 429 (the JSON's `error` titles stay English: programs
/// read them).
pub const TOO_MANY_ATTEMPTS: &str = "Too Many Attempts";
/// A person's page when the lead could not be stored.
pub const TRY_LATER_OR_CALL: &str =
    "We're experiencing technical difficulties. Please try again later, or call us.";
/// A program's answer when the lead could not be stored for an unforeseen reason.
pub const TRY_LATER: &str = "We're experiencing technical difficulties. Please try again later.";
pub const BUSY: &str = "The server is busy. Please try again in a moment.";
/// A person's page for a body over the size limit.
pub const TOO_LONG_FOR_PEOPLE: &str =
    "What you sent is too long for us to accept. Please shorten it and send it again.";
/// A person's page for a body that could not be read.
pub const UNREADABLE_FOR_PEOPLE: &str =
    "Your browser sent something we could not read. Please fill in the form and send it again.";
pub const UNSUPPORTED_TYPE: &str =
    "Send the lead as application/json (or application/x-www-form-urlencoded).";
pub const BODY_TOO_LARGE: &str = "The request body is larger than 64 KiB.";
pub const NOT_UTF8: &str = "The request body is not valid UTF-8 text.";
pub const BODY_UNREADABLE: &str = "The request body could not be read.";
/// Followed by the parser's own words (in English), in parentheses.
pub const NOT_JSON: &str = "The request body is not valid JSON.";
pub const NOT_AN_OBJECT: &str = "Send the lead as a JSON object.";
pub const BAD_SUBMISSION_ID: &str = "`submission_id` must be 16 to 100 letters, digits, - or _.";
/// `{field}` is the field's name.
pub const NOT_A_LIST: &str = "The field `{field}` must be a list of text.";
/// `{field}` is the field's name.
pub const NOT_A_VALUE: &str = "The field `{field}` must be text, a number or true/false.";
/// Details posted with a token no quote has.
pub const UNKNOWN_TOKEN: &str =
    "We could not find the quote request these details belong to. Please call us with them.";
/// Details posted for a quote more than 24 hours old.
pub const EXPIRED_TOKEN: &str =
    "Details can be added within 24 hours of a quote request. Please call us with them instead.";

/// The API's message for a failure known only by its status (src/errors.rs).
pub mod by_status {
    pub const BAD_REQUEST: &str = "The request could not be read. Send a JSON object.";
    pub const NOT_FOUND: &str = "There is nothing at this address.";
    pub const METHOD_NOT_ALLOWED: &str = "This address does not accept that method.";
    pub const TOO_LARGE: &str = "The request body is too large.";
    pub const UNSUPPORTED: &str = "Send the request as application/json.";
    pub const WRONG_SHAPE: &str = "The request body has the wrong shape.";
    pub const TOO_MANY: &str = "Too many requests. Please wait and try again.";
    pub const SERVER: &str = "Something went wrong on our side. Please try again later.";
    pub const OTHER: &str = "The request could not be handled.";
}

/// The message for a `locale` field that names no language of the site. Deliberately English only: a client
/// that sends an unknown language has not told us one it reads.
pub const BAD_LOCALE: &str = "The locale must be en or es.";

/// Every sentence above that has a Spanish one (all but [`BAD_LOCALE`]), for the translation table's test.
pub const TRANSLATED: [&str; 27] = [
    CORRECT_FIELDS,
    TOO_MANY_ATTEMPTS,
    TRY_LATER_OR_CALL,
    TRY_LATER,
    BUSY,
    TOO_LONG_FOR_PEOPLE,
    UNREADABLE_FOR_PEOPLE,
    UNSUPPORTED_TYPE,
    BODY_TOO_LARGE,
    NOT_UTF8,
    BODY_UNREADABLE,
    NOT_JSON,
    NOT_AN_OBJECT,
    BAD_SUBMISSION_ID,
    NOT_A_LIST,
    NOT_A_VALUE,
    UNKNOWN_TOKEN,
    EXPIRED_TOKEN,
    by_status::BAD_REQUEST,
    by_status::NOT_FOUND,
    by_status::METHOD_NOT_ALLOWED,
    by_status::TOO_LARGE,
    by_status::UNSUPPORTED,
    by_status::WRONG_SHAPE,
    by_status::TOO_MANY,
    by_status::SERVER,
    by_status::OTHER,
];
