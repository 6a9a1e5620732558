"""Leads under load with Litestream: replica_acknowledge on against off, on a database of many leads.

Run through bench/replica.sh (which builds the release binary and installs what is missing). Everything listens on
127.0.0.1; every process started here is stopped by its own id. See bench/README.md.
"""

import argparse
import http.client
import json
import os
import secrets
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
KEY_ID, SECRET = "bench-key", "bench-secret"
BUCKET = "truckins-bench"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what, check, patience=120.0, process=None):
    """Polls `check` until it returns something true; fails after `patience` s or when `process` exits first."""
    deadline = time.monotonic() + patience
    while True:
        found = check()
        if found:
            return found
        if process is not None and process.poll() is not None:
            sys.exit(f"{what}: the process exited ({process.returncode}) first")
        if time.monotonic() > deadline:
            sys.exit(f"{what}: not within {patience:.0f} s")
        time.sleep(0.05)


def request(port, method, path, body=None, timeout=10):
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        headers = {"Content-Type": "application/json"} if body is not None else {}
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        answer = connection.getresponse()
        return answer.status, answer.read()
    except OSError:
        return None, b""


def quote(submission):
    return {
        "name": "Dana O'Neil-Smith", "email": "dana@example.com", "phone": "(555) 210-0142",
        "company": "Lone Star Haulers", "insurance_type": "dump", "vehicle_count": 3, "dot_number": "1234567",
        "consent": True, "submission_id": submission, "elapsed_ms": "45000", "utm_source": "bench",
    }


def stop(process, patience=60.0):
    """SIGTERM to this process (Litestream passes it on to the server), then SIGKILL if it does not exit."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(patience)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# ---------------------------------------------------------------------------------------------------------------
# The seeded database
# ---------------------------------------------------------------------------------------------------------------

def seed(binary, path, leads, log):
    """A database of `leads` quotes, each with its agency e-mail and webhook (sent): the real server makes the file
    (its migrations) and stores one quote through the API; that row and its deliveries are then copied in SQL, each
    copy with its own submission id, e-mail, details token, time and IP."""
    port = free_port()
    env = dict(os.environ, TRUCKINS_WEBHOOK_URL="http://127.0.0.1:9/hook", TRUCKINS_WEBHOOK_SECRET="bench-secret-of-32-characters!!",
               TRUCKINS_SMTP_URL="smtp://127.0.0.1:9?tls=none", TRUCKINS_NOTIFY_TO="agency@example.com",
               TRUCKINS_MAIL_FROM="site@example.com")
    server = subprocess.Popen([binary, "serve", "--address", "127.0.0.1", "--port", str(port), "--database", path],
                              env=env, stdout=log, stderr=log, stdin=subprocess.DEVNULL)
    wait_for("the seeding server", lambda: request(port, "GET", "/healthz")[0] == 200, process=server)
    status, body = request(port, "POST", "/api/leads/quote", quote(secrets.token_hex(16)))
    if status != 201:
        sys.exit(f"seeding: the quote was answered {status}: {body[:300]!r}")
    stop(server)
    db = sqlite3.connect(path)
    columns = [row[1] for row in db.execute("PRAGMA table_info(leads)") if row[1] != "id"]
    changed = {
        "submission_id": "lower(hex(randomblob(16)))",
        "email": "'driver' || n || '@example.com'",
        "name": "'Driver ' || n",
        "details_token_sha256": "lower(hex(randomblob(32)))",
        "created_at": "strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '-' || ((:leads - n) * 300) || ' seconds')",
        "ip": "'10.' || (n % 250) || '.' || (n / 250 % 250) || '.' || (n % 7)",
    }
    chosen = ", ".join(changed.get(c, c) for c in columns)
    delivery_columns = [row[1] for row in db.execute("PRAGMA table_info(deliveries)") if row[1] != "id"]
    delivery_changed = {"lead_id": "l.id", "key": "lower(hex(randomblob(16)))", "state": "'sent'",
                        "attempts": "1", "sent_at": "l.created_at", "created_at": "l.created_at"}
    delivery_chosen = ", ".join(delivery_changed.get(c, "d." + c) for c in delivery_columns)
    started = time.monotonic()
    with db:
        db.execute("CREATE TEMP TABLE template_lead AS SELECT * FROM leads LIMIT 1")
        db.execute("CREATE TEMP TABLE template_deliveries AS SELECT * FROM deliveries")
        db.execute("DELETE FROM deliveries")
        db.execute("DELETE FROM leads")
        db.execute(f"""WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < :leads)
                       INSERT INTO leads ({", ".join(columns)})
                       SELECT {chosen} FROM seq, temp.template_lead ORDER BY n""", {"leads": leads})
        db.execute(f"""INSERT INTO deliveries ({", ".join(delivery_columns)})
                       SELECT {delivery_chosen} FROM leads l, temp.template_deliveries d ORDER BY l.id, d.channel""")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    counts = db.execute("SELECT (SELECT COUNT(*) FROM leads), (SELECT COUNT(*) FROM deliveries)").fetchone()
    db.close()
    for suffix in ("-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    print(f"seeded {counts[0]:,} leads and {counts[1]:,} deliveries in {time.monotonic() - started:.1f} s: "
          f"{os.path.getsize(path) / 2**20:.0f} MiB", flush=True)


# ---------------------------------------------------------------------------------------------------------------
# The store, Litestream and the server under it
# ---------------------------------------------------------------------------------------------------------------

def start_moto(folder):
    """moto's S3 server on loopback, with one bucket; returns (process, port)."""
    port = free_port()
    log = open(os.path.join(folder, "moto.log"), "w")
    moto = subprocess.Popen(["moto_server", "-H", "127.0.0.1", "-p", str(port)], stdout=log, stderr=log,
                            stdin=subprocess.DEVNULL)
    wait_for("moto's server", lambda: request(port, "GET", "/")[0] is not None, process=moto)
    store_client(port).create_bucket(Bucket=BUCKET)
    return moto, port


