-- The vouchers the onboarding popins gave (spec 000 §3 reward kinds: welcome voucher 1,
-- email opt-in 2, CRM opt-in 3): one of each kind per member, whatever the answers
-- (app/src/onboarding/store.rs `answer`); the voucher is NULL only inside the answer's
-- transaction, between the claim and the voucher.
CREATE TABLE onboarding_rewards (
    member_id INTEGER NOT NULL REFERENCES members (id),
    kind INTEGER NOT NULL,
    voucher_id INTEGER REFERENCES vouchers (id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (member_id, kind)
);
