import Foundation

/// One input of a run: a file, standard input or an http(s) URL.
public struct InputFile: Sendable, Hashable {
    /// The path, `-` for standard input, or an http(s) URL.
    public var location: String
    public var bytes: Int64?

    public init(location: String, bytes: Int64? = nil) {
        self.location = location
        self.bytes = bytes
    }

    /// The name used in positions: the path as given, or the URL with credentials redacted.
    public var displayName: String { InputLocator.isURL(location) ? Redactor.redactURL(location) : location }
}
