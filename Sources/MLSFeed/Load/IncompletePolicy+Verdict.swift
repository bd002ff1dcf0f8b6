extension IncompletePolicy {
    /// What a run may do with a dump judged `completeness`, decided the same way by a database run and a dry run:
    /// throws the refusal when it may not go on (a full run of an incomplete dump under `on_incomplete: fail`, a
    /// key sweep that is incomplete whatever the policy), else says whether it may withdraw and what the summary
    /// notes (an incomplete dump upserted only).
    package func verdict(mode: LoadMode, sweep: Bool, completeness: Completeness) throws
        -> (withdraw: Bool, note: String?) {
        guard mode == .full else { return (false, nil) }
        if completeness.isComplete { return (true, nil) }
        if sweep {
            throw LoadError("key sweep is incomplete (\(completeness.summary)); a key sweep withdraws only what a "
                + "complete list of the server's keys lacks: nothing was withdrawn", kind: .refusal)
        }
        switch self {
        case .fail:
            throw LoadError("dump is incomplete (\(completeness.summary)); a full run withdraws only from a complete "
                + "dump; set load.on_incomplete: incremental to upsert it anyway", kind: .refusal)
        case .incremental:
            return (false, "dump is incomplete (\(completeness.summary)): upserted only, nothing withdrawn "
                + "(load.on_incomplete: incremental)")
        }
    }
}
