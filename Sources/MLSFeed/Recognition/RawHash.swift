import Foundation

/// A 64-bit fingerprint of one record exactly as the feed spelled it, read under one configuration.
///
/// Equal fingerprints mean the same keys, the same value bytes and the same mapping, time zone and
/// normalization code: normalizing the record again would give the same row. The load keeps it with each listing
/// (`listings.raw_hash`), so the next run can recognise an unchanged listing before normalizing it.
package struct RawHash: Sendable {
    /// Bump when normalization or validation changes what a given record becomes, and add the new outputs' digest
    /// to `NormalizationFingerprintTests` (which fails, saying so, when the outputs change and this does not).
    /// 2: fractions of a second kept, more date/time formats, exact integers, Canadian postal codes, folded enums;
    /// a partial record's content hash mixes in the mask of the columns it does not carry.
    static let normalizationVersion = "mlsfeed-normalize-4"

    /// The configuration part of every fingerprint.
    package let seed: UInt64

    /// The seed for records read with `mapping` in `zone`.
    package init(mapping: Mapping, zone: TimeZone?) {
        var hash = ContentHash()
        hash.update(RawHash.normalizationVersion)
        hash.separator()
        hash.update(zone?.identifier ?? "")
        hash.separator()
        hash.update(mapping.canonicalText)
        seed = hash.finalize64()
    }

    /// The fingerprint of a key list, computed once per list and combined into each record's.
    package static func keys(_ keys: [String]) -> UInt64 {
        var hash = ContentHash()
        for key in keys {
            hash.update(key)
            hash.separator()
        }
        return hash.finalize64()
    }

    /// A record given as its keys' fingerprint and its delimited values text (triples; a RETS COMPACT row, its
    /// layout's fingerprint standing for the keys).
    func of(keys: UInt64, values: UnsafeRawBufferPointer) -> UInt64 {
        var hash = ContentHash()
        hash.mix(seed)
        hash.mix(keys)
        hash.update(values)
        return hash.finalize64()
    }

    /// A record given as its fields (RETS, plain XML).
    package func of(_ fields: [RawField]) -> UInt64 {
        var hash = ContentHash()
        hash.mix(seed)
        Self.mix(fields, into: &hash)
        return hash.finalize64()
    }

    /// A record with whatever it holds besides fields: a structured record's unmapped content and repeated
    /// elements count too.
    package func of(_ record: RawRecord) -> UInt64 {
        guard record.extraJSON != nil || !record.children.isEmpty else { return of(record.fields) }
        var hash = ContentHash()
        hash.mix(seed)
        Self.mix(record.fields, into: &hash)
        hash.mix(0xE1)
        record.extraJSON?.withUnsafeBytes { hash.update($0) }
        // Through the buffer: each child borrowed, not copied (a copy retains and releases its arrays: 1.7% of a
        // RESO JSON first load's client samples were retains made here).
        record.children.withUnsafeBufferPointer { children in
            for i in children.indices {
                hash.mix(0xE2)
                hash.mix(UInt64(bitPattern: Int64(children[i].mapping)))
                Self.mix(children[i].fields, into: &hash)
                children[i].extraJSON.withUnsafeBytes { hash.update($0) }
            }
        }
        return hash.finalize64()
    }

    private static func mix(_ fields: [RawField], into hash: inout ContentHash) {
        // Through the buffer: each field borrowed, not copied (a copy retains and releases its strings).
        fields.withUnsafeBufferPointer { fields in
            for i in fields.indices { mix(key: fields[i].key, value: fields[i].value, into: &hash) }
        }
    }

    /// One field: the only definition of how a field counts in a fingerprint.
    private static func mix(key: String, value: String, into hash: inout ContentHash) {
        hash.update(key)
        hash.separator()
        hash.update(value)
        hash.separator()
    }
}

extension Mapping {
    /// Every setting of the mapping as text, in a fixed order (enum tables sorted): equal mappings, equal text.
    var canonicalText: String {
        func describe(_ field: FieldMapping) -> String {
            let bounds = "\(field.minimum.map { String($0) } ?? "-")..\(field.maximum.map { String($0) } ?? "-")"
            let words = field.enumValues.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return [field.name, field.sources.joined(separator: ","), "\(field.type)", "\(field.required)",
                    field.defaultValue.map { "\($0)" } ?? "-", field.onError.rawValue, bounds,
                    words.joined(separator: ","), field.dateOrder.rawValue, field.country.rawValue]
                .joined(separator: "\u{1F}")
        }
        func describe(_ entry: EmbeddedMapping) -> String {
            // A mapping with one agent from the record's own keys reads exactly as before agents could repeat.
            let head: [String]
            if entry.entity == .agent {
                head = entry.each == nil && entry.conditions.isEmpty && entry.link == nil ? ["agent"]
                    : ["agents", entry.each ?? "-", entry.link ?? "-"]
            } else {
                head = [entry.entity.embeddedKey, entry.each ?? "-", entry.link ?? "-"]
            }
            return (head + entry.conditions.map { "\($0.path)=\($0.value)" } + entry.fields.map(describe))
                .joined(separator: "\u{1E}")
        }
        let agents = embedded.filter { $0.entity == .agent }.map(describe)
        // Parts added since: only when a mapping uses them, so other mappings keep their fingerprints.
        let others = embedded.filter { $0.entity != .agent }.map(describe)
            + [rooms.map { "rooms=" + $0 }, unitTypes.map { "unit_types=" + $0 }].compactMap { $0 }
        return ([entity.rawValue] + fields.map(describe) + (agents.isEmpty ? ["agent"] : agents) + others)
            .joined(separator: "\u{1E}")
    }
}
