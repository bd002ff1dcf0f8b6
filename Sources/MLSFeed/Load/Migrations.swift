import Postgres

/// The database schema as versioned SQL, applied in order and recorded in `schema_migrations`.
///
/// A migration, once shipped, never changes: a schema change is a new version at the end of `all`.
package enum Migrations {
    /// Advisory lock key held while migrating (`mlsfeed`'s namespace, then "migrations").
    static let lockKey = (Int32(0x6d6c_7366), Int32(1))

    /// Applies every migration not yet recorded, each in its own transaction, under an advisory lock so that
    /// two processes migrating at once apply each version once. Returns the versions applied now. A hot standby
    /// is refused first (`ReadOnlyStandby`): its schema comes from its primary.
    @discardableResult
    package static func apply(_ connection: Connection) throws -> [Int] {
        try ReadOnlyStandby.refuse(connection)
        try connection.execute("SELECT pg_advisory_lock($1, $2)", [String(lockKey.0), String(lockKey.1)])
        defer {
            _ = try? connection.execute("SELECT pg_advisory_unlock($1, $2)", [String(lockKey.0), String(lockKey.1)])
        }
        // Created only when missing: a role that may write mlsfeed's tables but not create any (no CREATE on the
        // schema) runs against a current schema, and a refusal names what it really lacks.
        if try connection.execute("SELECT to_regclass('schema_migrations') IS NULL").rows.first?.first == "t" {
            try connection.execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version integer PRIMARY KEY,
                    name text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """)
        }
        let done = Set(try connection.execute("SELECT version FROM schema_migrations").rows
            .compactMap { $0[0].flatMap { Int($0) } })
        var applied: [Int] = []
        for migration in all where !done.contains(migration.version) {
            try connection.transaction {
                try connection.executeScript(migration.sql)
                try connection.execute("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                                       [String(migration.version), migration.name])
            }
            applied.append(migration.version)
        }
        return applied
    }

    /// Checks, without changing anything, that every migration of this build is applied (for commands that only
    /// read): an absent `schema_migrations` is version 0; an older schema throws a `LoadError` naming
    /// `mlsfeed db migrate`, or, on a hot standby, migrating its primary and waiting for the standby to replay it.
    package static func requireCurrent(_ connection: Connection) throws {
        // Two statements: a statement naming an absent table fails when it is parsed, whatever its branches.
        let exists = try connection.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").rows
        var version = 0
        if exists.first?.first == "t" {
            let max = try connection.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").rows
            version = max.first?.first.flatMap { $0.flatMap { Int($0) } } ?? 0
        }
        guard version < latestVersion else { return }
        let behind = "the database schema is at version \(version), this mlsfeed needs \(latestVersion)"
        if try ReadOnlyStandby.isStandby(connection) {
            throw LoadError("\(behind); the database at \(connection.address) is a read-only hot standby: run "
                + "`mlsfeed db migrate` against its primary, then wait for the standby to replay it")
        }
        throw LoadError("\(behind); run `mlsfeed db migrate`")
    }

    /// The newest schema version this build knows.
    package static var latestVersion: Int { all.last!.version }

    /// Every migration, in order.
    static let all: [(version: Int, name: String, sql: String)] = [
        (1, "tables", tables),
        (2, "search indexes", searchIndexes),
        (3, "lighter location and price indexes", lighterIndexes),
        (4, "raw fingerprints of listings", rawHashes),
        (5, "honest ledger and as-of times", honestLedger),
        (6, "co-listing agents and full names", coListingAndFullNames),
        (7, "replication state and request budgets", replication),
        (8, "search api", searchAPI),
        (9, "reject replays", rejectReplays),
        (10, "faster detailed search", fasterSearch),
        (11, "active listings near a point", activeNear),
        (12, "on-market listings index", onMarket),
        (13, "extra compressed with lz4", lz4Extra),
        (14, "replication position and key sweeps", replicationPosition),
        (15, "listing keys", listingKey),
        (17, "offices, open houses, media and rooms", wholeListing + "\n" + wholeListingSearch),
    ]

    /// `mlsfeed rejects replay`: a reject stays (the history of what happened) and names the run that fed it again
    /// through the pipeline's current mapping. Nullable, no default: adding it rewrites nothing.
    private static let rejectReplays = """
        ALTER TABLE rejects ADD COLUMN replayed_by bigint;
        """

    private static let tables = """
        CREATE TABLE ingest_runs (
            id bigserial PRIMARY KEY,
            pipeline text NOT NULL,
            source text NOT NULL,
            mode text NOT NULL CHECK (mode IN ('incremental', 'full')),
            status text NOT NULL
                CHECK (status IN ('running', 'succeeded', 'failed', 'interrupted', 'unchanged')),
            started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
            finished_at timestamptz,
            inputs jsonb NOT NULL DEFAULT '[]',
            read bigint NOT NULL DEFAULT 0,
            rejected bigint NOT NULL DEFAULT 0,
            duplicates bigint NOT NULL DEFAULT 0,
            inserted bigint NOT NULL DEFAULT 0,
            updated bigint NOT NULL DEFAULT 0,
            unchanged bigint NOT NULL DEFAULT 0,
            stale bigint NOT NULL DEFAULT 0,
            withdrawn bigint NOT NULL DEFAULT 0,
            agents_inserted bigint NOT NULL DEFAULT 0,
            agents_updated bigint NOT NULL DEFAULT 0,
            timings jsonb NOT NULL DEFAULT '{}',
            warnings text[] NOT NULL DEFAULT '{}',
            error text
        );
        CREATE INDEX ingest_runs_pipeline_idx ON ingest_runs (pipeline, source, id DESC);

        CREATE TABLE listings (
            source text NOT NULL,
            listing_id text NOT NULL,
            standard_status text,
            property_type text,
            list_price numeric(14,2),
            original_list_price numeric(14,2),
            close_price numeric(14,2),
            listing_contract_date date,
            modification_timestamp timestamptz,
            bedrooms_total integer,
            bathrooms_full integer,
            bathrooms_half integer,
            living_area numeric,
            lot_size_square_feet numeric,
            year_built integer,
            street_number text,
            street_name text,
            unit_number text,
            city text,
            state_or_province text,
            postal_code text,
            county_or_parish text,
            mls_area text,
            latitude double precision,
            longitude double precision,
            public_remarks text,
            private_remarks text,
            directions text,
            showing_instructions text,
            owner_name text,
            list_agent_mls_id text,
            list_office_mls_id text,
            list_office_name text,
            extra jsonb NOT NULL DEFAULT '{}',
            content_hash text NOT NULL,
            first_seen_run bigint NOT NULL,
            last_changed_run bigint NOT NULL,
            off_market_at timestamptz,
            PRIMARY KEY (source, listing_id)
        );

        CREATE TABLE agents (
            source text NOT NULL,
            agent_mls_id text NOT NULL,
            first_name text,
            last_name text,
            office_mls_id text,
            office_name text,
            office_phone text,
            mobile_phone text,
            email text,
            extra jsonb NOT NULL DEFAULT '{}',
            content_hash text NOT NULL,
            first_seen_run bigint NOT NULL,
            last_changed_run bigint NOT NULL,
            PRIMARY KEY (source, agent_mls_id)
        );

        CREATE TABLE rejects (
            id bigserial PRIMARY KEY,
            run_id bigint NOT NULL,
            source text NOT NULL,
            entity text NOT NULL,
            key text,
            file text NOT NULL,
            line integer NOT NULL,
            column_number integer NOT NULL,
            ordinal bigint NOT NULL,
            reasons text[] NOT NULL,
            raw jsonb NOT NULL
        );
        CREATE INDEX rejects_run_idx ON rejects (run_id, entity, key);
        CREATE INDEX rejects_key_idx ON rejects (source, entity, key);

        CREATE TABLE listing_history (
            id bigserial PRIMARY KEY,
            source text NOT NULL,
            listing_id text NOT NULL,
            run_id bigint NOT NULL,
            recorded_at timestamptz NOT NULL DEFAULT now(),
            modification_timestamp timestamptz,
            change text NOT NULL CHECK (change IN ('price', 'status', 'price+status', 'withdrawn', 'returned')),
            old_price numeric(14,2),
            new_price numeric(14,2),
            old_status text,
            new_status text
        );
        CREATE INDEX listing_history_listing_idx ON listing_history (source, listing_id, id);
        CREATE INDEX listing_history_run_idx ON listing_history (run_id);
        """

    private static let searchIndexes = """
        CREATE EXTENSION IF NOT EXISTS cube;
        CREATE EXTENSION IF NOT EXISTS earthdistance;

        -- By MLS number (across sources; the primary key serves (source, listing_id)).
        CREATE INDEX listings_listing_id_idx ON listings (listing_id);
        -- Quick search: street number and name, area, status.
        CREATE INDEX listings_quick_idx ON listings (street_number, street_name, mls_area, standard_status);
        -- Detailed search: type/status/price together, the other criteria alone (combined by bitmap scans).
        CREATE INDEX listings_type_status_price_idx ON listings (property_type, standard_status, list_price);
        CREATE INDEX listings_list_date_idx ON listings (listing_contract_date);
        CREATE INDEX listings_price_idx ON listings (list_price);
        CREATE INDEX listings_rooms_idx ON listings (bedrooms_total, bathrooms_full, living_area);
        CREATE INDEX listings_city_idx ON listings (city, standard_status);
        CREATE INDEX listings_county_idx ON listings (county_or_parish, standard_status);
        CREATE INDEX listings_postal_code_idx ON listings (postal_code, standard_status);
        -- Listings of an agent or office.
        CREATE INDEX listings_agent_idx ON listings (list_agent_mls_id);
        CREATE INDEX listings_office_idx ON listings (list_office_mls_id);
        -- Radius search: earth_box(ll_to_earth(lat, lon), metres) @> ll_to_earth(latitude, longitude).
        CREATE INDEX listings_location_idx ON listings USING gist (ll_to_earth(latitude, longitude))
            WHERE latitude IS NOT NULL AND longitude IS NOT NULL;

        -- Agent search: case-insensitive name prefixes (lower(last_name) LIKE 'smi%') and office.
        CREATE INDEX agents_last_name_idx ON agents (lower(last_name) text_pattern_ops);
        CREATE INDEX agents_first_name_idx ON agents (lower(first_name) text_pattern_ops);
        CREATE INDEX agents_office_idx ON agents (office_mls_id);
        """

    /// The cube GiST index of version 2 cost ~80 µs per inserted row (4x all other indexes together), so radius
    /// search moves to a GiST index on a plain point, queried with a bounding box and refined with
    /// earthdistance's `<@>` (statute miles):
    /// `point(longitude, latitude) <@ box(point(lon1, lat1), point(lon2, lat2))
    ///  AND point(longitude, latitude) <@> point(lon, lat) <= miles`.
    /// The plain price and office indexes go too: price is served by the type/status/price index.
    private static let lighterIndexes = """
        DROP INDEX listings_location_idx;
        DROP INDEX listings_price_idx;
        DROP INDEX listings_office_idx;
        CREATE INDEX listings_location_idx ON listings USING gist (point(longitude, latitude))
            WHERE latitude IS NOT NULL AND longitude IS NOT NULL;
        """

    /// The raw fingerprint (`RawHash`) of the record each listing was last loaded from, NULL when it was read
    /// with warnings: a later run recognises an unchanged record by it before normalizing. Adding a nullable
    /// column without a default rewrites nothing.
    private static let rawHashes = """
        ALTER TABLE listings ADD COLUMN raw_hash bigint;
        """

    /// What a run saw and decided, kept for failed runs too: the dump's as-of time (header time, else its newest
    /// modification timestamp) and whether it was complete, whether it reconciled the source (withdrew what it
    /// lacked), the run an `unchanged` run matched, agent and control-character counts and the first rejects.
    /// Listings remember the as-of time of the dump that withdrew them: only a dump at least as new (or a record
    /// modified after it) brings them back.
    private static let honestLedger = """
        ALTER TABLE ingest_runs
            ADD COLUMN as_of timestamptz,
            ADD COLUMN complete boolean,
            ADD COLUMN incomplete_reasons text[] NOT NULL DEFAULT '{}',
            ADD COLUMN reconciled boolean NOT NULL DEFAULT false,
            ADD COLUMN matched_run bigint,
            ADD COLUMN agents_unchanged bigint NOT NULL DEFAULT 0,
            ADD COLUMN removed_characters bigint NOT NULL DEFAULT 0,
            ADD COLUMN sample_rejects text[] NOT NULL DEFAULT '{}';
        CREATE INDEX ingest_runs_source_idx ON ingest_runs (source, id DESC) WHERE status = 'succeeded';
        ALTER TABLE listings ADD COLUMN off_market_as_of timestamptz;
        """

    /// Syndication feeds name a co-listing agent, and many feeds give an agent only a full name. Nullable columns
    /// without a default: adding them rewrites nothing, and rows without a value keep their content hashes.
    private static let coListingAndFullNames = """
        ALTER TABLE listings ADD COLUMN co_list_agent_mls_id text;
        ALTER TABLE agents ADD COLUMN full_name text;
        """

    /// RESO Web API replication: the high-water mark per pipeline, source and resource (written in the run's
    /// transaction with the rows it describes), the requests counted against a provider's hourly and daily budgets
    /// (written as they are made, whatever becomes of the run), and `paused` runs that stopped at a budget.
    private static let replication = """
        CREATE TABLE replication_state (
            pipeline text NOT NULL,
            source text NOT NULL,
            resource text NOT NULL,
            mark timestamptz,
            keys_at_mark text[] NOT NULL DEFAULT '{}',
            run_id bigint NOT NULL,
            updated_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (pipeline, source, resource)
        );
        CREATE TABLE request_budgets (
            source text NOT NULL,
            span text NOT NULL CHECK (span IN ('hour', 'day')),
            window_start timestamptz NOT NULL,
            requests bigint NOT NULL DEFAULT 0,
            PRIMARY KEY (source, span, window_start)
        );
        ALTER TABLE ingest_runs DROP CONSTRAINT ingest_runs_status_check;
        ALTER TABLE ingest_runs ADD CONSTRAINT ingest_runs_status_check
            CHECK (status IN ('running', 'succeeded', 'failed', 'interrupted', 'unchanged', 'paused'));
        ALTER TABLE ingest_runs ADD COLUMN replication_mark timestamptz;
        """
}
