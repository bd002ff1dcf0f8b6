/// A problem getting an input's bytes (missing file, read error, HTTP failure).
public struct FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { "error: \(message)" }
}
