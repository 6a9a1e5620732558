#!/usr/bin/env bash
# Lighthouse mobile (its default: a Moto G Power-sized screen on simulated slow 4G and a 4x slower CPU), 3 runs per
# page, against the release binary on a loopback port. Prints the median of each figure per page. A benchmark to run
# and read, not a test: the figures depend on the machine's load.
#
#   bash bench/lighthouse.sh                    # builds the release binary first
#   BENCH_BINARY=path/to/truckins bash bench/lighthouse.sh   # measures that binary instead
#   RUNS=5 bash bench/lighthouse.sh /about /faq  # other pages, more runs
#
# (Not TRUCKINS_*: the binary reads every such variable as a setting and refuses unknown ones.)
# Lighthouse is installed once into a scratch folder (not into web/package.json: the site never needs it), pinned to
# the last release that runs on Node 20.
set -euo pipefail
cd "$(dirname "$0")/.."

LIGHTHOUSE_VERSION=12.8.2
RUNS="${RUNS:-3}"
CHROME_PATH="${CHROME_PATH:-/usr/bin/chromium}"
export CHROME_PATH
cache_dir="${BENCH_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/truckins-bench}/lighthouse-$LIGHTHOUSE_VERSION"

[ -x "$CHROME_PATH" ] || { echo "Chromium not found at $CHROME_PATH (apt-get install chromium, or set CHROME_PATH)" >&2; exit 1; }
if [ ! -x "$cache_dir/node_modules/.bin/lighthouse" ]; then
  echo "Installing lighthouse@$LIGHTHOUSE_VERSION into $cache_dir"
  npm install --prefix "$cache_dir" --no-audit --no-fund --loglevel=error "lighthouse@$LIGHTHOUSE_VERSION"
fi
lighthouse="$cache_dir/node_modules/.bin/lighthouse"

binary="${BENCH_BINARY:-}"
if [ -z "$binary" ]; then
  cargo build --release --locked --quiet
  binary=target/release/truckins
fi

scratch="$(mktemp -d)"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$binary" serve --address 127.0.0.1 --port "$port" --database "$scratch/leads.db" >"$scratch/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$scratch"' EXIT
base="http://127.0.0.1:$port"
for _ in $(seq 100); do
  curl -fs "$base/healthz" >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || { cat "$scratch/server.log" >&2; exit 1; }
  sleep 0.1
done

if [ "$#" -gt 0 ]; then
  pages=("$@")
else
  # A blog post: the first one the sitemap lists, so the script follows the content.
  post="$(curl -fs "$base/sitemap.xml" | grep -o '<loc>[^<]*/blog/[^<]*</loc>' | head -1 | sed 's|.*/blog/|/blog/|; s|</loc>||')"
  pages=(/ /get-quote /products/dump-truck-insurance "$post")
fi

# Chromium is told it cannot resolve any host but loopback: nothing it does during a run leaves the machine.
chrome_flags="--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
--disable-component-update --disable-sync --host-resolver-rules='MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'"

echo "Lighthouse $LIGHTHOUSE_VERSION, mobile, simulated throttling, median of $RUNS runs; $("$CHROME_PATH" --version 2>/dev/null); load: $(cut -d' ' -f1-3 /proc/loadavg)"
for page in "${pages[@]}"; do
  slug="$(printf '%s' "$page" | tr -c 'a-zA-Z0-9' '_')"
  for run in $(seq "$RUNS"); do
    # A run on a busy machine now and then fails to record its trace (NO_NAVSTART): such a run is tried again.
    for attempt in 1 2 3; do
      "$lighthouse" "$base$page" --quiet --only-categories=performance --output=json \
        --output-path="$scratch/$slug.$run.json" --chrome-flags="$chrome_flags" && break
      [ "$attempt" -lt 3 ] || { echo "Lighthouse failed 3 times on $page" >&2; exit 1; }
    done
  done
done

node - "$scratch" "$RUNS" "${pages[@]}" <<'JS'
const { readFileSync } = require('node:fs');
const [dir, runs, ...pages] = process.argv.slice(2);
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const rows = pages.map((page) => {
  const slug = page.replace(/[^a-zA-Z0-9]/g, '_');
  const reports = Array.from({ length: Number(runs) }, (_, i) => JSON.parse(readFileSync(`${dir}/${slug}.${i + 1}.json`, 'utf8')));
  const audit = (report, id) => report.audits[id]?.numericValue ?? NaN;
  // Transfer sizes as the page loaded them (brotli here), from Lighthouse's resource summary.
  const bytes = (report, type) => report.audits['resource-summary'].details.items.find((i) => i.resourceType === type)?.transferSize ?? 0;
  const m = (pick) => median(reports.map(pick));
  return {
    page,
    score: m((r) => Math.round(r.categories.performance.score * 100)),
    fcp: m((r) => audit(r, 'first-contentful-paint')),
    lcp: m((r) => audit(r, 'largest-contentful-paint')),
    tbt: m((r) => audit(r, 'total-blocking-time')),
    cls: m((r) => audit(r, 'cumulative-layout-shift')),
    js: m((r) => bytes(r, 'script')),
    css: m((r) => bytes(r, 'stylesheet')),
    lcpElement: reports[0].audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? '',
  };
});
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const kib = (b) => `${(b / 1024).toFixed(1)} KiB`;
console.log('\n| page | score | FCP | LCP | TBT | CLS | JS | CSS |\n| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows) {
  console.log(`| ${r.page} | ${r.score} | ${seconds(r.fcp)} | ${seconds(r.lcp)} | ${Math.round(r.tbt)} ms | ${r.cls.toFixed(3)} | ${kib(r.js)} | ${kib(r.css)} |`);
}
console.log('\nLCP element (first run):');
for (const r of rows) console.log(`  ${r.page}: ${r.lcpElement.slice(0, 140)}`);
JS
