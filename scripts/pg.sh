#!/usr/bin/env bash
# scripts/pg.sh — a throwaway local PostgreSQL for tests, from Debian's packages.
#
#   scripts/pg.sh start          start it (initialising the data folder on first use),
#                                make role "rosace" (password "rosace") and database
#                                "rosace", wait until ready, print the DATABASE_URL
#   scripts/pg.sh stop           stop it (nothing to do when it is not running)
#   scripts/pg.sh url [DB]       print the DATABASE_URL (of database DB, default rosace)
#   scripts/pg.sh reset DB       drop and recreate database DB owned by rosace (starts
#                                the server if needed) and print its URL
#   scripts/pg.sh status         say whether it runs (exit 0) or not (exit 3)
#
# stdout carries only the URL (one line), so `DATABASE_URL=$(scripts/pg.sh start)` works;
# progress and errors go to stderr.
#
# Settings (environment):
#   ROSACE_PG_DIR   data folder, also holds the unix socket and server.log
#                   (default /tmp/rosace-pg)
#   ROSACE_PG_PORT  TCP port on 127.0.0.1 (default 25432: below the kernel's ephemeral
#                   range, 32768-60999, so no outgoing connection holds it)
#   ROSACE_PG_BIN   folder with initdb/pg_ctl/postgres/psql (default: the highest
#                   /usr/lib/postgresql/<ver>/bin)
#
# PostgreSQL refuses to run as root: as root this script runs the server as Debian's
# "postgres" system user (runuser -u postgres --); as a normal user, as that user.
# Durability is off (fsync, synchronous_commit, full_page_writes): test data only.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

case ${1:-} in
    -h | --help | help) usage_from_header "$0"; exit 0 ;;
esac

PG_DIR=${ROSACE_PG_DIR:-/tmp/rosace-pg}
PG_PORT=${ROSACE_PG_PORT:-25432}
PG_HOST=127.0.0.1
APP_ROLE=rosace
APP_PASSWORD=rosace
APP_DB=rosace
SUPERUSER=postgres

usage() { die_usage "scripts/pg.sh start | stop | url [DB] | reset DB | status"; }

case $PG_PORT in '' | *[!0-9]*) die "ROSACE_PG_PORT must be a number, not '$PG_PORT'" ;; esac
case $PG_DIR in /*) ;; *) PG_DIR=$PWD/$PG_DIR ;; esac
# The postgres user may not be allowed into the caller's working directory.
cd /

url_for() {
    printf 'postgres://%s:%s@%s:%s/%s\n' "$APP_ROLE" "$APP_PASSWORD" "$PG_HOST" "$PG_PORT" "$1"
}

valid_db_name() {
    [[ $1 =~ ^[A-Za-z_][A-Za-z0-9_]{0,62}$ ]]
}

# Server binaries: Debian's, highest version. /usr/local/bin may hold wrappers or links
# of its own, so PATH is not used.
find_pg_bin() {
    local d best=""
    if [ -n "${ROSACE_PG_BIN:-}" ]; then
        printf '%s\n' "$ROSACE_PG_BIN"
        return 0
    fi
    for d in /usr/lib/postgresql/*/bin; do
        if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ]; then
            best=$(printf '%s\n%s\n' "$best" "$d" | sed '/^$/d' | sort -V | tail -n 1)
        fi
    done
    [ -n "$best" ] || die "no PostgreSQL server under /usr/lib/postgresql/*/bin: install the Debian package postgresql (scripts/setup.sh)"
    printf '%s\n' "$best"
}

if [ "$(id -u)" -eq 0 ]; then
    getent passwd postgres >/dev/null || die "running as root but there is no 'postgres' user (install the Debian package postgresql)"
    RUN_USER=postgres
    as_pg() { runuser -u postgres -- "$@"; }
else
    RUN_USER=$(id -un)
    as_pg() { "$@"; }
fi

PG_BIN=
pg_bin() {
    [ -n "$PG_BIN" ] || PG_BIN=$(find_pg_bin)
    printf '%s\n' "$PG_BIN"
}

# psql as the superuser through the unix socket in the data folder (trust auth there).
psql_super() {
    as_pg "$(pg_bin)/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_DIR" -p "$PG_PORT" -U "$SUPERUSER" "$@"
}

# Our server runs: pg_ctl says so and its socket is in our data folder.
our_server_runs() {
    [ -f "$PG_DIR/PG_VERSION" ] || return 1
    as_pg "$(pg_bin)/pg_ctl" -D "$PG_DIR" status >/dev/null 2>&1 || return 1
    [ -S "$PG_DIR/.s.PGSQL.$PG_PORT" ]
}

# Something accepts PostgreSQL connections on 127.0.0.1:PORT.
port_answers() {
    "$(pg_bin)/pg_isready" -q -h "$PG_HOST" -p "$PG_PORT" -t 2 >/dev/null 2>&1
}

prepare_dir() {
    if [ -e "$PG_DIR" ]; then
        local owner
        owner=$(stat -c %U "$PG_DIR")
        [ "$owner" = "$RUN_USER" ] \
            || die "$PG_DIR belongs to '$owner', but the server would run as '$RUN_USER': remove it or set ROSACE_PG_DIR"
    else
        mkdir -p "$(dirname "$PG_DIR")"
        if [ "$(id -u)" -eq 0 ]; then
            as_pg test -x "$(dirname "$PG_DIR")" \
                || die "the postgres user cannot enter $(dirname "$PG_DIR"): choose another ROSACE_PG_DIR (default /tmp/rosace-pg)"
            install -d -m 700 -o postgres -g "$(id -gn postgres)" "$PG_DIR"
        else
            install -d -m 700 "$PG_DIR"
        fi
    fi
    chmod 700 "$PG_DIR"
}

