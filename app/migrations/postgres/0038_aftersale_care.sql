-- Customer care's after-sale answers. `order_events.reason`: what the member is told
-- about a step an operator took (a return's denial), apart from the internal note.
-- A rose-deal retry (self-service: the codes are re-issued at once) waits in the returns
-- queue until an operator has looked at it (the partner may need to hear of a faulty
-- code); who and when.
ALTER TABLE order_events ADD COLUMN reason TEXT;
ALTER TABLE rosedeal_retries ADD COLUMN handled_at BIGINT;
ALTER TABLE rosedeal_retries ADD COLUMN handled_by BIGINT REFERENCES operators (id);
CREATE INDEX rosedeal_retries_waiting ON rosedeal_retries (created_at) WHERE handled_at IS NULL;
