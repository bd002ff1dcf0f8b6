/// A problem with an input file that stops the run, printed like a compiler diagnostic.
///
/// `description` is `file:line:col: error: message`; tests assert that exact text.
package struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    package var position: SourcePosition
    package var message: String

    package init(_ message: String, at position: SourcePosition) {
        self.position = position
        self.message = message
    }

    package var description: String { "\(position): error: \(message)" }
}