def store_client(port):
    import boto3
    return boto3.client("s3", endpoint_url=f"http://127.0.0.1:{port}", region_name="us-east-1",
                        aws_access_key_id=KEY_ID, aws_secret_access_key=SECRET)


# deploy/litestream.yml's compaction settings (bench/RESULTS-replica.md): L0 files kept 15 s once compacted, level 1
# every 10 s. Litestream's own defaults are 5 min and 30 s (--untuned).
TUNING = ["l0-retention: 15s", "levels:", "  - interval: 10s", "  - interval: 5m", "  - interval: 1h"]


def litestream_config(folder, database, moto_port, prefix, level, extra, top="", tuned=True):
    """Litestream's configuration as deploy/litestream.yml has it, the replica in moto's bucket under `prefix`;
    `extra` (a YAML fragment, e.g. from --litestream-extra) is added to the database's entry, `top` at the top."""
    socket_path = os.path.join(folder, "litestream.sock")
    lines = [
        "socket:", "  enabled: true", f"  path: {socket_path}", "  permissions: 0600",
        "logging:", f"  level: {level}",
        "snapshot:", "  interval: 24h", "  retention: 720h",
    ]
    lines += TUNING if tuned else []
    lines += [line for line in top.splitlines() if line.strip()]
    lines += ["dbs:", f"  - path: {database}", "    restore-if-db-not-exists: true"]
    lines += ["    " + line for line in extra.splitlines() if line.strip()]
    lines += [
        "    replica:", "      type: s3", f"      bucket: {BUCKET}", f"      path: {prefix}",
        f"      endpoint: http://127.0.0.1:{moto_port}", "      region: us-east-1", "      force-path-style: true",
        "      sync-interval: 1s",
    ]
    path = os.path.join(folder, "litestream.yml")
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")
    return path, socket_path


def health(port):
    status, body = request(port, "GET", "/healthz", timeout=5)
    if status != 200:
        return None
    return json.loads(body)


