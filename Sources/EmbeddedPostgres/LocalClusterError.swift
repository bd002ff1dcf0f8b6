/// Why the embedded PostgreSQL cluster could not be created, started or stopped.
package struct LocalClusterError: Error, CustomStringConvertible, Sendable, Equatable {
    package let message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
