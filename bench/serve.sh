#!/usr/bin/env bash
# Serving benchmark: truckins against nginx serving the very same precompressed files, in one run.
#
#   bash bench/serve.sh            # 3 alternating rounds of 10 s per server, 64 connections, 2 wrk threads
#   ROUNDS=1 DURATION=5 bash bench/serve.sh
#   BENCH_BINARY=/tmp/truckins-old bash bench/serve.sh   # another build of the same site, not rebuilt here
#   BENCH_BINARY=... BENCH_SITE=.../out/site bash bench/serve.sh   # ... and the site that build embedded
#   COMPARE_ANALYTICS=1 bash bench/serve.sh   # also a second truckins with page counting off, in the same rounds
#   bash bench/serve.sh https      # over HTTPS: HTTP/2 (h2load) and HTTP/1.1 (wrk), 64 and 256 connections
#
# Every request is sent as a browser sends a page view (a browser's User-Agent, Accept-Language), so truckins counts
# each one (src/analytics/): the figures include the cost of counting.
#
# Prints, per server, requests/s, p50/p99 latency, CPU ms per 1000 requests (utime+stime from /proc, nginx's
# workers summed) and resident memory, then truckins/nginx ratios. See bench/README.md for what is compared and
# why the setup is as it is. Starts only its own processes and stops them (by PID) on any exit.
set -euo pipefail
cd "$(dirname "$0")/.."
# `bash bench/serve.sh https`: the same comparison over HTTPS, HTTP/2 and HTTP/1.1 (bench/serve_https.sh).
if [ "${1:-}" = https ]; then exec bash bench/serve_https.sh; fi

ROUNDS="${ROUNDS:-3}"
DURATION="${DURATION:-10}"
WARMUP="${WARMUP:-3}"
CONNECTIONS="${CONNECTIONS:-64}"
THREADS="${THREADS:-2}"
# Both servers get as many workers as there are cores: Rocket's default, and nginx's `worker_processes auto`.
WORKERS="${WORKERS:-$(nproc)}"
ENCODING="br, gzip"
BROWSER_AGENT="Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36"
LANGUAGE="en-US,en;q=0.9"
PAGES=(/ /get-quote /products/dump-truck-insurance /blog/understanding-dot-insurance-requirements /about)
TARGET_DIR="${CARGO_TARGET_DIR:-target}"
BROTLI_MODULE=/usr/lib/nginx/modules/ngx_http_brotli_static_module.so

source bench/common.sh
need_tools wrk curl python3
binary_and_site

