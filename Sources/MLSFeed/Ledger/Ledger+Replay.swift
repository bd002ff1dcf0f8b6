extension Ledger {
    /// How many rejects run `runID` stored, how many are left to replay and which runs replayed the others.
    package func replayState(run runID: Int64) throws -> RejectReplayState {
        let result = try connection.execute("""
            SELECT count(*) AS total, count(*) FILTER (WHERE replayed_by IS NULL) AS pending,
                   coalesce(to_jsonb(array_agg(DISTINCT replayed_by) FILTER (WHERE replayed_by IS NOT NULL)),
                            '[]')::text AS replayed_by,
                   coalesce(to_jsonb(array_agg(DISTINCT source)), '[]')::text AS sources,
                   coalesce(to_jsonb(array_agg(DISTINCT entity)), '[]')::text AS entities
            FROM rejects WHERE run_id = $1
            """, [String(runID)])
        guard let row = ResultRow.all(result).first else { throw LoadError("no answer counting rejects") }
        return RejectReplayState(total: Int(try row.count("total")), pending: Int(try row.count("pending")),
                                 replayedBy: try row.json("replayed_by", as: [Int64].self) ?? [],
                                 sources: try row.json("sources", as: [String].self) ?? [],
                                 entities: try row.json("entities", as: [String].self) ?? [])
    }
}
