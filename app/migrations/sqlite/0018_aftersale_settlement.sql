-- After the sale, the remaining gaps of issue #14: how an order was really paid, what a
-- return or a refund gave back, and the files of a question the help articles answered
-- (kept until the member rates the answer: a "not helpful" ticket carries them).

-- 'card' (a card typed at checkout), 'wallet' (a card saved in the member's wallet),
-- 'voucher' (vouchers covered the whole amount: nothing charged). Orders before this
-- migration were all paid by card.
ALTER TABLE orders ADD COLUMN payment_method TEXT NOT NULL DEFAULT 'card';
-- The last four digits of the card, when a card paid.
ALTER TABLE orders ADD COLUMN payment_card_last4 TEXT;
-- What refunds gave back so far, in cents (returns and rose-deal refunds).
ALTER TABLE orders ADD COLUMN refunded_amount INTEGER NOT NULL DEFAULT 0;

-- A return's refund (the returned lines at the price paid), set when the refund starts,
-- and when the return was settled (refunded or denied).
ALTER TABLE returns ADD COLUMN refund_amount INTEGER;
ALTER TABLE returns ADD COLUMN settled_at INTEGER;

CREATE TABLE help_evaluation_files (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    evaluation_id TEXT NOT NULL REFERENCES help_evaluations (id),
    member_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size INTEGER NOT NULL,
    content BLOB NOT NULL
);
CREATE INDEX help_evaluation_files_evaluation ON help_evaluation_files (evaluation_id);
