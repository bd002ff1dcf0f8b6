CREATE TABLE replication_state (
    pipeline text NOT NULL,
    source text NOT NULL,
    resource text NOT NULL,
    mark timestamptz,
    keys_at_mark text[] NOT NULL DEFAULT '{}',
    run_id bigint NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (pipeline, source, resource)
);
CREATE TABLE request_budgets (
    source text NOT NULL,
    span text NOT NULL CHECK (span IN ('hour', 'day')),
    window_start timestamptz NOT NULL,
    requests bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (source, span, window_start)
);
ALTER TABLE ingest_runs DROP CONSTRAINT ingest_runs_status_check;
ALTER TABLE ingest_runs ADD CONSTRAINT ingest_runs_status_check
    CHECK (status IN ('running', 'succeeded', 'failed', 'interrupted', 'unchanged', 'paused'));
ALTER TABLE ingest_runs ADD COLUMN replication_mark timestamptz;