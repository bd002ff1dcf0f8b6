/// Why the embedded PostgreSQL cluster could not be created, started or stopped.
public struct LocalClusterError: Error, CustomStringConvertible, Sendable, Equatable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
