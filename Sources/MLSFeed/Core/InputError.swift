/// A problem with an input file that stops the run, printed like a compiler diagnostic.
///
/// `description` is `file:line:col: error: message`; tests assert that exact text.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    public var position: SourcePosition
    public var message: String

    public init(_ message: String, at position: SourcePosition) {
        self.position = position
        self.message = message
    }

    public var description: String { "\(position): error: \(message)" }
}
