-- Experiments (A/B, issue #16, spec 000 §6-§7). One row per experiment and visitor: the
-- variation the deterministic bucketing gave, when it was first and last shown, and how
-- many pages showed it. `visitor` is `a:<anonymous id>` or `m:<member id>`; `member_id` is
-- the member (an anonymous row gets it when the same browser is seen signed in), so the
-- report can count the paid orders that followed.
CREATE TABLE experiment_assignments (
    experiment TEXT NOT NULL,
    visitor TEXT NOT NULL,
    variation TEXT NOT NULL,
    site_id BIGINT NOT NULL,
    member_id BIGINT,
    assigned_at BIGINT NOT NULL,
    last_exposed_at BIGINT NOT NULL,
    exposures BIGINT NOT NULL,
    PRIMARY KEY (experiment, visitor)
);
CREATE INDEX experiment_assignments_visitor ON experiment_assignments (visitor);
CREATE INDEX experiment_assignments_member ON experiment_assignments (member_id);
