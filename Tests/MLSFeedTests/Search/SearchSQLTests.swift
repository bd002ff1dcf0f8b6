import Foundation
@testable import MLSFeed
import Postgres
import PostgresTestSupport
import Testing

/// `Search/search.sql` is what the database runs: the latest migration named `search functions` is a copy of it, it
/// defines every function of schemas `search` and `search_internal`, and its first copy (migration 16) changed no
/// function that migrations 8, 10 and 11 had made, only the layout of their text.
@Suite(.ownThread) struct SearchSQLTests {
    /// The migrations that apply `search.sql` as it was when they shipped.
    static let copies = Migrations.all.filter { $0.name == "search functions" }

    @Test func theLatestSearchFunctionsMigrationIsSearchSQL() throws {
        let latest = try #require(Self.copies.last, "no migration applies search.sql")
        let same = latest.sql == EmbeddedSQL.search
        #expect(same, """
            Search/search.sql differs from migration \(latest.version), the latest that applies it: copy it as a new \
            migration, Load/Migrations/\(String(format: "%04d", Migrations.latestVersion + 1))_search_functions.sql
            """)
    }

    @Test func searchSQLDefinesEveryFunctionOfTheSearchSchemas() throws {
        let connection = try Connection(TestDatabase.migrated())
        try Migrations.apply(connection)
        let present = try connection.execute("""
            SELECT n.nspname || '.' || p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname IN ('search', 'search_internal') ORDER BY 1
            """).rows.map { $0[0] ?? "" }
        let pattern = /(?m)^CREATE OR REPLACE FUNCTION ([a-z_]+\.[a-z0-9_]+)\(/
        let defined = EmbeddedSQL.search.matches(of: pattern).map { String($0.output.1) }.sorted()
        #expect(present == defined)
        #expect(defined.count == 40)
    }

    /// Migration 16 over a database at 15: every function keeps its signature, properties, comment and body (the
    /// body's white space outside string literals aside), and no function appears or goes.
    @Test func migration16ChangesNoFunction() throws {
        let connection = try Connection(TestDatabase.fresh())
        for migration in Migrations.all where migration.version < 16 {
            try connection.transaction { try connection.executeScript(migration.sql) }
        }
        let before = try connection.execute(SchemaSnapshot.functionsQuery).rows
        let sixteen = try #require(Migrations.all.first { $0.version == 16 })
        #expect(sixteen.name == "search functions")
        try connection.transaction { try connection.executeScript(sixteen.sql) }
        let after = try connection.execute(SchemaSnapshot.functionsQuery).rows

        #expect(after.map { $0[0] } == before.map { $0[0] })
        #expect(before.count == 39)
        for (old, new) in zip(before, after) {
            #expect(Self.layoutFree(old[1] ?? "") == Self.layoutFree(new[1] ?? ""), "\(old[0] ?? "")")
            #expect(old[2] == new[2], "the comment of \(old[0] ?? "")")
        }
    }

    /// `sql` with every run of white space outside string literals ('...', '' inside) made one space.
    static func layoutFree(_ sql: String) -> String {
        var out = ""
        var quoted = false
        var space = false
        for character in sql {
            if character == "'" { quoted.toggle() }
            if !quoted && character.isWhitespace {
                space = true
                continue
            }
            if space && !out.isEmpty { out.append(" ") }
            space = false
            out.append(character)
        }
        return out
    }
}
