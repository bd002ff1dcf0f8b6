/// The validate stage: typed records → valid records and rejects, with defaults applied (one worker of possibly
/// several).
struct ValidateStage: Stage {
    static let name = "validate"

    let validator: Validator
    /// The agents and offices this worker has made already (see `Validator.Shared`).
    var shared: Validator.Shared

    mutating func process(_ batch: consuming [CoercedRecord]) throws -> [ValidatedBatch] {
        [validator.process(batch, shared: &shared)]
    }
}

extension ValidatedBatch: StageBatch {
    /// The valid records (rejects are counted apart).
    var itemCount: Int { records.count }
}
