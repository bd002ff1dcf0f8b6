import Postgres

/// The load stage's sink for real runs: a `LoadSession` (COPY into staging, merge at commit).
final class DatabaseSink: RecordSink, @unchecked Sendable {
    private let session: LoadSession
    private let options: LoadOptions

    init(conninfo: String, options: LoadOptions, connection: ConnectionOptions, cancellation: Cancellation,
         log: (@Sendable (String) -> Void)?, stoppedBySignal: @escaping @Sendable () -> Bool) throws {
        session = try LoadSession(conninfo: conninfo, options: options, connection: connection,
                                  cancellation: cancellation, log: log, stoppedBySignal: stoppedBySignal)
        self.options = options
    }

    var runID: Int64 { session.runID }

    /// The source's stored listings by raw fingerprint, for recognising unchanged records, read on a connection of
    /// its own (so it can run beside the load stage's; the run's lock keeps the source's rows still meanwhile).
    func storedListings() throws -> StoredListings {
        try LoadSession.storedListings(session.sideConnection(), source: options.source, inTransaction: false)
    }

    /// The stored listings the run recognises against (see `LoadSession.recognize(against:)`).
    func recognize(against stored: BlockingFuture<StoredListings>) {
        session.recognize(against: stored)
    }

    func write(_ records: [NormalizedRecord], rejects: [Reject]) throws {
        if !records.isEmpty { try session.write(records) }
        if !rejects.isEmpty { try session.write(rejects: rejects) }
    }

    func commit(_ totals: RunTotals) throws -> LoadResult {
        try session.commit(totals)
    }

    /// Records the run as `unchanged`: its inputs are the ones run `matched` loaded.
    func commitUnchanged(_ identities: [InputIdentity], matched: Int64) throws {
        _ = try session.commitUnchanged(inputs: identities, matched: matched)
    }

    func fail(_ message: String, interrupted: Bool, totals: RunTotals) {
        session.fail(message, interrupted: interrupted, totals: totals)
    }

    /// A replicated resource's position, as the last committed run left it.
    func replicationPosition(resource: String) throws -> ReplicationPosition? {
        try LoadSession.replicationPosition(session.sideConnection(), pipeline: options.pipeline,
                                            source: options.source, resource: resource)
    }

    /// The source's request budgets, counted in the database on a connection of their own.
    func requestBudget(_ limits: WebAPISettings.RateLimit) throws -> RequestBudget {
        DatabaseRequestBudget(connection: try session.sideConnection(), source: options.source, limits: limits)
    }

    /// The source's most recent successful run before this one: the only run whose inputs an unchanged input may
    /// match (any later run changed or confirmed the source's rows from other inputs).
    func previousRun() throws -> PreviousRun? {
        let connection = try session.sideConnection()
        let result = try connection.execute("""
            SELECT id, mode, item->>'location', item->>'bytes', item->>'sha256', item->>'etag', item->>'last_modified'
            FROM (SELECT id, mode, inputs FROM ingest_runs
                  WHERE source = $1 AND status = 'succeeded' AND id <> $2
                  ORDER BY id DESC LIMIT 1) AS last
            LEFT JOIN LATERAL jsonb_array_elements(last.inputs) WITH ORDINALITY AS e(item, n) ON true
            ORDER BY n
            """, [options.source, String(runID)])
        guard let first = result.rows.first, let id = first[0].flatMap({ Int64($0) }) else { return nil }
        let inputs = result.rows.compactMap { row -> InputIdentity? in
            guard let location = row[2] else { return nil }
            return InputIdentity(location: location, bytes: row[3].flatMap { Int64($0) }, sha256: row[4], etag: row[5],
                                 lastModified: row[6])
        }
        return PreviousRun(id: id, mode: LoadMode(rawValue: first[1] ?? "") ?? .incremental, inputs: inputs)
    }
}

/// The source's last successful run, as change detection compares against it.
struct PreviousRun: Sendable {
    var id: Int64
    var mode: LoadMode
    /// Its inputs as the ledger keeps them (locations redacted).
    var inputs: [InputIdentity]
}
