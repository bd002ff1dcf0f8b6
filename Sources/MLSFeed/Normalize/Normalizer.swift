import Foundation

/// The normalize stage: coerces each raw record's fields by the pipeline's mapping.
///
/// Pure and thread-safe: several workers may share one normalizer (each batch keeps its own key layout).
public struct Normalizer: Sendable {
    public let mapping: Mapping
    public let zone: TimeZone?
    /// Fingerprints records the parser did not, and recognises stored listings among them (database runs).
    public let recognizer: RawRecognizer?
    private let placed: Set<String>
    /// The index of the key field in `mapping.fields`.
    private let keyField: Int?

    public init(mapping: Mapping, zone: TimeZone?, recognizer: RawRecognizer? = nil) {
        self.mapping = mapping
        self.zone = zone
        self.recognizer = recognizer
        self.placed = mapping.placedKeys
        self.keyField = mapping.fields.firstIndex { $0.name == mapping.entity.keyColumn }
    }

    /// Coerced embedded agents by the raw fingerprint of their fields, with the control characters removed.
    public typealias AgentMemo = BoundedMemo<(outcomes: [FieldOutcome], removed: Int)>

    /// Coerces a batch; records the parser already found defective pass through with no outcomes.
    public func process(_ batch: [RawRecord]) -> [CoercedRecord] {
        var memo = AgentMemo()
        return process(batch, agents: &memo)
    }

    /// Coerces a batch, taking embedded agents seen before (same raw fields) from `agents`: a worker keeps its
    /// memo across batches. The same raw fields always coerce the same way, so any worker may share any memo.
    public func process(_ batch: [RawRecord], agents: inout AgentMemo) -> [CoercedRecord] {
        var layout = KeyLayout()
        var storedLayout = KeyLayout()
        // Read once per batch: the first batch may wait for the stored listings to be read.
        let stored = recognizer.flatMap { recognizer in
            batch.contains { $0.rawHash == nil && $0.defect == nil } ? recognizer.stored : nil
        }
        return batch.map { raw in
            var raw = raw
            if let recognizer, let stored, raw.rawHash == nil, raw.defect == nil {
                let hash = recognizer.hash.of(raw.fields)
                raw.rawHash = hash
                raw.stored = stored.lookup(hash)
            }
            if raw.stored != nil { return coerceStored(raw, layout: &storedLayout, agents: &agents) }
            return coerce(raw, layout: &layout, agents: &agents)
        }
    }

    /// The embedded agent's outcomes (nil when the mapping has none), from the memo when its raw fields were seen.
    private func agentOutcomes(_ raw: RawRecord, _ layout: KeyLayout, removed: inout Int, agents: inout AgentMemo)
        -> (outcomes: [FieldOutcome], fingerprint: UInt64)? {
        guard !mapping.embeddedAgent.isEmpty else { return nil }
        var hash = ContentHash()
        for positions in layout.agentPositions {
            for position in positions {
                hash.update(raw.fields[position].value)
                hash.separator()
            }
            hash.mix(0xA9)
        }
        let fingerprint = hash.finalize64()
        if let known = agents[fingerprint] {
            removed += known.removed
            return (known.outcomes, fingerprint)
        }
        var agentRemoved = 0
        let outcomes = zip(mapping.embeddedAgent, layout.agentPositions).map {
            outcome(of: $0, at: $1, in: raw, removed: &agentRemoved)
        }
        agents.store((outcomes, agentRemoved), for: fingerprint)
        removed += agentRemoved
        return (outcomes, fingerprint)
    }

    /// A recognised copy of a stored listing: only its key (the one outcome) and its embedded agent are coerced.
    func coerceStored(_ raw: RawRecord, layout: inout KeyLayout, agents: inout AgentMemo) -> CoercedRecord {
        layout.adopt(raw.fields, mapping: mapping, placed: placed)
        var removed = 0
        var outcomes: [FieldOutcome] = []
        if let keyField {
            outcomes.append(outcome(of: mapping.fields[keyField], at: layout.fieldPositions[keyField], in: raw,
                                    removed: &removed))
        }
        let agent = agentOutcomes(raw, layout, removed: &removed, agents: &agents)
        return CoercedRecord(entity: mapping.entity, outcomes: outcomes, extra: [], raw: raw,
                             embeddedAgent: agent?.outcomes, agentFingerprint: agent?.fingerprint,
                             removedCharacters: removed)
    }

    func coerce(_ raw: RawRecord, layout: inout KeyLayout, agents: inout AgentMemo) -> CoercedRecord {
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
        let agent = agentOutcomes(raw, layout, removed: &removed, agents: &agents)
        return CoercedRecord(entity: mapping.entity, outcomes: outcomes, extra: extra, raw: raw,
                             embeddedAgent: agent?.outcomes, agentFingerprint: agent?.fingerprint,
                             removedCharacters: removed)
    }

    private func outcome(of field: FieldMapping, at positions: [Int], in raw: RawRecord,
                         removed: inout Int) -> FieldOutcome {
        if positions.isEmpty { return .absent }
        for position in positions {
            let value = raw.fields[position].value
            if value.isEmpty { continue }
            let cleaned = TextCleaner.clean(value)
            removed += cleaned.removed
            if cleaned.text.isEmpty { continue }
            do {
                var issue: String?
                guard let typed = try field.coerce(cleaned.text, zone: zone, issue: &issue) else { return .missing }
                if let issue { return .kept(typed, raw: value, rule: issue) }
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
