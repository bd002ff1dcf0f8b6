import Foundation
import MLSFeed
import Postgres
import PostgresTestSupport

/// Databases of generated listings and agents for the search tests, written with `INSERT ... SELECT
/// generate_series` (deterministic: every value is a hash of the row number).
///
/// The market: 8 cities with 2-3 ZIPs each (some listings carry ZIP+4), points scattered around each city,
/// 5 statuses (Withdrawn ones partly off market), 3 property types (Land without bedrooms), prices with many ties,
/// a few listings without price, list date, status, city or coordinates, a second source, and agents whose names
/// need Unicode case folding (`Ángel`, `ÓSCAR`) or carry a quote (`O'Brien`); agents past the 300th, and street
/// numbers, are as varied as a real market's (one street number per 50 listings).
enum SearchFixture {
    /// A migrated database with 6,000 listings and 300 agents, shared by the tests that only read.
    static let small: Result<String, any Error> = Result { try make(listings: 6_000, agents: 300) }

    /// A new migrated database with `listings` listings and `agents` agents, analyzed. With `fast`, the secondary
    /// indexes are dropped for the insert and built again afterwards from their own definitions (as the first load
    /// does).
    static func make(listings: Int, agents: Int, fast: Bool = false) throws -> String {
        let db = try TestDatabase.migrated()
        let connection = try Connection(db)
        try Migrations.apply(connection)
        var indexes: [String] = []
        if fast {
            for row in try connection.execute("""
                SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid) FROM pg_index
                WHERE indrelid IN ('listings'::regclass, 'agents'::regclass) AND NOT indisprimary
                """).rows {
                try connection.execute("DROP INDEX \(row[0]!)")
                indexes.append(row[1]!)
            }
        }
        try connection.execute(insertListings, [String(listings)])
        try connection.execute(insertAgents, [String(agents)])
        for definition in indexes { try connection.execute(definition) }
        try connection.execute("VACUUM ANALYZE listings")
        try connection.execute("VACUUM ANALYZE agents")
        return db
    }

    static let cities = ["San Diego", "La Jolla", "Chula Vista", "Oceanside", "Escondido", "Carlsbad", "El Cajon",
                         "Julian"]

