import XMLStream

/// Reads a metadata file — a RESO `$metadata` EDMX document, or a RETS METADATA reply (COMPACT or STANDARD-XML)
/// with `METADATA-TABLE`s and `METADATA-LOOKUP_TYPE`s — with the streaming XML parser and its secure defaults
/// (no network, no DTD, no entity declarations). Only the fields, enum types and lookups are kept.
package enum MetadataReader {
    /// The most fields, enum members and lookup values one file may hold: a bound on memory for a hostile file
    /// (a whole RESO Data Dictionary server holds some tens of thousands).
    static let maxItems = 500_000

    /// Reads `path` (or standard input for `-`) in chunks.
    package static func read(path: String) throws -> MetadataDocument {
        let source = try FileChunkSource(path: path, chunkSize: 64 << 10)
        let session = try MetadataSession(file: path)
        while let chunk = try source.next() { try session.feed(chunk[...]) }
        return try session.finish()
    }

    /// Reads a document held in memory, fed in pieces of `chunk` bytes (nil: at once).
    package static func read(bytes: [UInt8], file: String, chunk: Int? = nil) throws -> MetadataDocument {
        let session = try MetadataSession(file: file)
        let size = max(1, chunk ?? bytes.count)
        var offset = 0
        while offset < bytes.count {
            try session.feed(bytes[offset..<min(bytes.count, offset + size)])
            offset += size
        }
        return try session.finish()
    }
}

/// One read: the parser and the delegate it drives; parser errors become `InputError`s located in the file.
private final class MetadataSession {
    private let file: String
    private let router: MetadataRouter
    private let parser: XMLPushParser

    init(file: String) throws {
        self.file = file
        router = MetadataRouter(file: file)
        do {
            parser = try XMLPushParser(delegate: router)
        } catch {
            throw Self.located(error, file: file)
        }
    }

    func feed(_ bytes: ArraySlice<UInt8>) throws {
        if !sawContent { try sniff(bytes) }
        do { try parser.feed(bytes) } catch { throw Self.located(error, file: file) }
    }

    /// Whether a byte other than white space or a byte-order mark was seen, and how many bytes came before.
    private var sawContent = false
    private var skipped = 0

    /// Refuses a file whose first character is not `<` (a JSON `$metadata`, a binary file) with what it starts
    /// with, rather than libxml2's "Document is empty".
    private func sniff(_ bytes: ArraySlice<UInt8>) throws {
        for (offset, byte) in bytes.enumerated() {
            if skipped + offset < 3 && [0xEF, 0xBB, 0xBF, 0xFE, 0xFF].contains(byte) { continue }
            if [0x20, 0x09, 0x0A, 0x0D].contains(byte) { continue }
            sawContent = true
            guard byte == UInt8(ascii: "<") else {
                let shown = bytes.dropFirst(offset).prefix(8).map { String($0, radix: 16).leftPadded }
                throw InputError("not an XML document: it starts with the bytes \(shown.joined(separator: " ")), "
                                 + "not \"<\"", at: SourcePosition(file: file, line: 1, column: 1))
            }
            return
        }
        skipped += bytes.count
    }

    func finish() throws -> MetadataDocument {
        do {
            try parser.finish()
            return try router.finish()
        } catch {
            throw Self.located(error, file: file)
        }
    }

    private static func located(_ error: any Error, file: String) -> any Error {
        guard let error = error as? XMLStreamError else { return error }
        return InputError(error.message, at: SourcePosition(file: file, line: max(1, error.line),
                                                             column: max(1, error.column)))
    }
}

extension String {
    /// A one-digit hex byte with a leading `0`.
    fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}
