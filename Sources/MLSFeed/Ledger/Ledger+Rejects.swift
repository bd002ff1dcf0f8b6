extension Ledger {
    /// Rows fetched per query while streaming rejects.
    static let rejectPage = 1000

    /// Streams the rejects of run `runID` in feed order (the order they were stored), only those with a reason
    /// containing `reason` (ignoring case) when given, a page of 1,000 rows at a time; returns how many it gave.
    @discardableResult
    package func rejects(run runID: Int64, reasonContaining reason: String? = nil,
                         _ each: (StoredReject) throws -> Void) throws -> Int {
        let start = try connection.execute("SELECT min(id) - 1 AS start FROM rejects WHERE run_id = $1",
                                           [String(runID)])
        guard var after = try ResultRow.all(start).first?.int("start") else { return 0 }
        var given = 0
        while true {
            let page = try connection.execute("""
                SELECT \(StoredReject.columns) FROM rejects
                WHERE run_id = $1 AND id > $2
                  AND ($3::text IS NULL OR EXISTS (
                      SELECT 1 FROM unnest(reasons) AS r(reason) WHERE strpos(lower(r.reason), lower($3)) > 0))
                ORDER BY id LIMIT $4
                """, [String(runID), String(after), reason, String(Self.rejectPage)])
            for row in ResultRow.all(page) {
                let reject = try StoredReject(row)
                try each(reject)
                after = reject.id
                given += 1
            }
            if page.rows.count < Self.rejectPage { return given }
        }
    }
}
