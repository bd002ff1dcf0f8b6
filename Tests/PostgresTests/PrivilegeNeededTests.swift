import Testing
@testable import Postgres

/// Which privilege a refused statement needed, from the server's message and the statement's text.
@Suite struct PrivilegeNeededTests {
    @Test(arguments: [
        ("permission denied for table ingest_runs", "INSERT INTO ingest_runs (pipeline) VALUES ($1) RETURNING id",
         "INSERT on table ingest_runs"),
        ("permission denied for table ingest_runs", "UPDATE ingest_runs SET status = 'interrupted' WHERE id = $1",
         "UPDATE on table ingest_runs"),
        ("permission denied for table listings", "DELETE FROM public.listings WHERE source = $1",
         "DELETE on table listings"),
        ("permission denied for table listings", "COPY listings (listing_id) FROM STDIN (FORMAT binary)",
         "INSERT on table listings"),
        ("permission denied for table agents", """
            INSERT INTO agents AS a (agent_mls_id) SELECT agent_mls_id FROM staged_agents
            ON CONFLICT (agent_mls_id) DO UPDATE SET first_name = excluded.first_name
            """, "INSERT and UPDATE on table agents"),
        // The table read, not the one written.
        ("permission denied for table listings", "INSERT INTO staged SELECT * FROM listings",
         "SELECT on table listings"),
        ("permission denied for table listings", "SELECT count(*) FROM listings", "SELECT on table listings"),
        ("permission denied for table listing_history", "UPDATE listings SET x = 1; INSERT INTO listing_history_x "
            + "VALUES (1)", "SELECT on table listing_history"),
        ("permission denied for sequence ingest_runs_id_seq", "INSERT INTO ingest_runs DEFAULT VALUES",
         "USAGE on sequence ingest_runs_id_seq"),
        ("permission denied for schema public", "CREATE TABLE IF NOT EXISTS schema_migrations (version int)",
         "CREATE on schema public"),
        ("permission denied for schema search", "SELECT * FROM search.quick($1)", "USAGE on schema search"),
        ("permission denied for database \"mls\"", "", "CONNECT on database mls"),
        ("permission denied to create temporary tables in database \"mls\"", "CREATE TEMP TABLE x (a int)",
         "TEMPORARY on database mls"),
        ("permission denied for database mls", "CREATE SCHEMA search", "CREATE on database mls"),
        ("permission denied for function quick", "SELECT search.quick($1)", "EXECUTE on function quick"),
        ("must be owner of table listings", "DROP INDEX listings_price_idx", "ownership of table listings"),
        ("permission denied to create extension \"cube\"", "CREATE EXTENSION cube", nil),
        ("keine Berechtigung für Tabelle listings", "SELECT 1 FROM listings", nil),
    ] as [(String, String, String?)])
    func describe(message: String, statement: String, expected: String?) {
        #expect(PrivilegeNeeded.describe(message: message, statement: statement) == expected)
    }
}
