-- The back office's controls of the experiments: an experiment without a row runs with the
-- weights of the settings (`ROSACE_EXPERIMENT_WEIGHTS` or the defaults). `weights` is NULL
-- until an operator reweighs (then `variation:weight,...`, every variation of the
-- experiment), so a stop or a start keeps following the settings' weights. `version` goes
-- up with every change: a form carries the one its page showed and the UPDATE checks it,
-- so a second operator acting on a page that is no longer true is told, not obeyed.
CREATE TABLE experiment_controls (
    experiment TEXT PRIMARY KEY,
    status TEXT NOT NULL CHECK (status IN ('running', 'stopped')),
    weights TEXT,
    version INTEGER NOT NULL DEFAULT 0,
    updated_by_id INTEGER REFERENCES operators (id),
    updated_by TEXT NOT NULL DEFAULT '',
    updated_at INTEGER NOT NULL DEFAULT 0
);
