"""How long a lost machine takes to serve every lead again, against the size of the database.

For each size: a database of that many leads (seeded as bench/replica.py does), replicated by Litestream 0.5.17 to
moto's S3 server on loopback with truckins serving under it; a few leads posted with acknowledgement on; both
stopped; the database, its -wal/-shm and Litestream's folder deleted (the disk lost); then the same command started
again: Litestream restores the file from the store, then starts truckins. Timed: Litestream's restore (its own log
lines) and the start until /healthz answers 200. Checked: every lead is back and the file passes integrity_check.
Run through bench/restore.sh or `python3 bench/restore.py --sizes 10000,100000,500000`.
"""

import argparse
import json
import os
import secrets
import shutil
import sqlite3
import sys
import tempfile
import time
from datetime import datetime

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import replica  # noqa: E402  (bench/replica.py: the seeding, moto, the stack)


def log_time(line):
    return datetime.fromisoformat(line[len("time="):].split(" ", 1)[0].replace("Z", "+00:00")).timestamp()


def restore_seconds(log_path):
    """From Litestream's 'attempting restore' to its 'restore completed'."""
    began = ended = None
    with open(log_path, errors="replace") as log:
        for line in log:
            if "attempting restore before replication" in line:
                began = log_time(line)
            elif "restore completed" in line:
                ended = log_time(line)
    return None if began is None or ended is None else ended - began


def one_size(args, folder, moto_port, leads):
    place = os.path.join(folder, f"leads-{leads}")
    os.mkdir(place)
    database = os.path.join(place, "leads.db")
    with open(os.path.join(place, "seed.log"), "w") as log:
        replica.seed(args.binary, database, leads, log)
    size = os.path.getsize(database)
    first = os.path.join(place, "first")
    os.mkdir(first)
    stack = replica.Stack(args, first, database, moto_port, f"restore-{leads}", "on")
    posted = 0
    try:
        for _ in range(20):
            status, _ = replica.request(stack.port, "POST", "/api/leads/quote", replica.quote(secrets.token_hex(16)))
            posted += status == 201
    finally:
        stack.stop()
    # The disk lost: the file, its side files and Litestream's own folder (the link key is left: another matter).
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(database + suffix):
            os.remove(database + suffix)
    shutil.rmtree(os.path.join(place, ".leads.db-litestream"))
    again = os.path.join(place, "again")
    os.mkdir(again)
    stack = replica.Stack(args, again, database, moto_port, f"restore-{leads}", "on", settle=False)
    try:
        first_health = replica.health(stack.port).get("replica", {})
        restored = restore_seconds(stack.log_path)
    finally:
        stack.stop()
    db = sqlite3.connect(database)
    check = db.execute("PRAGMA integrity_check").fetchone()[0]
    count = db.execute("SELECT COUNT(*) FROM leads").fetchone()[0]
    db.close()
    with open(stack.log_path, errors="replace") as log:
        alarm = any("is not confirming the copy" in line for line in log)
    return {
        "leads": leads, "mib": size / 2**20, "restore_s": restored, "serving_s": stack.serving,
        "back": count, "expected": leads + posted, "integrity": check,
        "first_health": first_health.get("litestream"), "alarm_logged": alarm,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--binary", default=os.path.join(replica.HERE, "..", "target", "release", "truckins"))
    parser.add_argument("--litestream", default=shutil.which("litestream") or "litestream")
    parser.add_argument("--sizes", default="10000,100000,500000")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    args.binary = os.path.abspath(args.binary)
    args.litestream_log, args.litestream_extra, args.litestream_top = "info", "", ""
    args.b_litestream_extra = args.b_litestream_top = ""
    args.setting, args.b_setting, args.untuned = [], [], None
    folder = tempfile.mkdtemp(prefix="truckins-restore-bench-")
    moto = None
    try:
        load = os.getloadavg()
        print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)
        moto, moto_port = replica.start_moto(folder)
        for _ in range(args.repeat):
            for leads in (int(n) for n in args.sizes.split(",")):
                result = one_size(args, folder, moto_port, leads)
                print(json.dumps(result), flush=True)
                print(f"{leads:>8,} leads, {result['mib']:.0f} MiB: restored in {result['restore_s']:.1f} s, "
                      f"/healthz 200 {result['serving_s']:.1f} s after the start; {result['back']:,} of "
                      f"{result['expected']:,} leads back, integrity_check {result['integrity']}; first /healthz: "
                      f"litestream {result['first_health']}, alarm in the log: {result['alarm_logged']}", flush=True)
                if not args.keep:
                    shutil.rmtree(os.path.join(folder, f"leads-{leads}"), ignore_errors=True)
        load = os.getloadavg()
        print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    finally:
        replica.clean_up(moto, folder, args.keep)


if __name__ == "__main__":
    main()
