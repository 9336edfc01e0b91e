#!/usr/bin/env bash
# scripts/bench/crash-checkout.sh — kill the server in the middle of a checkout load and
# check that nothing paid is lost or doubled.
#
#   scripts/bench/crash-checkout.sh [sqlite|postgres]      default sqlite
#
# Steps: build the release binaries (`cargo build --release -p server --bins`: the server
# and bench_seed; skipped with ROSACE_BENCH_NO_BUILD=1); start the server with a 15 s cart
# hold and a 1 s sweeper, wait for GET /health to answer 200, then run
# target/release/bench_seed on the same database (ROSACE_BENCH_SEED=300 members with
# sessions, ROSACE_BENCH_STOCK=150 units of the scarce item); run a load of 24 threads,
# each member adding an item, freezing the cart and paying with the sandbox card (every
# answer is logged); SIGKILL the server mid-load; restart it on the same
# database; pay again, with the same cart hash, every payment whose answer was lost; wait
# past the hold; then check:
#   1. every pay that answered 200 has exactly one order, with the id it was given;
#   2. no cart hash has more than one order, no order lacks its approved payment record;
#   3. for every option, held + sold <= stock, sold = units of validated orders and
#      held = units in cart lines;
#   4. no hold past its expiry is left (released by the sweeper at start).
# Exits 1 when a check fails.
#
# Environment: ROSACE_BENCH_NO_BUILD=1, ROSACE_CRASH_AFTER=4 (seconds of load before the
# kill), ROSACE_BENCH_KEEP=1 (keep the scratch folder), CARGO_TARGET_DIR.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib.sh"

case ${1:-} in
    -h | --help) usage_from_header "$0"; exit 0 ;;
esac
cd "$ROOT"
ENGINE=${1:-sqlite}
case $ENGINE in sqlite | postgres) ;; *) die_usage "scripts/bench/crash-checkout.sh [sqlite|postgres]" ;; esac

ADDR=127.0.0.1:3111
CRASH_AFTER=${ROSACE_CRASH_AFTER:-4}
HOLD=15
SERVER_BIN=$(target_dir)/release/server
SEED_BIN=$(target_dir)/release/bench_seed

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/rosace-crash.XXXXXX")
SERVER_PID=
LOAD_PID=
cleanup() {
    stop_pid "$LOAD_PID"
    stop_pid "$SERVER_PID"
    keep_or_remove "$SCRATCH"
}
trap_cleanup cleanup

if [ "${ROSACE_BENCH_NO_BUILD:-0}" != 1 ]; then
    note "building the release binaries (cargo build --release -p server --bins)"
    cargo build --release -p server --bins >&2
fi
[ -x "$SERVER_BIN" ] || die "no release server binary at $SERVER_BIN"
[ -x "$SEED_BIN" ] || die "no release bench_seed binary at $SEED_BIN"
ensure_addr_free "$ADDR"

mkdir -p "$SCRATCH/data"
if [ "$ENGINE" = postgres ]; then
    "$ROOT/scripts/pg.sh" start >/dev/null
    URL=$("$ROOT/scripts/pg.sh" reset rosace_crash_checkout)
    DB=$URL
else
    URL="sqlite://$SCRATCH/data/rosace.db?mode=rwc"
    DB=$SCRATCH/data/rosace.db
fi

# Starts the server on the scratch database (LOG: its output) and waits for /health.
start_shop() {
    local log=$1
    start_server "$SERVER_BIN" "$ADDR" "$log" \
        ROSACE_ADDR="$ADDR" ROSACE_DATA_DIR="$SCRATCH/data" DATABASE_URL="$URL" RUST_LOG=warn \
        ROSACE_CART_HOLD_SECS=$HOLD ROSACE_CART_SWEEP_SECS=1
    if ! wait_for_health "http://$ADDR/health" 120 "$SERVER_PID"; then
        tail -n 30 "$log" >&2
        die "the server did not start"
    fi
}

