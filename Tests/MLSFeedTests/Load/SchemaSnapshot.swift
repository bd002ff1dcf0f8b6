import Postgres

/// A database's schema as comparable rows: tables' columns, constraints, indexes, storage options, extensions, the
/// search API's row types and functions (each with its definition and comment).
struct SchemaSnapshot: Equatable {
    /// One list of rows per kind of object, by name.
    let parts: [String: [[String?]]]

    /// The functions of schemas `search` and `search_internal`: signature, `pg_get_functiondef` and comment.
    static let functionsQuery = """
        SELECT p.oid::regprocedure::text, pg_get_functiondef(p.oid), obj_description(p.oid, 'pg_proc')
        FROM pg_proc p
        WHERE p.pronamespace IN (SELECT oid FROM pg_namespace WHERE nspname IN ('search', 'search_internal'))
        ORDER BY 1
        """

    private static let queries = [
        "columns": """
            SELECT c.relname, a.attnum::text, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull::text,
                   pg_get_expr(d.adbin, d.adrelid), a.attcompression::text
            FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
            LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
            WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' ORDER BY 1, 2
            """,
        "constraints": """
            SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint
            WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2
            """,
        "indexes": "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1",
        "storage": """
            SELECT relname, array_to_string(reloptions, ',') FROM pg_class
            WHERE relnamespace = 'public'::regnamespace AND reloptions IS NOT NULL ORDER BY 1
            """,
        "extensions": "SELECT extname FROM pg_extension ORDER BY 1",
        "types": """
            SELECT t.typname, a.attnum::text, a.attname, format_type(a.atttypid, a.atttypmod),
                   obj_description(t.oid, 'pg_type')
            FROM pg_type t JOIN pg_attribute a ON a.attrelid = t.typrelid
            WHERE t.typnamespace = 'search'::regnamespace AND t.typtype = 'c' ORDER BY 1, 2
            """,
        "schemas": """
            SELECT nspname, obj_description(oid, 'pg_namespace') FROM pg_namespace
            WHERE nspname IN ('search', 'search_internal') ORDER BY 1
            """,
        "functions": functionsQuery,
    ]

    /// The schema of the database `connection` is connected to.
    static func of(_ connection: Connection) throws -> SchemaSnapshot {
        SchemaSnapshot(parts: try queries.mapValues { try connection.execute($0).rows })
    }

    /// The kinds of object that differ from `other`'s, with this snapshot's rows and `other`'s.
    func differences(from other: SchemaSnapshot) -> [String] {
        parts.keys.sorted().filter { parts[$0] != other.parts[$0] }.map {
            "\($0): \(parts[$0] ?? []) versus \(other.parts[$0] ?? [])"
        }
    }
}
