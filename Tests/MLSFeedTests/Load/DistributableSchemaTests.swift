import Foundation
@testable import MLSFeed
import Postgres
import PostgresTestSupport
import Testing

/// The schema stays one that can be split by source: into partitions of one server, or into the shards of a Citus
/// cluster with `source` as the distribution column (docs/scaling.md, "From one server to a cluster"). Both need
/// every primary key and unique index of a table with a `source` column to include it, and a join of two such
/// tables to match on it, so that it runs within one partition or shard group.
@Suite(.ownThread) struct DistributableSchemaTests {
    /// The tables of schema public that have a `source` column, by name.
    static let scopedTablesQuery = """
        SELECT c.relname FROM pg_class c
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
          AND EXISTS (SELECT 1 FROM pg_attribute a
                      WHERE a.attrelid = c.oid AND a.attname = 'source' AND NOT a.attisdropped)
        ORDER BY 1
        """

    /// The primary keys, unique indexes and exclusion constraints of those tables whose key columns (not the
    /// `INCLUDE`d ones) do not hold `source` as a column: name and definition.
    static let uniqueWithoutSourceQuery = """
        SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid)
        FROM pg_index i
        JOIN pg_class c ON c.oid = i.indrelid AND c.relnamespace = 'public'::regnamespace
        JOIN pg_attribute s ON s.attrelid = c.oid AND s.attname = 'source' AND NOT s.attisdropped
        WHERE (i.indisunique OR i.indisexclusion)
          AND s.attnum <> ALL ((i.indkey::int2[])[0:i.indnkeyatts - 1])
        ORDER BY 1
        """

    /// The tables without a `source` column, each with where it goes when the others are split.
    static let tablesWithoutSource: [String: String] = [
        "schema_migrations": "the schema's version: on the coordinator (or a reference table), read by mlsfeed only",
    ]

