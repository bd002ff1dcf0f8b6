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
/// A bad record becomes a `Reject` carrying every reason at once and its raw fields; the run goes on. The rows a
/// listing embeds never reject it: agents and offices leave as records of their own, media and open houses go
/// inside the listing (`NormalizedRecord.children`), written only with its winning copy.
package struct Validator: Sendable {
    package let mapping: Mapping
    /// For each mapping field (and each embedded entry's field), its column's index in the entity's column order.
    private let fieldColumns: [Int]
    private let entryColumns: [[Int]]
    /// For each embedded entry, the listing column its first row's key fills (`link:`), if any.
    private let linkColumns: [Int?]
    private let keyField: FieldMapping?

    package init(mapping: Mapping) {
        self.mapping = mapping
        func indexes(_ fields: [FieldMapping], _ entity: Entity) -> [Int] {
            fields.map { entity.columnIndex[$0.name]! }
        }
        fieldColumns = indexes(mapping.fields, mapping.entity)
        entryColumns = mapping.embedded.map { indexes($0.fields, $0.entity) }
        linkColumns = mapping.embedded.map { $0.link.flatMap { Column.listingIndex[$0] } }
        keyField = mapping.fields.first { $0.name == mapping.entity.keyColumn }
    }

    /// Embedded agents and offices by their raw fingerprint: the row (nil: no key) and the issues its values raise.
    package typealias SharedMemo = BoundedMemo<(row: NormalizedRecord?, issues: IssueTally)>

    /// A validate worker's state for the rows many listings share (agents, offices), kept across batches.
    package struct Shared {
        /// Rows made before, by raw fingerprint.
        package var memo = SharedMemo()
        /// Per entity, key → content hash of the last row passed on. Kept only by a sole worker, which sees the
        /// feed in order: a row equal to the last one passed on for its key is then not passed on again (the dedupe
        /// stage would drop it: it passes a row when first seen and again only when its content changed).
        package var lastPassed: [Entity: [String: String]]?

        package init(inOrder: Bool = false) {
            lastPassed = inOrder ? [:] : nil
        }
    }

    package func process(_ batch: [CoercedRecord]) -> ValidatedBatch {
        var shared = Shared()
        return process(batch, shared: &shared)
    }

    /// Validates a batch, taking embedded agents and offices seen before (same raw fields) from `shared`, which a
    /// worker keeps across batches: the same fields always make the same row and the same issues.
    package func process(_ batch: [CoercedRecord], shared: inout Shared) -> ValidatedBatch {
        var out = ValidatedBatch()
        // Each record read in place: a copy would retain and release everything it holds.
        batch.withUnsafeBufferPointer { batch in
            for i in batch.indices {
                out.removedCharacters += batch[i].removedCharacters
                validate(batch[i], into: &out, shared: &shared)
            }
        }
        return out
    }

    private func validate(_ record: CoercedRecord, into out: inout ValidatedBatch, shared: inout Shared) {
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
            storedCopy(record, copy, into: &out, shared: &shared)
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
        if mapping.entity != .listing && mapping.entity != .agent {
            // An office, open house or photo of a resource feed: no row without its key, nor without its listing.
            for name in [mapping.entity.keyColumn] + (mapping.entity.belongsToListing ? ["listing_id"] : [])
            where ordered[mapping.entity.columnIndex[name]!] == nil
                && !reasons.contains(where: { $0.field == name }) {
                reasons.append(RejectReason(field: name, rawValue: nil, rule: "required field is missing"))
            }
        }
        // Issues of the embedded rows do not keep the listing from being recognised: they are counted again with
        // every listing that is not.
        let recordIssues = !issues.isEmpty
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
        for (column, outcome) in [(Column.roomsIndex, record.rooms), (Column.unitTypesIndex, record.unitTypes)] {
            switch outcome {
            case .value(let value)?: ordered[column] = value
            case .absent?: absent |= 1 << UInt64(column)
            default: break
            }
        }
        var owned: [NormalizedRecord] = []
        var shares: [(mapping: Int, row: NormalizedRecord, passed: Bool)] = []
        if !record.children.isEmpty {
            let key: String? = if case .text(let k)? = ordered[0] { k } else { nil }
            embedded(of: record, listing: key, issues: &issues, shared: &shared) { mapping, row, passed in
                if row.entity.belongsToListing {
                    owned.append(row)
                } else {
                    shares.append((mapping, row, passed))
                }
            }
        }
        if !issues.isEmpty { out.issues.merge(issues) }
        // `link:` fills the listing column with the first row of the entry, unless the mapping filled it.
        for (mapping, column) in linkColumns.enumerated() {
            guard let column, ordered[column] == nil,
                  let first = shares.first(where: { $0.mapping == mapping })?.row.key else { continue }
            ordered[column] = .text(first)
            absent &= ~(1 << UInt64(column))
        }
        // Only a record read without warnings may be recognised next time: a recognised one is not read again,
        // and its warnings would go uncounted.
        let clean = !recordIssues && record.removedCharacters == 0
        var extra = record.extra
        var extraJSON = record.raw.extraJSON
        // Nothing lost: the text of a bad value the row does not hold goes to `extra` (`_invalid.<column>`).
        if !invalid.isEmpty { Self.add(invalid, to: &extra, json: &extraJSON) }
        var made = NormalizedRecord(entity: mapping.entity, columns: ordered, extra: extra,
                                    position: record.raw.position, ordinal: record.raw.ordinal,
                                    contentHash: ContentHash.of(mapping.entity, columns: ordered, extra: extra,
                                                                absent: absent, extraJSON: extraJSON),
                                    rawHash: clean ? record.raw.rawHash : nil, absent: absent,
                                    extraJSON: extraJSON)
        made.children = owned
        made.carries = record.carries
        out.records.append(made)
        for share in shares where share.passed { out.records.append(share.row) }
    }

    /// A deletion: its key and modification timestamp, nothing else (its listing is withdrawn, never written).
    private func deletion(_ record: CoercedRecord, into out: inout ValidatedBatch) {
        var reasons: [RejectReason] = []
        var issues = IssueTally()
        var columns = [Value?](repeating: nil, count: mapping.entity.columns.count)
        for (index, field) in mapping.fields.enumerated()
        where fieldColumns[index] == 0 || fieldColumns[index] == mapping.entity.modificationIndex {
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
    /// merge), and its embedded agents and offices (its media and open houses stay as stored). Its key was valid
    /// when it was stored; were it not now, it is rejected.
    private func storedCopy(_ record: CoercedRecord, _ copy: StoredCopy, into out: inout ValidatedBatch,
                            shared: inout Shared) {
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
        stored.carries = record.carries
        out.records.append(stored)
        var embeddedIssues = IssueTally()
        embedded(of: record, listing: nil, issues: &embeddedIssues, shared: &shared) { _, row, passed in
            if passed { out.records.append(row) }
        }
        if !embeddedIssues.isEmpty { out.issues.merge(embeddedIssues) }
    }

    /// Calls `body` with each row the listing embeds that has a key, in order: agents and offices from the memo when
    /// their raw content was seen before (their issues counted for every listing that carries them; `passed` false
    /// for one equal to the last this sole worker passed on for its key, which the dedupe stage would drop), media
    /// and open houses made for `listing` (its key) every time. A row without its key is dropped (a photo or open
    /// house that had values is counted as dropped).
    private func embedded(of record: CoercedRecord, listing: String?, issues: inout IssueTally,
                          shared: inout Shared,
                          _ body: (_ mapping: Int, _ row: NormalizedRecord, _ passed: Bool) -> Void) {
        var positions: [Entity: Int] = [:]
        for coerced in record.children {
            let entry = mapping.embedded[coerced.mapping]
            if entry.entity.belongsToListing {
                guard let listing else { continue }
                // The row's place among the listing's rows of its kind (1-based): its order when the feed gives
                // none, and its key's when it has no key.
                let position = positions[entry.entity, default: 0] + 1
                positions[entry.entity] = position
                if let row = ownedRow(coerced, entry, listing: listing, position: position, issues: &issues) {
                    var row = row
                    row.position = record.raw.position
                    row.ordinal = record.raw.ordinal
                    body(coerced.mapping, row, true)
                }
                continue
            }
            var made: (row: NormalizedRecord?, issues: IssueTally)
            if let known = shared.memo[coerced.fingerprint] {
                made = known
            } else {
                var issues = IssueTally()
                made = (sharedRow(coerced, entry, issues: &issues), issues)
                shared.memo.store(made, for: coerced.fingerprint)
            }
            if !made.issues.isEmpty { issues.merge(made.issues) }
            guard var row = made.row, let key = row.key else { continue }
            var passed = true
            if shared.lastPassed != nil {
                if shared.lastPassed?[row.entity]?[key] == row.contentHash {
                    passed = false
                } else {
                    shared.lastPassed?[row.entity, default: [:]][key] = row.contentHash
                }
            }
            row.position = record.raw.position
            row.ordinal = record.raw.ordinal
            body(coerced.mapping, row, passed)
        }
    }

    /// The columns of an embedded row made of `coerced`'s outcomes, its bad values NULL (never a reject), and the
    /// text of those in `extra`.
    private func embeddedColumns(_ coerced: CoercedChild, _ entry: EmbeddedMapping, issues: inout IssueTally)
        -> (columns: [Value?], invalid: [RawField]) {
        var ordered = [Value?](repeating: nil, count: entry.entity.columns.count)
        var reasons: [RejectReason] = []
        var invalid: [RawField] = []
        let columns = entryColumns[coerced.mapping]
        entry.fields.withUnsafeBufferPointer { fields in
            for i in fields.indices {
                ordered[columns[i]] = resolve(fields[i], coerced.outcomes[i], reasons: &reasons, issues: &issues,
                                              invalid: &invalid, prefix: entry.entity.issuePrefix, lenient: true)
            }
        }
        return (ordered, invalid)
    }

    /// The agent or office made of `coerced`, or nil when it has no key: an agent without an id is known by its
    /// e-mail, an office without an id by its key (`office_key`).
    private func sharedRow(_ coerced: CoercedChild, _ entry: EmbeddedMapping, issues: inout IssueTally)
        -> NormalizedRecord? {
        var (ordered, invalid) = embeddedColumns(coerced, entry, issues: &issues)
        if ordered[0] == nil {
            let fallback = entry.entity == .agent ? Column.agentEmailIndex : Column.officeIndex["office_key"]!
            ordered[0] = ordered[fallback]
        }
        guard ordered[0] != nil else { return nil }
        return Self.row(entry.entity, ordered, invalid: invalid, extraJSON: coerced.extraJSON)
    }

    /// The photo or open house made of `coerced` for the listing `listing`, the `position`th of its kind there, or
    /// nil when it has no key and none can be made (counted when it had a value). A photo without a `media_order`
    /// takes its position, and without a `media_key` the key `<listing>/<media_order>`; an open house without an
    /// `open_house_key` the key `<listing>/<start_at>`.
    private func ownedRow(_ coerced: CoercedChild, _ entry: EmbeddedMapping, listing: String, position: Int,
                          issues: inout IssueTally) -> NormalizedRecord? {
        var (ordered, invalid) = embeddedColumns(coerced, entry, issues: &issues)
        let columns = entry.entity.columnIndex
        let hasValue = ordered.contains { $0 != nil }
        ordered[columns["listing_id"]!] = .text(listing)
        if entry.entity == .media {
            let order = columns["media_order"]!
            if ordered[order] == nil { ordered[order] = .integer(Int64(position)) }
            if ordered[0] == nil, let value = ordered[order] { ordered[0] = .text(listing + "/" + value.sqlText) }
        } else if ordered[0] == nil, let start = ordered[columns["start_at"]!] {
            ordered[0] = .text(listing + "/" + start.sqlText)
        }
        guard ordered[0] != nil else {
            if hasValue {
                issues.add(field: entry.entity.issuePrefix + entry.entity.keyColumn,
                           rule: "no key and no start time, dropped", example: nil)
            }
            return nil
        }
        guard hasValue || coerced.extraJSON.map({ $0 != Array("{}".utf8) }) == true else { return nil }
        return Self.row(entry.entity, ordered, invalid: invalid, extraJSON: coerced.extraJSON)
    }

    /// An embedded row of `entity` with `columns`, the bad values' text and the element's unmapped content in its
    /// `extra`, and its content hash.
    private static func row(_ entity: Entity, _ columns: [Value?], invalid: [RawField], extraJSON: [UInt8]?)
        -> NormalizedRecord {
        var extra: [RawField] = []
        var extraJSON = extraJSON
        if !invalid.isEmpty { add(invalid, to: &extra, json: &extraJSON) }
        if extraJSON == Array("{}".utf8) { extraJSON = nil }
        return NormalizedRecord(entity: entity, columns: columns, extra: extra,
                                position: SourcePosition(file: "", line: 0, column: 0), ordinal: 0,
                                contentHash: ContentHash.of(entity, columns: columns, extra: extra,
                                                            extraJSON: extraJSON),
                                extraJSON: extraJSON)
    }

    /// The value a field ends with (nil = NULL), adding a reason when it rejects the record and an issue when a bad
    /// optional value is dropped or a flawed value kept (`.kept`); a dropped bad value's text goes to `invalid`
    /// (`_invalid.<column>`). `lenient` (embedded rows): nothing rejects; bad values become NULL.
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