cat >"$SCRATCH/load.py" <<'PY'
"""Checkout load: members add an item, freeze, pay; every pay answer is logged."""
import http.client, json, sys, threading, time

addr, sessions, log_path, mode = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
host, port = addr.split(":")
lines = open(sessions).read().splitlines()
_, _, scarce, plenty = lines[0].split()
members = [l.split() for l in lines[1:]]
log = open(log_path, "a", buffering=1)
lock = threading.Lock()
stop = time.time() + float(sys.argv[5])

def call(conn, method, path, token, xsrf, body=None):
    headers = {"Cookie": f"rosace_session={token}; XSRF-TOKEN={xsrf}", "X-XSRF-TOKEN": xsrf,
               "Content-Type": "application/json"}
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    r = conn.getresponse()
    data = r.read()
    try:
        return r.status, json.loads(data) if data else {}
    except ValueError:
        return r.status, {}

def write(*fields):
    with lock:
        log.write(" ".join(str(f) for f in fields) + "\n")

def worker(k):
    i = k
    conn = None
    while time.time() < stop:
        member_id, token, xsrf = members[i % len(members)]
        i += 24
        option = scarce if i % 2 else plenty
        try:
            conn = conn or http.client.HTTPConnection(host, int(port), timeout=10)
            s, _ = call(conn, "POST", "/api/cartproxy/v1/item", token, xsrf,
                        {"product_id": option, "quantity": 1, "cart_type": "fs"})
            s, frozen = call(conn, "GET", "/api/cartproxy/orderpiper/cart/v3", token, xsrf)
            if s != 200:
                continue
            h = frozen["cartHash"]
            write("sent", member_id, h)
            s, paid = call(conn, "POST", "/api/cartproxy/orderpiper/cart/v3/pay", token, xsrf,
                           {"cartHash": h, "generateDeeplinkReturnUrl": False, "card": "4242 4242 4242 4242"})
            write("answer", member_id, h, s, paid.get("orderId", "-"))
        except (OSError, http.client.HTTPException):
            conn = None
            time.sleep(0.05)

def retry():
    """After the restart: pay again every hash whose answer was lost."""
    sent, answered = {}, set()
    for line in open(log_path):
        f = line.split()
        if f[0] == "sent":
            sent[f[2]] = f[1]
        elif f[0] == "answer":
            answered.add(f[2])
    by_id = {m[0]: m for m in members}
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    for h, member_id in sent.items():
        if h in answered:
            continue
        _, token, xsrf = by_id[member_id]
        s, paid = call(conn, "POST", "/api/cartproxy/orderpiper/cart/v3/pay", token, xsrf,
                       {"cartHash": h, "generateDeeplinkReturnUrl": False, "card": "4242 4242 4242 4242"})
        write("answer", member_id, h, s, paid.get("orderId", "-"))
        write("retried", member_id, h, s)

if mode == "retry":
    retry()
else:
    threads = [threading.Thread(target=worker, args=(k,)) for k in range(24)]
    for t in threads: t.start()
    for t in threads: t.join()
PY

note "starting the server ($ENGINE) and creating 300 bench members (bench_seed)"
start_shop "$SCRATCH/server-1.log"
env ROSACE_DATA_DIR="$SCRATCH/data" DATABASE_URL="$URL" RUST_LOG=warn ROSACE_BENCH_SEED=300 \
    ROSACE_BENCH_STOCK=150 ROSACE_BENCH_SEED_FILE="$SCRATCH/sessions.txt" \
    "$SEED_BIN" >"$SCRATCH/seed.log" 2>&1 \
    || { tail -n 30 "$SCRATCH/seed.log" >&2; die "bench_seed failed"; }
