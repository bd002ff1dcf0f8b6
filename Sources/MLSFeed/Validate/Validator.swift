/// The output of the validate stage for one batch.
public struct ValidatedBatch: Sendable {
    public var records: [NormalizedRecord] = []
    public var rejects: [Reject] = []
    /// Bad optional values that became NULL or their default, per field and rule.
    public var issues = IssueTally()
    /// Why records were rejected, per field and rule.
    public var rejectReasons = IssueTally()
    public var removedCharacters = 0

    public init() {}
}

/// The validate stage: applies required flags, defaults and `on_error` to coerced records.
///
/// A bad record becomes a `Reject` carrying every reason at once and its raw fields; the run goes on.
public struct Validator: Sendable {
    public let mapping: Mapping

    public init(mapping: Mapping) {
        self.mapping = mapping
    }

    public func process(_ batch: [CoercedRecord]) -> ValidatedBatch {
        var out = ValidatedBatch()
        for record in batch {
            out.removedCharacters += record.removedCharacters
            validate(record, into: &out)
        }
        return out
    }

    private func validate(_ record: CoercedRecord, into out: inout ValidatedBatch) {
        let keyField = mapping.fields.first { $0.name == mapping.entity.keyColumn }
        if let defect = record.raw.defect {
            let key = keyField.flatMap { field in field.sources.lazy.compactMap { record.raw.value($0) }.first }
            let reason = RejectReason(field: "record", rawValue: nil, rule: defect)
            out.rejectReasons.add(field: "record", rule: ruleClass(defect), example: nil)
            out.rejects.append(Reject(entity: mapping.entity, key: key.map(TextCleaner.trim), position: record.raw.position,
                                      ordinal: record.raw.ordinal, reasons: [reason], raw: record.raw.fields))
            return
        }
        var values: [String: Value] = [:]
        var reasons: [RejectReason] = []
        var issues = IssueTally()
        for (field, outcome) in zip(mapping.fields, record.outcomes) {
            resolve(field, outcome, into: &values, reasons: &reasons, issues: &issues)
        }
        guard reasons.isEmpty else {
            let key: String? = if case .text(let k)? = values[mapping.entity.keyColumn] { k } else { nil }
            for reason in reasons { out.rejectReasons.add(field: reason.field, rule: reason.rule, example: reason.rawValue) }
            out.rejects.append(Reject(entity: mapping.entity, key: key, position: record.raw.position,
                                      ordinal: record.raw.ordinal, reasons: reasons, raw: record.raw.fields))
            return
        }
        out.issues.merge(issues)
        var normalized = NormalizedRecord(entity: mapping.entity, values: values, extra: record.extra,
                                          position: record.raw.position, ordinal: record.raw.ordinal)
        normalized.contentHash = normalized.computeContentHash()
        out.records.append(normalized)
        if let agentOutcomes = record.embeddedAgent, let agent = embeddedAgent(agentOutcomes, of: record, into: &out) {
            out.records.append(agent)
        }
    }

    /// The agent embedded in a listing, or nil when it has no key. Its bad values never reject the listing.
    private func embeddedAgent(_ outcomes: [FieldOutcome], of record: CoercedRecord,
                               into out: inout ValidatedBatch) -> NormalizedRecord? {
        var values: [String: Value] = [:]
        var reasons: [RejectReason] = []
        for (field, outcome) in zip(mapping.embeddedAgent, outcomes) {
            var lenient = field
            lenient.required = false
            if lenient.onError == .reject { lenient.onError = .null }
            resolve(lenient, outcome, into: &values, reasons: &reasons, issues: &out.issues, prefix: "agent.")
        }
        if values["agent_mls_id"] == nil, let email = values["email"] { values["agent_mls_id"] = email }
        guard values["agent_mls_id"] != nil else { return nil }
        var agent = NormalizedRecord(entity: .agent, values: values, extra: [], position: record.raw.position,
                                     ordinal: record.raw.ordinal)
        agent.contentHash = agent.computeContentHash()
        return agent
    }

    private func resolve(_ field: FieldMapping, _ outcome: FieldOutcome, into values: inout [String: Value],
                         reasons: inout [RejectReason], issues: inout IssueTally, prefix: String = "") {
        switch outcome {
        case .value(let value):
            values[field.name] = value
        case .missing:
            if let fallback = field.defaultValue {
                values[field.name] = fallback
            } else if field.required {
                reasons.append(RejectReason(field: field.name, rawValue: nil, rule: "required field is missing"))
            }
        case .bad(let raw, let rule):
            switch field.onError {
            case .reject:
                reasons.append(RejectReason(field: field.name, rawValue: raw, rule: rule))
            case .default where field.defaultValue != nil:
                values[field.name] = field.defaultValue
                issues.add(field: prefix + field.name, rule: rule + ", used default", example: raw)
            case .default, .null:
                issues.add(field: prefix + field.name, rule: rule, example: raw)
            }
        }
    }

    /// Parser defects vary by counts and MLS number; tally them by their kind.
    private func ruleClass(_ defect: String) -> String {
        if defect.contains(" but ") { return "field count differs from keys" }
        return defect
    }
}
