-- The checkout waiting line lives in the database so that every instance of the shop on
-- one database shares one line, one payment capacity and one payment per member at a time
-- (it was kept per process). A row is a member's place: queued (kept while they poll),
-- ready (a slot kept for them) or paying (a lease that lapses if the instance dies).
CREATE TABLE checkout_line (
    ticket TEXT PRIMARY KEY,
    member_id BIGINT NOT NULL UNIQUE,
    seq BIGINT NOT NULL,
    state TEXT NOT NULL,
    deadline BIGINT NOT NULL
);
CREATE INDEX checkout_line_state_seq ON checkout_line (state, seq);
