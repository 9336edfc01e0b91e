#!/usr/bin/env bash
# scripts/bench/bench-sale-opening.sh — a sale opening: N signed-in members arrive within
# 10 seconds of a sale's opening and each goes home → catalog → product → add → cart → pay,
# on SQLite, on PostgreSQL, and with two instances on one PostgreSQL. A benchmark: it prints
# figures and never fails on speed; it fails (exit 1) only when units are oversold or the
# run is broken (a server or load process died, nobody paid, or an answered payment has no
# order).
#
#   scripts/bench/bench-sale-opening.sh [sqlite|postgres|two|all]     default all
#
# Steps: build the release binaries (`cargo build --release -p server --bins`: the server
# and bench_seed; and the load, scripts/bench/load, a Goose attack: crates.io; skipped with
# ROSACE_BENCH_NO_BUILD=1; with ROSACE_BENCH_LOAD=locust, Locust from PyPI, pinned, in
# .tools/locust-venv, as scripts/setup.sh --bench-tools installs it); then per
# setup: start the server on 127.0.0.1:3130 (two: a second one on :3131 on the same
# database) with a scratch data folder (PostgreSQL: a fresh database from scripts/pg.sh),
# wait for GET /health, run bench_seed: ROSACE_BENCH_MEMBERS members with sessions and an
# address, one option with ROSACE_BENCH_STOCK units (the scarce item: fewer than members)
# and one of another product with a million, and the sale of both set to open
# ROSACE_BENCH_LEAD seconds later; check that the sale's product page is not served yet;
# scrape GET /metrics; run the members (scripts/bench/load: one Goose user per member, with
# its own connection, cookie and XSRF token; or scripts/bench/sale-opening.py, the same
# members on Locust's FastHttpUser; member i arrives at opening + i x window / N, members
# split between the instances); scrape /metrics again; read stock, holds, sales and orders
# from the database. The flow per member, as the browser does it (app/src/cart/ui):
#   GET /  →  GET /catalog/{sale}/0  →  GET /product/{sale}/{scarce product}
#   →  POST /api/cartproxy/v1/item (scarce option; refused as sold out: another product's)
#   →  GET /cart  →  GET /api/cartproxy/v1  →  GET /api/cartproxy/orderpiper/cart/v3 (freeze)
#   →  POST .../pay (card 4242 4242 4242 4242); 202: poll GET /api/catalog/v1/waiting-line/
#      {ticket} every Retry-After seconds until ready, then pay with the ticket.
# A 503 (load shedding) is asked again after its Retry-After, no answer or a 408 after 1 s,
# as a person reloading would (a payment asked again gets its order by the cart hash).
# Prints per setup: members paid, completed purchases/s (opening to last payment), p50/p99
# and answers by status per step as the members saw them, the same per route from the
# server's own histograms (so a busy load generator does not pass for a slow server),
# units oversold per option (held + sold above the stock: must be 0), the waiting line's
# fairness (order of entering the line against order of payment, by order id: Kendall tau,
# share of inverted pairs, Spearman rho), the CPU the load processes and the servers used,
# and the load average. Target at the default N: every member pays, p99 of every page
# 250 ms or less (not enforced).
#
# Environment:
#   ROSACE_BENCH_MEMBERS=5000       members arriving
#   ROSACE_BENCH_WINDOW=10          seconds over which they arrive, from the opening
#   ROSACE_BENCH_STOCK=N/10         units of the scarce option (at least 1)
#   ROSACE_BENCH_LEAD=20            seconds from seeding to the opening (the load tool's start-up:
#                                   about 6 s for 5,000 members on 2 cores)
#   ROSACE_BENCH_LOAD=goose         the load tool: goose (Rust, the default) or locust (Python:
#                                   it needs more CPU than the server it measures on 2 cores)
#   ROSACE_BENCH_LOAD_PROCS=2       Locust processes (one per core by default; Goose runs one
#                                   process on every core)
#   ROSACE_BENCH_MEMBER_DEADLINE=180  seconds a member keeps trying after arriving
#   ROSACE_BENCH_CHECKOUT_CAPACITY  the servers' ROSACE_CHECKOUT_CAPACITY (default: theirs, 64)
#   ROSACE_BENCH_ENV="K=V ..."      extra environment for the servers
#   ROSACE_BENCH_NO_BUILD=1         reuse target/release/server and target/release/bench_seed
#   ROSACE_BENCH_KEEP=1             keep the scratch folder (server logs, load logs, scrapes)
#   CARGO_TARGET_DIR                where the release binaries are (default target/)
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib.sh"

