import Foundation

/// The normalize stage: coerces each raw record's fields by the pipeline's mapping.
///
/// Pure and thread-safe: several workers may share one normalizer (each keeps its own `WorkerState`).
package struct Normalizer: Sendable {
    package let mapping: Mapping
    package let zone: TimeZone?
    /// Fingerprints records the parser did not, and recognises stored listings among them (database runs).
    package let recognizer: RawRecognizer?
    /// Which fields read each source key (the key layouts are made from it).
    let keyIndex: KeyIndex
    /// The index of the key field in `mapping.fields`.
    private let keyField: Int?
    /// Source keys that are multi-value lookups (`format.multi_value`): always arrays in `extra`.
    private let multiValue: Set<String>
    /// The field and value that mark a record a deletion (`deleted_when`).
    private let deletion: WebAPISettings.Deletion?
    /// The indices in `mapping.embeddedAgents` of `mapping.recordAgents`, made once (read for every record).
    private let recordAgents: [Int]
    /// `mapping.fields` as rules, and each embedded agent entry's fields (by its index in `embeddedAgents`).
    private let rules: [FieldRule]
    private let agentRules: [[FieldRule]]
    /// For each embedded agent entry, whether a field of it reads more than one source.
    private let agentAlternates: [Bool]

    package init(mapping: Mapping, zone: TimeZone?, recognizer: RawRecognizer? = nil, multiValue: Set<String> = [],
                deletion: WebAPISettings.Deletion? = nil) {
        self.mapping = mapping
        self.zone = zone
        self.recognizer = recognizer
        let placed = mapping.placedKeys.union(deletion.map { [$0.field] } ?? [])
        self.keyIndex = KeyIndex(mapping: mapping, placed: placed)
        self.keyField = mapping.fields.firstIndex { $0.name == mapping.entity.keyColumn }
        self.multiValue = multiValue
        self.deletion = deletion
        self.recordAgents = mapping.recordAgents.map(\.index)
        self.rules = mapping.fields.map(FieldRule.init)
        self.agentRules = mapping.embeddedAgents.map { $0.fields.map(FieldRule.init) }
        self.agentAlternates = mapping.embeddedAgents.map { $0.fields.contains { Set($0.sources).count > 1 } }
    }

    /// Coerced embedded agents by the raw fingerprint of their fields, with the control characters removed.
    package typealias AgentMemo = BoundedMemo<(outcomes: [FieldOutcome], removed: Int)>

    /// What a worker keeps from batch to batch: the agents it coerced and the key layouts it met.
    package struct WorkerState {
        package var agents = AgentMemo()
        var layouts = KeyLayouts()
        /// A recognised copy carries only the fields the recognizer needs: layouts of their own.
        var storedLayouts = KeyLayouts()

        package init() {}
    }

    /// Coerces a batch; records the parser already found defective pass through with no outcomes.
    package func process(_ batch: consuming [RawRecord]) -> [CoercedRecord] {
        var state = WorkerState()
        return process(batch, state: &state)
    }

    /// Coerces a batch, taking embedded agents seen before (same raw fields) from `agents`: a worker keeps its
    /// memo across batches. The same raw fields always coerce the same way, so any worker may share any memo.
    package func process(_ batch: consuming [RawRecord], agents: inout AgentMemo) -> [CoercedRecord] {
        var state = WorkerState()
        swap(&state.agents, &agents)
        defer { swap(&state.agents, &agents) }
        return process(batch, state: &state)
    }

    /// Coerces a batch with a worker's `state` (its agent memo and key layouts), kept across batches.
    package func process(_ batch: consuming [RawRecord], state: inout WorkerState) -> [CoercedRecord] {
        // Read once per batch: the first batch may wait for the stored listings to be read.
        let stored = recognizer.flatMap { recognizer in
            batch.contains { $0.rawHash == nil && $0.defect == nil } ? recognizer.stored : nil
        }
        var out: [CoercedRecord] = []
        out.reserveCapacity(batch.count)
        // Moved out of the batch: each raw record ends up in its coerced one without a copy.
        // A flat record's fields are split here, on this worker, not on the parsing thread.
        var splitter = FieldSplitter()
        for moved in MovingIterator(consume batch) {
            var raw = consume moved
            splitter.split(&raw)
            if let recognizer, let stored, raw.rawHash == nil, raw.defect == nil {
                let hash = recognizer.hash.of(raw)
                raw.rawHash = hash
                raw.stored = stored.lookup(hash)
            }
            if raw.stored != nil {
                let layout = state.storedLayouts.adopt(raw.fields, index: keyIndex)
                out.append(coerceStored(consume raw, layout: layout, agents: &state.agents))
            } else {
                let layout = state.layouts.adopt(raw.fields, index: keyIndex)
                out.append(coerce(consume raw, layout: layout, agents: &state.agents))
            }
        }
        return out
    }

    /// The agents embedded in `raw`, from the memo when their raw content was seen: one per agent read from the
    /// record's own keys, then one per repeated element (`RawChild`) of each `each:` entry.
    private func agentOutcomes(_ raw: RawRecord, _ layout: KeyLayout, removed: inout Int,
                               agents: inout AgentMemo) -> [CoercedAgent] {
        var result: [CoercedAgent] = []
        result.reserveCapacity(recordAgents.count + raw.children.count)
        for (slot, index) in recordAgents.enumerated() {
            var hash = ContentHash()
            hash.mix(UInt64(index))
            for positions in layout.agentPositions[slot] {
                for position in positions {
                    hash.update(raw.fields[position].value)
                    hash.separator()
                }
                hash.mix(0xA9)
            }
            let fingerprint = hash.finalize64()
            let outcomes = memoized(fingerprint, removed: &removed, agents: &agents) { agentRemoved in
                zip(agentRules[index], layout.agentPositions[slot]).map {
                    outcome(of: $0, at: $1, in: raw, removed: &agentRemoved)
                }
            }
            result.append(CoercedAgent(mapping: index, outcomes: outcomes, fingerprint: fingerprint))
        }
        for child in raw.children {
            var hash = ContentHash()
            hash.mix(UInt64(child.mapping) | 0x100)
            for field in child.fields {
                hash.update(field.key)
                hash.separator()
                hash.update(field.value)
                hash.separator()
            }
            child.extraJSON.withUnsafeBytes { hash.update($0) }
            let fingerprint = hash.finalize64()
            let outcomes = memoized(fingerprint, removed: &removed, agents: &agents) { agentRemoved in
                let byKey = KeyLayout.positions(of: child.fields.map(\.key))
                let childRecord = RawRecord(fields: child.fields, position: raw.position, ordinal: raw.ordinal)
                return agentRules[child.mapping].map {
                    outcome(of: $0, at: KeyLayout.positions($0.field, in: byKey), in: childRecord,
                            removed: &agentRemoved)
                }
            }
            var extraJSON = child.extraJSON
            if agentAlternates[child.mapping] {
                // Nothing lost: what the agent's fields passed over goes to the agent's `extra`.
                let byKey = KeyLayout.positions(of: child.fields.map(\.key))
                let readers = agentRules[child.mapping].map { KeyLayout.positions($0.field, in: byKey) }
                let unchosen = Self.unchosen(readers, in: child.fields) { candidate in
                    readers.filter { $0.contains(candidate) }
                }
                extraJSON = JSONText.adding(unchosen.map { child.fields[$0] }, to: extraJSON)
            }
            result.append(CoercedAgent(mapping: child.mapping, outcomes: outcomes, fingerprint: fingerprint,
                                       extraJSON: extraJSON))
        }
        return result
    }

    /// The outcomes memoized under `fingerprint`, or made by `make` (which counts the characters it removed).
    private func memoized(_ fingerprint: UInt64, removed: inout Int, agents: inout AgentMemo,
                          make: (inout Int) -> [FieldOutcome]) -> [FieldOutcome] {
        if let known = agents[fingerprint] {
            removed += known.removed
            return known.outcomes
        }
        var agentRemoved = 0
        let outcomes = make(&agentRemoved)
        agents.store((outcomes, agentRemoved), for: fingerprint)
        removed += agentRemoved
        return outcomes
    }

    /// A recognised copy of a stored listing: only its key (the one outcome) and its embedded agents are coerced.
    func coerceStored(_ raw: consuming RawRecord, layout: KeyLayout, agents: inout AgentMemo) -> CoercedRecord {
        var removed = 0
        var outcomes: [FieldOutcome] = []
        if let keyField {
            outcomes.append(outcome(of: rules[keyField], at: layout.fieldPositions[keyField], in: raw,
                                    removed: &removed))
        }
        let agents = agentOutcomes(raw, layout, removed: &removed, agents: &agents)
        return CoercedRecord(entity: mapping.entity, outcomes: outcomes, extra: [], raw: consume raw, agents: agents,
                             removedCharacters: removed)
    }

    func coerce(_ raw: consuming RawRecord, layout: KeyLayout, agents: inout AgentMemo) -> CoercedRecord {
        var extra: [RawField] = []
        if raw.extraJSON == nil {
            // Counted first: one allocation of the exact size, not six growing ones with up to half left unused.
            let positions = layout.extraPositions
            extra.reserveCapacity(positions.reduce(0) { $0 + (raw.fields[$1].value.isEmpty ? 0 : 1) })
            for i in positions where !raw.fields[i].value.isEmpty { extra.append(raw.fields[i]) }
        }
        if raw.defect != nil {
            return CoercedRecord(entity: mapping.entity, outcomes: [], extra: extra, raw: consume raw,
                                 removedCharacters: 0)
        }
        var removed = 0
        var outcomes: [FieldOutcome] = []
        outcomes.reserveCapacity(mapping.fields.count)
        for i in rules.indices {
            outcomes.append(outcome(of: rules[i], at: layout.fieldPositions[i], in: raw, removed: &removed))
        }
        let agents = agentOutcomes(raw, layout, removed: &removed, agents: &agents)
        if let deletion, let value = raw.value(deletion.field),
           value.trimmingCharacters(in: .whitespaces).caseInsensitiveCompare(deletion.equals) == .orderedSame {
            var record = CoercedRecord(entity: mapping.entity, outcomes: outcomes, extra: [], raw: consume raw,
                                       removedCharacters: removed)
            record.isDeletion = true
            return record
        }
        if layout.hasAlternates {
            let unchosen = unchosenPositions(raw, layout)
            if !unchosen.isEmpty { Self.addUnchosen(unchosen, of: &raw, layout: layout, extra: &extra) }
        }
        if !multiValue.isEmpty, extra.contains(where: { multiValue.contains($0.key) }) {
            // Multi-value lookups are arrays in every record, one value or many.
            raw.extraJSON = JSONText.object(extra, alwaysArrays: multiValue)
            extra = []
        }
        return CoercedRecord(entity: mapping.entity, outcomes: outcomes, extra: extra, raw: consume raw,
                             agents: agents, removedCharacters: removed)
    }

    private func outcome(of field: FieldRule, at positions: [Int], in raw: RawRecord,
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
