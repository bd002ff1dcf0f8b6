/// How the inputs of a glob or directory are grouped into dumps (`source.unit`).
package enum InputUnit: String, Sendable, Hashable, CaseIterable {
    /// Each input is its own dump: its own run, transaction and reconciliation.
    case file
    /// All inputs together are one dump in the stated order: one run, one transaction, one reconciliation.
    case all
}
