import Foundation

/// One input of a run: a file, standard input or an http(s) URL.
package struct InputFile: Sendable, Hashable {
    /// The path, `-` for standard input, or an http(s) URL.
    package var location: String
    package var bytes: Int64?

    package init(location: String, bytes: Int64? = nil) {
        self.location = location
        self.bytes = bytes
    }

    /// The name used in positions: the path as given, or the URL with credentials redacted.
    package var displayName: String { InputLocator.isURL(location) ? Redactor.redactURL(location) : location }
}
