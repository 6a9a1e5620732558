#!/usr/bin/env bash
# Serving benchmark over HTTPS (issue 38): truckins' built-in HTTPS against nginx with TLS, the same certificate and
# key, the same TLS 1.3 cipher suites and key-exchange groups, HTTP/2 and HTTP/1.1 on one port each (ALPN), serving
# the very same precompressed files. Run through `bash bench/serve.sh https` (see bench/README.md).
#
#   bash bench/serve.sh https                              # 3 alternating runs of 10 s, at 64 and 256 connections
#   RUNS=1 DURATION=5 bash bench/serve.sh https            # a quick look
#   BENCH_BINARY=/tmp/truckins-old bash bench/serve.sh https
#
# HTTP/1.1 by wrk, HTTP/2 by h2load (one stream at a time per connection, as a browser loading one page), over five
# pages with a browser's headers; then the handshakes: 256 new connections at once, each a TLS handshake and one
# request. Prints a table of medians and ours/nginx. Starts only its own processes and stops them (by PID) on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS="${RUNS:-3}"
DURATION="${DURATION:-10}"
WARMUP="${WARMUP:-2}"
LOADS="${LOADS:-64 256}"
HANDSHAKE_ROUNDS="${HANDSHAKE_ROUNDS:-10}"
WORKERS="${WORKERS:-$(nproc)}"
NAME=bench.example
ENCODING="br, gzip"
AGENT="Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36"
LANGUAGE="en-US,en;q=0.9"
PAGES=(/ /get-quote /products/dump-truck-insurance /blog/understanding-dot-insurance-requirements /about)
TARGET_DIR="${CARGO_TARGET_DIR:-target}"
BROTLI_MODULE=/usr/lib/nginx/modules/ngx_http_brotli_static_module.so
# What rustls offers with ring (TLS 1.3), in its order, and its key-exchange groups: nginx is held to the same.
SUITES=TLS_AES_256_GCM_SHA384:TLS_AES_128_GCM_SHA256:TLS_CHACHA20_POLY1305_SHA256
KX_GROUPS=X25519:prime256v1:secp384r1

source bench/common.sh
need_tools wrk curl openssl python3 nghttp2-client=h2load
binary_and_site