case ${1:-} in
    -h | --help) usage_from_header "$0"; exit 0 ;;
esac
cd "$ROOT"
SETUPS=${1:-all}
case $SETUPS in
    all) SETUPS="sqlite postgres two" ;;
    sqlite | postgres | two) ;;
    *) die_usage "scripts/bench/bench-sale-opening.sh [sqlite|postgres|two|all]" ;;
esac

MEMBERS=${ROSACE_BENCH_MEMBERS:-5000}
WINDOW=${ROSACE_BENCH_WINDOW:-10}
UNITS=${ROSACE_BENCH_STOCK:-$((MEMBERS / 10 > 0 ? MEMBERS / 10 : 1))}
LEAD=${ROSACE_BENCH_LEAD:-20}
PROCS=${ROSACE_BENCH_LOAD_PROCS:-2}
DEADLINE=${ROSACE_BENCH_MEMBER_DEADLINE:-180}
CAPACITY=${ROSACE_BENCH_CHECKOUT_CAPACITY:-}
for v in MEMBERS WINDOW UNITS LEAD PROCS DEADLINE; do
    case ${!v} in '' | *[!0-9]*) die "$v must be a whole number, not '${!v}'" ;; esac
done
[ "$MEMBERS" -ge 1 ] && [ "$PROCS" -ge 1 ] || die "members and load processes: at least 1"
ADDRS=(127.0.0.1:3130 127.0.0.1:3131)
SERVER_BIN=$(target_dir)/release/server
SEED_BIN=$(target_dir)/release/bench_seed
LOAD_TOOL=${ROSACE_BENCH_LOAD:-goose}
case $LOAD_TOOL in goose | locust) ;; *) die "ROSACE_BENCH_LOAD is goose or locust, not '$LOAD_TOOL'" ;; esac
LOAD_BIN=$(target_dir)/release/sale-opening-load
LOCUST_VERSION=2.47.0
VENV=$ROOT/.tools/locust-venv
PY=$VENV/bin/python
LOAD=$ROOT/scripts/bench/sale-opening.py
METRICS_TOKEN=bench-sale-opening-$RANDOM$RANDOM$RANDOM
WALLET_KEY=$(printf '5a%.0s' {1..32})

for tool in curl python3; do need_cmd "$tool"; done

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/rosace-bench-opening.XXXXXX")
PIDS=()

stop_servers() {
    local pid
    for pid in "${PIDS[@]}"; do stop_pid "$pid"; done
    PIDS=()
}
# shellcheck disable=SC2317 # called by the exit trap
cleanup() {
    stop_servers
    keep_or_remove "$SCRATCH"
}
trap_cleanup cleanup

if [ "${ROSACE_BENCH_NO_BUILD:-0}" != 1 ]; then
    note "building the release binaries (cargo build --release -p server --bins)"
    cargo build --release -p server --bins >&2
    if [ "$LOAD_TOOL" = goose ]; then
        note "building the load (cargo build --release --manifest-path scripts/bench/load/Cargo.toml)"
        CARGO_TARGET_DIR=$(target_dir) cargo build --release --manifest-path scripts/bench/load/Cargo.toml >&2
    fi
fi
[ -x "$SERVER_BIN" ] || die "no release server binary at $SERVER_BIN (build it, or unset ROSACE_BENCH_NO_BUILD)"
[ -x "$SEED_BIN" ] || die "no release bench_seed binary at $SEED_BIN (build it, or unset ROSACE_BENCH_NO_BUILD)"
for addr in "${ADDRS[@]}"; do ensure_addr_free "$addr"; done

