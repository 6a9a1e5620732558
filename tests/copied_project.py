"""A project folder copied with its target/ builds its own content (issue 35).

The owner's natural way to keep a build cache is to copy the project folder, target/ and all. This copies the
project (its files as git knows them, target/release and the web app's packages, with their times kept, as `cp -a`
does), changes the agency's facts in the copy (brand, legal name, phone), builds it with the README's command and
serves the copy's binary: every page of the sitemap, in English and Spanish, must show the new name and phone and
none may name the sample agency; the quote form's consent text must name the new legal name.

Usage: python3 tests/copied_project.py PROJECT_DIR
"""

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

SAMPLE_NAMES = ["Milepost Truck Insurance", "Milepost Insurance Agency", "(555) 010-0142"]
BRAND = "Lone Star Freight"
LEGAL_NAME = "Lone Star Freight Insurance Agency LLC"
PHONE = "(817) 555-2368"


def copy_project(project: str, copy: str) -> None:
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=project, check=True, capture_output=True,
    ).stdout.decode().split("\0")
    for name in filter(None, files):
        source = os.path.join(project, name)
        if not os.path.isfile(source):
            continue  # deleted in the working tree
        target = os.path.join(copy, name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(source, target)
    # The build cache and the web app's packages, times kept: what `cp -a` of the whole folder would bring.
    for folder in ["target/release", "web/node_modules"]:
        shutil.copytree(os.path.join(project, folder), os.path.join(copy, folder), symlinks=True,
                        copy_function=shutil.copy2)


def edit_facts(copy: str) -> None:
    path = os.path.join(copy, "content/facts.toml")
    text = open(path, encoding="utf-8").read()
    replaced = {
        r'^brand = ".*"$': f'brand = "{BRAND}"',
        r'^legal_name = ".*"$': f'legal_name = "{LEGAL_NAME}"',
        r'^phone = ".*"$': f'phone = "{PHONE}"',
        r'^phone_e164 = ".*"$': 'phone_e164 = "+18175552368"',
    }
    for pattern, line in replaced.items():
        text, count = re.subn(pattern, line, text, count=1, flags=re.M)
        assert count == 1, pattern
    open(path, "w", encoding="utf-8").write(text)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200, url
        return response.read().decode("utf-8")


def check_pages(base: str) -> int:
    sitemap = get(base + "/sitemap.xml")
    paths = [re.sub(r"^https?://[^/]+", "", url) for url in re.findall(r"<loc>([^<]+)</loc>", sitemap)]
    assert any(p.startswith("/es") for p in paths) and len(paths) > 40, paths
    for path in paths:
        html = get(base + path)
        for gone in SAMPLE_NAMES:
            assert gone not in html, f"{path} still shows {gone!r}"
        assert BRAND in html, f"{path} does not name {BRAND!r}"
        assert PHONE in html, f"{path} does not show {PHONE!r}"
    for quote in ["/get-quote", "/es/get-quote"]:
        html = get(base + quote)
        consent = "I give " if quote == "/get-quote" else "doy a "
        assert consent + LEGAL_NAME in html, f"{quote}: the consent text does not name {LEGAL_NAME!r}"
    return len(paths)


def main() -> None:
    project = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="truckins-copied-") as scratch:
        copy = os.path.join(scratch, "lone-star-site")
        started = time.monotonic()
        copy_project(project, copy)
        edit_facts(copy)
        copied = time.monotonic()
        # The README's command builds it (`cargo run --release` is this build, then the binary).
        subprocess.run(["cargo", "build", "--release", "--locked", "--quiet"], cwd=copy, check=True)
        built = time.monotonic()
        port = free_port()
        database = os.path.join(scratch, "leads.db")
        # The built-in settings only: no settings file of this machine's, no TRUCKINS_ or ROCKET_ variable of the
        # caller's shell.
        environment = {k: v for k, v in os.environ.items() if not k.startswith(("TRUCKINS_", "ROCKET_"))}
        server = subprocess.Popen(
            [os.path.join(copy, "target/release/truckins"), "--config", "/dev/null", "serve", "--port", str(port),
             "--database", database],
            cwd=scratch, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(200):
                try:
                    get(base + "/healthz")
                    break
                except OSError:
                    if server.poll() is not None:
                        raise SystemExit("the copy's server stopped: " + server.stderr.read().decode())
                    time.sleep(0.05)
            pages = check_pages(base)
        finally:
            server.terminate()
            server.wait()
        print(
            f"a copy of the project with its target/ ({copied - started:.0f} s to copy) rebuilt in "
            f"{built - copied:.0f} s with its own facts: {pages} pages in both languages name {BRAND} and "
            f"{PHONE}, none the sample agency; the consent names {LEGAL_NAME}"
        )


if __name__ == "__main__":
    main()
