import Foundation

/// One line of `mlsfeed doctor`: what was checked, how it went, and how to fix it when it did not go well.
struct DoctorCheck {
    enum Status: String {
        /// Fine.
        case ok
        /// Works, but deserves a look (a stopped embedded cluster, little disk left).
        case warn
        /// Broken: a run would fail.
        case fail
        /// Not checked, because an earlier check failed.
        case skip
    }

    var name: String
    var status: Status
    var detail: String
    /// What to do about a `warn` or `fail`.
    var fix: String?

    /// `ok    database    reachable ...`, then `      fix: ...` when there is a fix.
    var text: String {
        // One line each: a multi-line error (libpq's) is joined.
        let flat = detail.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
        let head = status.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)
            + name.padding(toLength: 12, withPad: " ", startingAt: 0) + flat
        return fix.map { head + "\n      fix: " + $0 } ?? head
    }
}
