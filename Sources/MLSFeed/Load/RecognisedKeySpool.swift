import Foundation
import Postgres

/// The keys and ordinals of a run's recognised copies (the rows of `seen_listings`), held in an unlinked spool file
/// until the merge knows which of them it needs, instead of copied to the server while the parse goes on.
///
/// Most runs need only the few also staged in a changed copy (`MergeStatements.resolveRecognisedOverlap`), or none;
/// only a run whose recognised keys may repeat, one that withdraws without the stored set, and a plan read them
/// all. Copying a million of them into `seen_listings` cost the server about 1.3 s of CPU at 1M (a slot made and
/// dropped per row, the temporary table's growth), on the core the parse shares with the merges.
///
/// The file is a series of chunks, each a 4-byte big-endian length and a binary COPY payload without its trailer
/// (header, then whole rows): a chunk reads back as one `BinaryCopyReader` message, and the chunks in order, each
/// after the first without its header, then the trailer, are the COPY of them all.
final class RecognisedKeySpool {
    /// The rows of `seen_listings`, in binary.
    static let copySQL = "COPY seen_listings (listing_id, ordinal) FROM STDIN (FORMAT binary)"
    /// The rows held in memory before they are written as one chunk.
    static let chunkBytes = 256 << 10

    private let file: SpoolFile
    private var rows = BinaryCopyRows()
    /// Rows appended.
    private(set) var count = 0

    /// A new, empty spool in `directory` (see `SpoolDirectory`).
    init(directory: String) throws {
        do {
            file = try SpoolDirectory(path: directory).create()
        } catch let full as DiskFull {
            throw DiskFull(path: full.path, doing: "cannot spool the recognised listings' keys", reason: full.reason)
        } catch {
            throw LoadError("cannot spool the recognised listings' keys: \(Self.reason(error))")
        }
    }

    /// Adds one recognised copy's key and ordinal.
    func append(key: String, ordinal: Int) throws {
        rows.beginRow(fields: 2)
        rows.text(key)
        rows.int64(Int64(ordinal))
        count += 1
        if rows.bytes.count >= Self.chunkBytes { try writeChunk() }
    }

    /// Copies every row into `seen_listings`; returns how many.
    @discardableResult
    func copyAll(into data: Connection) throws -> Int {
        try data.copyIn(Self.copySQL) { put in
            var first = true
            try forEachChunk { chunk in
                try put(first ? chunk : Array(chunk[BinaryCopyRows.headerCount...]))
                first = false
            }
            try put(first ? BinaryCopyRows().bytes + BinaryCopyRows.trailer : BinaryCopyRows.trailer)
        }
    }

    /// Copies into `seen_listings` the rows whose key's hash (`keyHash`) is in `hashes`; returns how many.
    func copy(into data: Connection, keysHashedIn hashes: Set<UInt64>) throws -> Int {
        var wanted = BinaryCopyRows()
        try forEachChunk { chunk in
            var reader = BinaryCopyReader()
            try reader.read(chunk) { row in
                guard row.count == 2, let key = row.bytes(0), let ordinal = row.int64(1) else {
                    throw LoadError("the recognised listings' spool holds a row that is not a key and an ordinal")
                }
                guard hashes.contains(Self.keyHash(key)) else { return }
                wanted.beginRow(fields: 2)
                key.withUnsafeBufferPointer { wanted.text($0) }
                wanted.int64(ordinal)
            }
        }
        guard wanted.count > 0 else { return 0 }
        return try data.copyIn(Self.copySQL, rows: wanted)
    }

    /// The hash a key is looked up by in `copy(into:keysHashedIn:)`, of its UTF-8 bytes.
    static func keyHash(_ key: ArraySlice<UInt8>) -> UInt64 {
        var hash = ContentHash()
        key.withUnsafeBytes { hash.update($0) }
        return hash.finalize64()
    }

    /// Writes the rows held in memory as one chunk.
    private func writeChunk() throws {
        guard rows.count > 0 else { return }
        let length = UInt32(rows.bytes.count)
        do {
            try file.write([UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF),
                            UInt8(length & 0xFF)])
            try file.write(rows.bytes)
        } catch let full as DiskFull {
            throw DiskFull(path: full.path, doing: "cannot spool the recognised listings' keys", reason: full.reason)
        } catch {
            throw LoadError("cannot spool the recognised listings' keys: \(Self.reason(error))")
        }
        rows.removeAll()
    }

    /// Hands each chunk to `body`, from the first; the rows still in memory are written first.
    private func forEachChunk(_ body: ([UInt8]) throws -> Void) throws {
        try writeChunk()
        do {
            try file.rewind()
            while let prefix = try file.read(exactly: 4) {
                let length = prefix.reduce(0) { $0 << 8 | Int($1) }
                guard let chunk = try file.read(exactly: length) else {
                    throw FetchError("cannot read the spool file: it ends inside a chunk")
                }
                try body(chunk)
            }
            // Back to the end, should a row come after.
            _ = lseek(file.handle.fileDescriptor, 0, SEEK_END)
        } catch let error as FetchError {
            throw LoadError("cannot read back the recognised listings' keys: \(Self.reason(error))")
        }
    }

    /// A spool file's or directory's error without its `error: ` prefix.
    private static func reason(_ error: any Error) -> String {
        (error as? FetchError)?.message ?? String(describing: error)
    }
}
