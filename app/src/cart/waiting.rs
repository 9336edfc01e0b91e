//! The checkout waiting line: at most `capacity` payments run at once; beyond it members
//! get a ticket and wait their turn in arrival order (FIFO). A ticket that becomes ready
//! keeps a slot for [`READY_HOLD`]; unused, the slot goes to the next ticket.
//!
//! It lives in the database (`checkout_line`), not in the process, so that every instance
//! of the shop on one database shares one line and one capacity, and a member's payment
//! runs once at a time whichever instance they reach (single flight). Each step holds the
//! line's lock, so places and positions are one global first-come-first-served order:
//! SQLite runs it in its write transaction (`BEGIN IMMEDIATE`); PostgreSQL as one call of a
//! function of `migrations/routines/checkout_line.sql`, which takes an advisory lock. A
//! paying place is a lease: if its instance dies, the slot comes back after the lease
//! (`checkout_lease_secs`).
use sqlx::{Any, Row, Transaction};

use crate::model::cart::WaitingLine as WaitingLineView;
use crate::platform::db::{Backend, Db};

/// How long a ready ticket keeps its payment slot (seconds).
pub const READY_HOLD: i64 = 30;
/// How long a queued place is kept without its member asking for it (seconds); the page
/// asks again every `retryAfter` seconds (at most 10).
pub const QUEUE_KEEP: i64 = 60;

/// Key of the PostgreSQL advisory lock that orders the line's steps (one more than it is
/// the lock under which `Db::migrate` replaces the line's functions).
pub const LINE_LOCK: i64 = 0x5741_4954;

pub struct WaitingLine {
    db: Db,
    capacity: i64,
    /// How long a payment keeps its slot at most (seconds): longer than any payment
    /// takes (the provider call and the order's transaction), short enough that a slot
    /// held by a killed instance comes back soon.
    lease: i64,
}

/// A payment slot. [`Permit::release`] gives it back; a permit dropped unreleased (a
/// panic, a dropped future) gives it back in the background.
pub struct Permit {
    db: Db,
    ticket: String,
    released: bool,
}

impl Permit {
    pub async fn release(mut self) {
        self.released = true;
        if let Err(e) = free(&self.db, &self.ticket).await {
            // The lease lapses on its own and the slot comes back.
            tracing::warn!(error = %e, "cannot free a payment slot");
        }
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        if self.released {
            return;
        }
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            let (db, ticket) = (self.db.clone(), std::mem::take(&mut self.ticket));
            rt.spawn(async move {
                let _ = free(&db, &ticket).await;
            });
        }
    }
}

async fn free(db: &Db, ticket: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM checkout_line WHERE ticket = $1")
        .bind(ticket)
        .execute(&db.writes)
        .await
        .map(|_| ())
}

pub enum Admission {
    Admitted(Permit),
    Queued(WaitingLineView),
    /// This member's payment is already running (on this instance or another).
    AlreadyPaying,
}

fn view(ticket: &str, position: i64, capacity: i64) -> WaitingLineView {
    WaitingLineView {
        ticket: ticket.to_string(),
        position,
        retry_after: if position == 0 {
            0
        } else {
            (1 + position / capacity.max(1)).min(10)
        },
        ready: position == 0,
    }
}

fn new_ticket() -> String {
    // Random: a ticket names a member's place, so it must not be guessable.
    format!("wl{:032x}", rand::random::<u128>())
}

struct Place {
    ticket: String,
    seq: i64,
    state: String,
}

type Tx = Transaction<'static, Any>;

/// The line's lock on SQLite: its write transaction (`BEGIN IMMEDIATE`). PostgreSQL runs
/// the locked steps as functions that take an advisory lock ([`LINE_LOCK`]).
async fn lock_line(db: &Db) -> Result<Tx, sqlx::Error> {
    db.begin_contended().await
}