# --- Our processes, and only ours, are stopped on any exit -----------------------------------------------------
WORK="$(mktemp -d "${TMPDIR:-/tmp}/truckins-bench.XXXXXX")"
TRUCKINS_PID=""
UNCOUNTED_PID=""
NGINX_PID=""
cleanup() {
  for pid in $TRUCKINS_PID $UNCOUNTED_PID $NGINX_PID; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in $TRUCKINS_PID $UNCOUNTED_PID $NGINX_PID; do
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- truckins --------------------------------------------------------------------------------------------------
# Its request log (one line per request) goes to a file, as it would go to journald in a deployment: the cost of
# producing every line is measured, a terminal's is not. wrk's connections all come from 127.0.0.1, as a proxy's
# would: named a trusted proxy, it is not held to one address's share of connections (max_connections_per_ip, 64).
# `--config /dev/null`: an empty settings file, so that the built-in settings are measured even on a machine with an
# /etc/truckins/truckins.toml (read by default otherwise).
TRUCKINS_PORT="$(free_port)"
(
  cd "$WORK"
  exec env -u ROCKET_CONFIG -u TRUCKINS_CONFIG ROCKET_WORKERS="$WORKERS" "$BINARY" --config /dev/null serve --address 127.0.0.1 \
    --trusted-proxy 127.0.0.1 --port "$TRUCKINS_PORT" --database "$WORK/leads.db" >"$WORK/truckins.log" 2>"$WORK/truckins.err"
) &
TRUCKINS_PID=$!
wait_until_up "http://127.0.0.1:$TRUCKINS_PORT/healthz" "$TRUCKINS_PID" \
  || die "truckins did not start: $(cat "$WORK/truckins.err")"

# The same binary with page counting off (`analytics = false`), measured in the same rounds.
SERVERS=(truckins nginx)
if [ "${COMPARE_ANALYTICS:-}" = 1 ]; then
  UNCOUNTED_PORT="$(free_port)"
  mkdir -p "$WORK/uncounted"
  (
    cd "$WORK/uncounted"
    exec env -u ROCKET_CONFIG -u TRUCKINS_CONFIG ROCKET_WORKERS="$WORKERS" TRUCKINS_ANALYTICS=false "$BINARY" --config /dev/null serve --address 127.0.0.1 \
      --trusted-proxy 127.0.0.1 --port "$UNCOUNTED_PORT" --database "$WORK/uncounted/leads.db" >"$WORK/uncounted.log" 2>"$WORK/uncounted.err"
  ) &
  UNCOUNTED_PID=$!
  wait_until_up "http://127.0.0.1:$UNCOUNTED_PORT/healthz" "$UNCOUNTED_PID" \
    || die "truckins (counting off) did not start: $(cat "$WORK/uncounted.err")"
  SERVERS+=(uncounted)
fi

# --- nginx on the same files -----------------------------------------------------------------------------------
# The same headers as truckins sends (security headers, Cache-Control), so both put the same bytes on the wire;
# keep-alive connections are never closed by either (nginx's default closes one after 1000 requests, hyper never).
extra_headers=""
while IFS= read -r line; do
  name="${line%%:*}"
  value="$(printf '%s' "${line#*:}" | sed 's/^ *//; s/\r$//')"
  case "${name,,}" in
    content-security-policy | x-content-type-options | x-frame-options | referrer-policy | permissions-policy | \
      cross-origin-opener-policy | cross-origin-resource-policy | strict-transport-security | cache-control)
      extra_headers+="      add_header $name \"${value//\"/\\\"}\";"$'\n'
      ;;
  esac
done < <(curl -fsS -o /dev/null -D - -H "Accept-Encoding: $ENCODING" "http://127.0.0.1:$TRUCKINS_PORT/about")

# nginx logs one line per request like truckins, by default written the way truckins writes its log: in batches of
# at most 64 KiB, at least every 100 ms. NGINX_LOG=each writes every line at once (nginx's default), off none.
case "${NGINX_LOG:-batched}" in
  batched) access_log="access_log $WORK/nginx/access.log combined buffer=64k flush=100ms;" ;;
  each) access_log="access_log $WORK/nginx/access.log combined;" ;;
  off) access_log="access_log off;" ;;
  *) die "NGINX_LOG must be batched, each or off" ;;
esac
NGINX_PORT="$(free_port)"
mkdir -p "$WORK/nginx"
user_line=""
[ "$(id -u)" = 0 ] && user_line="user root;" # workers must read the files wherever the build put them
cat >"$WORK/nginx/nginx.conf" <<CONF
load_module $BROTLI_MODULE;
$user_line
worker_processes $WORKERS;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  charset utf-8;
  charset_types text/css text/plain text/xml application/javascript application/json image/svg+xml;
  $access_log
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000000;
  keepalive_timeout 75s;
  server_tokens off;
  server {
    listen 127.0.0.1:$NGINX_PORT;
    root $SITE;
    etag on;
    gzip_static on;
    brotli_static on;
    gzip_vary on;
    location / {
      # /x serves x/index.html, like truckins.
      try_files \$uri \$uri/index.html =404;
$extra_headers    }
  }
}
CONF
"$NGINX" -p "$WORK/nginx/" -e "$WORK/nginx/error.log" -c "$WORK/nginx/nginx.conf" &
NGINX_PID=$!
wait_until_up "http://127.0.0.1:$NGINX_PORT/" "$NGINX_PID" \
  || die "nginx did not start: $(cat "$WORK/nginx/error.log" 2>/dev/null)"

# --- Both serve the same bytes for every page ------------------------------------------------------------------
for page in "${PAGES[@]}"; do
  for encoding in "$ENCODING" "gzip" "identity"; do
    a="$(curl -fsS -H "Accept-Encoding: $encoding" "http://127.0.0.1:$TRUCKINS_PORT$page" | sha256sum)"
    b="$(curl -fsS -H "Accept-Encoding: $encoding" "http://127.0.0.1:$NGINX_PORT$page" | sha256sum)"
    [ "$a" = "$b" ] || die "$page ($encoding) differs between truckins and $SITE: not the files the binary embeds"
  done
