/// A problem getting an input's bytes (missing file, read error, HTTP failure).
package struct FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    /// The HTTP status that ended the request, when one did.
    package var status: Int?
    /// The network or the server was unavailable (connection failures, timeouts, 5xx or 429 after every retry):
    /// worth trying again later.
    package var isTransient: Bool

    package init(_ message: String, status: Int? = nil, transient: Bool = false) {
        self.message = message
        self.status = status
        self.isTransient = transient
    }

    package var description: String { "error: \(message)" }

    /// Errors are equal when they say the same thing (their kind follows from what they say).
    package static func == (lhs: FetchError, rhs: FetchError) -> Bool { lhs.message == rhs.message }
}
