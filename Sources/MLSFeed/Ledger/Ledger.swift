import Foundation
import Postgres

/// Read queries over the run ledger (`ingest_runs`), `listing_history` and `rejects`, and their retention (`prune`):
/// parameterized SQL, typed rows. It never migrates: open it on a connection that passed
/// `Migrations.requireCurrent`.
package struct Ledger {
    let connection: Connection

    /// A ledger read through `connection` (autocommit; each query is its own statement).
    package init(_ connection: Connection) {
        self.connection = connection
    }

    /// The most recent runs (`$1` a pipeline or NULL for all, `$2` how many), newest first. The runs of every source
    /// in id order: `ingest_runs_id_idx` serves it.
    static let newestRuns = """
        SELECT \(LedgerRun.columns) FROM ingest_runs
        WHERE ($1::text IS NULL OR pipeline = $1)
        ORDER BY id DESC LIMIT $2
        """

    /// The run `$1` as `runs` lists it, found by its id alone (whatever its source): `ingest_runs_id_idx`.
    static let runByID = "SELECT \(LedgerRun.columns) FROM ingest_runs WHERE id = $1"

    /// The run `$1` in full, found by its id alone, with the count of its stored rejects.
    static let runDetailByID = """
        SELECT \(LedgerRun.columns), inputs::text AS inputs, timings::text AS timings,
               to_jsonb(warnings)::text AS warnings, to_jsonb(sample_rejects)::text AS sample_rejects,
               extract(epoch FROM as_of) AS as_of, complete,
               to_jsonb(incomplete_reasons)::text AS incomplete_reasons, reconciled, matched_run,
               (SELECT count(*) FROM rejects WHERE run_id = $1) AS stored_rejects
        FROM ingest_runs WHERE id = $1
        """

    /// The newest `succeeded` run (`$1` a pipeline or NULL for all), in id order over every source.
    static let lastSucceeded = """
        SELECT \(LedgerRun.columns) FROM ingest_runs
        WHERE status = 'succeeded' AND ($1::text IS NULL OR pipeline = $1)
        ORDER BY id DESC LIMIT 1
        """

    /// The most recent runs, newest first, of one pipeline or of all.
    package func runs(pipeline: String? = nil, limit: Int = 20) throws -> [LedgerRun] {
        let result = try connection.execute(Self.newestRuns, [pipeline, String(limit)])
        return try ResultRow.all(result).map(LedgerRun.init)
    }

    /// One run as `runs` lists it, or nil when the ledger has no such run (never recorded, or pruned).
    package func run(id: Int64) throws -> LedgerRun? {
        let result = try connection.execute(Self.runByID, [String(id)])
        return try ResultRow.all(result).first.map(LedgerRun.init)
    }

    /// One run in full: its inputs, counts, stage timings, warnings, error, completeness, as-of time and first
    /// rejects; nil when the ledger has no such run.
    package func runDetail(id: Int64) throws -> LedgerRunDetail? {
        let result = try connection.execute(Self.runDetailByID, [String(id)])
        return try ResultRow.all(result).first.map(LedgerRunDetail.init)
    }

    /// The newest `succeeded` run, of one pipeline or of all: the last run that can have stored rejects (a failed
    /// run rolls its rejects back with its data; an unchanged one reads nothing).
    package func lastSucceededRun(pipeline: String? = nil) throws -> LedgerRun? {
        let result = try connection.execute(Self.lastSucceeded, [pipeline])
        return try ResultRow.all(result).first.map(LedgerRun.init)
    }

    /// When a run of `pipeline` for `source` last ended `succeeded` or `unchanged` (both mean the feed was fine);
    /// nil when none did.
    package func lastSuccess(pipeline: String, source: String) throws -> Date? {
        let result = try connection.execute("""
            SELECT extract(epoch FROM max(finished_at)) AS finished FROM ingest_runs
            WHERE pipeline = $1 AND source = $2 AND status IN ('succeeded', 'unchanged')
            """, [pipeline, source])
        return try ResultRow.all(result).first?.date("finished")
    }
}