done
say "Both servers answer ${PAGES[*]} with the same bytes (br, gzip, identity), from $SITE"
say ""
say "--- GET /about, Accept-Encoding: $ENCODING"
say "truckins:"; curl -sS -o /dev/null -D - -H "Accept-Encoding: $ENCODING" "http://127.0.0.1:$TRUCKINS_PORT/about" | tr -d '\r' | sed 's/^/  /' >&2
say "nginx:"; curl -sS -o /dev/null -D - -H "Accept-Encoding: $ENCODING" "http://127.0.0.1:$NGINX_PORT/about" | tr -d '\r' | sed 's/^/  /' >&2

# --- The load --------------------------------------------------------------------------------------------------
{
  echo "-- Generated by bench/serve.sh: each wrk thread rotates over the pages, one per request."
  printf 'local paths = {'
  printf '"%s", ' "${PAGES[@]}"
  echo '}'
  cat <<'LUA'
local i = 0
request = function()
  i = i % #paths + 1
  return wrk.format(nil, paths[i])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %d %d %d %d %d\n", summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(99), e.connect + e.read + e.write + e.timeout + e.status))
end
LUA
} >"$WORK/pages.lua"

pids_of() { case "$1" in truckins) echo "$TRUCKINS_PID" ;; uncounted) echo "$UNCOUNTED_PID" ;; *) nginx_pids ;; esac; }
port_of() { case "$1" in truckins) echo "$TRUCKINS_PORT" ;; uncounted) echo "$UNCOUNTED_PORT" ;; *) echo "$NGINX_PORT" ;; esac; }

# SERVER SECONDS -> "requests duration_us p50_us p99_us errors server_ticks other_ticks", where other_ticks is the
# CPU that neither the server nor wrk used meanwhile: the rest of the machine, which should be near nothing.
run_wrk() {
  local before after busy_before busy_after result wrk_ticks
  before="$(cpu_ticks $(pids_of "$1"))"
  busy_before="$(busy_ticks)"
  result="$(wrk -t "$THREADS" -c "$CONNECTIONS" -d "${2}s" -H "Accept-Encoding: $ENCODING" \
    -H "User-Agent: $BROWSER_AGENT" -H "Accept-Language: $LANGUAGE" -s "$WORK/pages.lua" \
    "http://127.0.0.1:$(port_of "$1")" | awk '/^RESULT/ { print $2, $3, $4, $5, $6 }')"
  busy_after="$(busy_ticks)"
  after="$(cpu_ticks $(pids_of "$1"))"
  [ -n "$result" ] || die "wrk gave no result for $1"
  # `times` gives the CPU of this subshell's finished children (wrk above, and the small tools), in seconds; run
  # here, not in a pipe's subshell, which has no children yet.
  times >"$WORK/times"
  wrk_ticks="$(awk -v hz="$(getconf CLK_TCK)" 'NR == 2 { gsub(/[ms]/, " "); print int(($1 * 60 + $2 + $3 * 60 + $4) * hz) }' "$WORK/times")"
  echo "$result $((after - before)) $((busy_after - busy_before - (after - before) - wrk_ticks))"
}

TICK_MS="$(awk -v hz="$(getconf CLK_TCK)" 'BEGIN { print 1000 / hz }')"
say ""
say "Load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $ROUNDS rounds of ${DURATION}s per server" \
  "(+${WARMUP}s warm-up), $CONNECTIONS connections, $THREADS wrk threads, $WORKERS server workers," \
  "nginx log ${NGINX_LOG:-batched}"
# Every request wrk counted at truckins, warm-up included: its log must hold at least as many lines.
counted=0
for server in "${SERVERS[@]}"; do
  # A plain assignment, so a failed run stops the script (set -e) instead of feeding empty figures on.
  out="$(run_wrk "$server" "$WARMUP")"
  read -r n _ <<<"$out"
  if [ "$server" = truckins ]; then counted=$((counted + n)); fi
done

declare -A requests micros ticks errors p50s p99s
for server in "${SERVERS[@]}"; do
  requests[$server]=0 micros[$server]=0 ticks[$server]=0 errors[$server]=0 p50s[$server]="" p99s[$server]=""