# --- Our processes, and only ours, are stopped on any exit -----------------------------------------------------
WORK="$(mktemp -d "${TMPDIR:-/tmp}/truckins-bench-https.XXXXXX")"
TRUCKINS_PID="" NGINX_PID=""
cleanup() {
  for pid in $TRUCKINS_PID $NGINX_PID; do kill "$pid" 2>/dev/null || true; done
  for pid in $TRUCKINS_PID $NGINX_PID; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- One certificate and key for both: self-signed, ECDSA P-256 (what Let's Encrypt issues by default to rustls-
# era clients such as ours) -------------------------------------------------------------------------------------
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 -subj "/CN=$NAME" \
  -addext "subjectAltName=DNS:$NAME,IP:127.0.0.1" -addext "basicConstraints=critical,CA:FALSE" \
  -keyout "$WORK/key.pem" -out "$WORK/cert.pem" 2>/dev/null

# --- truckins: built-in HTTPS with that certificate in its database (where an ACME order would have put it) -----
HTTPS_PORT="$(free_port)" HTTP_PORT="$(free_port)"
# A directory nothing answers at: with a stored certificate far from renewal, no order is ever attempted.
DIRECTORY="https://127.0.0.1:9/directory"
truckins() { # runs `serve` in the background as deployed, log to a file (as to journald)
  (
    cd "$WORK"
    exec env -u ROCKET_CONFIG -u TRUCKINS_CONFIG ROCKET_WORKERS="$WORKERS" TRUCKINS_TLS_DOMAINS="$NAME" \
      TRUCKINS_HTTPS_PORT="$HTTPS_PORT" TRUCKINS_HTTP_PORT="$HTTP_PORT" TRUCKINS_ACME_DIRECTORY="$DIRECTORY" \
      TRUCKINS_MAX_CONNECTIONS_PER_IP=4096 "$BINARY" --config /dev/null serve --address 127.0.0.1 \
      --database "$WORK/leads.db" >>"$WORK/truckins.log" 2>>"$WORK/truckins.err"
  ) &
  TRUCKINS_PID=$!
}
truckins # once, to make the database (the plain port answers once it is migrated)
wait_until_up "http://127.0.0.1:$HTTP_PORT/" "$TRUCKINS_PID" || die "truckins did not start: $(cat "$WORK/truckins.err")"
kill -TERM "$TRUCKINS_PID"; wait "$TRUCKINS_PID" || true
: >"$WORK/truckins.err" # (it said it could not order a certificate: as expected, nothing answers there)
python3 - "$WORK" "$DIRECTORY" "$NAME" <<'PY'
import sqlite3, ssl, sys, time, datetime
work, directory, name = sys.argv[1:]
chain, key = open(f"{work}/cert.pem").read(), open(f"{work}/key.pem").read()
now = int(time.time())
db = sqlite3.connect(f"{work}/leads.db")
db.execute("INSERT OR REPLACE INTO tls_certificates VALUES (?, ?, ?, ?, ?, ?, ?)",
           (directory, name, chain, key, now - 3600, now + 30 * 86400 - 3600,
            datetime.datetime.now(datetime.timezone.utc).isoformat()))
db.commit()
PY
truckins
wait_until_up "https://127.0.0.1:$HTTPS_PORT/healthz" "$TRUCKINS_PID" || die "truckins did not serve HTTPS: $(cat "$WORK/truckins.err")"

# --- nginx on the same files, with the same certificate, suites, groups and headers ----------------------------
extra_headers=""
while IFS= read -r line; do
  name="${line%%:*}"
  value="$(printf '%s' "${line#*:}" | sed 's/^ *//; s/\r$//')"
  case "${name,,}" in
    content-security-policy | x-content-type-options | x-frame-options | referrer-policy | permissions-policy | \
      cross-origin-opener-policy | cross-origin-resource-policy | strict-transport-security | cache-control)
      extra_headers+="      add_header $name \"${value//\"/\\\"}\" always;"$'\n' ;;
  esac
done < <(curl -ksS -o /dev/null -D - -H "Accept-Encoding: $ENCODING" "https://127.0.0.1:$HTTPS_PORT/about")
NGINX_PORT="$(free_port)"
mkdir -p "$WORK/nginx"
user_line=""
[ "$(id -u)" = 0 ] && user_line="user root;"
cat >"$WORK/nginx/nginx.conf" <<CONF
load_module $BROTLI_MODULE;
$user_line
worker_processes $WORKERS;
worker_rlimit_nofile 16384;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 8192; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  charset utf-8;
  charset_types text/css text/plain text/xml application/javascript application/json image/svg+xml;
  access_log $WORK/nginx/access.log combined buffer=64k flush=100ms;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000000;
  keepalive_timeout 75s;
  server_tokens off;
  server {
    listen 127.0.0.1:$NGINX_PORT ssl http2;
    ssl_certificate $WORK/cert.pem;
    ssl_certificate_key $WORK/key.pem;
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_conf_command Ciphersuites $SUITES;
    ssl_ecdh_curve $KX_GROUPS;
    ssl_prefer_server_ciphers off;
    root $SITE;
    etag on;
    gzip_static on;
    brotli_static on;
    gzip_vary on;
    location / {
      try_files \$uri \$uri/index.html =404;
$extra_headers    }
  }
}
CONF
"$NGINX" -p "$WORK/nginx/" -e "$WORK/nginx/error.log" -c "$WORK/nginx/nginx.conf" &
NGINX_PID=$!
wait_until_up "https://127.0.0.1:$NGINX_PORT/" "$NGINX_PID" || die "nginx did not start: $(cat "$WORK/nginx/error.log" 2>/dev/null)"
pids_of() { [ "$1" = truckins ] && echo "$TRUCKINS_PID" || nginx_pids; }
port_of() { [ "$1" = truckins ] && echo "$HTTPS_PORT" || echo "$NGINX_PORT"; }

# --- Both serve the same bytes, and agree on the same TLS ------------------------------------------------------
for page in "${PAGES[@]}"; do
  for encoding in "$ENCODING" gzip identity; do
    for http in --http2 --http1.1; do
      a="$(curl -ksfS $http -H "Accept-Encoding: $encoding" "https://127.0.0.1:$HTTPS_PORT$page" | sha256sum)"
      b="$(curl -ksfS $http -H "Accept-Encoding: $encoding" "https://127.0.0.1:$NGINX_PORT$page" | sha256sum)"
      [ "$a" = "$b" ] || die "$page ($encoding, $http) differs between truckins and nginx"
    done
  done
done
say "Both servers answer ${PAGES[*]} with the same bytes (br, gzip, identity; HTTP/2 and HTTP/1.1), from $SITE"
for server in truckins nginx; do
  agreed="$(openssl s_client -connect "127.0.0.1:$(port_of $server)" -servername "$NAME" -alpn h2,http/1.1 </dev/null 2>/dev/null \
    | awk '/^New, / { print $2, $NF } /^Server Temp Key/ { sub(/.*: /, ""); print } /^ALPN/ { print }' | tr '\n' ' ')"
  say "$server: $agreed"
done

# --- The load --------------------------------------------------------------------------------------------------
{
  printf 'local paths = {'; printf '"%s", ' "${PAGES[@]}"; echo '}'
  cat <<'LUA'
local i = 0
request = function() i = i % #paths + 1; return wrk.format(nil, paths[i]) end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %d %d %d %d\n", summary.requests, summary.duration, latency:percentile(99),
    e.connect + e.read + e.write + e.timeout + e.status))
