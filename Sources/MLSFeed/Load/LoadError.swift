/// Why a load cannot go on (another run holds the pipeline, the withdraw guard tripped, a finished session).
public struct LoadError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
