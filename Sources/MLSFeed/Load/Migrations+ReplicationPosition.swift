extension Migrations {
    /// Migration 14: a replicated resource's position instead of a bare high-water mark, and key sweeps.
    ///
    /// The mark alone (the newest timestamp loaded) let a run that stopped early resume at a timestamp shared by
    /// more records than a run can fetch, for ever, and `keys_at_mark` (the keys loaded at it) was never read. The
    /// position is the last record loaded, in the order the requests ask for (`mark`, then `mark_key`), and whether
    /// that run read to the server's end (`caught_up`): a run that caught up starts an overlap before the mark, one
    /// that stopped early strictly after (mark, key). Rows written before are positions that caught up. `swept_at`
    /// is when the last key sweep of the resource committed; a sweep's ledger row has mode `sweep`.
    static let replicationPosition = """
        ALTER TABLE replication_state
            DROP COLUMN keys_at_mark,
            ADD COLUMN mark_key text,
            ADD COLUMN caught_up boolean NOT NULL DEFAULT true,
            ADD COLUMN swept_at timestamptz;
        ALTER TABLE ingest_runs DROP CONSTRAINT ingest_runs_mode_check;
        ALTER TABLE ingest_runs ADD CONSTRAINT ingest_runs_mode_check
            CHECK (mode IN ('incremental', 'full', 'sweep'));
        """
}
