import Digest
import Foundation
import MLSFeed
import Testing

/// Every shipped migration pinned by the SHA-256 of its file: a database that applied a migration keeps what that
/// text did, so changing the text would give new installs a schema no upgraded database has.
@Suite struct MigrationChecksumTests {
    /// The migrations shipped so far: version, name (as `schema_migrations` records it) and the SHA-256 of the file.
    /// Versions 1 to 15 are the exact texts the releases before the SQL files applied from Swift strings.
    static let shipped: [(version: Int, name: String, sha256: String)] = [
        (1, "tables", "9929982851dc6ba82dd55cc895db769e043ab94ddf8e8e0432c927bfaac2d344"),
        (2, "search indexes", "cf0ba3fd2f54b48baddb40b0d3f7cbbf615e78215d43399d9d0e02bc404388dc"),
        (3, "lighter location and price indexes", "d8b33b27524996ba466db62163b576aa92a348b89f64c7276dad35d09c7a5b33"),
        (4, "raw fingerprints of listings", "961d754f81f7dccc5c6970cfe4eb13304513bf0493bcabffe7f7dbc9669c6203"),
        (5, "honest ledger and as-of times", "00a19633331e004027c16fb5e359acbbe18c588b4abd046af48c9a75cf303bbb"),
        (6, "co-listing agents and full names", "9680b6541123ce78b739dc472cdfeadad936d067c69ebc352bd92b2f063b54a5"),
        (7, "replication state and request budgets",
         "e6d289c948eb77c53a91f32c80936ad5de1741f3baa95f61647c9cf0aaec1760"),
        (8, "search api", "ff15607ae6ef04dbe55df9de8e8aea7b59a898df336afc5386c4eeee5160916e"),
        (9, "reject replays", "d365dc5d2b5e5a60d81e42842e69866c7665e1791cfbf6d7e362a7f44c46fe14"),
        (10, "faster detailed search", "b2857d779825f96a8e5d4e774e2d5a256e4aef76359ffd296af7c29b6c26bd5c"),
        (11, "active listings near a point", "dc214aa37fe7487324fa372c5cb8c20d79d49eee529ebb085e7c327c2f2d78f1"),
        (12, "on-market listings index", "de2a3ed79dd9889f7827611606279bbdf0ef015cc5eaa8bfdf6cb9a81466d274"),
        (13, "extra compressed with lz4", "7c4b9bca6c5024a5fdf5b44b0f6bc58968e39718435308bf277c3dbf3f12e78e"),
        (14, "replication position and key sweeps",
         "97645df0743b945470c7834d78a8dccb1485f158596f928098fbef8664a2954c"),
        (15, "listing keys", "9df43ca4412860f6ed6bcc6b20dbea63ee79d8f0385ad8c51947639dd9729510"),
        (16, "search functions", "fcac4e8a911f9adfd7a1b9d811996d52061712e7148c41e6280750097d4a2859"),
        (17, "offices open houses media and rooms",
         "3abdd74a05ed6c8f24e61d79596fd6e7dd144dabe69dd671d236b549834303d5"),
        (18, "search rows with photos open houses and office",
         "95d5ae7c8090365dc6e2ba796988d07dd3d3f9baf3ae138643b04328373fea96"),
        (19, "search functions", "83be52a5cd1bab80e6605b197283851459fee1a4039e784b03f339d281c3f492"),
        (20, "primary keys by source", "f2d48e32d1967a5c5091f841dbcb46ae8b107656f67b8f44514e84fe112106d5"),
    ]

    /// The folder of the migration files.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../Sources/MLSFeed/Load/Migrations").standardizedFileURL

    @Test(arguments: shipped)
    func aShippedMigrationNeverChanges(version: Int, name: String, sha256: String) throws {
        let migration = try #require(Migrations.all.first { $0.version == version }, "migration \(version) is gone")
        #expect(migration.name == name, "migration \(version) was named \"\(name)\": its file's name changed")
        #expect(SHA256.hex(Array(migration.sql.utf8)) == sha256, """
            migration \(version) (\(name)) changed: a shipped migration never changes, since the databases that \
            applied it keep what it did; undo the change and put it in a new migration
            """)
    }

    /// A new migration ships pinned: its checksum goes into `shipped` in the commit that adds it.
    @Test func everyMigrationIsPinned() {
        let pinned = Set(Self.shipped.map(\.version))
        for migration in Migrations.all where !pinned.contains(migration.version) {
            Issue.record("""
                migration \(migration.version) (\(migration.name)) is not pinned: add (\(migration.version), \
                "\(migration.name)", "\(SHA256.hex(Array(migration.sql.utf8)))") to MigrationChecksumTests.shipped
                """)
        }
    }

    /// What the binary applies is each file byte for byte, and every file in the folder is applied.
    @Test func theBinaryCarriesEveryFileAsItIs() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        #expect(files.count == Migrations.all.count)
        for file in files {
            let bytes = try Data(contentsOf: Self.folder.appendingPathComponent(file))
            let version = Int(file.prefix(while: \.isNumber))
            let migration = try #require(Migrations.all.first { $0.version == version }, "\(file) is not applied")
            #expect(Array(migration.sql.utf8) == Array(bytes), "\(file)")
            #expect(file == String(format: "%04d_", migration.version)
                        + migration.name.replacingOccurrences(of: " ", with: "_") + ".sql")
        }
    }
}