# Locust, pinned, in its own virtualenv (as scripts/setup.sh --bench-tools installs it).
if [ "$LOAD_TOOL" = goose ]; then
    [ -x "$LOAD_BIN" ] || die "no load binary at $LOAD_BIN (build it, or unset ROSACE_BENCH_NO_BUILD)"
elif [ "$("$PY" -c 'import importlib.metadata as m; print(m.version("locust"))' 2>/dev/null)" != "$LOCUST_VERSION" ]; then
    note "installing locust $LOCUST_VERSION into .tools/locust-venv (PyPI)"
    python3 -m venv "$VENV" || die "python3 -m venv failed (apt-get install python3-venv)"
    "$VENV/bin/pip" install -q "locust==$LOCUST_VERSION" >&2 || die "pip install locust failed"
fi

# CPU seconds (user + system) a process has used.
cpu_of() {
    awk -v hz="$(getconf CLK_TCK)" '{ printf "%.1f\n", ($14 + $15) / hz }' "/proc/$1/stat" 2>/dev/null || echo 0
}

# CPU seconds the whole machine has used (user, nice, system, irq, softirq), and those of
# PostgreSQL's processes (its pools keep their backends for the run, so few come and go).
machine_cpu() {
    awk -v hz="$(getconf CLK_TCK)" '/^cpu / { printf "%.1f\n", ($2 + $3 + $4 + $7 + $8) / hz }' /proc/stat
}
postgres_cpu() {
    local pid total=0
    for pid in $(pgrep -x postgres); do total=$(awk -v t="$total" -v c="$(cpu_of "$pid")" 'BEGIN { print t + c }'); done
    echo "$total"
}

# The kernel's TCP counters a sale opening can move: connections dropped because the accept
# queue was full (each one's client waits 1, 3, 7, 15 s to try its handshake again) and
# handshakes sent again, from /proc/net/netstat.
tcp_counters() {
    awk '/^TcpExt:/ { if (!n) { for (i = 2; i <= NF; i++) name[i] = $i; n = 1 } else {
        for (i = 2; i <= NF; i++) v[name[i]] = $i } }
        END { printf "%d %d\n", v["ListenOverflows"], v["TCPSynRetrans"] }' /proc/net/netstat
}

scrape() {
    local k=$1 when=$2
    curl -s --max-time 10 -H "Authorization: Bearer $METRICS_TOKEN" "http://${ADDRS[$k]}/metrics" \
        >"$SCRATCH/$SETUP/metrics-$k-$when.txt" || note "$SETUP: cannot scrape /metrics of ${ADDRS[$k]}"
}