init_cluster() {
    [ -f "$PG_DIR/PG_VERSION" ] && return 0
    if [ -n "$(ls -A "$PG_DIR")" ]; then
        die "$PG_DIR is not empty and holds no PostgreSQL cluster: remove it or set ROSACE_PG_DIR"
    fi
    note "initialising a test cluster in $PG_DIR"
    as_pg "$(pg_bin)/initdb" -D "$PG_DIR" -U "$SUPERUSER" --encoding=UTF8 --no-locale \
        --auth-local=trust --auth-host=scram-sha-256 --no-sync >"$PG_DIR.initdb.log" 2>&1 \
        || { cat "$PG_DIR.initdb.log" >&2; die "initdb failed"; }
    rm -f "$PG_DIR.initdb.log"
    printf "\n# Test settings written by scripts/pg.sh (rewritten at each start)\ninclude_if_exists = 'rosace.conf'\n" \
        | as_pg tee -a "$PG_DIR/postgresql.conf" >/dev/null
}

write_settings() {
    as_pg tee "$PG_DIR/rosace.conf" >/dev/null <<EOF
# Written by scripts/pg.sh at each start: a throwaway test server.
listen_addresses = '$PG_HOST'
port = $PG_PORT
unix_socket_directories = '$PG_DIR'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200
shared_buffers = 128MB
log_min_messages = warning
EOF
}

ensure_role_and_db() {
    psql_super -d postgres >&2 <<EOF
SELECT format('CREATE ROLE %I LOGIN CREATEDB PASSWORD %L', '$APP_ROLE', '$APP_PASSWORD')
 WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$APP_ROLE')
\\gexec
ALTER ROLE $APP_ROLE LOGIN CREATEDB PASSWORD '$APP_PASSWORD';
SELECT format('CREATE DATABASE %I OWNER %I', '$APP_DB', '$APP_ROLE')
 WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$APP_DB')
\\gexec
EOF
}

wait_ready() {
    local i
    for i in $(seq 1 60); do
        if port_answers; then return 0; fi
        [ "$i" -eq 60 ] || sleep 0.5
    done
    return 1
}

start() {
    if our_server_runs; then
        ensure_role_and_db
        url_for "$APP_DB"
        return 0
    fi
    if port_answers; then
        note "a PostgreSQL server that does not use $PG_DIR already answers on $PG_HOST:$PG_PORT; using it as it is"
        url_for "$APP_DB"
        return 0
    fi
    prepare_dir
    init_cluster
    write_settings
    # A server killed without a clean stop (machine restart) may leave its pid file.
    if [ -f "$PG_DIR/postmaster.pid" ] && ! as_pg "$(pg_bin)/pg_ctl" -D "$PG_DIR" status >/dev/null 2>&1; then
        as_pg rm -f "$PG_DIR/postmaster.pid"
    fi
    if ! as_pg "$(pg_bin)/pg_ctl" -D "$PG_DIR" -l "$PG_DIR/server.log" -w -t 60 start >/dev/null; then
        tail -n 30 "$PG_DIR/server.log" >&2 || true
        die "PostgreSQL did not start (log: $PG_DIR/server.log)"
    fi
    wait_ready || die "PostgreSQL started but does not answer on $PG_HOST:$PG_PORT (log: $PG_DIR/server.log)"
    ensure_role_and_db
    url_for "$APP_DB"
}

stop() {
    if [ -f "$PG_DIR/PG_VERSION" ] && as_pg "$(pg_bin)/pg_ctl" -D "$PG_DIR" status >/dev/null 2>&1; then
        as_pg "$(pg_bin)/pg_ctl" -D "$PG_DIR" -m fast -w -t 60 stop >/dev/null
        note "stopped"
    else
        note "not running"
    fi
}

reset() {
    local db=$1
    valid_db_name "$db" || die "bad database name '$db' (letters, digits, _; not starting with a digit)"
    case $db in postgres | template0 | template1) die "refusing to reset '$db'" ;; esac
    if ! our_server_runs; then
        start >/dev/null
    fi
    psql_super -d postgres >&2 <<EOF
SET client_min_messages = warning;
DROP DATABASE IF EXISTS "$db" WITH (FORCE);
CREATE DATABASE "$db" OWNER $APP_ROLE;
EOF
    url_for "$db"
}

cmd=${1:-}
if [ $# -gt 0 ]; then shift; fi
case $cmd in
    start) [ $# -eq 0 ] || usage; start ;;
    stop) [ $# -eq 0 ] || usage; stop ;;
    url)
        [ $# -le 1 ] || usage
        db=${1:-$APP_DB}
        valid_db_name "$db" || die "bad database name '$db'"
        url_for "$db"
        ;;
    reset) [ $# -eq 1 ] || usage; reset "$1" ;;
    status)
        [ $# -eq 0 ] || usage
        if our_server_runs; then
            note "running on $PG_HOST:$PG_PORT, data in $PG_DIR"
        else
            note "not running"
            exit 3
        fi
        ;;
    *) usage ;;
esac