note "checkout load for ${CRASH_AFTER}s, then SIGKILL"
python3 "$SCRATCH/load.py" "$ADDR" "$SCRATCH/sessions.txt" "$SCRATCH/pays.log" load $((CRASH_AFTER + 1)) &
LOAD_PID=$!
sleep "$CRASH_AFTER"
kill -KILL "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=
count_rows() {
    if [ "$ENGINE" = sqlite ]; then
        python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])" "$DB" "$1"
    else
        psql -X -q -t -A "$DB" -c "$1"
    fi
}
note "server killed mid-load: $(count_rows 'SELECT COUNT(*) FROM orders') orders, $(count_rows 'SELECT COUNT(*) FROM cart_items') holds in the database; the load keeps knocking for a moment"
wait "$LOAD_PID" || true
LOAD_PID=
note "restarting on the same database"
start_shop "$SCRATCH/server-2.log"
python3 "$SCRATCH/load.py" "$ADDR" "$SCRATCH/sessions.txt" "$SCRATCH/pays.log" retry 0
note "waiting past the hold (${HOLD}s) for the sweeper"
sleep $((HOLD + 3))

python3 - "$ENGINE" "$DB" "$SCRATCH/pays.log" <<'PY'
import sys, time, subprocess
engine, db, log_path = sys.argv[1:4]

def query(sql):
    if engine == "sqlite":
        import sqlite3
        return [tuple(r) for r in sqlite3.connect(db).execute(sql).fetchall()]
    out = subprocess.run(["psql", "-X", "-q", "-t", "-A", "-F", "\t", db, "-c", sql],
                         check=True, capture_output=True, text=True).stdout
    return [tuple(None if v == "" else v for v in l.split("\t")) for l in out.splitlines() if l]

ok200, sent, answers, retried = {}, set(), 0, 0
for line in open(log_path):
    f = line.split()
    if f[0] == "sent":
        sent.add(f[2])
    elif f[0] == "answer":
        answers += 1
        if f[3] == "200":
            ok200.setdefault(f[2], set()).add(f[4])
    elif f[0] == "retried":
        retried += 1
orders = {}
for key, oid, status in query("SELECT idempotency_key, id, status FROM orders"):
    orders.setdefault(key, []).append((str(oid), status))
failures = []
for h, ids in ok200.items():
    got = orders.get(h, [])
    if len(got) != 1 or len(ids) != 1 or got[0][0] not in ids:
        failures.append(f"pay 200 for {h} with order {ids}, orders in the database: {got}")
dups = [k for k, v in orders.items() if len(v) > 1]
if dups:
    failures.append(f"cart hashes with several orders: {dups}")
unpaid = query("SELECT o.id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM payments p WHERE p.cart_hash = o.idempotency_key AND p.status = 'approved')")
if unpaid:
    failures.append(f"orders without an approved payment: {unpaid}")
bad_stock = query("""SELECT o.id, o.stock, o.held, o.sold,
    (SELECT COALESCE(SUM(i.quantity), 0) FROM order_items i JOIN orders r ON r.id = i.order_id WHERE i.option_id = o.id AND r.status = 'validated'),
    (SELECT COALESCE(SUM(c.quantity), 0) FROM cart_items c WHERE c.option_id = o.id)
    FROM product_options o WHERE o.held <> 0 OR o.sold <> 0""")
moved = 0
for oid, stock, held, sold, ordered, lines in bad_stock:
    stock, held, sold, ordered, lines = map(int, (stock, held, sold, ordered, lines))
    moved += sold
    if held + sold > stock or sold != ordered or held != lines:
        failures.append(f"option {oid}: stock {stock}, held {held}, sold {sold}, ordered {ordered}, in carts {lines}")
now = int(time.time())
stale = query(f"SELECT COUNT(*) FROM cart_items WHERE expires_at <= {now}")[0][0]
if int(stale) != 0:
    failures.append(f"{stale} holds past expiry not released")
print(f"payments sent {len(sent)}, answered {answers} ({retried} retried after the restart), "
      f"answered 200 {len(ok200)}, orders {sum(len(v) for v in orders.values())}, units sold {moved}, "
      f"holds past expiry left {stale}")
if failures:
    print("FAILED:")
    for f in failures:
        print("  " + f)
    sys.exit(1)
print("OK: every 200 has exactly one order, no duplicates, held + sold <= stock, expired holds released")
PY