FAILED=0
SUMMARY=()
for SETUP in $SETUPS; do
    dir=$SCRATCH/$SETUP
    mkdir -p "$dir"
    instances=1
    engine=postgres
    case $SETUP in
        sqlite) engine=sqlite ;;
        two) instances=2 ;;
    esac
    if [ $engine = postgres ]; then
        need_cmd psql "apt-get install postgresql-client"
        "$ROOT/scripts/pg.sh" start >/dev/null
        url=$("$ROOT/scripts/pg.sh" reset "rosace_bench_opening_$SETUP")
        db=$url
    else
        url="sqlite://$dir/data-0/rosace.db?mode=rwc"
        db=$dir/data-0/rosace.db
    fi
    hosts=()
    # Instances on one machine share its cores: each runs its share of the API calls the
    # machine runs at once (ROSACE_MAX_CALLS_RUNNING's default is per core of the machine,
    # as each instance sees it), as docs/configuration.md tells an operator to set it. With
    # the default on both, two instances ran twice the calls: members' page p99 1.1-1.5 s
    # against 256-267 ms (session 70). ROSACE_BENCH_ENV can still set it.
    running_each=$((8 * $(nproc) / instances))
    (( running_each > 0 )) || running_each=1
    for ((k = 0; k < instances; k++)); do
        addr=${ADDRS[$k]}
        mkdir -p "$dir/data-$k"
        note "$SETUP: starting the server on $addr ($running_each API calls running at once)"
        # shellcheck disable=SC2086 # ROSACE_BENCH_ENV is a list of NAME=VALUE words
        start_server "$SERVER_BIN" "$addr" "$dir/server-$k.log" \
            ROSACE_ADDR="$addr" ROSACE_DATA_DIR="$dir/data-$k" DATABASE_URL="$url" RUST_LOG=warn \
            ROSACE_PUBLIC_ORIGIN="http://$addr" ROSACE_WALLET_KEY="$WALLET_KEY" \
            ROSACE_METRICS_TOKEN="$METRICS_TOKEN" ${CAPACITY:+ROSACE_CHECKOUT_CAPACITY=$CAPACITY} \
            ROSACE_MAX_CALLS_RUNNING="$running_each" ${ROSACE_BENCH_ENV:-}
        PIDS+=("$SERVER_PID")
        # The first instance migrates and writes the demo data before the second starts.
        if ! wait_for_health "http://$addr/health" 180 "$SERVER_PID"; then
            tail -n 30 "$dir/server-$k.log" >&2
            die "$SETUP: the server on $addr did not start"
        fi
        hosts+=("\"http://$addr\"")
    done
    note "$SETUP: creating $MEMBERS members with sessions and addresses, the sale opening in ${LEAD} s (bench_seed)"
    env ROSACE_DATA_DIR="$dir/data-0" DATABASE_URL="$url" RUST_LOG=warn ROSACE_BENCH_SEED="$MEMBERS" \
        ROSACE_BENCH_STOCK="$UNITS" ROSACE_BENCH_SEED_FILE="$dir/sessions.txt" \
        ROSACE_BENCH_OPENS_IN="$LEAD" ROSACE_BENCH_SALE_FILE="$dir/sale.txt" \
        "$SEED_BIN" >"$dir/seed.log" 2>&1 \
        || { tail -n 30 "$dir/seed.log" >&2; die "$SETUP: bench_seed failed"; }
    read -r _ _ scarce plenty < <(head -n 1 "$dir/sessions.txt")
    read -r _ sale scarce_product plenty_product opens_at <"$dir/sale.txt"
    # Before the opening the sale's product page is not served (the opening is real).
    read -r _ token xsrf < <(sed -n 2p "$dir/sessions.txt")
    early=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 \
        -H "Cookie: rosace_session=$token; XSRF-TOKEN=$xsrf" "http://${ADDRS[0]}/product/$sale/$scarce_product")
    if [ "$(date +%s)" -lt "$opens_at" ]; then
        [ "$early" != 200 ] || note "$SETUP: the product page answered 200 before the opening"
    else
        note "$SETUP: seeding took past the opening: raise ROSACE_BENCH_LEAD"
    fi
    cat >"$dir/config.json" <<JSON
{"sessions": "$dir/sessions.txt", "scratch": "$dir", "hosts": [$(IFS=,; echo "${hosts[*]}")],
 "members": $MEMBERS, "window": $WINDOW, "procs": $PROCS, "member_deadline": $DEADLINE,
 "opens_at": $opens_at, "capacity": "${CAPACITY:-64 (default)}",
 "sale": {"id": $sale, "scarce_product": $scarce_product, "plenty_product": $plenty_product,
          "scarce_option": $scarce, "plenty_option": $plenty}}
