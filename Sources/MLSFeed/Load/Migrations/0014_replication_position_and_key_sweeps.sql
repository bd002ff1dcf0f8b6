ALTER TABLE replication_state
    DROP COLUMN keys_at_mark,
    ADD COLUMN mark_key text,
    ADD COLUMN caught_up boolean NOT NULL DEFAULT true,
    ADD COLUMN swept_at timestamptz;
ALTER TABLE ingest_runs DROP CONSTRAINT ingest_runs_mode_check;
ALTER TABLE ingest_runs ADD CONSTRAINT ingest_runs_mode_check
    CHECK (mode IN ('incremental', 'full', 'sweep'));