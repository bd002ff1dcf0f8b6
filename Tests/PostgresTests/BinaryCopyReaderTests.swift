import Testing
@testable import Postgres

/// The rows of a binary `COPY ... TO STDOUT`, read from its data messages without a server.
@Suite struct BinaryCopyReaderTests {
    static let header: [UInt8] = [0x50, 0x47, 0x43, 0x4F, 0x50, 0x59, 0x0A, 0xFF, 0x0D, 0x0A, 0x00, 0, 0, 0, 0,
                                  0, 0, 0, 0]
    static let trailer: [UInt8] = [0xFF, 0xFF]

    /// A row of 8-byte integers (nil: NULL).
    static func row(_ values: [Int64?]) -> [UInt8] {
        var bytes: [UInt8] = [0, UInt8(values.count)]
        for value in values {
            guard let value else {
                bytes += [0xFF, 0xFF, 0xFF, 0xFF]
                continue
            }
            let bits = UInt64(bitPattern: value)
            bytes += [0, 0, 0, 8] + (0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * $0)) }
        }
        return bytes
    }

    /// Reads `messages`, returning each row's integers and whether the trailer was read.
    static func read(_ messages: [[UInt8]]) throws -> (rows: [[Int64?]], ended: Bool) {
        var reader = BinaryCopyReader()
        var rows: [[Int64?]] = []
        for message in messages {
            try reader.read(message) { row in rows.append((0..<row.count).map { row.int64($0) }) }
        }
        return (rows, reader.ended)
    }

    @Test(arguments: [
        // One row a message, the header with the first, the trailer alone: what the server sends.
        [header + row([1, -2]), row([nil, .max]), row([.min, 0]), trailer],
        // The same bytes framed otherwise: the trailer with the last row, the header alone.
        [header, row([1, -2]) + row([nil, .max]), row([.min, 0]) + trailer],
    ])
    func rowsAreReadWhateverTheirMessages(messages: [[UInt8]]) throws {
        let (rows, ended) = try Self.read(messages)
        #expect(rows == [[1, -2], [nil, .max], [.min, 0]])
        #expect(ended)
    }

    @Test func noRowsIsTheHeaderAndTheTrailer() throws {
        let (rows, ended) = try Self.read([Self.header + Self.trailer])
        #expect(rows.isEmpty)
        #expect(ended)
    }

    @Test func aHeaderExtensionIsSkipped() throws {
        var header = Self.header
        header[18] = 3
        let (rows, _) = try Self.read([header + [9, 9, 9] + Self.row([7]), Self.trailer])
        #expect(rows == [[7]])
    }

    @Test func aFieldThatIsNotEightBytesIsNoInteger() throws {
        var reader = BinaryCopyReader()
        var seen: [Int64?] = []
        try reader.read(Self.header + [0, 2, 0, 0, 0, 4, 0, 0, 0, 5, 0, 0, 0, 0]) { row in
            seen = [row.int64(0), row.int64(1)]
            #expect(!row.isNull(0) && !row.isNull(1))
        }
        #expect(seen == [nil, nil])
    }

    @Test(arguments: [
        ([0x50, 0x47, 0x43], "no binary COPY header"),
        (header + [0, 1, 0, 0], "a field length cut short"),
        (header + [0, 1, 0, 0, 0, 9, 1, 2], "a field of 9 bytes past the message"),
        (header + [0], "a field count cut short"),
        (header + [0xFF, 0xFE], "a field count of -2"),
        (header + trailer + row([1]), "data after the trailer"),
    ] as [([UInt8], String)])
    func malformedDataIsAProtocolError(message: [UInt8], what: String) {
        var reader = BinaryCopyReader()
        let error = #expect(throws: PostgresError.self) { try reader.read(message) { _ in } }
        #expect(error?.code == .other("08P01"))
        #expect(error?.message == "unreadable binary COPY data: \(what)")
    }
}
