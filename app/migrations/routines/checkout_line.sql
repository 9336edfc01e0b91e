-- The checkout waiting line's steps on PostgreSQL (app/src/cart/waiting.rs), as functions:
-- each step is then one round trip, and the line's lock is held for the step's own work
-- only, not for the ten round trips a client-side transaction took (each waiting for a core
-- at a sale opening, while every other payment waited for the lock).
--
-- Not a numbered migration: these are code, replaced as a whole whenever the shop starts
-- (`Db::migrate`), so the Rust that calls them and their text change together. The start
-- takes a lock so that two instances starting at once do not replace them side by side.
-- SQLite runs the same steps from Rust inside its write transaction.
BEGIN;
SELECT pg_advisory_xact_lock(1463896405);

-- Drops lapsed places (abandoned tickets, unused ready slots, leases of dead instances) and
-- lets the oldest queued members into the free slots. The caller holds the line's lock.
CREATE OR REPLACE FUNCTION rosace_line_promote(p_now BIGINT, p_capacity BIGINT, p_ready_hold BIGINT)
RETURNS VOID LANGUAGE plpgsql AS $fn$
BEGIN
    DELETE FROM checkout_line WHERE deadline <= p_now;
    UPDATE checkout_line SET state = 'ready', deadline = p_now + p_ready_hold WHERE ticket IN
      (SELECT ticket FROM checkout_line WHERE state = 'queued' ORDER BY seq
        LIMIT (SELECT CASE WHEN COUNT(*) < p_capacity THEN p_capacity - COUNT(*) ELSE 0 END
                 FROM checkout_line WHERE state <> 'queued'));
END
$fn$;

-- A member's payment admitted ('admitted', with their place's ticket), queued ('queued',
-- with their ticket and 1-based position) or already running ('paying'). `p_ticket` is the
-- ticket a new place gets.
CREATE OR REPLACE FUNCTION rosace_line_admit(
    p_lock BIGINT, p_member BIGINT, p_now BIGINT, p_capacity BIGINT, p_lease BIGINT,
    p_ready_hold BIGINT, p_queue_keep BIGINT, p_ticket TEXT)
RETURNS TABLE (o_outcome TEXT, o_ticket TEXT, o_position BIGINT) LANGUAGE plpgsql AS $fn$
DECLARE
    v_ticket TEXT;
    v_seq BIGINT;
    v_state TEXT;
    v_queued BIGINT;
    v_busy BIGINT;
    v_next BIGINT;
BEGIN
    -- Held to the end of the caller's transaction: the statement that called this function.
    PERFORM pg_advisory_xact_lock(p_lock);
    PERFORM rosace_line_promote(p_now, p_capacity, p_ready_hold);
    SELECT l.ticket, l.seq, l.state INTO v_ticket, v_seq, v_state
      FROM checkout_line l WHERE l.member_id = p_member;
    IF FOUND THEN
        IF v_state = 'paying' THEN
            RETURN QUERY SELECT 'paying'::TEXT, v_ticket, 0::BIGINT;
        ELSIF v_state = 'ready' THEN
            UPDATE checkout_line SET state = 'paying', deadline = p_now + p_lease
             WHERE ticket = v_ticket;
            RETURN QUERY SELECT 'admitted'::TEXT, v_ticket, 0::BIGINT;
        ELSE
            UPDATE checkout_line SET state = 'queued', deadline = p_now + p_queue_keep
             WHERE ticket = v_ticket;
            RETURN QUERY SELECT 'queued'::TEXT, v_ticket,
                (SELECT COUNT(*) FROM checkout_line WHERE state = 'queued' AND seq <= v_seq);
        END IF;
        RETURN;
    END IF;
    SELECT (SELECT COUNT(*) FROM checkout_line WHERE state = 'queued'),
           (SELECT COUNT(*) FROM checkout_line WHERE state <> 'queued'),
           (SELECT COALESCE(MAX(seq), 0) + 1 FROM checkout_line)
      INTO v_queued, v_busy, v_next;
    IF v_queued = 0 AND v_busy < p_capacity THEN
        INSERT INTO checkout_line (ticket, member_id, seq, state, deadline, queued_at)
        VALUES (p_ticket, p_member, v_next, 'paying', p_now + p_lease, p_now);
        RETURN QUERY SELECT 'admitted'::TEXT, p_ticket, 0::BIGINT;
    ELSE
        INSERT INTO checkout_line (ticket, member_id, seq, state, deadline, queued_at)
        VALUES (p_ticket, p_member, v_next, 'queued', p_now + p_queue_keep, p_now);
        RETURN QUERY SELECT 'queued'::TEXT, p_ticket, v_queued + 1;
    END IF;
END
$fn$;

-- A ticket's position under the line's lock: no row when the ticket is unknown or lapsed,
-- 0 when it is the member's turn; asking keeps a queued place.
CREATE OR REPLACE FUNCTION rosace_line_status(
    p_lock BIGINT, p_ticket TEXT, p_now BIGINT, p_capacity BIGINT, p_ready_hold BIGINT,
    p_queue_keep BIGINT)
RETURNS TABLE (o_position BIGINT) LANGUAGE plpgsql AS $fn$
DECLARE
    v_seq BIGINT;
    v_state TEXT;
BEGIN
    PERFORM pg_advisory_xact_lock(p_lock);
    PERFORM rosace_line_promote(p_now, p_capacity, p_ready_hold);
    SELECT l.seq, l.state INTO v_seq, v_state FROM checkout_line l WHERE l.ticket = p_ticket;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF v_state = 'queued' THEN
        UPDATE checkout_line SET deadline = p_now + p_queue_keep WHERE ticket = p_ticket;
        RETURN QUERY SELECT COUNT(*) FROM checkout_line WHERE state = 'queued' AND seq <= v_seq;
    ELSE
        RETURN QUERY SELECT 0::BIGINT;
    END IF;
END
$fn$;

COMMIT;