JSON
    for ((k = 0; k < instances; k++)); do scrape "$k" before; done
    cpu_before=()
    for pid in "${PIDS[@]}"; do cpu_before+=("$(cpu_of "$pid")"); done
    load_before=$(cut -d' ' -f1-3 /proc/loadavg)
    machine_before=$(machine_cpu)
    pg_before=$(postgres_cpu)
    read -r overflows_before synretrans_before < <(tcp_counters)
    note "$SETUP: $MEMBERS members arrive over ${WINDOW}s from the opening at $(date -d "@$opens_at" +%T) (sale $sale, $UNITS units of option $scarce)"
    load_ok=1
    if [ "$LOAD_TOOL" = goose ]; then
        "$LOAD_BIN" "$dir/config.json" || load_ok=0
    else
        "$PY" "$LOAD" load "$dir/config.json" || load_ok=0
    fi
    load_after=$(cut -d' ' -f1-3 /proc/loadavg)
    machine_after=$(machine_cpu)
    pg_after=$(postgres_cpu)
    read -r overflows_after synretrans_after < <(tcp_counters)
    for ((k = 0; k < instances; k++)); do scrape "$k" after; done
    server_cpu=()
    for i in "${!PIDS[@]}"; do
        if ! kill -0 "${PIDS[$i]}" 2>/dev/null; then
            note "$SETUP: the server on ${ADDRS[$i]} died"; tail -n 20 "$dir/server-$i.log" >&2; load_ok=0
        fi
        server_cpu+=("$(awk -v a="${cpu_before[$i]}" -v b="$(cpu_of "${PIDS[$i]}")" 'BEGIN { printf "%.1f", b - a }')")
    done

    step "$SETUP: $MEMBERS members, $instances instance(s), $UNITS units of the scarce option, $(nproc) cores"
    python3 "$LOAD" report "$dir/config.json" | tee "$dir/report.txt" || load_ok=0
    echo "server CPU during the run: ${server_cpu[*]} s; load average before ${load_before}, after ${load_after}"
    awk -v m0="$machine_before" -v m1="$machine_after" -v p0="$pg_before" -v p1="$pg_after" -v e="$engine" \
        'BEGIN { printf "machine CPU during the run: %.1f s", m1 - m0; if (e == "postgres") printf " (PostgreSQL %.1f s)", p1 - p0; print "" }'
    echo "kernel: accept queue overflows $((overflows_after - overflows_before)), handshakes sent again $((synretrans_after - synretrans_before)) (the whole machine's)"
    oversold_total=0
    for option in "$scarce" "$plenty"; do
        read -r stock held sold lines < <(sql_row "$engine" "$db" \
            "SELECT stock, held, sold, (SELECT COALESCE(SUM(quantity), 0) FROM cart_items WHERE option_id = $option) FROM product_options WHERE id = $option")
        oversold=$((held + sold > stock ? held + sold - stock : 0))
        oversold_total=$((oversold_total + oversold))
        echo "option $option: stock $stock, held $held, sold $sold, units oversold $oversold"
        [ "$lines" = "$held" ] || { note "$SETUP: option $option: cart lines ($lines) differ from held units ($held)"; FAILED=1; }
    done
    [ "$oversold_total" = 0 ] || FAILED=1
    orders=$(sql_row "$engine" "$db" \
        "SELECT COUNT(*) FROM orders o JOIN members m ON m.id = o.member_id WHERE m.email LIKE 'bench-%' AND o.status = 'validated'")
    paid=$(grep -c ' paid ' "$dir"/load-*.log 2>/dev/null | awk -F: '{ s += $NF } END { print s + 0 }')
    echo "orders in the database: $orders; payments answered 200: $paid"
    [ "$orders" = "$paid" ] || { note "$SETUP: $paid payments answered 200 but $orders orders"; load_ok=0; }
    [ "$paid" -gt 0 ] || { note "$SETUP: nobody paid"; load_ok=0; }
    [ "$load_ok" = 1 ] || FAILED=1
    read -r _ _ rate page_p99 server_p99 queued tau < <(grep -m1 '^summary:' "$dir/report.txt" || echo "- - - - - - -")
    SUMMARY+=("$(printf '%-9s %7s %6s %11s %13s %13s %8s %6s %8s  %s' "$SETUP" "$MEMBERS" "$paid" "$rate" \
        "$page_p99" "$server_p99" "$queued" "$tau" "$oversold_total" "$load_after")")
    stop_servers
done

echo
echo "sale opening, $MEMBERS members over ${WINDOW}s, $(nproc) cores (load average now $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%-9s %7s %6s %11s %13s %13s %8s %6s %8s  %s\n' setup members paid purchases/s \
    "page p99 ms" "server p99 ms" "in line" "tau" oversold "load average"
for r in "${SUMMARY[@]}"; do echo "$r"; done
exit $FAILED
