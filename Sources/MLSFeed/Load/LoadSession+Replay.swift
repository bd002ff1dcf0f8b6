import Postgres

extension LoadSession {
    /// Marks the rejects of run `run` that no run replayed yet as replayed by this one, in this run's transaction
    /// (so the marks commit with what the replay loaded); returns how many it marked.
    package func markReplayed(run: Int64) throws -> Int {
        try activeData().execute("UPDATE rejects SET replayed_by = $1 WHERE run_id = $2 AND replayed_by IS NULL",
                                 [String(runID), String(run)]).affectedRows
    }
}
