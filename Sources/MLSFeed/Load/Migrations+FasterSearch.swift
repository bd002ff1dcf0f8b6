extension Migrations {
    /// Migration 10: `search.detailed` reads only the index entries its page needs, whatever the criteria.
    ///
    /// Migration 8 read the first `lim` matches of every (status, city, ZIP) group the search asked for and kept the
    /// first `lim` of all those: a search without city or ZIP read 62 groups (1,240 matches for a page of 20, 30-90
    /// ms at 1M listings), one in a city of 15 ZIPs 15 groups, and each group was found by a PL/pgSQL probe.
    /// Now the groups' index scans are merged in sort order (`Merge Append` under the page's `LIMIT`: each scan stops
    /// once the page is full), 4 or 16 groups per statement, and a search without city or ZIP reads new indexes keyed
    /// (status, sort key) instead: one group per status. A ZIP's cities come from a small (ZIP, city) index, and the
    /// groups' values are found by one statement that skips through an index (a recursive CTE, one probe a value).
    ///
    /// The search functions' signatures and results do not change: only `search.detailed`'s body, and its helpers in
    /// `search_internal` (not a contract), are replaced.
    static let fasterSearch: String = fasterSearchIndexes + DetailedScan.all.map(\.sql).joined()
        + detailedPage + detailedFunction.replacingOccurrences(of: "        <MERGES>", with: DetailedScan.dispatch)

    /// Groups of one merged statement: 4 (a search of up to 4 groups; every group slot costs its scan's start, ~25
    /// µs, read or not) or 16; a search with more groups runs the 16 one per 16 groups and keeps the best page.
    package static let detailedMergeSizes = [4, 16]

    private static let fasterSearchIndexes = """
        -- search.detailed without city or ZIP: (status, sort key), the criteria ride along. (With the property type
        -- in the key too, a type that cannot match, Land with 3 bedrooms, would be read to its end.)
        CREATE INDEX listings_search_status_price_idx ON listings (
                (coalesce(standard_status, '')), (coalesce(list_price, 'Infinity')), source, listing_id)
            INCLUDE (standard_status, property_type, list_price, listing_contract_date, bedrooms_total,
                     bathrooms_full, bathrooms_half, living_area, off_market_at);
        CREATE INDEX listings_search_status_newest_idx ON listings (
                (coalesce(standard_status, '')), (coalesce(listing_contract_date, '-infinity')), source, listing_id)
            INCLUDE (standard_status, property_type, list_price, listing_contract_date, bedrooms_total,
                     bathrooms_full, bathrooms_half, living_area, off_market_at);
        CREATE INDEX listings_search_status_beds_idx ON listings (
                (coalesce(standard_status, '')), (coalesce(bedrooms_total, -1)), source, listing_id)
            INCLUDE (standard_status, property_type, list_price, listing_contract_date, bedrooms_total,
                     bathrooms_full, bathrooms_half, living_area, off_market_at);
        -- search.detailed by ZIP alone: the cities of a ZIP (the groups of the (status, city, ZIP) indexes to read).
        CREATE INDEX listings_zip_city_idx ON listings ((coalesce(left(postal_code, 5), '')), (coalesce(city, '')));

        DROP FUNCTION search_internal.detailed_rows(text, text, text, text, numeric, numeric, integer, numeric, numeric,
                                                    date, text, text, text, text, integer, boolean);
        DROP FUNCTION search_internal.places(text, text, text, boolean);

        """

    /// One sort order of `search.detailed` on one family of indexes: a scan of one group (an inlined SQL function,
    /// in the index's order from the start key) and the merge of up to 16 groups' scans under the page's `LIMIT`.
    private struct DetailedScan {
        /// `area` (the (status, city, ZIP, key) indexes of migration 8) or `status` (the (status, key) ones).
        let family: String
        /// `price`, `price_desc`, `newest` or `beds`.
        let sort: String
        /// The SQL type of the sort key.
        let keyType: String
        /// The sort key as the index has it.
        let key: String
        /// `>` (ascending) or `<` (descending): rows after the start key in the scan's order.
        let after: String
        /// The index's other bound on the key, from a criterion.
        let bound: String
        /// `""` or `" DESC"`.
        let direction: String

        static let all: [DetailedScan] = ["area", "status"].flatMap { family in
            [
                DetailedScan(family: family, sort: "price", keyType: "numeric",
                             key: "coalesce(l.list_price, 'Infinity')", after: ">",
                             bound: "<= coalesce(p_max_price, 'Infinity')", direction: ""),
                DetailedScan(family: family, sort: "price_desc", keyType: "numeric",
                             key: "coalesce(l.list_price, 'Infinity')", after: "<",
                             bound: ">= coalesce(p_min_price, '-Infinity')", direction: " DESC"),
                DetailedScan(family: family, sort: "newest", keyType: "date",
                             key: "coalesce(l.listing_contract_date, '-infinity')", after: "<",
                             bound: ">= coalesce(p_listed_since, '-infinity')", direction: " DESC"),
                DetailedScan(family: family, sort: "beds", keyType: "integer",
                             key: "coalesce(l.bedrooms_total, -1)", after: "<",
                             bound: ">= coalesce(p_min_beds, -1)", direction: " DESC"),
            ]
        }

        /// The criteria every scan filters by (as `search_internal.matches` takes them).
        static let criteria = "p_status text, p_type text, p_min_price numeric, p_max_price numeric, "
            + "p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, "
            + "p_include_withdrawn boolean"
        static let criteriaTypes = "text, text, numeric, numeric, integer, numeric, numeric, date, boolean"
        static let criteriaArguments = "p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, "
            + "p_min_sqft, p_listed_since, p_include_withdrawn"

        var isArea: Bool { family == "area" }
        var scanName: String { "search_internal.\(family)_scan_\(sort)" }
        func mergeName(_ size: Int) -> String { "search_internal.\(family)_merge\(size)_\(sort)" }
        /// The `sort` argument of `search.detailed` this scan serves.
        var sortArgument: String { sort == "price_desc" ? "-price" : sort }
        /// The PL/pgSQL array of `search.detailed` that collects this sort's keys.
        var keyArray: String { ["numeric": "price_keys", "date": "date_keys", "integer": "beds_keys"][keyType]! }
        var groupParameters: String {
            isArea ? "p_status_key text, p_city_key text, p_zip_key text" : "p_status_key text"
        }
        var groupTypes: String { isArea ? "text, text, text" : "text" }
        var order: String { "3\(direction), 1\(direction), 2\(direction)" }

        var sql: String {
            let groupCondition = isArea
                ? """
                  coalesce(l.standard_status, '') = p_status_key AND coalesce(l.city, '') = p_city_key
                    AND coalesce(left(l.postal_code, 5), '') = p_zip_key
                  """
                : "coalesce(l.standard_status, '') = p_status_key"
            let scan = """
                CREATE FUNCTION \(scanName)(
                    \(groupParameters), \(Self.criteria), \(start))
                RETURNS TABLE (source text, listing_id text, sort_key \(keyType))
                LANGUAGE sql STABLE PARALLEL SAFE AS $$
                SELECT l.source, l.listing_id, \(key)
                FROM listings l
                WHERE \(groupCondition)
                  AND (\(key), l.source, l.listing_id) \(after) (p_start_key, p_start_source, p_start_listing_id)
                  AND \(key) \(bound)
                  AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
                          l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date, l.off_market_at,
                          \(Self.criteriaArguments))
                ORDER BY \(order)
                $$;
                COMMENT ON FUNCTION \(scanName)(\(groupTypes), \(Self.criteriaTypes), \(startTypes)) IS
                    'The matches of one \(what) in search.detailed''s \(sortArgument) order after the start key, '
                    'read from the covering index alone. Inlined into the merges.';


                """
            return scan + Migrations.detailedMergeSizes.map(merge).joined()
        }

        var start: String { "p_start_key \(keyType), p_start_source text, p_start_listing_id text" }
        var startTypes: String { "\(keyType), text, text" }
        var groupArrays: String {
            isArea ? "p_status_keys text[], p_city_keys text[], p_zip_keys text[]" : "p_status_keys text[]"
        }
        var groupArrayTypes: String { isArea ? "text[], text[], text[]" : "text[]" }
        var what: String { isArea ? "(status, city, ZIP) group" : "status" }

        /// The merge of `size` groups' scans.
        func merge(_ size: Int) -> String {
            let slots = (1...size).map { slot in
                let group = isArea ? "p_status_keys[\(slot)], p_city_keys[\(slot)], p_zip_keys[\(slot)]"
                                   : "p_status_keys[\(slot)]"
                return "    SELECT * FROM \(scanName)(\(group), \(Self.criteriaArguments),\n"
                    + "        p_start_key, p_start_source, p_start_listing_id)"
            }.joined(separator: "\n    UNION ALL\n")
            return """
                CREATE FUNCTION \(mergeName(size))(
                    \(groupArrays), \(Self.criteria), \(start), p_lim integer)
                RETURNS TABLE (source text, listing_id text, sort_key \(keyType))
                LANGUAGE sql STABLE PARALLEL SAFE AS $$
                SELECT * FROM (
                \(slots)
                ) k
                ORDER BY \(order)
                LIMIT p_lim
                $$;
                COMMENT ON FUNCTION \(mergeName(size))(
                    \(groupArrayTypes), \(Self.criteriaTypes), \(startTypes), integer)
                    IS 'The first p_lim matches in \(sortArgument) order of up to \(size) groups (the arrays'' '
                    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
                    'needs.';


                """
        }

        /// The statements of `search.detailed` that read the groups `first` to `last` (`size` of them at most) and add
        /// their first `lim` matches to the keys found: one per sort, family and size.
        static var dispatch: String {
            let branches = all.flatMap { scan in
                Migrations.detailedMergeSizes.map { size in
                    let family = scan.isArea ? "by_area" : "NOT by_area"
                    let groups = scan.isArea
                        ? "status_keys[first:last], city_keys[first:last], zip_keys[first:last],"
                        : "status_keys[first:last],"
                    return """
                        sort = '\(scan.sortArgument)' AND \(family) AND size = \(size) THEN
                            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                                   \(scan.keyArray) || array_agg(k.sort_key)
                            INTO sources, listing_ids, \(scan.keyArray)
                            FROM \(scan.mergeName(size))(
                                \(groups) status_wanted, type_wanted, min_price, max_price,
                                min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::\(scan.keyType),
                                start_source, start_listing_id, lim) k;
                        """
                }
            }
            let text = "IF " + branches.joined(separator: "\nELSIF ") + "\nEND IF;"
            return text.split(separator: "\n").map { "        " + $0 }.joined(separator: "\n")
        }
    }

    private static let detailedPage = #"""
        CREATE FUNCTION search_internal.detailed_page(
            p_sort text, p_sources text[], p_listing_ids text[], p_price_keys numeric[], p_date_keys date[],
            p_beds_keys integer[], p_lim integer)
        RETURNS SETOF search.listing_row
        LANGUAGE sql STABLE PARALLEL SAFE AS $$
        SELECT l.source, l.listing_id, l.standard_status, l.property_type, l.list_price, l.listing_contract_date,
               l.bedrooms_total, l.bathrooms_full, l.bathrooms_half, l.living_area, l.year_built, l.street_number,
               l.street_name, l.unit_number, l.city, l.state_or_province, l.postal_code, l.county_or_parish,
               l.mls_area, l.latitude, l.longitude, l.public_remarks, l.list_office_mls_id, l.list_office_name,
               l.list_agent_mls_id, a.first_name, a.last_name, a.mobile_phone, a.office_phone, a.email,
               l.modification_timestamp, l.off_market_at,
               NULL::double precision,
               translate(encode(convert_to(jsonb_build_array(p_sort,
                   coalesce(p.price_key::text, p.beds_key::text,
                            CASE WHEN p.date_key = '-infinity' THEN '-infinity'
                                 ELSE to_char(p.date_key, 'YYYY-MM-DD') END),
                   p.source, p.listing_id)::text, 'UTF8'), 'base64'), E'+/\n', '-_')
        FROM (
            SELECT * FROM unnest(p_sources, p_listing_ids, p_price_keys, p_date_keys, p_beds_keys)
                AS k (source, listing_id, price_key, date_key, beds_key)
            ORDER BY CASE WHEN p_sort = 'price' THEN k.price_key END,
                     CASE WHEN p_sort = '-price' THEN k.price_key END DESC, k.date_key DESC, k.beds_key DESC,
                     CASE WHEN p_sort = 'price' THEN k.source END, CASE WHEN p_sort = 'price' THEN k.listing_id END,
                     CASE WHEN p_sort <> 'price' THEN k.source END DESC,
                     CASE WHEN p_sort <> 'price' THEN k.listing_id END DESC
            LIMIT p_lim
        ) p
        -- A key lookup per row of the page (LIMIT keeps each lookup a subquery of its own: the keys are unique).
        CROSS JOIN LATERAL (SELECT * FROM listings l WHERE l.source = p.source AND l.listing_id = p.listing_id
                            LIMIT 1) l
        LEFT JOIN LATERAL (SELECT * FROM agents a WHERE a.source = l.source AND a.agent_mls_id = l.list_agent_mls_id
                           LIMIT 1) a ON true
        ORDER BY CASE WHEN p_sort = 'price' THEN p.price_key END,
                 CASE WHEN p_sort = '-price' THEN p.price_key END DESC, p.date_key DESC, p.beds_key DESC,
                 CASE WHEN p_sort = 'price' THEN p.source END, CASE WHEN p_sort = 'price' THEN p.listing_id END,
                 CASE WHEN p_sort <> 'price' THEN p.source END DESC,
                 CASE WHEN p_sort <> 'price' THEN p.listing_id END DESC
        $$;
        COMMENT ON FUNCTION search_internal.detailed_page(text, text[], text[], numeric[], date[], integer[], integer)
            IS 'The page of search.detailed: the first p_lim of the keys found (source, MLS number and the sort''s '
            'key, in the arrays'') in p_sort order, with each listing''s row, its agent and its cursor.';


        """#

    /// `search.detailed`, same signature and results as migration 8's: the arguments and the scans' start are checked
    /// and computed as before; the groups are enumerated here and read by the merge statements 16 at a time.
    private static let detailedFunction = #"""
        CREATE OR REPLACE FUNCTION search.detailed(
            property_type text DEFAULT NULL, status text DEFAULT NULL, city text DEFAULT NULL,
            postal_code text DEFAULT NULL, min_price numeric DEFAULT NULL, max_price numeric DEFAULT NULL,
            min_beds integer DEFAULT NULL, min_baths numeric DEFAULT NULL, min_sqft numeric DEFAULT NULL,
            listed_since date DEFAULT NULL, sort text DEFAULT 'price', after text DEFAULT NULL,
            lim integer DEFAULT 20, include_withdrawn boolean DEFAULT false)
        RETURNS SETOF search.listing_row
        LANGUAGE plpgsql STABLE PARALLEL SAFE
        SET plan_cache_mode = force_generic_plan
        SET jit = off
        AS $$
        DECLARE
            cursor_at jsonb;
            -- Where every group's index scan starts (exclusive) in the sort's order: the cursor or the price bound.
            start_key text;
            start_source text := '';
            start_listing_id text := '';
            -- Plain variables for the statements (an expression of an argument could carry a collation into the
            -- inlined statements that no longer matches the indexes).
            type_wanted text := property_type;
            status_wanted text := status;
            withdrawn boolean := coalesce(include_withdrawn, false);
            -- The groups to read: (status, city, ZIP) with a city or a ZIP (by_area), else a status each.
            by_area boolean := city IS NOT NULL OR postal_code IS NOT NULL;
            status_keys text[] := '{}';
            city_keys text[] := '{}';
            zip_keys text[] := '{}';
            statuses text[] := '{}';
            cities text[] := '{}';
            s text;
            c text;
            z text;
            n integer;
            first integer;
            last integer;
            size integer;
            -- The keys found: at most lim per merged statement.
            sources text[] := '{}';
            listing_ids text[] := '{}';
            price_keys numeric[];
            date_keys date[];
            beds_keys integer[];
        BEGIN
            IF sort IS NULL OR sort NOT IN ('price', '-price', 'newest', 'beds') THEN
                RAISE EXCEPTION 'search.detailed: sort must be price, -price, newest or beds, not %',
                    coalesce(quote_literal(sort), 'NULL') USING ERRCODE = 'invalid_parameter_value';
            END IF;
            IF lim IS NULL OR lim NOT BETWEEN 1 AND 1000 THEN
                RAISE EXCEPTION 'search.detailed: lim must be between 1 and 1000, not %', coalesce(lim::text, 'NULL')
                    USING ERRCODE = 'invalid_parameter_value';
            END IF;
            IF min_price > max_price THEN
                RAISE EXCEPTION 'search.detailed: min_price % is greater than max_price %', min_price, max_price
                    USING ERRCODE = 'invalid_parameter_value';
            END IF;
            IF after IS NOT NULL THEN
                BEGIN
                    cursor_at := convert_from(decode(translate(after, '-_', '+/'), 'base64'), 'UTF8')::jsonb;
                    IF jsonb_typeof(cursor_at) <> 'array' OR jsonb_array_length(cursor_at) <> 4
                       OR jsonb_typeof(cursor_at->1) <> 'string' OR jsonb_typeof(cursor_at->2) <> 'string'
                       OR jsonb_typeof(cursor_at->3) <> 'string' THEN
                        cursor_at := NULL;
                    ELSIF cursor_at->>0 IN ('price', '-price') THEN
                        PERFORM (cursor_at->>1)::numeric;
                    ELSIF cursor_at->>0 = 'newest' THEN
                        PERFORM (cursor_at->>1)::date;
                    ELSE
                        PERFORM (cursor_at->>1)::integer;
                    END IF;
                EXCEPTION WHEN data_exception THEN
                    cursor_at := NULL;
                END;
                IF cursor_at IS NULL THEN
                    RAISE EXCEPTION 'search.detailed: after is not a cursor returned by search.detailed'
                        USING ERRCODE = 'invalid_parameter_value';
                END IF;
                IF cursor_at->>0 IS DISTINCT FROM sort THEN
                    RAISE EXCEPTION 'search.detailed: the cursor comes from a search sorted by %, not %',
                        coalesce(cursor_at->>0, 'NULL'), sort USING ERRCODE = 'invalid_parameter_value';
                END IF;
            END IF;
            -- One bound where the scans start (a second bound on the same index column would leave the index to
            -- start at either). A price bound p as a row (p, '', '') sorts before every listing priced p.
            IF sort = 'price' THEN
                start_key := coalesce(min_price, '-Infinity')::text;
                IF (cursor_at->>1)::numeric >= coalesce(min_price, '-Infinity') THEN
                    start_key := cursor_at->>1;
                    start_source := cursor_at->>2;
                    start_listing_id := cursor_at->>3;
                END IF;
            ELSIF sort = '-price' THEN
                -- list_price is numeric(14,2): at most max_price is below the next cent; NaN sorts above all.
                start_key := coalesce((floor(max_price * 100) + 1) / 100, 'NaN')::text;
                IF (cursor_at->>1)::numeric < start_key::numeric THEN
                    start_key := cursor_at->>1;
                    start_source := cursor_at->>2;
                    start_listing_id := cursor_at->>3;
                END IF;
            ELSIF cursor_at IS NOT NULL THEN
                start_key := cursor_at->>1;
                start_source := cursor_at->>2;
                start_listing_id := cursor_at->>3;
            ELSE
                start_key := CASE sort WHEN 'newest' THEN 'infinity' ELSE '2147483647' END;
            END IF;

            -- The statuses asked for: the one given, else every one present, Withdrawn only when asked for. A missing
            -- value is ''. The values present are found by skipping through an index, one probe each.
            IF status_wanted IS NOT NULL THEN
                statuses := ARRAY[status_wanted];
            ELSE
                statuses := ARRAY(
                    WITH RECURSIVE present (v) AS (
                        SELECT min(coalesce(l.standard_status, '')) FROM listings l
                      UNION ALL
                        SELECT (SELECT min(coalesce(l.standard_status, '')) FROM listings l
                                WHERE coalesce(l.standard_status, '') > present.v)
                        FROM present WHERE present.v IS NOT NULL)
                    SELECT present.v FROM present
                    WHERE present.v IS NOT NULL AND (withdrawn OR present.v <> 'Withdrawn'));
            END IF;
            -- The groups: without city or ZIP, a status each; else (status, city, ZIP) groups, with the ZIPs of the
            -- city or the cities of the ZIP.
            IF NOT by_area THEN
                status_keys := statuses;
            ELSIF postal_code IS NOT NULL THEN
                IF city IS NOT NULL THEN
                    cities := ARRAY[city];
                ELSE
                    cities := ARRAY(
                        WITH RECURSIVE present (v) AS (
                            SELECT min(coalesce(l.city, '')) FROM listings l
                            WHERE coalesce(left(l.postal_code, 5), '') = detailed.postal_code
                          UNION ALL
                            SELECT (SELECT min(coalesce(l.city, '')) FROM listings l
                                    WHERE coalesce(left(l.postal_code, 5), '') = detailed.postal_code
                                      AND coalesce(l.city, '') > present.v)
                            FROM present WHERE present.v IS NOT NULL)
                        SELECT present.v FROM present WHERE present.v IS NOT NULL);
                END IF;
                FOREACH s IN ARRAY statuses LOOP
                    FOREACH c IN ARRAY cities LOOP
                        status_keys := status_keys || s;
                        city_keys := city_keys || c;
                        zip_keys := zip_keys || detailed.postal_code;
                    END LOOP;
                END LOOP;
            ELSE
                FOREACH s IN ARRAY statuses LOOP
                    FOREACH z IN ARRAY ARRAY(
                        WITH RECURSIVE present (v) AS (
                            SELECT min(coalesce(left(l.postal_code, 5), '')) FROM listings l
                            WHERE coalesce(l.standard_status, '') = s AND coalesce(l.city, '') = detailed.city
                          UNION ALL
                            SELECT (SELECT min(coalesce(left(l.postal_code, 5), '')) FROM listings l
                                    WHERE coalesce(l.standard_status, '') = s AND coalesce(l.city, '') = detailed.city
                                      AND coalesce(left(l.postal_code, 5), '') > present.v)
                            FROM present WHERE present.v IS NOT NULL)
                        SELECT present.v FROM present WHERE present.v IS NOT NULL)
                    LOOP
                        status_keys := status_keys || s;
                        city_keys := city_keys || detailed.city;
                        zip_keys := zip_keys || z;
                    END LOOP;
                END LOOP;
            END IF;

            -- The first lim matches of every 4 or 16 groups (their scans merged), then the first lim of those.
            n := coalesce(cardinality(status_keys), 0);
            first := 1;
            WHILE first <= n LOOP
                size := CASE WHEN n - first < \#(detailedMergeSizes[0]) THEN \#(detailedMergeSizes[0])
                             ELSE \#(detailedMergeSizes[1]) END;
                last := first + size - 1;
                <MERGES>
                first := last + 1;
            END LOOP;
            RETURN QUERY SELECT * FROM search_internal.detailed_page(
                sort, sources, listing_ids, price_keys, date_keys, beds_keys, lim);
        END
        $$;

        """#
}