    private static let insertListings = """
        INSERT INTO listings (source, listing_id, standard_status, property_type, list_price, listing_contract_date,
                              bedrooms_total, bathrooms_full, bathrooms_half, living_area, street_number, street_name,
                              city, postal_code, mls_area, latitude, longitude, list_agent_mls_id, off_market_at,
                              content_hash, first_seen_run, last_changed_run)
        SELECT CASE WHEN i % 50 = 0 THEN 'other' ELSE 'sdmls' END,
               lpad(i::text, 8, '0'),
               CASE WHEN i % 211 = 0 THEN NULL
                    ELSE (ARRAY['Active', 'Active', 'Active', 'Active', 'Active', 'Active', 'Pending', 'Pending',
                                'Closed', 'Closed', 'Closed', 'Expired', 'Withdrawn'])[1 + h1 % 13] END,
               t.type,
               CASE WHEN i % 97 = 0 THEN NULL ELSE (50000 + (h3 % 300) * 10000)::numeric(14,2) END,
               CASE WHEN i % 89 = 0 THEN NULL ELSE date '2025-10-01' + (h4 % 400)::integer END,
               CASE WHEN t.type = 'Land' THEN NULL ELSE (h5 % 7)::integer END,
               CASE WHEN t.type = 'Land' THEN NULL ELSE 1 + (h5 % 4)::integer END,
               CASE WHEN t.type = 'Land' THEN NULL ELSE (h6 % 2)::integer END,
               CASE WHEN t.type = 'Land' THEN NULL ELSE 600 + h6 % 4000 END,
               (100 + h7 % greatest(60, $1::integer / 50))::text,
               (ARRAY['University Ave', 'Upas St', 'El Cajon Blvd', 'Elm St', 'Calle Señorita', 'Ocean Blvd',
                      'Úrsula Way', '5th Ave'])[1 + h8 % 8],
               CASE WHEN i % 307 = 0 THEN NULL ELSE c.name END,
               c.zips[1 + h2 % cardinality(c.zips)] || CASE WHEN h9 % 8 = 0 THEN '-' || lpad((h9 % 9999)::text, 4, '0')
                                                            ELSE '' END,
               c.zips[1 + h2 % cardinality(c.zips)] || ' - ' || c.name,
               CASE WHEN i % 101 = 0 THEN NULL ELSE c.lat + ((h8 % 10000) / 10000.0 - 0.5) * 0.12 END,
               CASE WHEN i % 101 = 0 THEN NULL ELSE c.lon + ((h9 % 10000) / 10000.0 - 0.5) * 0.12 END,
               'AG' || (h7 % 300),
               CASE WHEN h1 % 13 = 12 AND i % 2 = 0 THEN timestamptz '2026-11-01 00:00:00+00' END,
               'hash', 1, 1
        FROM generate_series(1, $1::integer) AS i
        CROSS JOIN LATERAL (SELECT hashint8(i * 11 + 1)::bigint & 2147483647 AS h1,
                                   hashint8(i * 11 + 2)::bigint & 2147483647 AS h2,
                                   hashint8(i * 11 + 3)::bigint & 2147483647 AS h3,
                                   hashint8(i * 11 + 4)::bigint & 2147483647 AS h4,
                                   hashint8(i * 11 + 5)::bigint & 2147483647 AS h5,
                                   hashint8(i * 11 + 6)::bigint & 2147483647 AS h6,
                                   hashint8(i * 11 + 7)::bigint & 2147483647 AS h7,
                                   hashint8(i * 11 + 8)::bigint & 2147483647 AS h8,
                                   hashint8(i * 11 + 9)::bigint & 2147483647 AS h9) h
        CROSS JOIN LATERAL (SELECT (ARRAY['Residential', 'Residential', 'Residential', 'Residential',
                                          'ResidentialIncome', 'Land'])[1 + h.h2 % 6] AS type) t
        CROSS JOIN LATERAL (
            SELECT * FROM (VALUES
                (0, 'San Diego', ARRAY['92101', '92103', '92104'], 32.7157, -117.1611),
                (1, 'La Jolla', ARRAY['92037'], 32.8328, -117.2713),
                (2, 'Chula Vista', ARRAY['91910', '91911'], 32.6401, -117.0842),
                (3, 'Oceanside', ARRAY['92054', '92056'], 33.1959, -117.3795),
                (4, 'Escondido', ARRAY['92025', '92026', '92027'], 33.1192, -117.0864),
                (5, 'Carlsbad', ARRAY['92008', '92009'], 33.1581, -117.3506),
                (6, 'El Cajon', ARRAY['92019', '92020'], 32.7948, -116.9625),
                (7, 'Julian', ARRAY['92036'], 33.0786, -116.6020)) AS v (k, name, zips, lat, lon)
            WHERE v.k = CASE WHEN h.h3 % 3 = 0 THEN 0 ELSE h.h3 % 8 END) c
        """

    private static let insertAgents = """
        INSERT INTO agents (source, agent_mls_id, first_name, last_name, office_mls_id, office_name, office_phone,
                            mobile_phone, email, content_hash, first_seen_run, last_changed_run)
        SELECT 'sdmls', 'AG' || k,
               CASE WHEN k % 97 = 5 THEN NULL
                    WHEN k >= 300 THEN initcap(left(md5('first' || k), 7))
                    ELSE (ARRAY['Ángel', 'ÓSCAR', 'Ann', 'Anne', 'John', 'Maria', 'Zoë', 'Ana María'])[1 + k % 8] END,
               CASE WHEN k >= 300 THEN initcap(left(md5('last' || k), 8))
                    ELSE (ARRAY['Smith', 'Smithers', 'O''Brien', 'Núñez', 'Tanaka', 'ÁLVAREZ', 'Lee', 'Van der Berg',
                                'Anderson', 'Green'])[1 + (k / 8) % 10] END,
               'OF' || (k % 20), 'Office ' || (k % 20), '(619) 555-' || lpad((k % 10000)::text, 4, '0'),
               '(858) 555-' || lpad((k % 10000)::text, 4, '0'), 'agent' || k || '@example.com', 'hash', 1, 1
        FROM generate_series(0, $1::integer - 1) AS k
        """
}
