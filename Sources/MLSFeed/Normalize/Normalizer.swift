import Foundation

/// The normalize stage: coerces each raw record's fields by the pipeline's mapping.
///
/// Pure and thread-safe: several workers may share one normalizer (each batch keeps its own key layout).
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
        var layout = KeyLayout()
        return batch.map { coerce($0, layout: &layout) }
    }

    func coerce(_ raw: RawRecord, layout: inout KeyLayout) -> CoercedRecord {
        layout.adopt(raw.fields, mapping: mapping, placed: placed)
        var extra: [RawField] = []
        for i in layout.extraPositions where !raw.fields[i].value.isEmpty { extra.append(raw.fields[i]) }
        if raw.defect != nil {
            return CoercedRecord(entity: mapping.entity, outcomes: [], extra: extra, raw: raw, embeddedAgent: nil,
                                 removedCharacters: 0)
        }
        var removed = 0
        var outcomes: [FieldOutcome] = []
        outcomes.reserveCapacity(mapping.fields.count)
        for (field, positions) in zip(mapping.fields, layout.fieldPositions) {
            outcomes.append(outcome(of: field, at: positions, in: raw, removed: &removed))
        }
        var agent: [FieldOutcome]?
        if !mapping.embeddedAgent.isEmpty {
            agent = zip(mapping.embeddedAgent, layout.agentPositions).map {
                outcome(of: $0, at: $1, in: raw, removed: &removed)
            }
        }
        return CoercedRecord(entity: mapping.entity, outcomes: outcomes, extra: extra, raw: raw, embeddedAgent: agent,
                             removedCharacters: removed)
    }

    private func outcome(of field: FieldMapping, at positions: [Int], in raw: RawRecord,
                         removed: inout Int) -> FieldOutcome {
        for position in positions {
            let value = raw.fields[position].value
            if value.isEmpty { continue }
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