end
LUA
} >"$WORK/pages.lua"
urls() { local page; for page in "${PAGES[@]}"; do printf 'https://127.0.0.1:%s%s ' "$(port_of "$1")" "$page"; done; }
# h2load's times come with their unit (us, ms, s): in ms.
MS='function ms(t) { if (t ~ /us$/) return t / 1000; if (t ~ /ms$/) return t + 0; return t * 1000 } '
HEADERS=(-H "Accept-Encoding: $ENCODING" -H "User-Agent: $AGENT" -H "Accept-Language: $LANGUAGE")

# SERVER PROTOCOL CONNECTIONS SECONDS -> "req/s p99_ms cpu_ms_per_1000 connect_ms errors"
run_load() {
  local before after busy_before busy_after client out
  before="$(cpu_ticks $(pids_of "$1"))"
  busy_before="$(busy_ticks)"
  if [ "$2" = h1 ]; then
    out="$(wrk -t 2 -c "$3" -d "${4}s" "${HEADERS[@]}" -s "$WORK/pages.lua" "https://127.0.0.1:$(port_of "$1")" \
      | awk '/^RESULT/ { printf "%d %.3f %.3f - %d\n", $2, $2 / ($3 / 1e6), $4 / 1000, $5 }')"
  else
    rm -f "$WORK/h2.log"
    # -m 1: one request at a time per connection; --log-file: each request's time, for the p99.
    out="$(h2load -t 2 -c "$3" -m 1 -D "$4" "${HEADERS[@]}" --log-file="$WORK/h2.log" $(urls "$1") 2>&1 \
      | awk "$MS"'/^finished in/ { rps = $4 } /^requests:/ { bad = $10 + $12 + $14 } /^time for connect:/ { c = ms($6) }
             END { print rps, c, bad }')"
    read -r rps connect bad <<<"$out"
    out="$(awk -v rps="$rps" -v c="$connect" -v bad="$bad" '{ print $3 }' "$WORK/h2.log" | sort -n \
      | awk -v rps="$rps" -v c="$connect" -v bad="$bad" '{ v[NR] = $1 } END {
          printf "%d %.3f %.3f %s %d\n", NR, rps, v[int(NR * 0.99)] / 1000, c, bad }')"
  fi
  after="$(cpu_ticks $(pids_of "$1"))"
  busy_after="$(busy_ticks)"
  # The CPU of this subshell's finished children: the load tool (and the small tools around it).
  times >"$WORK/times"
  client="$(awk -v hz="$(getconf CLK_TCK)" 'NR == 2 { gsub(/[ms]/, " "); print int(($1 * 60 + $2 + $3 * 60 + $4) * hz) }' "$WORK/times")"
  read -r n rps p99 connect errors <<<"$out"
  # Last: the share of the machine that neither the server nor the load tool used meanwhile (other work).
  awk -v n="$n" -v rps="$rps" -v p99="$p99" -v c="$connect" -v e="$errors" -v t="$((after - before))" \
    -v o="$((busy_after - busy_before - (after - before) - client))" -v s="$4" -v cores="$(nproc)" \
    -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.0f %.2f %.1f %s %d %.0f\n", rps, p99, t * 1000 / hz / n * 1000, c, e,
      (o > 0 ? o : 0) / hz / s / cores * 100 }'
}

