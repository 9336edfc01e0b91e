-- When the order's confirmation email went out (0: not yet). Set once, before sending, by
-- whoever mails it first: a payment answered again by its cart hash never mails twice.
ALTER TABLE orders ADD COLUMN confirmation_mailed_at INTEGER NOT NULL DEFAULT 0;
