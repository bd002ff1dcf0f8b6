/// The output of the validate stage for one batch.
package struct ValidatedBatch: Sendable {
    package var records: [NormalizedRecord] = []
    package var rejects: [Reject] = []
    /// Bad optional values that became NULL or their default, and flawed values kept, per field and rule.
    package var issues = IssueTally()
    /// Why records were rejected, per field and rule.
    package var rejectReasons = IssueTally()
    package var removedCharacters = 0

    package init() {}
}

/// The validate stage: applies required flags, defaults and `on_error` to coerced records.
///
/// A bad record becomes a `Reject` carrying every reason at once and its raw fields; the run goes on.
package struct Validator: Sendable {
    package let mapping: Mapping
    /// For each mapping field (and each embedded agent's field), its column's index in the entity's column order.
    private let fieldColumns: [Int]
    private let agentColumns: [[Int]]
    /// For each embedded agent, the listing column its first agent's id fills (`link:`), if any.
    private let linkColumns: [Int?]
    private let keyField: FieldMapping?

    package init(mapping: Mapping) {
        self.mapping = mapping
        func indexes(_ fields: [FieldMapping], _ entity: Entity) -> [Int] {
            let index = Dictionary(uniqueKeysWithValues: entity.columns.enumerated().map { ($1.name, $0) })
            return fields.map { index[$0.name]! }
        }
        fieldColumns = indexes(mapping.fields, mapping.entity)
        agentColumns = mapping.embeddedAgents.map { indexes($0.fields, .agent) }
        linkColumns = mapping.embeddedAgents.map { $0.link.flatMap { Column.listingIndex[$0] } }
        keyField = mapping.fields.first { $0.name == mapping.entity.keyColumn }
    }

    /// Embedded agents by their raw fingerprint: the agent record (nil: no key) and the issues its values raise.
    package typealias AgentMemo = BoundedMemo<(agent: NormalizedRecord?, issues: IssueTally)>

    /// A validate worker's embedded-agent state, kept across batches.
    package struct Agents {
        /// Agents made before, by raw fingerprint.
        package var memo = AgentMemo()
        /// Agent id → content hash of the last agent passed on. Kept only by a sole worker, which sees the feed in
        /// order: an agent equal to the last one passed on for its id is then not passed on again (the dedupe stage
        /// would drop it: it passes an agent when first seen and again only when its content changed).
        package var lastPassed: [String: String]?

        package init(inOrder: Bool = false) {
            lastPassed = inOrder ? [:] : nil
        }
    }

    package func process(_ batch: [CoercedRecord]) -> ValidatedBatch {
        var agents = Agents()
        return process(batch, agents: &agents)
    }

    /// Validates a batch, taking embedded agents seen before (same raw fields) from `agents`, which a worker keeps
    /// across batches: the same fields always make the same agent and the same issues.
    package func process(_ batch: [CoercedRecord], agents: inout Agents) -> ValidatedBatch {
        var out = ValidatedBatch()
        // Each record read in place: a copy would retain and release everything it holds.
        batch.withUnsafeBufferPointer { batch in
            for i in batch.indices {
                out.removedCharacters += batch[i].removedCharacters
                validate(batch[i], into: &out, agents: &agents)
            }
        }
        return out
    }

    private func validate(_ record: CoercedRecord, into out: inout ValidatedBatch, agents: inout Agents) {
        if let defect = record.raw.defect {
            let key = keyField.flatMap { field in field.sources.lazy.compactMap { record.raw.value($0) }.first }
            let reason = RejectReason(field: "record", rawValue: nil, rule: defect)
            out.rejectReasons.add(field: "record", rule: ruleClass(defect), example: nil)
            out.rejects.append(Reject(entity: mapping.entity, key: key.map(TextCleaner.trim),
                                      position: record.raw.position,
                                      ordinal: record.raw.ordinal, reasons: [reason], raw: record.raw.fields,
                                      rawJSON: record.raw.tree?.json))
            return
        }
        if record.isDeletion {
            deletion(record, into: &out)
            return
        }
        if let copy = record.raw.stored {
            storedCopy(record, copy, into: &out, agents: &agents)
            return
        }
        var ordered = [Value?](repeating: nil, count: mapping.entity.columns.count)
        var reasons: [RejectReason] = []
        var issues = IssueTally()
        var invalid: [RawField] = []
        var absent: UInt64 = 0
        // Fields and outcomes read in place, not copied.
        mapping.fields.withUnsafeBufferPointer { fields in
            record.outcomes.withUnsafeBufferPointer { outcomes in
                for i in fields.indices {
                    // Most fields: the value as coerced, with no need of the field's mapping (the call below copies
                    // it, retaining and releasing each of its references).
                    if case .value(let value) = outcomes[i] {
                        ordered[fieldColumns[i]] = value
                        continue
                    }
                    if case .absent = outcomes[i] { absent |= 1 << UInt64(fieldColumns[i]) }
                    ordered[fieldColumns[i]] = resolve(fields[i], outcomes[i], reasons: &reasons, issues: &issues,
                                                       invalid: &invalid)
                }
            }
        }
        guard reasons.isEmpty else {
            // The key is the first column of every entity.
            let key: String? = if case .text(let k)? = ordered[0] { k } else { nil }
            for reason in reasons {
                out.rejectReasons.add(field: reason.field, rule: reason.rule, example: reason.rawValue,
                                      byValue: reason.rule == FieldMapping.unknownValueRule)
            }
            out.rejects.append(Reject(entity: mapping.entity, key: key, position: record.raw.position,
                                      ordinal: record.raw.ordinal, reasons: reasons, raw: record.raw.fields,
                                      rawJSON: record.raw.tree?.json))
            return
        }
        if !issues.isEmpty { out.issues.merge(issues) }
        let made = embeddedAgents(of: record, into: &out, agents: &agents)
        // `link:` fills the listing column with the first agent of the entry, unless the mapping filled it.
        for (mapping, column) in linkColumns.enumerated() {
            guard let column, ordered[column] == nil,
                  let first = made.first(where: { $0.mapping == mapping })?.agent.key else { continue }
            ordered[column] = .text(first)
            absent &= ~(1 << UInt64(column))
        }
        // Only a record read without warnings may be recognised next time: a recognised one is not read again,
        // and its warnings would go uncounted.
        let clean = issues.isEmpty && record.removedCharacters == 0
        var extra = record.extra
        var extraJSON = record.raw.extraJSON
        // Nothing lost: the text of a bad value the row does not hold goes to `extra` (`_invalid.<column>`).
        if !invalid.isEmpty { Self.add(invalid, to: &extra, json: &extraJSON) }
        out.records.append(NormalizedRecord(entity: mapping.entity, columns: ordered, extra: extra,
                                            position: record.raw.position, ordinal: record.raw.ordinal,
                                            contentHash: ContentHash.of(mapping.entity, columns: ordered,
                                                                        extra: extra, absent: absent,
                                                                        extraJSON: extraJSON),
                                            rawHash: clean ? record.raw.rawHash : nil, absent: absent,
                                            extraJSON: extraJSON))
        out.records += made.compactMap { $0.passed ? $0.agent : nil }
    }

    /// A deletion: its key and modification timestamp, nothing else (its listing is withdrawn, never written).
    private func deletion(_ record: CoercedRecord, into out: inout ValidatedBatch) {
        var reasons: [RejectReason] = []
        var issues = IssueTally()
        var columns = [Value?](repeating: nil, count: mapping.entity.columns.count)
        for (index, field) in mapping.fields.enumerated()
        where fieldColumns[index] == 0 || fieldColumns[index] == Column.listingModificationIndex {
            var invalid: [RawField] = []
            columns[fieldColumns[index]] = resolve(field, record.outcomes[index], reasons: &reasons, issues: &issues,
                                                   invalid: &invalid, lenient: fieldColumns[index] != 0)
        }
        guard reasons.isEmpty, columns[0] != nil else {
            if reasons.isEmpty {
                reasons.append(RejectReason(field: mapping.entity.keyColumn, rawValue: nil,
                                            rule: "required field is missing"))
            }
            for reason in reasons {
                out.rejectReasons.add(field: reason.field, rule: reason.rule, example: reason.rawValue)
            }
            out.rejects.append(Reject(entity: mapping.entity, key: nil, position: record.raw.position,
                                      ordinal: record.raw.ordinal, reasons: reasons, raw: record.raw.fields,
                                      rawJSON: record.raw.tree?.json))
            return
        }
        var deleted = NormalizedRecord(entity: mapping.entity, columns: columns, extra: [],
                                       position: record.raw.position, ordinal: record.raw.ordinal)
        deleted.isDeletion = true
        out.records.append(deleted)
    }

    /// A recognised copy of a stored listing: its key and stored modification timestamp (for dedupe and the
    /// merge), and its embedded agent. Its key was valid when it was stored; were it not now, it is rejected.
    private func storedCopy(_ record: CoercedRecord, _ copy: StoredCopy, into out: inout ValidatedBatch,
                            agents: inout Agents) {
        var reasons: [RejectReason] = []
        var issues = IssueTally()
        var invalid: [RawField] = []
        let key = keyField.flatMap { field in
            record.outcomes.first.flatMap {
                resolve(field, $0, reasons: &reasons, issues: &issues, invalid: &invalid)
            }
        }
        guard let key else {
            if reasons.isEmpty {
                reasons.append(RejectReason(field: mapping.entity.keyColumn, rawValue: nil,
                                            rule: "required field is missing"))
            }
            for reason in reasons {
                out.rejectReasons.add(field: reason.field, rule: reason.rule, example: reason.rawValue)
            }
            out.rejects.append(Reject(entity: mapping.entity, key: nil, position: record.raw.position,
                                      ordinal: record.raw.ordinal, reasons: reasons, raw: record.raw.fields,
                                      rawJSON: record.raw.tree?.json))
            return
        }
        // The key and the timestamp only (`NormalizedRecord.storedColumns`).
        let timestamp = copy.modificationTimestamp.map(Value.timestamp)
        var stored = NormalizedRecord(entity: mapping.entity, columns: [key, timestamp], extra: [],
                                      position: record.raw.position, ordinal: record.raw.ordinal,
                                      rawHash: record.raw.rawHash, isStored: true)
        stored.storedPlace = Int32(exactly: copy.place) ?? -1
        out.records.append(stored)
        forEachEmbeddedAgent(of: record, into: &out, agents: &agents) { out, _, agent, passed in
            if passed { out.records.append(agent) }
        }
    }

    /// The agents embedded in a listing (those with a key), from the memo when their raw content was seen before;
    /// their issues are counted for every listing that carries them. `passed` is false for an agent equal to the
    /// last one this (sole) worker passed on for its id: the dedupe stage would drop it.
    private func embeddedAgents(of record: CoercedRecord, into out: inout ValidatedBatch,
                                agents: inout Agents) -> [(mapping: Int, agent: NormalizedRecord, passed: Bool)] {
        var result: [(mapping: Int, agent: NormalizedRecord, passed: Bool)] = []
        forEachEmbeddedAgent(of: record, into: &out, agents: &agents) { _, mapping, agent, passed in
            result.append((mapping, agent, passed))
        }
        return result
    }

    /// Calls `body` with each agent `embeddedAgents` gives, in order, without gathering them (a recognised copy's
    /// agents go straight into the batch).
    private func forEachEmbeddedAgent(of record: CoercedRecord, into out: inout ValidatedBatch, agents: inout Agents,
                                      _ body: (inout ValidatedBatch, _ mapping: Int, _ agent: NormalizedRecord,
                                               _ passed: Bool) -> Void) {
        for coerced in record.agents {
            var made: (agent: NormalizedRecord?, issues: IssueTally)
            if let known = agents.memo[coerced.fingerprint] {
                made = known
            } else {
                var issues = IssueTally()
                made = (embeddedAgent(coerced, issues: &issues), issues)
                agents.memo.store(made, for: coerced.fingerprint)
            }
            if !made.issues.isEmpty { out.issues.merge(made.issues) }
            guard var agent = made.agent, let key = agent.key else { continue }
            var passed = true
            if agents.lastPassed != nil {
                if agents.lastPassed?[key] == agent.contentHash {
                    passed = false
                } else {
                    agents.lastPassed?[key] = agent.contentHash
                }
            }
            agent.position = record.raw.position
            agent.ordinal = record.raw.ordinal
            body(&out, coerced.mapping, agent, passed)
        }
    }

    /// The agent made of `coerced`'s outcomes, or nil when it has no key. Its bad values never reject the listing.
    private func embeddedAgent(_ coerced: CoercedAgent, issues: inout IssueTally) -> NormalizedRecord? {
        var ordered = [Value?](repeating: nil, count: Entity.agent.columns.count)
        var reasons: [RejectReason] = []
        var invalid: [RawField] = []
        let columns = agentColumns[coerced.mapping]
        mapping.embeddedAgents[coerced.mapping].fields.withUnsafeBufferPointer { fields in
            for i in fields.indices {
                ordered[columns[i]] = resolve(fields[i], coerced.outcomes[i], reasons: &reasons, issues: &issues,
                                              invalid: &invalid, prefix: "agent.", lenient: true)
            }
        }
        // The agent id is the first column; an agent without one is known by its email.
        if ordered[0] == nil, let email = ordered[Column.agentEmailIndex] { ordered[0] = email }
        guard ordered[0] != nil else { return nil }
        var extra: [RawField] = []
        var extraJSON = coerced.extraJSON
        if !invalid.isEmpty { Self.add(invalid, to: &extra, json: &extraJSON) }
        if extraJSON == Array("{}".utf8) { extraJSON = nil }
        return NormalizedRecord(entity: .agent, columns: ordered, extra: extra,
                                position: SourcePosition(file: "", line: 0, column: 0), ordinal: 0,
                                contentHash: ContentHash.of(.agent, columns: ordered, extra: extra,
                                                            extraJSON: extraJSON),
                                extraJSON: extraJSON)
    }

    /// The value a field ends with (nil = NULL), adding a reason when it rejects the record and an issue when a bad
    /// optional value is dropped or a flawed value kept (`.kept`); a dropped bad value's text goes to `invalid`
    /// (`_invalid.<column>`). `lenient` (embedded agents): nothing rejects; bad values become NULL.
    private func resolve(_ field: FieldMapping, _ outcome: FieldOutcome, reasons: inout [RejectReason],
                         issues: inout IssueTally, invalid: inout [RawField], prefix: String = "",
                         lenient: Bool = false) -> Value? {
        switch outcome {
        case .value(let value):
            return value
        case .kept(let value, let raw, let rule):
            issues.add(field: prefix + field.name, rule: rule, example: raw)
            return value
        case .missing:
            if let fallback = field.defaultValue { return fallback }
            if field.required && !lenient {
                reasons.append(RejectReason(field: field.name, rawValue: nil, rule: "required field is missing"))
            }
            return nil
        case .absent:
            // Kept from the stored row by the merge; a new row gets the default (or NULL).
            if let fallback = field.defaultValue { return fallback }
            if field.required && !lenient {
                reasons.append(RejectReason(field: field.name, rawValue: nil,
                                            rule: "required field is not in the feed"))
            }
            return nil
        case .bad(let raw, let rule):
            // An enum word the table lacks follows `on_unknown` (`keep` never gets here: it stores the word), and
            // is counted per value.
            let unknown = field.type == .enum && rule == FieldMapping.unknownValueRule
            let rejects = unknown ? field.onUnknown == .reject : field.onError == .reject
            if rejects && !lenient {
                reasons.append(RejectReason(field: field.name, rawValue: raw, rule: rule))
                return nil
            }
            invalid.append(RawField(Self.invalidPrefix + field.name, TextCleaner.clean(raw).text))
            if field.onError == .default, let fallback = field.defaultValue {
                issues.add(field: prefix + field.name, rule: rule + ", used default", example: raw, byValue: unknown)
                return fallback
            }
            issues.add(field: prefix + field.name, rule: rule, example: raw, byValue: unknown)
            return nil
        }
    }

    /// The `extra` key prefix of a bad value's text (`_invalid.close_price`).
    package static let invalidPrefix = "_invalid."

    /// Adds `fields` to a row's `extra`: to its JSON object when it has one (structured records, multi-value
    /// lookups), else to its fields.
    static func add(_ fields: [RawField], to extra: inout [RawField], json: inout [UInt8]?) {
        if let object = json {
            json = JSONText.adding(fields, to: object)
        } else {
            extra += fields
        }
    }

    /// Parser defects vary by counts and MLS number; tally them by their kind.
    private func ruleClass(_ defect: String) -> String {
        if defect.contains(" but ") { return "field count differs from keys" }
        return defect
    }
}