# The handshakes: CONNECTIONS new connections at once, each a full TLS handshake and one request, ROUNDS times ->
# "connect_mean_ms cpu_ms_per_connection"
run_handshakes() {
  local before after connects=""
  before="$(cpu_ticks $(pids_of "$1"))"
  for _ in $(seq "$HANDSHAKE_ROUNDS"); do
    connects+="$(h2load -t 2 -c 256 -n 256 -m 1 "${HEADERS[@]}" "https://127.0.0.1:$(port_of "$1")/about" 2>&1 \
      | awk "$MS"'/^time for connect:/ { print ms($6) }') "
  done
  after="$(cpu_ticks $(pids_of "$1"))"
  printf '%s %s\n' "$(tr ' ' '\n' <<<"$connects" | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')" \
    "$(awk -v t="$((after - before))" -v hz="$(getconf CLK_TCK)" -v n="$((256 * HANDSHAKE_ROUNDS))" 'BEGIN { printf "%.3f", t * 1000 / hz / n }')"
}

say ""
say "Load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; busiest other processes:"
ps -eo pcpu,comm --sort=-pcpu | sed -n '2,6p' | sed 's/^/  /' >&2
say "$RUNS alternating runs of ${DURATION}s per server and load (+${WARMUP}s warm-up), $WORKERS server workers"
declare -A results
for protocol in h1 h2; do
  for connections in $LOADS; do
    for server in truckins nginx; do run_load "$server" "$protocol" "$connections" "$WARMUP" >/dev/null; done
    for run in $(seq "$RUNS"); do
      order=(truckins nginx)
      [ $((run % 2)) = 0 ] && order=(nginx truckins)
      for server in "${order[@]}"; do
        out="$(run_load "$server" "$protocol" "$connections" "$DURATION")"
        results[$server $protocol $connections]+="$out"$'\n'
        say "$protocol c=$connections run $run $server: $out  (req/s p99_ms cpu_ms/1000req connect errors others%)"
      done
    done
  done
done
declare -A handshakes
for server in truckins nginx nginx truckins; do handshakes[$server]+="$(run_handshakes "$server")"$'\n'; done
say "Load after: $(cut -d' ' -f1-3 /proc/loadavg)"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
column() { awk -v c="$1" 'NF { print $c }' | grep -v '^-$' | median; }
echo ""
echo "| protocol | connections | server | requests/s | p99 ms | CPU ms/1000 req | connect ms | errors | other work | ours/nginx req/s |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for protocol in h1 h2; do
  for connections in $LOADS; do
    ours="$(column 1 <<<"${results[truckins $protocol $connections]}")"
    theirs="$(column 1 <<<"${results[nginx $protocol $connections]}")"
    for server in truckins nginx; do
      r="${results[$server $protocol $connections]}"
      ratio=""; [ "$server" = truckins ] && ratio="$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2fx", a / b }')"
      printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s%% | %s |\n' "$([ "$protocol" = h1 ] && echo HTTP/1.1 || echo HTTP/2)" \
        "$connections" "$server" "$(column 1 <<<"$r")" "$(column 2 <<<"$r")" "$(column 3 <<<"$r")" \
        "$(column 4 <<<"$r" | grep . || echo -)" "$(awk '{ s += $5 } END { print s }' <<<"$r")" "$(column 6 <<<"$r")" "$ratio"
    done
  done
done
echo ""
echo "Handshakes (256 new connections at once, each a TLS 1.3 handshake and one request, $HANDSHAKE_ROUNDS times, twice per server):"
for server in truckins nginx; do
  echo "  $server: connect (TCP + TLS) mean $(column 1 <<<"${handshakes[$server]}") ms (median), CPU $(column 2 <<<"${handshakes[$server]}") ms per connection"
done
echo "(medians of the runs; p99 and connect time as wrk and h2load measure them; CPU: utime+stime from /proc;"
echo " other work: the share of the machine neither the server nor the load tool used during the runs)"
grep -q . "$WORK/truckins.err" && { say "truckins said:"; sed 's/^/  /' "$WORK/truckins.err" | tail -5 >&2; }
exit 0
