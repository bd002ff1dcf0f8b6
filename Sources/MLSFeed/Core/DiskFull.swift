import Foundation

/// A file mlsfeed writes could not grow: no space left on its device, or the disk quota used up. The run stops with
/// exit 4, worth another try once space is freed: `error: /var/lib/mlsfeed/spool: cannot spool GET URL: No space
/// left on device`.
package struct DiskFull: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file or directory that could not be written.
    package var path: String
    /// What could not be done: `cannot write the output`.
    package var doing: String
    /// Why, in the system's words (`No space left on device`), and what was done about it.
    package var reason: String

    package init(path: String, doing: String, reason: String) {
        self.path = path
        self.doing = doing
        self.reason = reason
    }

    package var description: String { "error: \(path): \(doing): \(reason)" }

    /// Whether the `errno` of a failed write or create means a full device: `ENOSPC` or `EDQUOT`.
    package static func isFull(_ code: Int32) -> Bool { code == ENOSPC || code == EDQUOT }
}