/// Drops lapsed places (abandoned tickets, unused ready slots, leases of dead instances)
/// and lets the oldest queued members into the free slots.
async fn promote(tx: &mut Tx, capacity: i64, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM checkout_line WHERE deadline <= $1")
        .bind(now)
        .execute(&mut **tx)
        .await?;
    // The free slots are counted in the same statement: on PostgreSQL each statement is a
    // round trip made while every other payment waits for the line's lock.
    sqlx::query(
        "UPDATE checkout_line SET state = 'ready', deadline = $1 WHERE ticket IN
           (SELECT ticket FROM checkout_line WHERE state = 'queued' ORDER BY seq
             LIMIT (SELECT CASE WHEN COUNT(*) < $2 THEN $2 - COUNT(*) ELSE 0 END
                      FROM checkout_line WHERE state <> 'queued'))",
    )
    .bind(now + READY_HOLD)
    .bind(capacity)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

async fn place_of(tx: &mut Tx, column: &str, value: Key<'_>) -> Result<Option<Place>, sqlx::Error> {
    let sql = format!("SELECT ticket, seq, state FROM checkout_line WHERE {column} = $1");
    let query = sqlx::query(&sql);
    let query = match value {
        Key::Ticket(t) => query.bind(t.to_string()),
        Key::Member(m) => query.bind(m),
    };
    let Some(row) = query.fetch_optional(&mut **tx).await? else {
        return Ok(None);
    };
    Ok(Some(Place {
        ticket: row.try_get("ticket")?,
        seq: row.try_get("seq")?,
        state: row.try_get("state")?,
    }))
}

enum Key<'a> {
    Ticket(&'a str),
    Member(i64),
}

/// 1-based position of a queued place.
async fn position(tx: &mut Tx, seq: i64) -> Result<i64, sqlx::Error> {
    sqlx::query("SELECT COUNT(*) FROM checkout_line WHERE state = 'queued' AND seq <= $1")
        .bind(seq)
        .fetch_one(&mut **tx)
        .await?
        .try_get(0)
}

async fn set_state(
    tx: &mut Tx,
    ticket: &str,
    state: &str,
    deadline: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE checkout_line SET state = $1, deadline = $2 WHERE ticket = $3")
        .bind(state)
        .bind(deadline)
        .bind(ticket)
        .execute(&mut **tx)
        .await
        .map(|_| ())
}

/// What a status request can tell without the line's lock.
enum Quick {
    Unknown,
    Answer(WaitingLineView),
    /// The member's turn may have come (or their place lapsed): ask under the lock.
    Locked,
}

impl WaitingLine {
    pub fn new(db: Db, capacity: usize, lease_secs: i64) -> WaitingLine {
        WaitingLine {
            db,
            capacity: capacity.min(i64::MAX as usize) as i64,
            lease: lease_secs,
        }
    }

    fn permit(&self, ticket: String) -> Permit {
        Permit {
            db: self.db.clone(),
            ticket,
            released: false,
        }
    }

    /// Admits a member's payment now, or queues it. A member holds one place at a time,
    /// found by their id (the ticket they send is not needed, so nobody can use another's
    /// ready ticket to jump the line); a member whose payment is running is told so rather
    /// than paying twice.
    pub async fn admit(&self, member_id: i64, now: i64) -> Result<Admission, sqlx::Error> {
        if self.db.backend == Backend::Postgres {
            return self.admit_in_postgres(member_id, now).await;
        }
        let mut tx = lock_line(&self.db).await?;
        promote(&mut tx, self.capacity, now).await?;
        let answer = match place_of(&mut tx, "member_id", Key::Member(member_id)).await? {
            Some(p) if p.state == "paying" => Admission::AlreadyPaying,
            // A ready place is the member's whichever ticket they send: it is their turn.
            Some(p) if p.state == "ready" => {
                set_state(&mut tx, &p.ticket, "paying", now + self.lease).await?;
                Admission::Admitted(self.permit(p.ticket))
            }
            Some(p) => {
                set_state(&mut tx, &p.ticket, "queued", now + QUEUE_KEEP).await?;
                let at = position(&mut tx, p.seq).await?;
                Admission::Queued(view(&p.ticket, at, self.capacity))
            }
            None => {
                // One round trip under the line's lock: the queued and busy places, and
                // the next place's number.
                let row = sqlx::query(
                    "SELECT (SELECT COUNT(*) FROM checkout_line WHERE state = 'queued'),
                            (SELECT COUNT(*) FROM checkout_line WHERE state <> 'queued'),
                            (SELECT COALESCE(MAX(seq), 0) + 1 FROM checkout_line)",
                )
                .fetch_one(&mut *tx)
                .await?;
                let (queued, busy, seq): (i64, i64, i64) =
                    (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
                let t = new_ticket();
                let admit = queued == 0 && busy < self.capacity;
                let (state, deadline) = if admit {
                    ("paying", now + self.lease)
                } else {
                    ("queued", now + QUEUE_KEEP)
                };
                sqlx::query(
                    "INSERT INTO checkout_line (ticket, member_id, seq, state, deadline, queued_at)
                     VALUES ($1, $2, $3, $4, $5, $6)",
                )
                .bind(&t)
                .bind(member_id)
                .bind(seq)
                .bind(state)
                .bind(deadline)
                .bind(now)
                .execute(&mut *tx)
                .await?;
                if admit {
                    Admission::Admitted(self.permit(t))
                } else {
                    Admission::Queued(view(&t, queued + 1, self.capacity))
                }
            }
        };
        tx.commit().await?;
        Ok(answer)
    }

    /// A queued member's position from reads only, when promoting the line could not make
    /// it their turn: the places ahead that are still live outnumber the slots that are
    /// free or held by lapsed places, the only ones a promotion hands out. Asking keeps
    /// the place ([`QUEUE_KEEP`]), by one row update. A snapshot
    /// a moment old at worst makes a member wait one more `retryAfter`; the order of the
    /// line is only ever changed under the lock.
    async fn quick_status(&self, ticket: &str, now: i64) -> Result<Quick, sqlx::Error> {
        let Some(row) =
            sqlx::query("SELECT seq, state, deadline FROM checkout_line WHERE ticket = $1")
                .bind(ticket)
                .fetch_optional(&self.db.pool)
                .await?
        else {
            return Ok(Quick::Unknown);
        };
        let (seq, state, deadline): (i64, String, i64) =
            (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
        if state != "queued" || deadline <= now {
            return Ok(Quick::Locked);
        }
        let row = sqlx::query(
            "SELECT
               (SELECT COUNT(*) FROM checkout_line
                 WHERE state = 'queued' AND seq <= $1 AND deadline > $2),
               (SELECT COUNT(*) FROM checkout_line WHERE state <> 'queued' AND deadline > $2)",
        )
        .bind(seq)
        .bind(now)
        .fetch_one(&self.db.pool)
        .await?;
        let (at, busy): (i64, i64) = (row.try_get(0)?, row.try_get(1)?);
        if at <= self.capacity - busy {
            return Ok(Quick::Locked);
        }
        sqlx::query(
            "UPDATE checkout_line SET deadline = $1
              WHERE ticket = $2 AND state = 'queued' AND deadline > $3",
        )
        .bind(now + QUEUE_KEEP)
        .bind(ticket)
        .bind(now)
        .execute(&self.db.writes)
        .await?;
        Ok(Quick::Answer(view(ticket, at, self.capacity)))
    }

    /// Position of a ticket: 0 and ready when it is the member's turn; `None` if unknown
    /// or lapsed. Asking keeps a queued place.
    pub async fn status(
        &self,
        ticket: &str,
        now: i64,
    ) -> Result<Option<WaitingLineView>, sqlx::Error> {
        // Anyone may ask (no session needed): a made-up ticket is answered from a read,
        // so a flood of them never takes the write lock the cart needs. So is a member
        // whose turn cannot have come: at a sale opening thousands of queued members ask
        // every few seconds, and taking the line's lock for each of them made the line
        // itself the bottleneck (bench-sale-opening.sh on PostgreSQL).
        match self.quick_status(ticket, now).await? {
            Quick::Unknown => return Ok(None),
            Quick::Answer(view) => return Ok(Some(view)),
            Quick::Locked => {}
        }
        if self.db.backend == Backend::Postgres {
            return self.status_in_postgres(ticket, now).await;
        }
        let mut tx = lock_line(&self.db).await?;
        promote(&mut tx, self.capacity, now).await?;
        let answer = match place_of(&mut tx, "ticket", Key::Ticket(ticket)).await? {
            None => None,
            Some(p) if p.state == "queued" => {
                set_state(&mut tx, &p.ticket, "queued", now + QUEUE_KEEP).await?;
                let at = position(&mut tx, p.seq).await?;
                Some(view(ticket, at, self.capacity))
            }
            Some(_) => Some(view(ticket, 0, self.capacity)),
        };
        tx.commit().await?;
        Ok(answer)
    }

    /// [`WaitingLine::admit`] on PostgreSQL: the same steps in one function call
    /// (`migrations/routines/checkout_line.sql`), one round trip under the line's lock
    /// instead of about ten. At a 5,000-member sale opening every payment and every member
    /// whose turn came took the lock in turn, and each round trip made under it waited
    /// for a core beside the pages, the load and the database.
    async fn admit_in_postgres(&self, member_id: i64, now: i64) -> Result<Admission, sqlx::Error> {
        let row = sqlx::query(
            "SELECT o_outcome, o_ticket, o_position FROM rosace_line_admit($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(LINE_LOCK)
        .bind(member_id)
        .bind(now)
        .bind(self.capacity)
        .bind(self.lease)
        .bind(READY_HOLD)
        .bind(QUEUE_KEEP)
        .bind(new_ticket())
        .fetch_one(&self.db.contended)
        .await?;
        let (outcome, ticket, position): (String, String, i64) =
            (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
        Ok(match outcome.as_str() {
            "paying" => Admission::AlreadyPaying,
            "admitted" => Admission::Admitted(self.permit(ticket)),
            _ => Admission::Queued(view(&ticket, position, self.capacity)),
        })
    }

    /// The locked part of [`WaitingLine::status`] on PostgreSQL, in one function call.
    async fn status_in_postgres(
        &self,
        ticket: &str,
        now: i64,
    ) -> Result<Option<WaitingLineView>, sqlx::Error> {
        let position: Option<i64> =
            sqlx::query_scalar("SELECT o_position FROM rosace_line_status($1, $2, $3, $4, $5, $6)")
                .bind(LINE_LOCK)
                .bind(ticket)
                .bind(now)
                .bind(self.capacity)
                .bind(READY_HOLD)
                .bind(QUEUE_KEEP)
                .fetch_optional(&self.db.contended)
                .await?;
        Ok(position.map(|at| view(ticket, at, self.capacity)))
    }
}