done
for round in $(seq "$ROUNDS"); do
  # Alternate who goes first, so neither always runs on a machine the other has just warmed (or heated).
  order=("${SERVERS[@]}")
  [ $((round % 2)) = 0 ] && order=($(printf '%s\n' "${SERVERS[@]}" | tac))
  for server in "${order[@]}"; do
    out="$(run_wrk "$server" "$DURATION")"
    read -r n us p50 p99 errs cpu others <<<"$out"
    requests[$server]=$((requests[$server] + n))
    if [ "$server" = truckins ]; then counted=$((counted + n)); fi
    micros[$server]=$((micros[$server] + us))
    ticks[$server]=$((ticks[$server] + cpu))
    errors[$server]=$((errors[$server] + errs))
    p50s[$server]+="$p50 "
    p99s[$server]+="$p99 "
    awk -v r="$round" -v s="$server" -v n="$n" -v us="$us" -v p50="$p50" -v p99="$p99" -v cpu="$cpu" -v t="$TICK_MS" \
      -v o="$others" -v cores="$(nproc)" \
      'BEGIN { printf "round %d  %-8s  %9.0f req/s  p50 %5.2f ms  p99 %5.2f ms  %6.1f CPU ms/1000 req" \
        "  (other processes: %.0f%% of the machine)\n", r, s, n / (us / 1e6), p50 / 1000, p99 / 1000,
        cpu * t / n * 1000, (o > 0 ? o : 0) * t / (us / 1e3) / cores * 100 }' >&2
  done
done
say "Load after: $(cut -d' ' -f1-3 /proc/loadavg)"

median_ms() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] / 1000 }'; }
rss_mib() { # PIDS...: resident memory summed, MiB (nginx's workers share pages, so its sum overstates a little)
  local kib=0 pid v
  for pid in "$@"; do
    v="$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)"
    kib=$((kib + ${v:-0}))
  done
  awk -v k="$kib" 'BEGIN { printf "%.1f", k / 1024 }'
}
declare -A rss
for server in "${SERVERS[@]}"; do rss[$server]="$(rss_mib $(pids_of "$server"))"; done

# Stopped gracefully (SIGTERM), truckins writes out everything it logged; one line per request it answered.
kill -TERM "$TRUCKINS_PID"
wait "$TRUCKINS_PID" || true
TRUCKINS_PID=""
logged="$(grep -c ' GET /' "$WORK/truckins.log" || true)"
# Every request was a browser's page view: the report counts them (the warm-up and the checks above included).
# (today's views: the report's default range ends yesterday)
today="$(date -u +%F)"
pageviews="$("$BINARY" report --database "$WORK/leads.db" --since "$today" --until "$today" --format json \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["totals"]["pageviews"])')"

echo ""
printf '%-16s %12s %9s %9s %18s %9s %7s\n' "" "requests/s" "p50 ms" "p99 ms" "CPU ms/1000 req" "RSS MiB" "errors"
for server in "${SERVERS[@]}"; do
  awk -v s="$server" -v n="${requests[$server]}" -v us="${micros[$server]}" -v cpu="${ticks[$server]}" -v t="$TICK_MS" \
    -v p50="$(median_ms <<<"${p50s[$server]}")" -v p99="$(median_ms <<<"${p99s[$server]}")" \
    -v rss="${rss[$server]}" -v e="${errors[$server]}" \
    'BEGIN { printf "%-16s %12.0f %9s %9s %18.1f %9s %7d\n", s, n / (us / 1e6), p50, p99, cpu * t / n * 1000, rss, e }'
done
awk -v nt="${requests[truckins]}" -v ut="${micros[truckins]}" -v ct="${ticks[truckins]}" \
  -v nn="${requests[nginx]}" -v un="${micros[nginx]}" -v cn="${ticks[nginx]}" \
  'BEGIN { printf "truckins/nginx   %.2fx requests/s, %.2fx CPU per request\n", (nt / ut) / (nn / un), (ct / nt) / (cn / nn) }'
if [ -n "$UNCOUNTED_PID" ]; then
  awk -v nt="${requests[truckins]}" -v ut="${micros[truckins]}" -v ct="${ticks[truckins]}" \
    -v nu="${requests[uncounted]}" -v uu="${micros[uncounted]}" -v cu="${ticks[uncounted]}" \
    'BEGIN { printf "counting on/off  %.3fx requests/s, %.3fx CPU per request\n", (nt / ut) / (nu / uu), (ct / nt) / (cu / nu) }'
fi
echo "(p50/p99: the median of the rounds; requests/s and CPU: over all rounds)"
echo "truckins' visit counts: $pageviews page views counted for the $counted requests wrk saw answered (warm-up included)"
echo "truckins' request log: $logged GET lines for the $counted requests wrk saw answered (warm-up included) and the checks"
for server in "${SERVERS[@]}"; do
  [ "${errors[$server]}" = 0 ] || die "some requests failed (errors column)"
done
[ "$logged" -ge "$counted" ] || die "the request log lost lines: $logged for $counted requests"