class Stack:
    """`litestream replicate -exec "truckins serve"` on `database`, acknowledgement on or off."""

    def __init__(self, args, folder, database, moto_port, prefix, kind, settle=True):
        self.folder, self.database, self.moto_port, self.prefix = folder, database, moto_port, prefix
        acknowledge, variant = kind.startswith("on"), kind.endswith("/b")
        extra = args.litestream_extra + "\n" + (args.b_litestream_extra if variant else "")
        top = args.litestream_top + "\n" + (args.b_litestream_top if variant else "")
        tuned = args.untuned != ("b" if variant else "a")
        config, socket_path = litestream_config(folder, database, moto_port, prefix, args.litestream_log, extra, top,
                                                tuned)
        self.port = free_port()
        self.log_path = os.path.join(folder, "stack.log")
        self.log = open(self.log_path, "w")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TRUCKINS_", "ROCKET_", "AWS_"))}
        env.update(LITESTREAM_ACCESS_KEY_ID=KEY_ID, LITESTREAM_SECRET_ACCESS_KEY=SECRET,
                   TRUCKINS_REPLICA_SOCKET=socket_path,
                   TRUCKINS_REPLICA_ACKNOWLEDGE="true" if acknowledge else "false")
        for setting in args.setting + (args.b_setting if variant else []):
            name, _, value = setting.partition("=")
            env["TRUCKINS_" + name.upper()] = value
        command = (f"{args.binary} serve --address 127.0.0.1 --port {self.port} --database {database} "
                   f"--ip-limit 100000000")
        self.started = time.monotonic()
        self.process = subprocess.Popen([args.litestream, "replicate", "-config", config, "-exec", command],
                                        env=env, cwd=folder, stdout=self.log, stderr=self.log,
                                        stdin=subprocess.DEVNULL)
        wait_for("the server under Litestream", lambda: health(self.port), process=self.process)
        self.serving = time.monotonic() - self.started
        self.replicated = None
        if settle:
            self.settle()

    def settle(self):
        """Waits for the work Litestream does once after it starts: the first copy of the whole database to the
        store, and the day's snapshot."""

        def caught_up():
            replica = (health(self.port) or {}).get("replica") or {}
            txid = replica.get("txid")
            return replica.get("litestream") == "ok" and txid and txid == replica.get("replicated_txid")
        # The first copy of the whole database to the store: made once when replication is set up, not per lead.
        wait_for("the replica's first copy", caught_up, patience=600, process=self.process)

        # And the day's snapshot (level 9), which Litestream makes at start when the store has none since midnight
        # UTC: a whole copy of the database, read and uploaded once a day.
        store = store_client(self.moto_port)

        def snapshot_made():
            listed = store.list_objects_v2(Bucket=BUCKET, Prefix=f"{self.prefix}/0009/")
            return listed.get("KeyCount", 0) > 0
        wait_for("the day's snapshot", snapshot_made, patience=600, process=self.process)

        # And the first compaction into level 1 (every 30 s), which merges that first whole copy.
        def compacted():
            return store.list_objects_v2(Bucket=BUCKET, Prefix=f"{self.prefix}/0001/").get("KeyCount", 0) > 0
        wait_for("the first compaction", compacted, patience=600, process=self.process)
        self.replicated = time.monotonic() - self.started

    def stop(self):
        stop(self.process)
        self.log.close()


# ---------------------------------------------------------------------------------------------------------------
# The flood
# ---------------------------------------------------------------------------------------------------------------

WRK_SCRIPT = r"""
local threads = {}
function setup(thread)
  thread:set("number", #threads)
  table.insert(threads, thread)
end
function init(args)
  created, other = 0, 0
  math.randomseed(os.time() * 1000 + number * 7919 + math.floor(os.clock() * 1e6))
end
local head = '{"name":"Dana O\'Neil-Smith","email":"dana@example.com","phone":"(555) 210-0142",' ..
  '"company":"Lone Star Haulers","insurance_type":"dump","vehicle_count":3,"dot_number":"1234567",' ..
  '"consent":true,"elapsed_ms":"45000","utm_source":"bench","submission_id":"'
local headers = {["Content-Type"] = "application/json", ["Accept"] = "application/json"}
function request()
  local id = {}
  for i = 1, 8 do id[i] = string.format("%04x", math.random(0, 65535)) end
  return wrk.format("POST", "/api/leads/quote", headers, head .. table.concat(id) .. '"}')
end
function response(status, headers, body)
  if status == 201 then created = created + 1 else other = other + 1 end
end
function done(summary, latency, requests)
  local c, o = 0, 0
  for _, t in ipairs(threads) do c = c + t:get("created"); o = o + t:get("other") end
  local e = summary.errors
  io.write(string.format('RESULT {"created":%d,"other":%d,"requests":%d,"seconds":%.3f,"p50":%.3f,' ..
    '"p90":%.3f,"p99":%.3f,"max":%.3f,"errors":%d}\n', c, o, summary.requests, summary.duration / 1e6,
    latency:percentile(50) / 1e3, latency:percentile(90) / 1e3, latency:percentile(99) / 1e3,
    latency.max / 1e3, e.connect + e.read + e.write + e.timeout))
end
"""