    /// The tables with a `source` column, from the catalog, are the ones docs/scaling.md splits, and the others the
    /// ones it keeps whole: a new table needs a place there.
    @Test func sourceScopedTablesAreTheOnesTheDocsPlace() throws {
        let connection = try Connection(TestDatabase.migrated())
        let scoped = try connection.execute(Self.scopedTablesQuery).rows.compactMap { $0.first ?? nil }
        #expect(scoped == ["agents", "ingest_runs", "listing_history", "listings", "media", "offices", "open_houses",
                           "rejects", "replication_state", "request_budgets"])
        let others = try connection.execute("""
            SELECT relname FROM pg_class
            WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p') AND relname <> ALL ($1::text[])
            ORDER BY 1
            """, [TextArray.literal(scoped)]).rows.compactMap { $0.first ?? nil }
        #expect(others == Self.tablesWithoutSource.keys.sorted())
        let scaling = try String(contentsOfFile: Self.repositoryRoot + "/docs/scaling.md", encoding: .utf8)
        for table in scoped + others {
            #expect(scaling.contains("`\(table)`"), "docs/scaling.md does not place table \(table)")
        }
    }

    /// The migrated schema has no unique index without `source` (the ledger's surrogate keys are `(source, id)`
    /// since migration 20).
    @Test func everyUniqueIndexOfASourceScopedTableHoldsSource() throws {
        let connection = try Connection(TestDatabase.migrated())
        let found = try Self.uniqueWithoutSource(connection)
        #expect(found.map(\.name) == [], "\(found)")
    }

    /// The check reads the catalog: a unique index, a unique constraint and a new table's primary key without
    /// `source` are found; an index that holds source only in an expression or as an `INCLUDE`d column does not
    /// count.
    @Test func aUniqueIndexWithoutSourceIsFound() throws {
        let connection = try Connection(TestDatabase.migrated())
        try connection.executeScript("""
            CREATE UNIQUE INDEX listings_key_only_idx ON listings (listing_key);
            ALTER TABLE agents ADD CONSTRAINT agents_email_key UNIQUE (email);
            CREATE TABLE brokerages (source text NOT NULL, brokerage_id text PRIMARY KEY);
            CREATE UNIQUE INDEX listings_lower_source_idx ON listings (lower(source), listing_id);
            CREATE UNIQUE INDEX agents_included_source_idx ON agents (agent_mls_id, email) INCLUDE (source);
            CREATE UNIQUE INDEX listings_source_key_idx ON listings (listing_key, source);
            """)
        let found = try Self.uniqueWithoutSource(connection)
        #expect(found.map(\.name) == ["agents_email_key", "agents_included_source_idx", "brokerages_pkey",
                                      "listings_key_only_idx", "listings_lower_source_idx"])
        #expect(found.first?.definition
                    == "CREATE UNIQUE INDEX agents_email_key ON public.agents USING btree (email)")
    }

    /// Every statement of the merge, planned against a run's temporary tables, joins source-scoped rows on source.
    @Test func mergeStatementsJoinOnSource() throws {
        let connection = try Connection(TestDatabase.migrated())
        let check = try Self.sourceJoins(connection)
        try Self.createRunTables(connection)
        var joins = 0
        var findings: [String] = []
        for (name, sql) in Self.mergeStatements {
            let report = try check.report(onPlan: Self.genericPlan(connection, sql), of: name)
            joins += report.joins
            findings += report.findings
        }
        #expect(findings == [])
        // The statements do join relations that carry a source (the check is not vacuous): listings with
        // rejects in the five withdrawals, listing_history with ingest_runs in the ledger, listings with the CTEs
        // over it in the updates.
        #expect(joins >= 6)
    }

    /// Every SQL function of schemas search and search_internal that returns rows: PostgreSQL inlines it into the
    /// statement that calls it, so the plan shows its joins, whatever the arguments. (The PL/pgSQL functions of
    /// schema search run their own statements too: `searchCallsJoinOnSource` plans those as they run.)
    @Test func searchFunctionsJoinOnSource() throws {
        let connection = try Connection(TestDatabase.migrated())
        let (functions, joins, findings) = try Self.searchFunctionJoins(connection)
        #expect(functions > 0)
        #expect(findings == [])
        // The functions do join relations that carry a source (the check is not vacuous): listings with agents in
        // listing_rows, quick_rows, detailed_page and near_rows, and the page's keys with listings in the last two.
        #expect(joins >= 6)
    }

    /// A search function added with a join that does not match on source is found: the functions are read from the
    /// catalog, not listed.
    @Test func aSearchFunctionJoiningWithoutSourceIsFound() throws {
        let connection = try Connection(TestDatabase.migrated())
        try connection.execute("""
            CREATE FUNCTION search_internal.office_listing_rows(p_office text)
            RETURNS TABLE (source text, listing_id text, email text)
            LANGUAGE sql STABLE AS $$
            SELECT l.source, l.listing_id, a.email FROM listings l
            JOIN agents a ON a.agent_mls_id = l.list_agent_mls_id
            WHERE a.office_mls_id = p_office
            $$
            """)
        let (_, _, findings) = try Self.searchFunctionJoins(connection)
        #expect(findings == ["search_internal.office_listing_rows: agents a and listings l joined without source"])
    }

    /// The statements the search API runs, its PL/pgSQL bodies' own included, as the server plans them when it is
    /// called: each search, every sort and kind of area, on a few loaded listings, with `auto_explain` reporting
    /// every statement's plan (nested ones too).
    @Test func searchCallsJoinOnSource() throws {
        let db = try TestDatabase.migrated()
        try LoadFixtures.load(db, [LoadFixtures.listing("A"), LoadFixtures.listing("B", status: "Pending"),
                                   LoadFixtures.listing("C", city: "La Jolla"), LoadFixtures.agent("AG1")])
        let (plans, joins, findings) = try Self.joinsOfCalls(db, Self.searchCalls)
        #expect(findings == [])
        // Every call and the statements under it were planned (the check is not vacuous): the calls' own plans,
        // the PL/pgSQL bodies' statements (search.detailed's skip scans) and the inlined search_internal ones.
        #expect(plans.count > 2 * Self.searchCalls.count, "\(plans.count) plans")
        #expect(plans.contains { $0.contains("WITH RECURSIVE present") })
        #expect(joins >= 6)
    }

    /// A PL/pgSQL search function whose own statement joins without source is found when it runs.
    @Test func aSearchCallJoiningWithoutSourceIsFound() throws {
        let db = try TestDatabase.migrated()
        try Connection(db).execute("""
            CREATE FUNCTION search.office_listings(p_office text) RETURNS SETOF text LANGUAGE plpgsql AS $$
            BEGIN
                RETURN QUERY SELECT l.listing_id FROM listings l
                    JOIN agents a ON a.agent_mls_id = l.list_agent_mls_id WHERE a.office_mls_id = p_office;
            END
            $$
            """)
        let (_, _, findings) = try Self.joinsOfCalls(db, ["SELECT count(*) FROM search.office_listings('O1')"])
        #expect(findings == ["SELECT l.listing_id FROM listings l JOIN agents a ON a.agent_mls_id = "
                                + "l.list_agent_mls_id WHERE a.office_mls_id = p_office: agents a and listings l "
                                + "joined without source"])
    }

    /// A call of each search: every sort with no area, a city, a ZIP or both, each with and without a status.
    static let searchCalls: [String] = {
        var calls = [
            "SELECT count(*) FROM search.listing(NULL, 'A')",
            "SELECT count(*) FROM search.listing('sdmls', 'A', true)",
            "SELECT count(*) FROM search.quick('1', 'main')",
            "SELECT count(*) FROM search.agents('smi')",
            "SELECT count(*) FROM search.agents(NULL, 'O1')",
            "SELECT count(*) FROM search.near(32.7, -117.1, 5)",
            "SELECT count(*) FROM search.near(32.7, -117.1, 5, status => 'Active')",
        ]
        for sort in ["price", "-price", "newest", "beds"] {
            for area in ["", ", city => 'San Diego'", ", postal_code => '92101'",
                         ", city => 'San Diego', postal_code => '92101'"] {
                for status in ["", ", status => 'Active'"] {
                    calls.append("SELECT count(*) FROM search.detailed(sort => '\(sort)'\(area)\(status))")
                }
            }
        }
        return calls
    }()

    /// Runs `calls` in psql (the server's own, from its `BINDIR`) with `auto_explain` sending every statement's plan
    /// (VERBOSE, JSON; nested statements too) to the client as a notice; returns the plans, their joins of
    /// relations that carry a source and the findings, each named by its statement's text.
    static func joinsOfCalls(_ conninfo: String, _ calls: [String]) throws
        -> (plans: [String], joins: Int, findings: [String]) {
        let connection = try Connection(conninfo)
        let check = try sourceJoins(connection)
        let bindir = try #require(try connection.execute("SELECT setting FROM pg_config WHERE name = 'BINDIR'")
            .rows.first?.first ?? nil)
        let script = """
            SET statement_timeout = '60s';
            LOAD 'auto_explain';
            SET auto_explain.log_min_duration = 0;
            SET auto_explain.log_nested_statements = on;
            SET auto_explain.log_verbose = on;
            SET auto_explain.log_format = json;
            SET auto_explain.log_level = notice;
            SET client_min_messages = notice;
            \(calls.map { $0 + ";" }.joined(separator: "\n"))
            """
        let psql = Process()
        psql.executableURL = URL(fileURLWithPath: bindir + "/psql")
        psql.arguments = ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-o", "/dev/null", "-d", conninfo, "-f", "-"]
        let input = Pipe()
        let notices = Pipe()
        psql.standardInput = input
        psql.standardError = notices
        try psql.run()
        try input.fileHandleForWriting.write(contentsOf: Data(script.utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: notices.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        psql.waitUntilExit()
        #expect(psql.terminationStatus == 0, "\(text.suffix(2000))")
        var plans: [String] = []
        var joins = 0
        var findings: [String] = []
        for plan in jsonObjects(after: "plan:\n", in: text) {
            let object = try JSONSerialization.jsonObject(with: Data(plan.utf8)) as? [String: Any]
            let query = (object?["Query Text"] as? String ?? "").split(whereSeparator: \.isWhitespace)
                .joined(separator: " ")
            let report = try check.report(onPlan: "[" + plan + "]", of: query)
            plans.append(query)
            joins += report.joins
            findings += report.findings
        }
        return (plans, joins, findings)
    }

    /// The JSON objects that follow each `marker` in `text` (from its first `{` to the brace that closes it).
    static func jsonObjects(after marker: String, in text: String) -> [String] {
        var objects: [String] = []
        var rest = Substring(text)
        while let found = rest.range(of: marker), let start = rest[found.upperBound...].firstIndex(of: "{") {
            var depth = 0
            var inString = false
            var escaped = false
            var end: Substring.Index?
            for index in rest[start...].indices {
                let character = rest[index]
                if inString {
                    if escaped {
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        inString = false
                    }
                } else if character == "\"" {
                    inString = true
                } else if character == "{" {
                    depth += 1
                } else if character == "}" {
                    depth -= 1
                    if depth == 0 {
                        end = index
                        break
                    }
                }
            }
            guard let end else { break }
            objects.append(String(rest[start...end]))
            rest = rest[rest.index(after: end)...]
        }
        return objects
    }

    /// Plans every SQL function of schemas search and search_internal that returns rows, inlined; returns how many
    /// there are, their joins of relations that carry a source, and the findings.
    static func searchFunctionJoins(_ connection: Connection) throws
        -> (functions: Int, joins: Int, findings: [String]) {
        let check = try Self.sourceJoins(connection)
        try connection.execute("BEGIN")
        defer { _ = try? connection.execute("ROLLBACK") }
        let functions = try connection.execute("""
            SELECT n.nspname || '.' || p.proname,
                   array_to_string(ARRAY(SELECT format_type(t.oid, NULL)
                                         FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY AS t (oid, n)
                                         ORDER BY t.n), '|')
            FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname IN ('search', 'search_internal') AND p.proretset
              AND p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'sql')
            ORDER BY 1
            """).rows
        var joins = 0
        var findings: [String] = []
        for function in functions {
            guard let name = function[0], let types = function[1] else { continue }
            let arguments = types.isEmpty ? [] : types.split(separator: "|").enumerated().map { "$\($0 + 1)::\($1)" }
            let sql = "SELECT * FROM \(name)(\(arguments.joined(separator: ", ")))"
            let report = try check.report(onPlan: Self.genericPlan(connection, sql), of: name)
            joins += report.joins
            findings += report.findings
        }
        return (functions.count, joins, findings)
    }

    /// A broken statement, and statements that match on source: the check reads plans, and finds the joins that
    /// do not (through a join node, a hashed or correlated subquery, a CTE, an OR).
    @Test(arguments: [
        ("SELECT l.listing_id FROM listings l JOIN agents a ON a.agent_mls_id = l.list_agent_mls_id",
         ["broken: agents a and listings l joined without source"]),
        ("SELECT l.listing_id FROM listings l JOIN agents a ON a.agent_mls_id = l.list_agent_mls_id "
            + "WHERE l.source = $1",
         ["broken: agents a and listings l joined without source"]),
        ("SELECT l.listing_id FROM listings l JOIN agents a ON a.agent_mls_id = l.list_agent_mls_id "
            + "WHERE l.source = $1 AND a.source = $2",
         ["broken: agents a and listings l joined without source"]),
        ("SELECT l.listing_id FROM listings l JOIN agents a ON (a.source = l.source OR a.source IS NULL) "
            + "AND a.agent_mls_id = l.list_agent_mls_id",
         ["broken: agents a and listings l joined without source"]),
        ("SELECT l.listing_id FROM listings l WHERE l.source = $1 AND l.listing_id NOT IN "
            + "(SELECT r.key FROM rejects r WHERE r.run_id = $2 AND r.key IS NOT NULL)",
         ["broken: listings l and rejects r joined without source"]),
        ("SELECT h.id FROM listing_history h WHERE EXISTS (SELECT 1 FROM ingest_runs r WHERE r.id = h.run_id)",
         ["broken: ingest_runs r and listing_history h joined without source"]),
        ("SELECT l.listing_id, (SELECT count(*) FROM listing_history h WHERE h.listing_id = l.listing_id) "
            + "FROM listings l",
         ["broken: listing_history h and listings l joined without source"]),
        ("WITH h AS MATERIALIZED (SELECT source, listing_id FROM listing_history) "
            + "SELECT l.listing_id FROM h JOIN listings l ON l.listing_id = h.listing_id",
         ["broken: CTE h and listings l joined without source"]),
        ("SELECT l.listing_id FROM listings l JOIN agents a ON a.source = l.source "
            + "AND a.agent_mls_id = l.list_agent_mls_id", []),
        ("SELECT l.listing_id FROM listings l JOIN agents a ON a.agent_mls_id = l.list_agent_mls_id "
            + "WHERE l.source = $1 AND a.source = $1", []),
        ("SELECT l.listing_id FROM listings l WHERE l.source = $1 AND l.listing_id NOT IN "
            + "(SELECT r.key FROM rejects r WHERE r.source = $1 AND r.run_id = $2 AND r.key IS NOT NULL)", []),
        ("WITH h AS MATERIALIZED (SELECT source, listing_id FROM listing_history) "
            + "SELECT l.listing_id FROM h JOIN listings l ON l.source = h.source AND l.listing_id = h.listing_id", []),
    ])
    func aJoinWithoutSourceIsFound(statement: String, findings: [String]) throws {
        let connection = try Connection(TestDatabase.migrated())
        let check = try Self.sourceJoins(connection)
        try connection.execute("BEGIN")
        // Each join method in turn: the finding must not depend on the plan the planner picks.
        for method in ["enable_hashjoin", "enable_mergejoin", "enable_nestloop"] {
            try connection.execute("SET LOCAL \(method) = off")
            let report = try check.report(onPlan: Self.genericPlan(connection, statement), of: "broken")
            #expect(report.findings == findings, "\(method) = off")
            #expect(report.joins == 1, "\(method) = off")
            try connection.execute("RESET \(method)")
        }
    }

    /// The merge's statements as a run sends them (`$1` the source, `$2` the run, ...), and the ledger's join of
    /// listing history and runs.
    static let mergeStatements: [(String, String)] = {
        var statements: [(String, String)] = [
            ("insertAll listings", MergeStatements.insertAll(.listing)),
            ("insertAll agents", MergeStatements.insertAll(.agent)),
            ("insertNew listings", MergeStatements.insertNew(.listing)),
            ("insertNew agents", MergeStatements.insertNew(.agent)),
            ("insertNew listings after early merges", MergeStatements.insertNew(.listing, afterEarlyMerges: true)),
            ("updateListings", MergeStatements.updateListings),
            ("updateListings after early merges", MergeStatements.updateListings(afterEarlyMerges: true)),
            ("replaceWithLaterCopies", MergeStatements.replaceWithLaterCopies),
            ("refreshRawHashes", MergeStatements.refreshRawHashes),
            ("refreshRawHashes after early merges", MergeStatements.refreshRawHashes(afterEarlyMerges: true)),
            ("updateAgents", MergeStatements.updateAgents),
            ("resolveRecognisedOverlap", MergeStatements.resolveRecognisedOverlap),
            ("withdraw", MergeStatements.withdraw),
            ("withdrawUnnamed", MergeStatements.withdrawUnnamed(withoutFingerprint: false)),
            ("withdrawUnnamed without fingerprints", MergeStatements.withdrawUnnamed(withoutFingerprint: true)),
            ("withdrawFound", MergeStatements.withdrawFound(withoutFingerprint: false)),
            ("withdrawFound without fingerprints", MergeStatements.withdrawFound(withoutFingerprint: true)),
            ("applyDeletions", MergeStatements.applyDeletions),
            ("removeRepeatedEarlyMerges", MergeStatements.removeRepeatedEarlyMerges),
            ("restoreRepeatedOriginals", MergeStatements.restoreRepeatedOriginals),
            ("ledger history changes", Ledger.changes),
        ]
        for (index, step) in MergeStatements.earlyMerge.enumerated()
        where !step.sql.hasPrefix("TRUNCATE") && !step.sql.hasPrefix("ANALYZE") {
            statements.append(("earlyMerge step \(index + 1)", step.sql))
        }
        // Offices, media and open houses: a listing's rows with its winning copy, a resource feed's rows, the
        // offices listings name.
        for entity in [Entity.office, .media, .openHouse] {
            statements += [
                ("insertAll \(entity.table)", MergeStatements.insertAll(entity)),
                ("insertNew \(entity.table)", MergeStatements.insertNew(entity)),
                ("replaceRows \(entity.table)", MergeStatements.replaceRows(entity, checkFreshness: true)),
                ("deleteMissing \(entity.table)", MergeStatements.deleteMissing(entity)),
            ]
        }
        statements += [
            ("updateShared offices", MergeStatements.updateShared(.office)),
            ("deleteUnlisted media", MergeStatements.deleteUnlisted(.media)),
            ("deleteUnlisted open_houses", MergeStatements.deleteUnlisted(.openHouse)),
            ("replaceRows media of listings", MergeStatements.replaceRows(.media, checkFreshness: false)),
        ]
        return statements
    }()

    /// Opens a transaction on `connection` holding a run's temporary tables (staging, incoming, recognised and
    /// deleted keys, the early merges', the unmatched fingerprints, the offices', media's and open houses' and the
    /// listings whose copy won), as a run makes them.
    static func createRunTables(_ connection: Connection) throws {
        try connection.executeScript("""
            BEGIN;
            \(StagingTables.create(.listing));
            \(StagingTables.create(.agent));
            \(StagingTables.resolveDuplicates(.listing));
            \(StagingTables.resolveDuplicates(.agent));
            \(LoadSession.createKeyTables);
            \(MergeStatements.createEarlyMergeTables);
            \([Entity.office, .media, .openHouse].map {
                StagingTables.create($0) + ";\n" + StagingTables.resolveDuplicates($0) + ";"
            }.joined(separator: "\n"))
            CREATE TEMP TABLE written_listings (listing_id text, ordinal bigint) ON COMMIT DROP;
            """)
        try WithdrawalSearch.sendUnmatched([], to: connection, untilCommit: true)
    }

    /// The check, with the source-scoped tables read from the catalog.
    static func sourceJoins(_ connection: Connection) throws -> SourceJoins {
        SourceJoins(scopedTables: Set(try connection.execute(scopedTablesQuery).rows.compactMap { $0.first ?? nil }))
    }

    /// The unique indexes of source-scoped tables without `source`: name and definition.
    static func uniqueWithoutSource(_ connection: Connection) throws -> [(name: String, definition: String)] {
        try connection.execute(uniqueWithoutSourceQuery).rows.map { ($0[0] ?? "", $0[1] ?? "") }
    }

    /// `EXPLAIN (VERBOSE, FORMAT JSON)` of `sql`'s generic plan (its parameters as `$N`, not values), as the
    /// server plans it when it is prepared: the statement is prepared and executed with NULLs under
    /// `plan_cache_mode = force_generic_plan`, which plans without looking at them.
    static func genericPlan(_ connection: Connection, _ sql: String) throws -> String {
        try connection.execute("SET plan_cache_mode = force_generic_plan")
        try connection.execute("PREPARE checked AS " + sql)
        defer { _ = try? connection.execute("DEALLOCATE checked") }
        let count = try connection.execute(
            "SELECT cardinality(parameter_types) FROM pg_prepared_statements WHERE name = 'checked'"
        ).rows.first?.first.flatMap { $0.flatMap { Int($0) } } ?? 0
        let arguments = count == 0 ? "" : "(" + Array(repeating: "NULL", count: count).joined(separator: ", ") + ")"
        return try connection.execute("EXPLAIN (VERBOSE, FORMAT JSON) EXECUTE checked\(arguments)").rows
            .compactMap { $0.first ?? nil }.joined(separator: "\n")
    }

    /// The repository's root, from this file's path.
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
}
