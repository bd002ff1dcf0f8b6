/// What a `full` run does with a dump that is not complete (`load.on_incomplete`).
package enum IncompletePolicy: String, Sendable, Hashable, CaseIterable {
    /// Refuse the run: nothing changes, and the exit code says a safety rule stopped it.
    case fail
    /// Upsert what was read and withdraw nothing.
    case incremental
}
