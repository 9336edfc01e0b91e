#!/usr/bin/env bash
# scripts/backup.sh — a consistent online backup of the shop's embedded SQLite database,
# taken while the shop serves (no need to stop it).
#
#   scripts/backup.sh [FILE]      default backups/rosace-YYYYMMDD-HHMMSS.db (ROSACE_BACKUP_DIR)
#
# Runs `server backup FILE` (SQLite's VACUUM INTO: the copy holds exactly the transactions
# committed before it began; the shop keeps writing meanwhile). The database is the one the
# shop uses: DATABASE_URL, else ROSACE_DATA_DIR/rosace.db (default data/). Uses the newest
# of target/release/server and target/debug/server that knows the command, building the
# debug one when there is neither. A backup never overwrites a file.
#
# Restore: stop the shop, move data/rosace.db, data/rosace.db-wal and data/rosace.db-shm
# aside, copy FILE to data/rosace.db, start the shop.
# PostgreSQL (DATABASE_URL=postgres://...): use its tools, for example
#   pg_dump --format=custom --file=rosace.dump "$DATABASE_URL"     (consistent snapshot)
#   pg_restore --clean --if-exists --dbname="$DATABASE_URL" rosace.dump
# or base backups with WAL archiving for point-in-time recovery (README, Backups).
#
# The file is readable by its owner only; a destination inside the folder that holds the
# wallet key (data/wallet.key) is refused.
#
# Environment: DATABASE_URL, ROSACE_DATA_DIR, ROSACE_BACKUP_DIR, CARGO_TARGET_DIR.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
case ${1:-} in -h | --help) usage_from_header "$0"; exit 0 ;; esac
cd "$ROOT"

case ${DATABASE_URL:-} in
    postgres*) die "DATABASE_URL is PostgreSQL: use pg_dump or base backups (scripts/backup.sh -h)" ;;
esac
# Outside the data folder: a copy of that folder (wallet.key in it) must not carry the backups.
DEST=${1:-${ROSACE_BACKUP_DIR:-backups}/rosace-$(date -u +%Y%m%d-%H%M%S).db}
[ -e "$DEST" ] && die "$DEST exists; a backup never overwrites"

TARGET=$(target_dir)
BIN=
for candidate in "$TARGET/release/server" "$TARGET/debug/server"; do
    if [ -x "$candidate" ] && { [ -z "$BIN" ] || [ "$candidate" -nt "$BIN" ]; }; then
        BIN=$candidate
    fi
done
if [ -z "$BIN" ]; then
    note "building the shop binary (cargo build -p server)"
    cargo build -p server >&2
    BIN=$TARGET/debug/server
fi
# A binary older than the backup command would start a shop instead.
grep -q "usage: server backup" "$BIN" || die "$BIN predates the backup command: rebuild it (cargo build -p server)"
exec "$BIN" backup "$DEST"