def flood(port, clients, seconds, folder):
    script = os.path.join(folder, "quote.lua")
    with open(script, "w") as out:
        out.write(WRK_SCRIPT)
    threads = max(1, min(2, clients))
    out = subprocess.run(["wrk", f"-t{threads}", f"-c{clients}", f"-d{seconds}s", "--timeout", "60s", "-s", script,
                          f"http://127.0.0.1:{port}/api/leads/quote"], capture_output=True, text=True, check=True)
    line = next((l for l in out.stdout.splitlines() if l.startswith("RESULT ")), None)
    if line is None:
        sys.exit(f"wrk printed no result: {out.stdout}{out.stderr}")
    return json.loads(line[len("RESULT "):])


def largest_wal(path, stop_event, found):
    """Samples the size of `path` (the WAL) every 50 ms into found[0] (the largest) until `stop_event` is set."""
    while not stop_event.wait(0.05):
        try:
            found[0] = max(found[0], os.path.getsize(path))
        except OSError:
            pass


def litestream_events(log_path):
    """Litestream's lines about checkpoints, snapshots and compactions (what may hold a sync back), counted."""
    counts = {}
    with open(log_path, errors="replace") as log:
        for line in log:
            if "level=" not in line:
                continue
            for word in ("checkpoint", "snapshot", "compaction", "ERROR", "WARN"):
                if word in line:
                    counts[word] = counts.get(word, 0) + 1
    return counts


