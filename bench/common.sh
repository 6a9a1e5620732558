# What the serving benchmarks share (sourced by bench/serve.sh and bench/serve_https.sh, which set TARGET_DIR and
# BROTLI_MODULE first): messages, the tools they need (installed with apt when run as root), the build and the site
# it embedded, free ports, waiting for a server, and the CPU the processes and the machine used.

say() { printf '%s\n' "$*" >&2; }
die() { say "bench: $*"; exit 1; }

# need_tools TOOL...: each a command name, or PACKAGE=COMMAND when Debian's package is named otherwise; nginx and
# its brotli module always. Installs what is missing as root, else says what to install.
need_tools() {
  local missing=() tool
  command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
  [ -e "$BROTLI_MODULE" ] || missing+=(libnginx-mod-http-brotli-static)
  for tool in "$@"; do command -v "${tool#*=}" >/dev/null || missing+=("${tool%%=*}"); done
  if [ "${#missing[@]}" -gt 0 ]; then
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || die "missing: ${missing[*]}. Install with: sudo apt-get install ${missing[*]}"
    say "Installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
}

# Sets BINARY (BENCH_BINARY as it is, else this tree's release build, built now) and SITE (BENCH_SITE, else the site
# build.rs last handed to rust-embed: both servers must answer every page with the same bytes, which the scripts check).
binary_and_site() {
  if [ -n "${BENCH_BINARY:-}" ]; then
    BINARY="$BENCH_BINARY"
    say "Benchmarking $BINARY as it is"
  else
    command -v cargo >/dev/null || die "missing: cargo (Rust)"
    say "Building the release binary (cargo build --release --locked)"
    cargo build --release --locked --quiet
    BINARY="$TARGET_DIR/release/truckins"
  fi
  [ -x "$BINARY" ] || die "no executable at $BINARY"
  BINARY="$(cd "$(dirname "$BINARY")" && pwd)/$(basename "$BINARY")"
  SITE="${BENCH_SITE:-$(ls -dt "$TARGET_DIR"/release/build/embedded-*/out/site 2>/dev/null | head -n 1 || true)}"
  [ -n "$SITE" ] && [ -f "$SITE/index.html" ] || die "no built site under $TARGET_DIR/release/build/embedded-*/out/site"
  SITE="$(cd "$SITE" && pwd)"
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_until_up() { # URL PID: within 10 s, while PID lives (https without checking the certificate)
  for _ in $(seq 200); do
    kill -0 "$2" 2>/dev/null || return 1
    curl -ksfo /dev/null "$1" && return 0
    sleep 0.05
  done
  return 1
}

# nginx's master (NGINX_PID) and its workers.
nginx_pids() { echo "$NGINX_PID" $(cat "/proc/$NGINX_PID/task/$NGINX_PID/children" 2>/dev/null); }

cpu_ticks() { # PIDS...: utime + stime, in clock ticks, summed (fields 14 and 15 of /proc/PID/stat)
  local total=0 pid stat fields
  for pid in "$@"; do
    stat="$(cat "/proc/$pid/stat" 2>/dev/null)" || continue
    # After the command name (which may hold spaces, hence the last ')'), utime and stime are the 12th and 13th.
    read -ra fields <<<"${stat##*) }"
    total=$((total + fields[11] + fields[12]))
  done
  echo "$total"
}

busy_ticks() { # every core's non-idle time so far, in clock ticks (the first line of /proc/stat)
  awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}
