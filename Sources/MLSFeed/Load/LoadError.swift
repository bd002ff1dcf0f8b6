/// Why a load cannot go on (another run holds the pipeline, a safety rule refused the run, a finished session).
package struct LoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of stop it is, for the exit code.
    package enum Kind: Sendable, Equatable {
        /// Something went wrong.
        case failure
        /// A safety rule stopped the run (the withdraw guard, an incomplete dump): nothing changed, on purpose.
        case refusal
        /// Another run holds the pipeline: worth trying again later.
        case busy
    }

    package var message: String
    package var kind: Kind

    package init(_ message: String, kind: Kind = .failure) {
        self.message = message
        self.kind = kind
    }

    package var description: String { message }
}
