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
    /// The indices in `mapping.embedded` of `mapping.recordEntries`, made once (read for every record).
    private let recordEntries: [Int]
    /// `mapping.fields` as rules, and each embedded entry's fields (by its index in `embedded`).
    private let rules: [FieldRule]
    private let entryRules: [[FieldRule]]
    /// For each embedded entry, whether a field of it reads more than one source.
    private let entryAlternates: [Bool]
    /// For each embedded entry, whether its rows belong to the listing (media, open houses): a recognised copy's
    /// are not read, and they are not memoized (a listing's photos are its own; agents and offices repeat).
    private let entryOwned: [Bool]
    /// The owned kinds the mapping embeds (`Entity.carriedBit`s): when 0, nothing is looked up per record.
    private let ownedKinds: UInt8

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
        self.recordEntries = mapping.recordEntries.map(\.index)
        self.rules = mapping.fields.map(FieldRule.init)
        self.entryRules = mapping.embedded.map { $0.fields.map(FieldRule.init) }
        self.entryAlternates = mapping.embedded.map { $0.fields.contains { Set($0.sources).count > 1 } }
        self.entryOwned = mapping.embedded.map(\.entity.belongsToListing)
        self.ownedKinds = mapping.ownedKinds
    }

    /// Coerced embedded agents and offices by the raw fingerprint of their fields, with the control characters
    /// removed.
    package typealias ChildMemo = BoundedMemo<(outcomes: [FieldOutcome], removed: Int)>

    /// What a worker keeps from batch to batch: the agents and offices it coerced and the key layouts it met.
    package struct WorkerState {
        package var children = ChildMemo()
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

    /// Coerces a batch, taking embedded agents and offices seen before (same raw fields) from `children`: a worker
    /// keeps its memo across batches. The same raw fields always coerce the same way, so any worker may share any
    /// memo.
    package func process(_ batch: consuming [RawRecord], children: inout ChildMemo) -> [CoercedRecord] {
        var state = WorkerState()
        swap(&state.children, &children)
        defer { swap(&state.children, &children) }
        return process(batch, state: &state)
    }

    /// Coerces a batch with a worker's `state` (its memo of embedded rows and key layouts), kept across batches.
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
                out.append(coerceStored(consume raw, layout: layout, memo: &state.children))
            } else {
                let layout = state.layouts.adopt(raw.fields, index: keyIndex)
                out.append(coerce(consume raw, layout: layout, memo: &state.children))
            }
        }
        return out
    }

    /// The rows embedded in `raw`, agents and offices from the memo when their raw content was seen: one per entry
    /// read from the record's own keys, then one per repeated element (`RawChild`) of each `each:` entry. A
    /// recognised copy (`stored`) reads no media or open houses: its stored ones stay.
    private func childOutcomes(_ raw: RawRecord, _ layout: KeyLayout, stored: Bool, removed: inout Int,
                               memo: inout ChildMemo) -> [CoercedChild] {
        var result: [CoercedChild] = []
        result.reserveCapacity(recordEntries.count + raw.children.count)
        for (slot, index) in recordEntries.enumerated() where !(stored && entryOwned[index]) {
            var hash = ContentHash()
            hash.mix(UInt64(index))
            for positions in layout.embeddedPositions[slot] {
                for position in positions {
                    hash.update(raw.fields[position].value)
                    hash.separator()
                }
                hash.mix(0xA9)
            }
            let fingerprint = hash.finalize64()
            let outcomes = memoized(fingerprint, index, removed: &removed, memo: &memo) { childRemoved in
                zip(entryRules[index], layout.embeddedPositions[slot]).map {
                    outcome(of: $0, at: $1, in: raw, removed: &childRemoved)
                }
            }
            result.append(CoercedChild(mapping: index, outcomes: outcomes, fingerprint: fingerprint))
        }
        for child in raw.children where child.mapping >= 0 && !(stored && entryOwned[child.mapping]) {
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
            let outcomes = memoized(fingerprint, child.mapping, removed: &removed, memo: &memo) { childRemoved in
                let byKey = KeyLayout.positions(of: child.fields.map(\.key))
                let childRecord = RawRecord(fields: child.fields, position: raw.position, ordinal: raw.ordinal)
                return entryRules[child.mapping].map {
                    outcome(of: $0, at: KeyLayout.positions($0.field, in: byKey), in: childRecord,
                            removed: &childRemoved)
                }
            }
            var extraJSON = child.extraJSON
            if entryAlternates[child.mapping] {
                // Nothing lost: what the row's fields passed over goes to the row's `extra`.
                let byKey = KeyLayout.positions(of: child.fields.map(\.key))
                let readers = entryRules[child.mapping].map { KeyLayout.positions($0.field, in: byKey) }
                let unchosen = Self.unchosen(readers, in: child.fields) { candidate in
                    readers.filter { $0.contains(candidate) }
                }
                extraJSON = JSONText.adding(unchosen.map { child.fields[$0] }, to: extraJSON)
            }
            result.append(CoercedChild(mapping: child.mapping, outcomes: outcomes, fingerprint: fingerprint,
                                       extraJSON: extraJSON))
        }
        return result
    }

    /// The owned kinds (`Entity.carriedBit`) whose rows `raw`'s feed record carries, none included: an entry's
    /// `each:` matched (an empty list too), or a field of an entry read from its own keys is in the record.
    private func carriedKinds(_ raw: RawRecord, _ layout: KeyLayout) -> UInt8 {
        guard ownedKinds != 0 else { return 0 }
        var carried: UInt8 = 0
        for (index, entry) in mapping.embedded.enumerated() where entryOwned[index] {
            if entry.each != nil {
                if raw.matchedGroups & RawChild.bit(of: index) != 0 { carried |= entry.entity.carriedBit }
            } else if let slot = recordEntries.firstIndex(of: index),
                      layout.embeddedPositions[slot].contains(where: { !$0.isEmpty }) {
                carried |= entry.entity.carriedBit
            }
        }
        return carried
    }

    /// The outcome of the listing's `rooms` or `unit_types` column (`mapping`: `RawChild.roomsMapping`, ...): the
    /// JSON array of the elements' objects; `.missing` when the path matched an empty list only, `.absent` when it
    /// is not in the record; nil when the mapping has no such path.
    private func structuredOutcome(_ raw: RawRecord, mapping: Int, path: String?) -> FieldOutcome? {
        guard path != nil else { return nil }
        guard raw.matchedGroups & RawChild.bit(of: mapping) != 0 else { return .absent }
        var array: [UInt8] = [0x5B]
        for child in raw.children where child.mapping == mapping {
            if array.count > 1 { array.append(0x2C) }
            array += child.extraJSON
        }
        guard array.count > 1 else { return .missing }
        array.append(0x5D)
        return .value(.text(String(decoding: array, as: UTF8.self)))
    }

    /// The outcomes memoized under `fingerprint`, or made by `make` (which counts the characters it removed); the
    /// rows of entry `index` that belong to a listing are made every time, never memoized.
    private func memoized(_ fingerprint: UInt64, _ index: Int, removed: inout Int, memo: inout ChildMemo,
                          make: (inout Int) -> [FieldOutcome]) -> [FieldOutcome] {
        if entryOwned[index] {
            return make(&removed)
        }
        if let known = memo[fingerprint] {
            removed += known.removed
            return known.outcomes
        }
        var childRemoved = 0
        let outcomes = make(&childRemoved)
        memo.store((outcomes, childRemoved), for: fingerprint)
        removed += childRemoved
        return outcomes
    }

    /// A recognised copy of a stored listing: only its key (the one outcome) and its embedded agents and offices are
    /// coerced.
    func coerceStored(_ raw: consuming RawRecord, layout: KeyLayout, memo: inout ChildMemo) -> CoercedRecord {
        var removed = 0
        var outcomes: [FieldOutcome] = []
        if let keyField {
            outcomes.append(outcome(of: rules[keyField], at: layout.fieldPositions[keyField], in: raw,
                                    removed: &removed))
        }
        let children = childOutcomes(raw, layout, stored: true, removed: &removed, memo: &memo)
        var record = CoercedRecord(entity: mapping.entity, outcomes: outcomes, extra: [], raw: consume raw,
                                   children: children, removedCharacters: removed)
        record.carries = carriedKinds(record.raw, layout)
        return record
    }

    func coerce(_ raw: consuming RawRecord, layout: KeyLayout, memo: inout ChildMemo) -> CoercedRecord {
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
        let children = childOutcomes(raw, layout, stored: false, removed: &removed, memo: &memo)
        let carries = carriedKinds(raw, layout)
        let rooms = structuredOutcome(raw, mapping: RawChild.roomsMapping, path: mapping.rooms)
        let unitTypes = structuredOutcome(raw, mapping: RawChild.unitTypesMapping, path: mapping.unitTypes)
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
        var record = CoercedRecord(entity: mapping.entity, outcomes: outcomes, extra: extra, raw: consume raw,
                                   children: children, removedCharacters: removed)
        record.carries = carries
        record.rooms = rooms
        record.unitTypes = unitTypes
        return record
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
