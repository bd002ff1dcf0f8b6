/// The normalize stage: raw records → typed values of the mapping's columns (one worker of possibly several).
struct NormalizeStage: Stage {
    static let name = "normalize"

    let normalizer: Normalizer
    /// The agents and offices this worker has coerced already (one repeated on many listings is coerced once), and
    /// the key layouts it met.
    var state = Normalizer.WorkerState()

    mutating func process(_ batch: consuming [RawRecord]) throws -> [[CoercedRecord]] {
        [normalizer.process(consume batch, state: &state)]
    }
}
