import Postgres

extension LoadSession {
    /// Marks the rejects of run `$2` of source `$3` that no run replayed yet as replayed by run `$1`.
    static let replayedMark = """
        UPDATE rejects SET replayed_by = $1 WHERE source = $3 AND run_id = $2 AND replayed_by IS NULL
        """

    /// Marks the rejects of run `run` that no run replayed yet as replayed by this one, in this run's transaction
    /// (so the marks commit with what the replay loaded); returns how many it marked. They are of this run's source
    /// (the replay refuses others), which the statement names, so that it stays within that source's rows.
    package func markReplayed(run: Int64) throws -> Int {
        try activeData().execute(Self.replayedMark, [String(runID), String(run), options.source]).affectedRows
    }
}
