extension Ledger {
    /// Rows fetched per query while streaming rejects.
    static let rejectPage = 1000

    /// Where the rejects of run `$1` start: one less than their first id, NULL when there is none.
    static let rejectsStart = "SELECT min(id) - 1 AS start FROM rejects WHERE run_id = $1"

    /// The next page of the rejects of run `$1` after id `$2`, of those with a reason containing `$3` (ignoring
    /// case) when it is not NULL, `$4` rows at most: a range of `rejects_run_order_idx`, whatever the run's size.
    static let rejectsPage = """
        SELECT \(StoredReject.columns) FROM rejects
        WHERE run_id = $1 AND id > $2
          AND ($3::text IS NULL OR EXISTS (
              SELECT 1 FROM unnest(reasons) AS r(reason) WHERE strpos(lower(r.reason), lower($3)) > 0))
        ORDER BY id LIMIT $4
        """

    /// Streams the rejects of run `runID` in feed order (the order they were stored), only those with a reason
    /// containing `reason` (ignoring case) when given, a page of 1,000 rows at a time; returns how many it gave.
    @discardableResult
    package func rejects(run runID: Int64, reasonContaining reason: String? = nil,
                         _ each: (StoredReject) throws -> Void) throws -> Int {
        let start = try connection.execute(Self.rejectsStart, [String(runID)])
        guard var after = try ResultRow.all(start).first?.int("start") else { return 0 }
        var given = 0
        while true {
            let page = try connection.execute(Self.rejectsPage,
                                              [String(runID), String(after), reason, String(Self.rejectPage)])
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
