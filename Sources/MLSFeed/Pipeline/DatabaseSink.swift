import Postgres

/// The load stage's sink for real runs: a `LoadSession` (COPY into staging, merge at commit).
final class DatabaseSink: RecordSink, @unchecked Sendable {
    private let session: LoadSession
    private let conninfo: String
    private let options: LoadOptions

    init(conninfo: String, options: LoadOptions) throws {
        session = try LoadSession(conninfo: conninfo, options: options)
        self.conninfo = conninfo
        self.options = options
    }

    var runID: Int64 { session.runID }

    /// The source's stored listings by raw fingerprint, for recognising unchanged records, read on a connection of
    /// its own (so it can run beside the load stage's; the run's lock keeps the source's rows still meanwhile).
    func storedListings() throws -> StoredListings {
        try LoadSession.storedListings(Connection(conninfo), source: options.source, inTransaction: false)
    }

    /// The stored listings the run recognises against (see `LoadSession.recognize(against:)`).
    func recognize(against stored: Pending<StoredListings>) {
        session.recognize(against: stored)
    }

    func write(_ records: [NormalizedRecord], rejects: [Reject]) throws {
        if !records.isEmpty { try session.write(records) }
        if !rejects.isEmpty { try session.write(rejects: rejects) }
    }

    func commit(_ totals: RunTotals) throws -> LoadResult {
        try session.commit(read: totals.read, rejected: totals.rejected, droppedDuplicates: totals.droppedDuplicates,
                           inputs: totals.inputs, timings: totals.timings, warnings: totals.warnings)
    }

    /// Records the run as `unchanged`: the input is the one the last successful run loaded.
    func commitUnchanged(_ identity: InputIdentity) throws {
        _ = try session.commitUnchanged(inputs: [identity], timings: [:], warnings: [])
    }

    func fail(_ message: String, interrupted: Bool) {
        session.fail(message, interrupted: interrupted)
    }

    /// What the last successful (or unchanged) run of this pipeline and source read from `input`, if any.
    func lastIdentity(of input: InputFile) throws -> InputIdentity? {
        let connection = try Connection(conninfo)
        let location = ConnectionString.redacted(input.location)
        let result = try connection.execute("""
            SELECT item->>'bytes', item->>'sha256', item->>'etag'
            FROM ingest_runs, jsonb_array_elements(inputs) AS item
            WHERE pipeline = $1 AND source = $2 AND status IN ('succeeded', 'unchanged')
              AND item->>'location' = $3 AND id <> $4
            ORDER BY id DESC LIMIT 1
            """, [options.pipeline, options.source, location, String(runID)])
        guard let row = result.rows.first else { return nil }
        return InputIdentity(location: input.location, bytes: row[0].flatMap { Int64($0) }, sha256: row[1],
                             etag: row[2])
    }
}
