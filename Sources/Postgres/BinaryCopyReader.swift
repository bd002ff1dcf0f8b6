/// Reads the rows of a `COPY ... TO STDOUT (FORMAT binary)` from its data messages: a pure state machine, no I/O.
///
/// The server sends one row per message, the first after the 19-byte header (`PGCOPY\n\377\r\n\0`, flags, header
/// extension) and the last followed by (or alone as) the trailer, a field count of -1. A row is a big-endian field
/// count, then each field's length (-1 for NULL) and bytes, in its column type's binary form.
package struct BinaryCopyReader {
    private var headerRead = false
    /// Set once the trailer was read: no row may follow.
    package private(set) var ended = false
    /// Reused for every row's field ranges.
    private var fields: [Range<Int>?] = []

    package init() {}

    /// Reads one data message, handing each row in it to `row`. Throws on bytes that are not binary COPY rows.
    package mutating func read(_ message: [UInt8], _ row: (BinaryCopyRow) throws -> Void) throws {
        var at = 0
        if !headerRead {
            guard message.count >= 19, message[0..<11].elementsEqual(BinaryCopyRows.signature) else {
                throw Self.malformed("no binary COPY header")
            }
            let extension_ = Int(Self.int32(message, 15))
            guard extension_ >= 0, 19 + extension_ <= message.count else {
                throw Self.malformed("a header extension past the message")
            }
            at = 19 + extension_
            headerRead = true
        }
        while at < message.count {
            guard !ended else { throw Self.malformed("data after the trailer") }
            guard at + 2 <= message.count else { throw Self.malformed("a field count cut short") }
            let count = Int(Int16(bitPattern: UInt16(message[at]) << 8 | UInt16(message[at + 1])))
            at += 2
            if count == -1 {
                ended = true
                continue
            }
            guard count >= 0 else { throw Self.malformed("a field count of \(count)") }
            fields.removeAll(keepingCapacity: true)
            for _ in 0..<count {
                guard at + 4 <= message.count else { throw Self.malformed("a field length cut short") }
                let length = Int(Self.int32(message, at))
                at += 4
                if length == -1 {
                    fields.append(nil)
                    continue
                }
                guard length >= 0, at + length <= message.count else {
                    throw Self.malformed("a field of \(length) bytes past the message")
                }
                fields.append(at..<(at + length))
                at += length
            }
            try row(BinaryCopyRow(bytes: message, fields: fields))
        }
    }

    private static func int32(_ bytes: [UInt8], _ at: Int) -> Int32 {
        Int32(bitPattern: bytes[at..<(at + 4)].reduce(0) { $0 << 8 | UInt32($1) })
    }

    private static func malformed(_ what: String) -> PostgresError {
        PostgresError(code: .other("08P01"), message: "unreadable binary COPY data: \(what)")
    }
}

/// One row of a binary `COPY ... TO STDOUT`: its fields' bytes, valid while `BinaryCopyReader.read` hands it out.
package struct BinaryCopyRow {
    let bytes: [UInt8]
    let fields: [Range<Int>?]

    package var count: Int { fields.count }

    /// Whether field `index` is NULL.
    package func isNull(_ index: Int) -> Bool { fields[index] == nil }

    /// Field `index`'s bytes (a view of the message, not a copy); nil when it is NULL.
    package func bytes(_ index: Int) -> ArraySlice<UInt8>? {
        fields[index].map { bytes[$0] }
    }

    /// Field `index` as a big-endian 8-byte integer (`bigint`; `timestamptz` is microseconds since 2000-01-01);
    /// nil when it is NULL or not 8 bytes long.
    package func int64(_ index: Int) -> Int64? {
        guard let range = fields[index], range.count == 8 else { return nil }
        return Int64(bitPattern: bytes[range].reduce(0) { $0 << 8 | UInt64($1) })
    }
}