def windows(flood_log, width):
    """The server's own time per lead (its request log: from the request's head to its answer), per `width` s of the
    flood: where in the round the slow answers were."""
    per = {}
    for line in open(flood_log, errors="replace"):
        parts = line.split()
        if len(parts) == 5 and parts[1:4] == ["POST", "/api/leads/quote", "201"] and parts[4].endswith("ms"):
            at = datetime.fromisoformat(parts[0][:26].rstrip("Z") + "+00:00").timestamp()
            per.setdefault(int(at // width * width), []).append(float(parts[4][:-2]))
    for start in sorted(per):
        values = sorted(per[start])
        pick = lambda q: values[min(len(values) - 1, int(len(values) * q))]  # noqa: E731
        print(f"    {datetime.fromtimestamp(start, timezone.utc):%H:%M:%S} {len(values):>6} leads, server ms p50 "
              f"{pick(0.5):.0f}, p99 {pick(0.99):.0f}, max {values[-1]:.0f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--binary", default=os.path.join(HERE, "..", "target", "release", "truckins"))
    parser.add_argument("--litestream", default=shutil.which("litestream") or "litestream")
    parser.add_argument("--leads", type=int, default=100_000, help="leads in the database before the flood")
    parser.add_argument("--seconds", type=int, default=20, help="length of each round's flood")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--order", default="off,on,on,off",
                        help="each round: on or off (acknowledgement), with /b for variant B (below); repeated")
    parser.add_argument("--repeat", type=int, default=1, help="times the order is run")
    parser.add_argument("--setting", action="append", default=[], help="NAME=VALUE, a truckins setting")
    parser.add_argument("--litestream-log", default="info", help="Litestream's log level (debug shows each sync)")
    parser.add_argument("--litestream-extra", default="", help="YAML lines added to the database's entry")
    parser.add_argument("--litestream-top", default="", help="YAML lines added at the top of the configuration")
    parser.add_argument("--b-litestream-top", default="", help="top-level YAML lines for variant B's rounds")
    parser.add_argument("--untuned", choices=["a", "b"], help="the rounds of variant A (on, off) or B (on/b, off/b) "
                        "with Litestream's own l0-retention and levels instead of deploy/litestream.yml's")
    parser.add_argument("--b-setting", action="append", default=[], help="NAME=VALUE for variant B's rounds")
    parser.add_argument("--b-litestream-extra", default="", help="YAML lines for variant B's rounds")
    parser.add_argument("--at-start", action="store_true",
                        help="flood as soon as the server answers, before Litestream's first copy and snapshot")
    parser.add_argument("--windows", type=int, default=0, help="also the server's latency per N s of each flood")
    parser.add_argument("--keep", action="store_true", help="keep the folder (logs, databases) and print it")
    args = parser.parse_args()
    args.binary = os.path.abspath(args.binary)
    order = [kind.strip() for kind in args.order.split(",")] * args.repeat
    if any(kind not in ("on", "off", "on/b", "off/b") for kind in order):
        sys.exit("--order: each round is on, off, on/b or off/b")

    folder = tempfile.mkdtemp(prefix="truckins-replica-bench-")
    moto = None
    try:
        load = os.getloadavg()
        print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {os.cpu_count()} CPUs; "
              f"{args.clients} clients, {args.seconds} s a round, rounds {args.order} x{args.repeat}", flush=True)
        moto, moto_port = start_moto(folder)
        seeded = os.path.join(folder, "seeded.db")
        with open(os.path.join(folder, "seed.log"), "w") as log:
            seed(args.binary, seeded, args.leads, log)
        rounds = []
        for number, kind in enumerate(order, 1):
            round_folder = os.path.join(folder, f"round-{number}")
            os.mkdir(round_folder)
            database = os.path.join(round_folder, "leads.db")
            shutil.copyfile(seeded, database)
            stack = Stack(args, round_folder, database, moto_port, f"round-{number}", kind,
                          settle=not args.at_start)
            try:
                for n in range(20):
                    request(stack.port, "POST", "/api/leads/quote", quote(secrets.token_hex(16)))
                stop_event, wal = threading.Event(), [0]
                sampler = threading.Thread(target=largest_wal, args=(database + "-wal", stop_event, wal))
                sampler.start()
                with open(stack.log_path) as log:
                    log.seek(0, os.SEEK_END)
                    before = log.tell()
                result = flood(stack.port, args.clients, args.seconds, round_folder)
                stop_event.set()
                sampler.join()
            finally:
                stack.stop()
            with open(stack.log_path, errors="replace") as log, open(stack.log_path + ".flood", "w") as out:
                log.seek(before)
                out.write(log.read())
            events = litestream_events(stack.log_path + ".flood")
            result.update(kind=kind, wal_mib=wal[0] / 2**20, events=events,
                          replicated_s=stack.replicated)
            rounds.append(result)
            print(f"round {number} acknowledge {kind:<5}: {result['created']:>6} leads "
                  f"in {result['seconds']:.1f} s = {result['created'] / result['seconds']:>6.0f}/s; latency ms "
                  f"p50 {result['p50']:.1f}, p90 {result['p90']:.1f}, p99 {result['p99']:.1f}, "
                  f"max {result['max']:.1f}; other answers {result['other']}, errors {result['errors']}; "
                  f"WAL at most {result['wal_mib']:.1f} MiB; "
                  f"{'flooded at start' if stack.replicated is None else f'settled after {stack.replicated:.1f} s'}; "
                  f"Litestream during the flood: {events or 'nothing logged'}", flush=True)
            if args.windows:
                windows(stack.log_path + ".flood", args.windows)
        print()
        for kind in sorted(set(order)):
            mine = [r for r in rounds if r["kind"] == kind]
            if not mine:
                continue

            def spread(key, scale=1.0):
                values = sorted(r[key] * scale if key != "rate" else r["created"] / r["seconds"] for r in mine)
                return f"{statistics.median(values):.1f} ({values[0]:.1f}-{values[-1]:.1f})"
            print(f"acknowledge {kind:<5} ({len(mine)} rounds, median (min-max)): leads/s "
                  f"{spread('rate')}, p50 {spread('p50')} ms, p90 {spread('p90')} ms, p99 {spread('p99')} ms, "
                  f"max {spread('max')} ms")
        load = os.getloadavg()
        print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    finally:
        clean_up(moto, folder, args.keep)


def clean_up(moto, folder: str, keep: bool) -> None:
    """The store stopped and the bench's folder removed (or named, with --keep)."""
    if moto is not None:
        stop(moto)
    if keep:
        print(f"kept: {folder}")
    else:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
