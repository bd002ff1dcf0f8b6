ALTER TABLE ingest_runs
    ADD COLUMN as_of timestamptz,
    ADD COLUMN complete boolean,
    ADD COLUMN incomplete_reasons text[] NOT NULL DEFAULT '{}',
    ADD COLUMN reconciled boolean NOT NULL DEFAULT false,
    ADD COLUMN matched_run bigint,
    ADD COLUMN agents_unchanged bigint NOT NULL DEFAULT 0,
    ADD COLUMN removed_characters bigint NOT NULL DEFAULT 0,
    ADD COLUMN sample_rejects text[] NOT NULL DEFAULT '{}';
CREATE INDEX ingest_runs_source_idx ON ingest_runs (source, id DESC) WHERE status = 'succeeded';
ALTER TABLE listings ADD COLUMN off_market_as_of timestamptz;