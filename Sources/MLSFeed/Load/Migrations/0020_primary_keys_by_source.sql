-- The primary keys of ingest_runs, listing_history and rejects become (source, id), like every other key of a table
-- with a source column: a unique index holds only within one partition or shard, so a schema split by source needs
-- each one to hold it (docs/scaling.md). The ids still come from their sequences and stay unique by themselves.
-- Nothing is rewritten (source and id are NOT NULL already): each new index is one build, under its table's lock.
-- A run is still found by its id alone (`mlsfeed runs show ID`, `rejects --run ID`, the newest runs, prune), so
-- ingest_runs keeps a plain index on id. A run's rejects are read in the order they were stored, a page at a time
-- after the last id read: an index on (run_id, id) reads exactly each page (the planner would not page through the
-- new key with the run as a filter). No statement finds a history row by its id.
ALTER TABLE ingest_runs DROP CONSTRAINT ingest_runs_pkey;
ALTER TABLE ingest_runs ADD CONSTRAINT ingest_runs_pkey PRIMARY KEY (source, id);
CREATE INDEX ingest_runs_id_idx ON ingest_runs (id);

ALTER TABLE listing_history DROP CONSTRAINT listing_history_pkey;
ALTER TABLE listing_history ADD CONSTRAINT listing_history_pkey PRIMARY KEY (source, id);

ALTER TABLE rejects DROP CONSTRAINT rejects_pkey;
ALTER TABLE rejects ADD CONSTRAINT rejects_pkey PRIMARY KEY (source, id);
CREATE INDEX rejects_run_order_idx ON rejects (run_id, id);
