//! A quote's documents (issue 39): loss runs, a declarations page, photos, posted one at a time to
//! [`crate::routes::DOCUMENTS_API`] as `multipart/form-data` with the quote's details token. What a file is (PDF, JPEG
//! or PNG) is judged from its first bytes, never from its name or the type the browser states; the limits and every
//! sentence a visitor may read about an upload are here, in English (their Spanish in `spanish.rs`).

/// The form field that carries the file; the token is [`super::details::DETAILS_TOKEN`]'s field.
pub const FILE_FIELD: &str = "file";
/// The largest file taken (10 MiB): a scanned loss run of several years fits.
pub const MAX_BYTES: usize = 10 * 1024 * 1024;
/// Documents per quote.
pub const MAX_PER_LEAD: usize = 10;
/// The media types taken, for a file input's `accept` (the server judges by the bytes all the same).
pub const ACCEPT: &str = "application/pdf,image/jpeg,image/png";

/// No file part, or one without a file chosen.
pub const NO_FILE: &str = "Please choose a file to send";
/// A file part of no bytes.
pub const EMPTY_FILE: &str = "This file is empty: please choose another";
/// More than one file part in one post.
pub const ONE_FILE: &str = "Please send one file at a time";
/// A file that is neither a PDF, a JPEG nor a PNG by its bytes (415).
pub const UNSUPPORTED_KIND: &str =
    "Please send a PDF, JPEG or PNG file: this file is none of them, whatever its name says";
/// A file over [`MAX_BYTES`] (413).
pub const TOO_LARGE: &str =
    "A document can be at most 10 MB: please send a smaller scan, or split it into parts";
/// The quote has [`MAX_PER_LEAD`] documents already.
pub const TOO_MANY: &str =
    "A quote request takes at most 10 documents here: your specialist will take the rest";
/// A body that is not `multipart/form-data` (415, for programs).
pub const NOT_MULTIPART: &str =
    "Send the document as multipart/form-data, with the details token and one file named file.";
/// A multipart body that cannot be read (400, for programs).
pub const UNREADABLE: &str = "The multipart/form-data body could not be read.";
/// A document posted with a token no quote has (404).
pub const UNKNOWN_TOKEN: &str = "We could not find the quote request this document belongs to. Please call us to send it another way.";
/// A document posted for a quote more than 24 hours old (410).
pub const EXPIRED_TOKEN: &str = "Documents can be added within 24 hours of a quote request. Please call us to send it another way.";
/// Over the per-address limit of uploads (429).
pub const RATE_LIMITED: &str =
    "Too many documents sent from here. Please wait 10 minutes before sending another.";
/// The page's words above the details form after an upload without JavaScript: `{file}` is the file's name, `{size}`
/// its size ("2.4 MB").
pub const RECEIVED: &str =
    "Received: {file} ({size}). You can send another document, up to 10 per quote request.";

/// Every sentence above, for the translation table's test.
pub const MESSAGES: [&str; 12] = [
    NO_FILE,
    EMPTY_FILE,
    ONE_FILE,
    UNSUPPORTED_KIND,
    TOO_LARGE,
    TOO_MANY,
    NOT_MULTIPART,
    UNREADABLE,
    UNKNOWN_TOKEN,
    EXPIRED_TOKEN,
    RATE_LIMITED,
    RECEIVED,
];

/// A size as people read it, in `decimal_comma` languages with a comma: `812 bytes`, `96 KB`, `2.4 MB` (of 1,024).
pub fn size_text(bytes: usize, decimal_comma: bool) -> String {
    const KIB: usize = 1024;
    const MIB: usize = 1024 * 1024;
    if bytes < KIB {
        format!("{bytes} bytes")
    } else if bytes < MIB {
        format!("{} KB", bytes.div_ceil(KIB))
    } else {
        let tenths = (bytes * 10).div_ceil(MIB);
        let separator = if decimal_comma { ',' } else { '.' };
        format!("{}{separator}{} MB", tenths / 10, tenths % 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(size_text(812, false), "812 bytes");
        assert_eq!(size_text(1024, false), "1 KB");
        assert_eq!(size_text(96 * 1024 - 5, false), "96 KB");
        assert_eq!(size_text(MAX_BYTES, false), "10.0 MB");
        assert_eq!(size_text(2_516_582, true), "2,4 MB");
    }
}
