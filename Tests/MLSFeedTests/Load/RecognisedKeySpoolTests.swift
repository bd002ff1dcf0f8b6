import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed

/// The recognised copies' keys wait in an unlinked spool file, and reach `seen_listings` all or only those asked.
@Suite(.ownThread) struct RecognisedKeySpoolTests {
    typealias F = LoadFixtures

    /// `count` keys of mixed lengths (one empty, some multi-byte), each with its ordinal.
    static func keys(_ count: Int) -> [(String, Int)] {
        (0..<count).map { i in (i == 0 ? "" : "K\(i)-" + String(repeating: i % 7 == 0 ? "é" : "x", count: i % 40), i) }
    }

    /// `seen_listings` in a fresh transaction of a fresh database, and the spool filled with `rows`.
    static func setUp(_ rows: [(String, Int)], directory: String) throws -> (Connection, RecognisedKeySpool) {
        let data = try Connection(try TestDatabase.migrated())
        try data.execute("BEGIN")
        try data.execute("CREATE TEMP TABLE seen_listings (listing_id text NOT NULL, ordinal bigint NOT NULL) "
                         + "ON COMMIT DROP")
        let spool = try RecognisedKeySpool(directory: directory)
        for (key, ordinal) in rows { try spool.append(key: key, ordinal: ordinal) }
        return (data, spool)
    }

    /// This process's open files (unlinked or not) in `directory`.
    static func openFiles(in directory: String) -> Int {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.filter { descriptor in
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
            return target?.hasPrefix(directory + "/") == true
        }.count
    }

    static func seen(_ data: Connection) throws -> [[String?]] {
        try data.execute("SELECT listing_id, ordinal::text FROM seen_listings s ORDER BY s.ordinal").rows
    }

    /// None, a few, and enough for several chunks (a chunk is 256 KiB): every row comes back once, in order; the
    /// file was unlinked as soon as it was made.
    @Test(arguments: [0, 3, 30_000])
    func everyRowIsCopiedOnceAcrossChunks(count: Int) throws {
        let directory = TestSpool()
        defer { directory.remove() }
        let rows = Self.keys(count)
        let (data, spool) = try Self.setUp(rows, directory: directory.path)
        #expect(directory.contents == [])
        #expect(spool.count == count)
        #expect(try spool.copyAll(into: data) == count)
        #expect(try Self.seen(data) == rows.map { [$0.0, String($0.1)] })
    }

    /// Only the rows whose key hashes are asked for are copied, from every chunk.
    @Test func onlyTheRowsOfTheKeysAskedAreCopied() throws {
        let directory = TestSpool()
        defer { directory.remove() }
        let rows = Self.keys(30_000)
        let (data, spool) = try Self.setUp(rows, directory: directory.path)
        let asked = [0, 1, 7, 14_999, 29_999]
        let hashes = Set(asked.map { RecognisedKeySpool.keyHash(ArraySlice(rows[$0].0.utf8)) }
                         + [RecognisedKeySpool.keyHash(ArraySlice("not spooled".utf8))])
        #expect(try spool.copy(into: data, keysHashedIn: hashes) == asked.count)
        #expect(try Self.seen(data) == asked.map { [rows[$0].0, String(rows[$0].1)] })
        #expect(try spool.copy(into: data, keysHashedIn: []) == 0)
    }

    /// A spool directory that cannot be made stops the run with the reason.
    @Test func anUnusableDirectoryIsAClearError() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mlsfeed-test-\(UUID())").path
        FileManager.default.createFile(atPath: file, contents: Data())
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(throws: LoadError("cannot spool the recognised listings' keys: spool directory \(file) is not a "
                                  + "directory")) {
            _ = try RecognisedKeySpool(directory: file)
        }
    }

    /// The merge copies what it needs: nothing when no recognised key was also staged; the overlap alone when the
    /// recognised keys outnumber the staged ones; all when they do not, or when keys may repeat.
    @Test(arguments: [
        // (recognised, changed copies of recognised ones, other changed, known distinct, rows into seen_listings)
        (4, 0, 2, true, 0),
        (4, 1, 1, true, 1),
        (2, 1, 2, true, 2),
        (4, 1, 1, false, 4),
    ])
    func theMergeCopiesOnlyTheKeysItNeeds(recognised: Int, overlapping: Int, other: Int, distinct: Bool,
                                          copied: Int) throws {
        let db = try TestDatabase.migrated()
        let directory = TestSpool()
        defer { directory.remove() }
        let keys = (0..<(recognised + other)).map { "L\($0)" }
        try F.load(db, keys.enumerated().map { F.listing($1, rawHash: UInt64($0 + 1)) }, mode: .incremental)
        let (session, stored) = try StoredListingsTests.session(db, .incremental, knowsStored: distinct,
                                                                spoolDirectory: directory.path)
        let copies = (0..<recognised).map { F.stored(keys[$0], ordinal: $0, rawHash: UInt64($0 + 1), in: stored) }
        // The changed copies come later in the feed (newer ordinals, same time): they win.
        let changed = (0..<overlapping).map { keys[$0] } + keys[recognised...]
        try session.write(copies + changed.enumerated().map { i, key in
            F.listing(key, price: "9", ordinal: recognised + i, rawHash: UInt64(100 + i))
        })
        #expect(Self.openFiles(in: directory.path) == 1)
        let result = try session.commit(read: recognised + changed.count, rejected: 0, inputs: [], timings: [:],
                                        warnings: [])
        // Closed at the end of the run, though the session lives on.
        #expect(Self.openFiles(in: directory.path) == 0)
        #expect(session.seenCopied == copied)
        #expect(result.recognized == recognised)
        #expect(result.duplicates == overlapping)
        #expect(result.updated == changed.count)
        #expect(result.unchanged == recognised - overlapping)
        #expect(try F.query(db, "SELECT count(*) FROM listings WHERE list_price = 9") == [[String(changed.count)]])
    }
}
