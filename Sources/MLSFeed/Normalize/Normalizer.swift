import Foundation

/// The normalize stage: coerces each raw record's fields by the pipeline's mapping.
///
/// Pure and thread-safe: several workers may share one normalizer.
public struct Normalizer: Sendable {
    public let mapping: Mapping
    public let zone: TimeZone?
    private let placed: Set<String>

    public init(mapping: Mapping, zone: TimeZone?) {
        self.mapping = mapping
        self.zone = zone
        self.placed = mapping.placedKeys
    }

    /// Coerces a batch; records the parser already found defective pass through with no outcomes.
    public func process(_ batch: [RawRecord]) -> [CoercedRecord] {
        batch.map(coerce)
    }

    func coerce(_ raw: RawRecord) -> CoercedRecord {
        var removed = 0
        var extra: [RawField] = []
        for field in raw.fields where !placed.contains(field.key) && !field.value.isEmpty {
            extra.append(field)
        }
        if raw.defect != nil {
            return CoercedRecord(entity: mapping.entity, outcomes: [], extra: extra, raw: raw, embeddedAgent: nil,
                                 removedCharacters: 0)
        }
        let outcomes = mapping.fields.map { outcome(of: $0, in: raw, removed: &removed) }
        let agent = mapping.embeddedAgent.isEmpty
            ? nil : mapping.embeddedAgent.map { outcome(of: $0, in: raw, removed: &removed) }
        return CoercedRecord(entity: mapping.entity, outcomes: outcomes, extra: extra, raw: raw, embeddedAgent: agent,
                             removedCharacters: removed)
    }

    private func outcome(of field: FieldMapping, in raw: RawRecord, removed: inout Int) -> FieldOutcome {
        for key in field.sources {
            guard let value = raw.value(key) else { continue }
            let cleaned = TextCleaner.clean(value)
            removed += cleaned.removed
            if cleaned.text.isEmpty { continue }
            do {
                guard let typed = try field.coerce(cleaned.text, zone: zone) else { return .missing }
                return .value(typed)
            } catch let failure as CoercionFailure {
                return .bad(raw: value, rule: failure.rule)
            } catch {
                return .bad(raw: value, rule: "\(error)")
            }
        }
        return .missing
    }
}
