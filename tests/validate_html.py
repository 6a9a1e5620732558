#!/usr/bin/env python3
"""Checks every page a visitor can get with the Nu Html Checker (vnu), failing on any error.

Checked: every HTML file the build prerendered (pages, error pages, thank-you pages, the no-JavaScript form
templates) and, from the running binary, the pages it answers plain form posts with (the form again with the errors
beside the fields, or with a sentence when the post cannot be read; the quote's thank-you page with its details
form filled with the quote's token; the status links' pages, signed with the server's key), since those are filled
in at run time.

usage: validate_html.py SITE_DIR BASE_URL VNU_JAR LINK_KEY_FILE
"""

import hashlib
import hmac
import pathlib
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request


def fetch(url: str, form: dict | None = None, raw: bytes | None = None) -> tuple[int, str]:
    """The status and body of a GET, or of a plain form POST as a browser without JavaScript sends it."""
    data = raw if raw is not None else (urllib.parse.urlencode(form).encode() if form is not None else None)
    request = urllib.request.Request(url, data=data, headers={"Accept": "text/html"})
    if data is not None:
        request.add_header("Content-Type", "application/x-www-form-urlencoded")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def status_link(database: pathlib.Path, lead: int, status: str, until: int) -> str:
    """The path of a status link of the agency's e-mail (src/status/links.rs), signed with the server's key, which it
    keeps in the leads database (src/status/key.rs)."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        (hex_key,) = connection.execute(
            "SELECT value FROM installation_keys WHERE name = 'status_links'"
        ).fetchone()
    key = bytes.fromhex(hex_key)
    message = f"lead-status\n{lead}\n{status}\n{until}".encode()
    signature = hmac.new(key, message, hashlib.sha256).hexdigest()[:32]
    return f"/lead-status/{lead}/{status}?until={until}&sig={signature}"


def status_pages(base: str, database: pathlib.Path) -> dict[str, tuple[int, str]]:
    """The status links' pages (issue 26) for the first lead answer_pages stored: the page a link opens, the one
    after its button, the one of a link used again, of an expired link and of a made-up one."""
    good = status_link(database, 1, "contacted", int(time.time()) + 86_400)
    return {
        "answers/status-confirm.html": fetch(f"{base}{good}"),
        "answers/status-changed.html": fetch(f"{base}{good}", raw=b""),
        "answers/status-used.html": fetch(f"{base}{good}", raw=b""),
        "answers/status-expired.html": fetch(f"{base}{status_link(database, 1, 'won', 1_000_000_000)}"),
        "answers/status-invalid.html": fetch(f"{base}/lead-status/1/won?until=1&sig={'0' * 32}"),
    }


def answer_pages(base: str) -> dict[str, tuple[int, str]]:
    """The pages the server builds per request, by a file name for the report."""
    quote_errors = {"name": "A", "email": "not-an-address", "phone": "12", "insurance_type": "", "vehicle_count": "0",
                    "dot_number": "12x", "company": "<script>alert(1)</script> & \"Sons\""}
    contact_errors = {"name": "B", "email": "b@", "subject": "Hi", "message": "short"}
    coi_errors = {"name": "C", "email": "c@", "insured_name": "<b>", "certificate_holder": "", "holder_address": "x",
                  "additional_insured": "on", "needed_by": "2001-01-01", "notes": "& \"more\""}
    # The clients' forms (issue 28): a claim dated in the future with a choice of each kind kept, and a change of a
    # kind with a VIN whose check digit is wrong, dated in the past.
    claim_errors = {"name": "D", "phone": "12", "email": "d@", "loss_date": "2999-01-01", "loss_time": "10:00",
                    "loss_city": "<i>W</i>", "loss_state": "Texas", "what_happened": "short & \"odd\"",
                    "insurer": "not_sure", "injuries": "yes", "towed": "maybe", "police_report_number": "<b>1</b>"}
    change_errors = {"name": "E", "insured_name": "<b>", "phone": "", "email": "e@", "change_kind": "add_vehicle",
                     "effective_date": "2001-01-01", "vehicle_year": "twenty", "vehicle_make": "Mack",
                     "vehicle_model": "<Anthem>", "vin": "1M8GDM9A1KP042788", "stated_value": "lots",
                     "garaging_zip": "7610", "license_class": "A", "driver_name": "Lu"}
    good_claim = {"name": "Ray Dominguez", "phone": "(555) 210-0177", "loss_date": "2020-01-01", "loss_time": "06:45",
                  "loss_city": "Waco", "loss_state": "TX", "what_happened": "Rear-ended at a stop on I-35 southbound.",
                  "insurer": "not_sure", "injuries": "no"}
    # The opt-out form (issue 25): both left empty, or a number that is none.
    optout_empty = {"phone": "", "email": "", "note": "<b>stop</b> & \"now\""}
    optout_bad_phone = {"phone": "555-01<00>", "email": "e@example.com", "note": ""}
    # A stored quote's thank-you page, whose details form the server fills with the quote's token (after the 303).
    good_quote = {"name": "Dana Ruiz", "email": "dana@example.com", "insurance_type": "cargo", "vehicle_count": "2",
                  "consent": "true"}
    offer = fetch(f"{base}/api/leads/quote", good_quote)
    token = re.search(r'name="details_token" value="([0-9a-f]{32})"', offer[1])
    details_errors = {"details_token": token.group(1) if token else "", "radius": "local", "drivers": "many",
                      "commodities": "other", "policy_expiration": "soon", "operating_states": "TX, <ZZ>"}
    return {
        "answers/coi-with-errors.html": fetch(f"{base}/api/leads/coi", coi_errors),
        "answers/quote-details-offer.html": offer,
        "answers/details-with-errors.html": fetch(f"{base}/api/leads/details", details_errors),
        "answers/details-unknown-token.html": fetch(f"{base}/api/leads/details", {"details_token": "f" * 32}),
        "answers/quote-with-errors.html": fetch(f"{base}/api/leads/quote", quote_errors),
        "answers/quote-typed-letters.html": fetch(f"{base}/api/leads/quote", {**quote_errors, "vehicle_count": "two"}),
        "answers/contact-with-errors.html": fetch(f"{base}/api/leads/contact", contact_errors),
        "answers/claim-with-errors.html": fetch(f"{base}/api/leads/claim", claim_errors),
        "answers/change-with-errors.html": fetch(f"{base}/api/leads/change", change_errors),
        # A stored claim's thank-you page, its reference filled in (after the 303).
        "answers/claim-thank-you.html": fetch(f"{base}/api/leads/claim", good_claim),
        "answers/optout-empty.html": fetch(f"{base}/api/opt-out", optout_empty),
        "answers/optout-bad-phone.html": fetch(f"{base}/api/opt-out", optout_bad_phone),
        "answers/quote-unreadable.html": fetch(f"{base}/api/leads/quote", raw=b"name=%ZZ&\xff\xfe"),
        "answers/not-found.html": fetch(f"{base}/no-such-page"),
        "answers/blog-not-found.html": fetch(f"{base}/blog/no-such-post"),
        # The same answers to the Spanish pages' forms (issue 15): the form says its language.
        "answers/es/quote-with-errors.html": fetch(f"{base}/api/leads/quote", {**quote_errors, "locale": "es"}),
        "answers/es/contact-with-errors.html": fetch(f"{base}/api/leads/contact", {**contact_errors, "locale": "es"}),
        "answers/es/coi-with-errors.html": fetch(f"{base}/api/leads/coi", {**coi_errors, "locale": "es"}),
        "answers/es/claim-with-errors.html": fetch(f"{base}/api/leads/claim", {**claim_errors, "locale": "es"}),
        "answers/es/change-with-errors.html": fetch(f"{base}/api/leads/change", {**change_errors, "locale": "es"}),
        "answers/es/optout-empty.html": fetch(f"{base}/api/opt-out", {**optout_empty, "locale": "es"}),
        "answers/es/quote-details-offer.html": fetch(f"{base}/api/leads/quote", {**good_quote, "locale": "es",
                                                                                 "email": "rosa@example.com"}),
        "answers/es/not-found.html": fetch(f"{base}/es/no-such-page"),
        "answers/es/blog-not-found.html": fetch(f"{base}/es/blog/no-such-post"),
    }


# What each answer must be, so the check cannot drift onto some other page: its status and words only it has.
EXPECTED_ANSWERS = {
    "answers/quote-with-errors.html": (422, "Please correct the fields marked below."),
    "answers/quote-typed-letters.html": (422, "Please correct the fields marked below."),
    "answers/contact-with-errors.html": (422, "Please correct the fields marked below."),
    "answers/quote-unreadable.html": (400, "Your browser sent something we could not read."),
    "answers/coi-with-errors.html": (422, "Please correct the fields marked below."),
    "answers/claim-with-errors.html": (422, "The date of the loss cannot be in the future"),
    "answers/claim-thank-you.html": (200, "CLM-"),
    "answers/change-with-errors.html": (422, "check digit (the 9th character) does not match"),
    "answers/es/claim-with-errors.html": (422, "La fecha del siniestro no puede ser una fecha futura"),
    "answers/es/change-with-errors.html": (422, "La fecha de vigencia no puede ser una fecha pasada"),
    "answers/optout-empty.html": (422, "Please enter the phone number or the email address to stop contacting"),
    "answers/optout-bad-phone.html": (422, "Please enter a valid US phone number"),
    "answers/quote-details-offer.html": (200, "Speed up your quote"),
    "answers/details-with-errors.html": (422, "Please correct the fields marked below."),
    "answers/details-unknown-token.html": (404, "We could not find the quote request"),
    "answers/not-found.html": (404, "Page Not Found"),
    "answers/blog-not-found.html": (404, "Blog Post Not Found"),
    "answers/es/quote-with-errors.html": (422, "Corrija los campos marcados abajo."),
    "answers/es/contact-with-errors.html": (422, "Corrija los campos marcados abajo."),
    "answers/es/coi-with-errors.html": (422, "Corrija los campos marcados abajo."),
    "answers/es/optout-empty.html": (422, "Escriba el número de teléfono o el correo electrónico"),
    "answers/es/quote-details-offer.html": (200, '<html lang="es">'),
    "answers/es/not-found.html": (404, "Página no encontrada"),
    "answers/es/blog-not-found.html": (404, "Artículo no encontrado"),
    "answers/status-confirm.html": (200, "Mark as Contacted?"),
    "answers/status-changed.html": (200, "moved from New to Contacted"),
    "answers/status-used.html": (200, "This link was already used"),
    "answers/status-expired.html": (410, "This link has expired"),
    "answers/status-invalid.html": (404, "This link is not valid"),
}


# The checker also reads each page's inlined stylesheet, with a CSS grammar older than three things Tailwind CSS 4
# writes and browsers support: `@property` rules, custom properties in `transition-property`, and `margin-trim`;
# and than `field-sizing` (CSS Basic User Interface 4, in Chromium since 123), which lets a select's text wrap.
# Exactly those messages are set aside; any other CSS message, and every HTML message, is an error.
NEWER_THAN_THE_CHECKER = "|".join([
    r"CSS: Unrecognized at-rule “@property”.*",
    r"CSS: “transition-property”: “--tw-[a-z-]+” is not a “transition-property” value.*",
    r"CSS: “margin-trim”: Property “margin-trim” doesn't exist.*",
    r"CSS: “field-sizing”: Property “field-sizing” doesn't exist.*",
])


def main() -> int:
    site_dir, base, vnu = pathlib.Path(sys.argv[1]), sys.argv[2].rstrip("/"), sys.argv[3]
    # The server's database, which holds its key for the status links (src/status/key.rs).
    database = pathlib.Path(sys.argv[4])
    with tempfile.TemporaryDirectory() as scratch:
        root = pathlib.Path(scratch)
        # The form templates (_forms/) hold markers in place of values; the server's filled-in answers are checked.
        prerendered = sorted(p for p in site_dir.rglob("*.html") if "_forms" not in p.relative_to(site_dir).parts)
        if len(prerendered) < 40:
            print(f"expected the whole site in {site_dir}, found {len(prerendered)} HTML files", file=sys.stderr)
            return 1
        for file in prerendered:
            target = root / "site" / file.relative_to(site_dir)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(file, target)
        answers = answer_pages(base)
        answers.update(status_pages(base, database))
        for name, (status, body) in answers.items():
            expected_status, words = EXPECTED_ANSWERS[name]
            if status != expected_status or words not in body or "<!doctype html>" not in body.lower():
                print(f"{name}: expected a {expected_status} page saying {words!r}, got {status}: {body[:200]!r}",
                      file=sys.stderr)
                return 1
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(body)
        files = sorted(str(p) for p in root.rglob("*.html"))
        result = subprocess.run(["java", "-jar", vnu, "--errors-only", "--format", "gnu",
                                 "--filterpattern", NEWER_THAN_THE_CHECKER, *files],
                                capture_output=True, text=True)
        report = (result.stdout + result.stderr).replace(scratch + "/", "")
        if result.returncode != 0 or report.strip():
            print(report, file=sys.stderr)
            errors = sum(1 for line in report.splitlines() if ": error:" in line)
            print(f"Nu Html Checker: {errors} error(s) in {len(files)} pages", file=sys.stderr)
            return 1
        print(f"Nu Html Checker: 0 errors in {len(files)} pages ({len(prerendered)} prerendered, "
              f"{len(files) - len(prerendered)} answered by the server)")
        return 0


if __name__ == "__main__":
    sys.exit(main())
