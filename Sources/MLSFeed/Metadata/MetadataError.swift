/// A metadata document that cannot give a mapping (no such resource, no key field), with no position to show.
package struct MetadataError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) { self.message = message }

    package var description: String { "error: \(message)" }
}
