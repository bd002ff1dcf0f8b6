-- The search API's functions: schema search (the contract downstream applications call) and schema search_internal
-- (the statements and helpers behind it, not a contract). The schemas, the row types search.listing_row and
-- search.agent_row and the indexes the functions read are made by migrations (8, 10, 11).
--
-- Every function here is CREATE OR REPLACE (with its COMMENT), so the file applies over itself. The latest migration
-- named "search functions" (Load/Migrations/NNNN_search_functions.sql) is a copy of this file: to change a function,
-- edit it here and copy the file as a new migration of that name with the next version (SearchSQLTests fails while
-- the two differ). What CREATE OR REPLACE cannot do goes in a migration of its own before the copy: dropping a
-- function, changing its arguments' types or its result type (DROP FUNCTION first), a new index.
--
-- How they work:
-- - Each search function is PL/pgSQL: it checks its arguments (SQLSTATE 22023 with a message naming the argument)
--   and runs one statement of search_internal, a SQL function written so that one generic plan fits every argument,
--   cached per session (plan_cache_mode = force_generic_plan, and no JIT): planning these statements against the
--   listings' indexes costs more (0.7-2 ms) than running them.
-- - search.detailed reads covering indexes keyed (status, city, ZIP, sort key) when a city or ZIP is given, else
--   (status, sort key): one group of index entries per (status, city, ZIP), or per status. The groups' scans
--   (search_internal.*_scan_*, one per family and sort, inlined) are merged in sort order 4 or 16 at a time
--   (search_internal.*_merge4_* and *_merge16_*: Merge Append under the page's LIMIT, so each scan stops once the
--   page is full); a search of more groups runs the 16 per 16 groups and keeps the best page
--   (search_internal.detailed_page). A group's scan starts at the cursor (keyset pagination) or the price bound;
--   the other criteria (search_internal.matches) filter index tuples.
-- - search.near: a covering GiST index on point(longitude, latitude) orders candidates by planar distance (KNN);
--   the lim nearest matches bound the true distance of the lim nearest, so a second scan of that (smaller) box
--   ranked by great-circle distance (<@>) is exact. Active searches read the index of the Active listings alone.
-- - Name prefixes are byte ranges (~>=~, ~<~) of the names lower-cased by Unicode rules
--   (lower(... COLLATE "und-x-icu"), PostgreSQL's ICU collation), whatever the database's locale.

CREATE OR REPLACE FUNCTION search_internal.check(ok boolean, message text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    IF ok IS NOT TRUE THEN
        RAISE EXCEPTION '%', message USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN true;
END
$$;
COMMENT ON FUNCTION search_internal.check(boolean, text) IS
    'true when ok is true; otherwise raises message with SQLSTATE 22023 (invalid_parameter_value).';

CREATE OR REPLACE FUNCTION search_internal.bounding_box(lat double precision, lon double precision,
    miles double precision)
RETURNS box LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
SELECT CASE
    WHEN miles / 3958.747716 * (1 + 1e-9) >= pi() / 2
         OR abs(lat) + degrees(miles / 3958.747716 * (1 + 1e-9)) >= 90
         OR abs(lon) + degrees(asin(least(1, sin(miles / 3958.747716 * (1 + 1e-9)) / cos(radians(lat)))))
            >= 180
    THEN box(point(-180, greatest(lat - degrees(miles / 3958.747716 * (1 + 1e-9)) - 1e-9, -90)),
             point(180, least(lat + degrees(miles / 3958.747716 * (1 + 1e-9)) + 1e-9, 90)))
    ELSE box(point(lon - degrees(asin(least(1, sin(miles / 3958.747716 * (1 + 1e-9)) / cos(radians(lat)))))
                   - 1e-9,
                   lat - degrees(miles / 3958.747716 * (1 + 1e-9)) - 1e-9),
             point(lon + degrees(asin(least(1, sin(miles / 3958.747716 * (1 + 1e-9)) / cos(radians(lat)))))
                   + 1e-9,
                   lat + degrees(miles / 3958.747716 * (1 + 1e-9)) + 1e-9))
END
$$;
COMMENT ON FUNCTION search_internal.bounding_box(double precision, double precision, double precision) IS
    'A box of point(longitude, latitude) holding every point within miles of (lat, lon) on the sphere of '
    'earthdistance''s <@> (radius 3958.747716 miles); all longitudes near a pole or the 180th meridian.';

CREATE OR REPLACE FUNCTION search_internal.matches(
    listing_status text, listing_type text, price numeric, beds integer, baths_full integer,
    baths_half integer, area numeric, listed date, off_market timestamptz,
    status text, property_type text, min_price numeric, max_price numeric, min_beds integer,
    min_baths numeric, min_sqft numeric, listed_since date, include_withdrawn boolean)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
SELECT (include_withdrawn OR status = 'Withdrawn'
        OR (off_market IS NULL AND listing_status IS DISTINCT FROM 'Withdrawn'))
   AND (status IS NULL OR listing_status = status)
   AND (property_type IS NULL OR listing_type = property_type)
   AND (min_price IS NULL OR price >= min_price)
   AND (max_price IS NULL OR price <= max_price)
   AND (min_beds IS NULL OR beds >= min_beds)
   AND (min_baths IS NULL OR coalesce(baths_full, 0) + 0.5 * coalesce(baths_half, 0) >= min_baths)
   AND (min_sqft IS NULL OR area >= min_sqft)
   AND (listed_since IS NULL OR listed >= listed_since)
$$;
COMMENT ON FUNCTION search_internal.matches(text, text, numeric, integer, integer, integer, numeric, date,
                                            timestamptz, text, text, numeric, numeric, integer, numeric,
                                            numeric, date, boolean) IS
    'Whether a listing (its status ... off_market_at) meets the criteria of search.detailed and search.near '
    '(NULL: any; baths: full + half/2); withdrawn and off-market only with include_withdrawn or status '
    '''Withdrawn''. Inlined, so the criteria read the columns of a covering index.';

CREATE OR REPLACE FUNCTION search_internal.prefix_range(prefix text) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    low text := lower(btrim(prefix) COLLATE "und-x-icu");
    last integer;
BEGIN
    IF low = '' THEN
        RETURN ARRAY['', U&'\+10FFFF'];
    END IF;
    last := ascii(right(low, 1));
    last := CASE WHEN last = 55295 THEN 57344 ELSE last + 1 END;   -- over the surrogates
    RETURN ARRAY[low, CASE WHEN last > 1114111 THEN U&'\+10FFFF' ELSE left(low, -1) || chr(last) END];
END
$$;
COMMENT ON FUNCTION search_internal.prefix_range(text) IS
    'The range [low, high) of text that starts with prefix once trimmed and lower-cased by Unicode rules, '
    'in byte order (the text_pattern_ops operators ~>=~ and ~<~): a prefix search with a cached plan.';

CREATE OR REPLACE FUNCTION search_internal.listing_rows(p_source text, p_listing_id text, p_include_withdrawn boolean)
RETURNS SETOF search.listing_row
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT l.source, l.listing_id, l.standard_status, l.property_type, l.list_price, l.listing_contract_date,
       l.bedrooms_total, l.bathrooms_full, l.bathrooms_half, l.living_area, l.year_built, l.street_number,
       l.street_name, l.unit_number, l.city, l.state_or_province, l.postal_code, l.county_or_parish,
       l.mls_area, l.latitude, l.longitude, l.public_remarks, l.list_office_mls_id, l.list_office_name,
       l.list_agent_mls_id, a.first_name, a.last_name, a.mobile_phone, a.office_phone, a.email,
       l.modification_timestamp, l.off_market_at, NULL::double precision, NULL::text
FROM listings l
LEFT JOIN agents a ON a.source = l.source AND a.agent_mls_id = l.list_agent_mls_id
WHERE l.listing_id = p_listing_id AND (p_source IS NULL OR l.source = p_source)
  AND (p_include_withdrawn OR (l.off_market_at IS NULL AND l.standard_status IS DISTINCT FROM 'Withdrawn'))
ORDER BY l.source
$$;
COMMENT ON FUNCTION search_internal.listing_rows(text, text, boolean) IS
    'The statement of search.listing (arguments checked). One generic plan fits every argument.';

CREATE OR REPLACE FUNCTION search.listing(source text, listing_id text, include_withdrawn boolean DEFAULT false)
RETURNS SETOF search.listing_row
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET plan_cache_mode = force_generic_plan
SET jit = off
AS $$
DECLARE
    -- Arguments of the statement are plain variables: an expression of an argument could carry a
    -- collation into the inlined statement that no longer matches its indexes.
    id text := btrim(listing_id);
    withdrawn boolean := coalesce(include_withdrawn, false);
BEGIN
    IF listing_id IS NULL THEN
        RAISE EXCEPTION 'search.listing: listing_id is required' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN QUERY SELECT * FROM search_internal.listing_rows(source, id, withdrawn);
END
$$;
COMMENT ON FUNCTION search.listing(text, text, boolean) IS
    'The listing with MLS number listing_id (trimmed) of source, or of every source when source is NULL '
    '(by source). Withdrawn and off-market listings only with include_withdrawn. '
    'Example: SELECT * FROM search.listing(''sdmls'', ''260000123'').';

CREATE OR REPLACE FUNCTION search_internal.quick_rows(p_number text, p_low text, p_high text, p_area text,
                                                      p_status text, p_lim integer, p_include_withdrawn boolean)
RETURNS SETOF search.listing_row
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT l.source, l.listing_id, l.standard_status, l.property_type, l.list_price, l.listing_contract_date,
       l.bedrooms_total, l.bathrooms_full, l.bathrooms_half, l.living_area, l.year_built, l.street_number,
       l.street_name, l.unit_number, l.city, l.state_or_province, l.postal_code, l.county_or_parish,
       l.mls_area, l.latitude, l.longitude, l.public_remarks, l.list_office_mls_id, l.list_office_name,
       l.list_agent_mls_id, a.first_name, a.last_name, a.mobile_phone, a.office_phone, a.email,
       l.modification_timestamp, l.off_market_at, NULL::double precision, NULL::text
FROM listings l
LEFT JOIN agents a ON a.source = l.source AND a.agent_mls_id = l.list_agent_mls_id
WHERE l.street_number = p_number
  AND lower(l.street_name COLLATE "und-x-icu") ~>=~ p_low
  AND lower(l.street_name COLLATE "und-x-icu") ~<~ p_high
  AND (p_area IS NULL OR strpos(lower(l.mls_area COLLATE "und-x-icu"), p_area) > 0)
  AND (p_status IS NULL OR l.standard_status = p_status)
  AND (p_include_withdrawn OR p_status = 'Withdrawn'
       OR (l.off_market_at IS NULL AND l.standard_status IS DISTINCT FROM 'Withdrawn'))
ORDER BY lower(l.street_name COLLATE "und-x-icu"), l.unit_number NULLS FIRST, l.source, l.listing_id
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.quick_rows(text, text, text, text, text, integer, boolean) IS
    'The statement of search.quick (arguments checked, the name prefix as a range). One generic plan fits '
    'every argument.';

CREATE OR REPLACE FUNCTION search.quick(street_number text, street_name text, area text DEFAULT NULL,
                                        status text DEFAULT NULL, lim integer DEFAULT 20,
                                        include_withdrawn boolean DEFAULT false)
RETURNS SETOF search.listing_row
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET plan_cache_mode = force_generic_plan
SET jit = off
AS $$
DECLARE
    -- Plain variables as in search.listing: lower(... COLLATE "und-x-icu") passed as an argument would make
    -- the inlined statement compare street numbers in that collation, which the index does not serve.
    street_no text := btrim(street_number);
    name_range text[] := search_internal.prefix_range(street_name);
    area_part text := lower(btrim(area) COLLATE "und-x-icu");
    withdrawn boolean := coalesce(include_withdrawn, false);
BEGIN
    IF street_number IS NULL OR street_name IS NULL THEN
        RAISE EXCEPTION 'search.quick: street_number and street_name are required'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF lim IS NULL OR lim NOT BETWEEN 1 AND 1000 THEN
        RAISE EXCEPTION 'search.quick: lim must be between 1 and 1000, not %', coalesce(lim::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN QUERY SELECT * FROM search_internal.quick_rows(street_no, name_range[1], name_range[2], area_part,
                                                          status, lim, withdrawn);
END
$$;
COMMENT ON FUNCTION search.quick(text, text, text, text, integer, boolean) IS
    'Listings at street_number (exact) on a street whose name starts with street_name (case-insensitive), '
    'in an MLS area containing area (case-insensitive) and of status, when given; by street name, unit, '
    'source and MLS number; at most lim (1-1000, default 20). Withdrawn and off-market listings only with '
    'include_withdrawn or status ''Withdrawn''. '
    'Example: SELECT * FROM search.quick(''3891'', ''University'', NULL, ''Active'', 10).';

CREATE OR REPLACE FUNCTION search_internal.area_scan_price(
    p_status_key text, p_city_key text, p_zip_key text, p_status text, p_type text, p_min_price numeric,
    p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date,
    p_include_withdrawn boolean, p_start_key numeric, p_start_source text, p_start_listing_id text)
RETURNS TABLE (source text, listing_id text, sort_key numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT l.source, l.listing_id, coalesce(l.list_price, 'Infinity')
FROM listings l
WHERE coalesce(l.standard_status, '') = p_status_key AND coalesce(l.city, '') = p_city_key
  AND coalesce(left(l.postal_code, 5), '') = p_zip_key
  AND (coalesce(l.list_price, 'Infinity'), l.source, l.listing_id) > (p_start_key, p_start_source, p_start_listing_id)
  AND coalesce(l.list_price, 'Infinity') <= coalesce(p_max_price, 'Infinity')
  AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
          l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date, l.off_market_at,
          p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since,
          p_include_withdrawn)
ORDER BY 3, 1, 2
$$;
COMMENT ON FUNCTION search_internal.area_scan_price(text, text, text, text, text, numeric, numeric, integer, numeric,
    numeric, date, boolean, numeric, text, text) IS
    'The matches of one (status, city, ZIP) group in search.detailed''s price order after the start key, '
    'read from the covering index alone. Inlined into the merges.';

CREATE OR REPLACE FUNCTION search_internal.area_merge4_price(
    p_status_keys text[], p_city_keys text[], p_zip_keys text[], p_status text, p_type text, p_min_price numeric,
    p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date,
    p_include_withdrawn boolean, p_start_key numeric, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.area_scan_price(p_status_keys[1], p_city_keys[1], p_zip_keys[1], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[2], p_city_keys[2], p_zip_keys[2], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[3], p_city_keys[3], p_zip_keys[3], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[4], p_city_keys[4], p_zip_keys[4], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3, 1, 2
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.area_merge4_price(
    text[], text[], text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, numeric, text, text,
    integer)
    IS 'The first p_lim matches in price order of up to 4 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE OR REPLACE FUNCTION search_internal.area_merge16_price(
    p_status_keys text[], p_city_keys text[], p_zip_keys text[], p_status text, p_type text, p_min_price numeric,
    p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date,
    p_include_withdrawn boolean, p_start_key numeric, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.area_scan_price(p_status_keys[1], p_city_keys[1], p_zip_keys[1], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[2], p_city_keys[2], p_zip_keys[2], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[3], p_city_keys[3], p_zip_keys[3], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[4], p_city_keys[4], p_zip_keys[4], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[5], p_city_keys[5], p_zip_keys[5], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[6], p_city_keys[6], p_zip_keys[6], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[7], p_city_keys[7], p_zip_keys[7], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[8], p_city_keys[8], p_zip_keys[8], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[9], p_city_keys[9], p_zip_keys[9], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[10], p_city_keys[10], p_zip_keys[10], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[11], p_city_keys[11], p_zip_keys[11], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[12], p_city_keys[12], p_zip_keys[12], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[13], p_city_keys[13], p_zip_keys[13], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[14], p_city_keys[14], p_zip_keys[14], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[15], p_city_keys[15], p_zip_keys[15], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[16], p_city_keys[16], p_zip_keys[16], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3, 1, 2
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.area_merge16_price(
    text[], text[], text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, numeric, text, text,
    integer)
    IS 'The first p_lim matches in price order of up to 16 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE OR REPLACE FUNCTION search_internal.area_scan_price_desc(
    p_status_key text, p_city_key text, p_zip_key text, p_status text, p_type text, p_min_price numeric,
    p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date,
    p_include_withdrawn boolean, p_start_key numeric, p_start_source text, p_start_listing_id text)
RETURNS TABLE (source text, listing_id text, sort_key numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT l.source, l.listing_id, coalesce(l.list_price, 'Infinity')
FROM listings l
WHERE coalesce(l.standard_status, '') = p_status_key AND coalesce(l.city, '') = p_city_key
  AND coalesce(left(l.postal_code, 5), '') = p_zip_key
  AND (coalesce(l.list_price, 'Infinity'), l.source, l.listing_id) < (p_start_key, p_start_source, p_start_listing_id)
  AND coalesce(l.list_price, 'Infinity') >= coalesce(p_min_price, '-Infinity')
  AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
          l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date, l.off_market_at,
          p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since,
          p_include_withdrawn)
ORDER BY 3 DESC, 1 DESC, 2 DESC
$$;
COMMENT ON FUNCTION search_internal.area_scan_price_desc(text, text, text, text, text, numeric, numeric, integer,
    numeric, numeric, date, boolean, numeric, text, text) IS
    'The matches of one (status, city, ZIP) group in search.detailed''s -price order after the start key, '
    'read from the covering index alone. Inlined into the merges.';

CREATE OR REPLACE FUNCTION search_internal.area_merge4_price_desc(
    p_status_keys text[], p_city_keys text[], p_zip_keys text[], p_status text, p_type text, p_min_price numeric,
    p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date,
    p_include_withdrawn boolean, p_start_key numeric, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[1], p_city_keys[1], p_zip_keys[1], p_status,
        p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[2], p_city_keys[2], p_zip_keys[2], p_status,
        p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[3], p_city_keys[3], p_zip_keys[3], p_status,
        p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[4], p_city_keys[4], p_zip_keys[4], p_status,
        p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3 DESC, 1 DESC, 2 DESC
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.area_merge4_price_desc(
    text[], text[], text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, numeric, text, text,
    integer)
    IS 'The first p_lim matches in -price order of up to 4 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE OR REPLACE FUNCTION search_internal.area_merge16_price_desc(
    p_status_keys text[], p_city_keys text[], p_zip_keys text[], p_status text, p_type text, p_min_price numeric,
    p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date,
    p_include_withdrawn boolean, p_start_key numeric, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[1], p_city_keys[1], p_zip_keys[1], p_status,
        p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[2], p_city_keys[2], p_zip_keys[2], p_status,
        p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[3], p_city_keys[3], p_zip_keys[3], p_status,
        p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[4], p_city_keys[4], p_zip_keys[4], p_status,
        p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[5], p_city_keys[5], p_zip_keys[5], p_status,
        p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[6], p_city_keys[6], p_zip_keys[6], p_status,
        p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[7], p_city_keys[7], p_zip_keys[7], p_status,
        p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[8], p_city_keys[8], p_zip_keys[8], p_status,
        p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[9], p_city_keys[9], p_zip_keys[9], p_status,
        p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[10], p_city_keys[10], p_zip_keys[10], p_status,
        p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[11], p_city_keys[11], p_zip_keys[11], p_status,
        p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[12], p_city_keys[12], p_zip_keys[12], p_status,
        p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[13], p_city_keys[13], p_zip_keys[13], p_status,
        p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[14], p_city_keys[14], p_zip_keys[14], p_status,
        p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[15], p_city_keys[15], p_zip_keys[15], p_status,
        p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[16], p_city_keys[16], p_zip_keys[16], p_status,
        p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3 DESC, 1 DESC, 2 DESC
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.area_merge16_price_desc(
    text[], text[], text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, numeric, text, text,
    integer)
    IS 'The first p_lim matches in -price order of up to 16 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE OR REPLACE FUNCTION search_internal.area_scan_newest(
    p_status_key text, p_city_key text, p_zip_key text, p_status text, p_type text, p_min_price numeric,
    p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date,
    p_include_withdrawn boolean, p_start_key date, p_start_source text, p_start_listing_id text)
RETURNS TABLE (source text, listing_id text, sort_key date)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT l.source, l.listing_id, coalesce(l.listing_contract_date, '-infinity')
FROM listings l
WHERE coalesce(l.standard_status, '') = p_status_key AND coalesce(l.city, '') = p_city_key
  AND coalesce(left(l.postal_code, 5), '') = p_zip_key
  AND (coalesce(l.listing_contract_date, '-infinity'), l.source, l.listing_id) < (p_start_key, p_start_source,
      p_start_listing_id)
  AND coalesce(l.listing_contract_date, '-infinity') >= coalesce(p_listed_since, '-infinity')
  AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
          l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date, l.off_market_at,
          p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since,
          p_include_withdrawn)
ORDER BY 3 DESC, 1 DESC, 2 DESC
$$;
COMMENT ON FUNCTION search_internal.area_scan_newest(text, text, text, text, text, numeric, numeric, integer, numeric,
    numeric, date, boolean, date, text, text) IS
    'The matches of one (status, city, ZIP) group in search.detailed''s newest order after the start key, '
    'read from the covering index alone. Inlined into the merges.';

CREATE OR REPLACE FUNCTION search_internal.area_merge4_newest(
    p_status_keys text[], p_city_keys text[], p_zip_keys text[], p_status text, p_type text, p_min_price numeric,
    p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date,
    p_include_withdrawn boolean, p_start_key date, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key date)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[1], p_city_keys[1], p_zip_keys[1], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[2], p_city_keys[2], p_zip_keys[2], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[3], p_city_keys[3], p_zip_keys[3], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[4], p_city_keys[4], p_zip_keys[4], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3 DESC, 1 DESC, 2 DESC
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.area_merge4_newest(
    text[], text[], text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, date, text, text,
    integer)
    IS 'The first p_lim matches in newest order of up to 4 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE OR REPLACE FUNCTION search_internal.area_merge16_newest(
    p_status_keys text[], p_city_keys text[], p_zip_keys text[], p_status text, p_type text, p_min_price numeric,
    p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date,
    p_include_withdrawn boolean, p_start_key date, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key date)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[1], p_city_keys[1], p_zip_keys[1], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[2], p_city_keys[2], p_zip_keys[2], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[3], p_city_keys[3], p_zip_keys[3], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[4], p_city_keys[4], p_zip_keys[4], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[5], p_city_keys[5], p_zip_keys[5], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[6], p_city_keys[6], p_zip_keys[6], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[7], p_city_keys[7], p_zip_keys[7], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[8], p_city_keys[8], p_zip_keys[8], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[9], p_city_keys[9], p_zip_keys[9], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[10], p_city_keys[10], p_zip_keys[10], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[11], p_city_keys[11], p_zip_keys[11], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[12], p_city_keys[12], p_zip_keys[12], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[13], p_city_keys[13], p_zip_keys[13], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[14], p_city_keys[14], p_zip_keys[14], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[15], p_city_keys[15], p_zip_keys[15], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[16], p_city_keys[16], p_zip_keys[16], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3 DESC, 1 DESC, 2 DESC
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.area_merge16_newest(
    text[], text[], text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, date, text, text,
    integer)
    IS 'The first p_lim matches in newest order of up to 16 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE OR REPLACE FUNCTION search_internal.area_scan_beds(
    p_status_key text, p_city_key text, p_zip_key text, p_status text, p_type text, p_min_price numeric,
    p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date,
    p_include_withdrawn boolean, p_start_key integer, p_start_source text, p_start_listing_id text)
RETURNS TABLE (source text, listing_id text, sort_key integer)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT l.source, l.listing_id, coalesce(l.bedrooms_total, -1)
FROM listings l
WHERE coalesce(l.standard_status, '') = p_status_key AND coalesce(l.city, '') = p_city_key
  AND coalesce(left(l.postal_code, 5), '') = p_zip_key
  AND (coalesce(l.bedrooms_total, -1), l.source, l.listing_id) < (p_start_key, p_start_source, p_start_listing_id)
  AND coalesce(l.bedrooms_total, -1) >= coalesce(p_min_beds, -1)
  AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
          l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date, l.off_market_at,
          p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since,
          p_include_withdrawn)
ORDER BY 3 DESC, 1 DESC, 2 DESC
$$;
COMMENT ON FUNCTION search_internal.area_scan_beds(text, text, text, text, text, numeric, numeric, integer, numeric,
    numeric, date, boolean, integer, text, text) IS
    'The matches of one (status, city, ZIP) group in search.detailed''s beds order after the start key, '
    'read from the covering index alone. Inlined into the merges.';

CREATE OR REPLACE FUNCTION search_internal.area_merge4_beds(
    p_status_keys text[], p_city_keys text[], p_zip_keys text[], p_status text, p_type text, p_min_price numeric,
    p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date,
    p_include_withdrawn boolean, p_start_key integer, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key integer)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[1], p_city_keys[1], p_zip_keys[1], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[2], p_city_keys[2], p_zip_keys[2], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[3], p_city_keys[3], p_zip_keys[3], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[4], p_city_keys[4], p_zip_keys[4], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3 DESC, 1 DESC, 2 DESC
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.area_merge4_beds(
    text[], text[], text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, integer, text, text,
    integer)
    IS 'The first p_lim matches in beds order of up to 4 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE OR REPLACE FUNCTION search_internal.area_merge16_beds(
    p_status_keys text[], p_city_keys text[], p_zip_keys text[], p_status text, p_type text, p_min_price numeric,
    p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date,
    p_include_withdrawn boolean, p_start_key integer, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key integer)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[1], p_city_keys[1], p_zip_keys[1], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[2], p_city_keys[2], p_zip_keys[2], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[3], p_city_keys[3], p_zip_keys[3], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[4], p_city_keys[4], p_zip_keys[4], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[5], p_city_keys[5], p_zip_keys[5], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[6], p_city_keys[6], p_zip_keys[6], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[7], p_city_keys[7], p_zip_keys[7], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[8], p_city_keys[8], p_zip_keys[8], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[9], p_city_keys[9], p_zip_keys[9], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[10], p_city_keys[10], p_zip_keys[10], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[11], p_city_keys[11], p_zip_keys[11], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[12], p_city_keys[12], p_zip_keys[12], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[13], p_city_keys[13], p_zip_keys[13], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[14], p_city_keys[14], p_zip_keys[14], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[15], p_city_keys[15], p_zip_keys[15], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[16], p_city_keys[16], p_zip_keys[16], p_status, p_type,
        p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3 DESC, 1 DESC, 2 DESC
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.area_merge16_beds(
    text[], text[], text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, integer, text, text,
    integer)
    IS 'The first p_lim matches in beds order of up to 16 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE OR REPLACE FUNCTION search_internal.status_scan_price(
    p_status_key text, p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer,
    p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key numeric,
    p_start_source text, p_start_listing_id text)
RETURNS TABLE (source text, listing_id text, sort_key numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT l.source, l.listing_id, coalesce(l.list_price, 'Infinity')
FROM listings l
WHERE coalesce(l.standard_status, '') = p_status_key
  AND (coalesce(l.list_price, 'Infinity'), l.source, l.listing_id) > (p_start_key, p_start_source, p_start_listing_id)
  AND coalesce(l.list_price, 'Infinity') <= coalesce(p_max_price, 'Infinity')
  AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
          l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date, l.off_market_at,
          p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since,
          p_include_withdrawn)
ORDER BY 3, 1, 2
$$;
COMMENT ON FUNCTION search_internal.status_scan_price(text, text, text, numeric, numeric, integer, numeric, numeric,
    date, boolean, numeric, text, text) IS
    'The matches of one status in search.detailed''s price order after the start key, '
    'read from the covering index alone. Inlined into the merges.';

CREATE OR REPLACE FUNCTION search_internal.status_merge4_price(
    p_status_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer,
    p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key numeric,
    p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.status_scan_price(p_status_keys[1], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[2], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[3], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[4], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3, 1, 2
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.status_merge4_price(
    text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, numeric, text, text, integer)
    IS 'The first p_lim matches in price order of up to 4 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE OR REPLACE FUNCTION search_internal.status_merge16_price(
    p_status_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer,
    p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key numeric,
    p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.status_scan_price(p_status_keys[1], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[2], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[3], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[4], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[5], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[6], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[7], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[8], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[9], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[10], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[11], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[12], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[13], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[14], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[15], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[16], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3, 1, 2
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.status_merge16_price(
    text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, numeric, text, text, integer)
    IS 'The first p_lim matches in price order of up to 16 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE OR REPLACE FUNCTION search_internal.status_scan_price_desc(
    p_status_key text, p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer,
    p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key numeric,
    p_start_source text, p_start_listing_id text)
RETURNS TABLE (source text, listing_id text, sort_key numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT l.source, l.listing_id, coalesce(l.list_price, 'Infinity')
FROM listings l
WHERE coalesce(l.standard_status, '') = p_status_key
  AND (coalesce(l.list_price, 'Infinity'), l.source, l.listing_id) < (p_start_key, p_start_source, p_start_listing_id)
  AND coalesce(l.list_price, 'Infinity') >= coalesce(p_min_price, '-Infinity')
  AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
          l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date, l.off_market_at,
          p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since,
          p_include_withdrawn)
ORDER BY 3 DESC, 1 DESC, 2 DESC
$$;
COMMENT ON FUNCTION search_internal.status_scan_price_desc(text, text, text, numeric, numeric, integer, numeric,
    numeric, date, boolean, numeric, text, text) IS
    'The matches of one status in search.detailed''s -price order after the start key, '
    'read from the covering index alone. Inlined into the merges.';

CREATE OR REPLACE FUNCTION search_internal.status_merge4_price_desc(
    p_status_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer,
    p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key numeric,
    p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[1], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[2], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[3], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[4], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3 DESC, 1 DESC, 2 DESC
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.status_merge4_price_desc(
    text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, numeric, text, text, integer)
    IS 'The first p_lim matches in -price order of up to 4 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE OR REPLACE FUNCTION search_internal.status_merge16_price_desc(
    p_status_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer,
    p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key numeric,
    p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[1], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[2], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[3], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[4], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[5], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[6], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[7], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[8], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[9], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[10], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[11], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[12], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[13], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[14], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[15], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[16], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3 DESC, 1 DESC, 2 DESC
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.status_merge16_price_desc(
    text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, numeric, text, text, integer)
    IS 'The first p_lim matches in -price order of up to 16 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE OR REPLACE FUNCTION search_internal.status_scan_newest(
    p_status_key text, p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer,
    p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key date,
    p_start_source text, p_start_listing_id text)
RETURNS TABLE (source text, listing_id text, sort_key date)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT l.source, l.listing_id, coalesce(l.listing_contract_date, '-infinity')
FROM listings l
WHERE coalesce(l.standard_status, '') = p_status_key
  AND (coalesce(l.listing_contract_date, '-infinity'), l.source, l.listing_id) < (p_start_key, p_start_source,
      p_start_listing_id)
  AND coalesce(l.listing_contract_date, '-infinity') >= coalesce(p_listed_since, '-infinity')
  AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
          l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date, l.off_market_at,
          p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since,
          p_include_withdrawn)
ORDER BY 3 DESC, 1 DESC, 2 DESC
$$;
COMMENT ON FUNCTION search_internal.status_scan_newest(text, text, text, numeric, numeric, integer, numeric, numeric,
    date, boolean, date, text, text) IS
    'The matches of one status in search.detailed''s newest order after the start key, '
    'read from the covering index alone. Inlined into the merges.';

CREATE OR REPLACE FUNCTION search_internal.status_merge4_newest(
    p_status_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer,
    p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key date,
    p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key date)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[1], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[2], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[3], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[4], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3 DESC, 1 DESC, 2 DESC
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.status_merge4_newest(
    text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, date, text, text, integer)
    IS 'The first p_lim matches in newest order of up to 4 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE OR REPLACE FUNCTION search_internal.status_merge16_newest(
    p_status_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer,
    p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key date,
    p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key date)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[1], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[2], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[3], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[4], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[5], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[6], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[7], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[8], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[9], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[10], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[11], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[12], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[13], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[14], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[15], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[16], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3 DESC, 1 DESC, 2 DESC
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.status_merge16_newest(
    text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, date, text, text, integer)
    IS 'The first p_lim matches in newest order of up to 16 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE OR REPLACE FUNCTION search_internal.status_scan_beds(
    p_status_key text, p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer,
    p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key integer,
    p_start_source text, p_start_listing_id text)
RETURNS TABLE (source text, listing_id text, sort_key integer)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT l.source, l.listing_id, coalesce(l.bedrooms_total, -1)
FROM listings l
WHERE coalesce(l.standard_status, '') = p_status_key
  AND (coalesce(l.bedrooms_total, -1), l.source, l.listing_id) < (p_start_key, p_start_source, p_start_listing_id)
  AND coalesce(l.bedrooms_total, -1) >= coalesce(p_min_beds, -1)
  AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
          l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date, l.off_market_at,
          p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since,
          p_include_withdrawn)
ORDER BY 3 DESC, 1 DESC, 2 DESC
$$;
COMMENT ON FUNCTION search_internal.status_scan_beds(text, text, text, numeric, numeric, integer, numeric, numeric,
    date, boolean, integer, text, text) IS
    'The matches of one status in search.detailed''s beds order after the start key, '
    'read from the covering index alone. Inlined into the merges.';

CREATE OR REPLACE FUNCTION search_internal.status_merge4_beds(
    p_status_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer,
    p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key integer,
    p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key integer)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[1], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[2], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[3], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[4], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3 DESC, 1 DESC, 2 DESC
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.status_merge4_beds(
    text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, integer, text, text, integer)
    IS 'The first p_lim matches in beds order of up to 4 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE OR REPLACE FUNCTION search_internal.status_merge16_beds(
    p_status_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer,
    p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key integer,
    p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key integer)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[1], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[2], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[3], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[4], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[5], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[6], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[7], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[8], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[9], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[10], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[11], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[12], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[13], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[14], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[15], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[16], p_status, p_type, p_min_price, p_max_price,
        p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3 DESC, 1 DESC, 2 DESC
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.status_merge16_beds(
    text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, integer, text, text, integer)
    IS 'The first p_lim matches in beds order of up to 16 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE OR REPLACE FUNCTION search_internal.detailed_page(
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
        size := CASE WHEN n - first < 4 THEN 4 ELSE 16 END;
        last := first + size - 1;
        IF sort = 'price' AND by_area AND size = 4 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   price_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, price_keys
            FROM search_internal.area_merge4_price(
                status_keys[first:last], city_keys[first:last], zip_keys[first:last], status_wanted, type_wanted,
                min_price, max_price, min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::numeric,
                start_source, start_listing_id, lim) k;
        ELSIF sort = 'price' AND by_area AND size = 16 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   price_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, price_keys
            FROM search_internal.area_merge16_price(
                status_keys[first:last], city_keys[first:last], zip_keys[first:last], status_wanted, type_wanted,
                min_price, max_price, min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::numeric,
                start_source, start_listing_id, lim) k;
        ELSIF sort = '-price' AND by_area AND size = 4 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   price_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, price_keys
            FROM search_internal.area_merge4_price_desc(
                status_keys[first:last], city_keys[first:last], zip_keys[first:last], status_wanted, type_wanted,
                min_price, max_price, min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::numeric,
                start_source, start_listing_id, lim) k;
        ELSIF sort = '-price' AND by_area AND size = 16 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   price_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, price_keys
            FROM search_internal.area_merge16_price_desc(
                status_keys[first:last], city_keys[first:last], zip_keys[first:last], status_wanted, type_wanted,
                min_price, max_price, min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::numeric,
                start_source, start_listing_id, lim) k;
        ELSIF sort = 'newest' AND by_area AND size = 4 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   date_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, date_keys
            FROM search_internal.area_merge4_newest(
                status_keys[first:last], city_keys[first:last], zip_keys[first:last], status_wanted, type_wanted,
                min_price, max_price, min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::date,
                start_source, start_listing_id, lim) k;
        ELSIF sort = 'newest' AND by_area AND size = 16 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   date_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, date_keys
            FROM search_internal.area_merge16_newest(
                status_keys[first:last], city_keys[first:last], zip_keys[first:last], status_wanted, type_wanted,
                min_price, max_price, min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::date,
                start_source, start_listing_id, lim) k;
        ELSIF sort = 'beds' AND by_area AND size = 4 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   beds_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, beds_keys
            FROM search_internal.area_merge4_beds(
                status_keys[first:last], city_keys[first:last], zip_keys[first:last], status_wanted, type_wanted,
                min_price, max_price, min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::integer,
                start_source, start_listing_id, lim) k;
        ELSIF sort = 'beds' AND by_area AND size = 16 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   beds_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, beds_keys
            FROM search_internal.area_merge16_beds(
                status_keys[first:last], city_keys[first:last], zip_keys[first:last], status_wanted, type_wanted,
                min_price, max_price, min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::integer,
                start_source, start_listing_id, lim) k;
        ELSIF sort = 'price' AND NOT by_area AND size = 4 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   price_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, price_keys
            FROM search_internal.status_merge4_price(
                status_keys[first:last], status_wanted, type_wanted, min_price, max_price,
                min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::numeric,
                start_source, start_listing_id, lim) k;
        ELSIF sort = 'price' AND NOT by_area AND size = 16 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   price_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, price_keys
            FROM search_internal.status_merge16_price(
                status_keys[first:last], status_wanted, type_wanted, min_price, max_price,
                min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::numeric,
                start_source, start_listing_id, lim) k;
        ELSIF sort = '-price' AND NOT by_area AND size = 4 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   price_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, price_keys
            FROM search_internal.status_merge4_price_desc(
                status_keys[first:last], status_wanted, type_wanted, min_price, max_price,
                min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::numeric,
                start_source, start_listing_id, lim) k;
        ELSIF sort = '-price' AND NOT by_area AND size = 16 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   price_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, price_keys
            FROM search_internal.status_merge16_price_desc(
                status_keys[first:last], status_wanted, type_wanted, min_price, max_price,
                min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::numeric,
                start_source, start_listing_id, lim) k;
        ELSIF sort = 'newest' AND NOT by_area AND size = 4 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   date_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, date_keys
            FROM search_internal.status_merge4_newest(
                status_keys[first:last], status_wanted, type_wanted, min_price, max_price,
                min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::date,
                start_source, start_listing_id, lim) k;
        ELSIF sort = 'newest' AND NOT by_area AND size = 16 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   date_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, date_keys
            FROM search_internal.status_merge16_newest(
                status_keys[first:last], status_wanted, type_wanted, min_price, max_price,
                min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::date,
                start_source, start_listing_id, lim) k;
        ELSIF sort = 'beds' AND NOT by_area AND size = 4 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   beds_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, beds_keys
            FROM search_internal.status_merge4_beds(
                status_keys[first:last], status_wanted, type_wanted, min_price, max_price,
                min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::integer,
                start_source, start_listing_id, lim) k;
        ELSIF sort = 'beds' AND NOT by_area AND size = 16 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   beds_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, beds_keys
            FROM search_internal.status_merge16_beds(
                status_keys[first:last], status_wanted, type_wanted, min_price, max_price,
                min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::integer,
                start_source, start_listing_id, lim) k;
        END IF;
        first := last + 1;
    END LOOP;
    RETURN QUERY SELECT * FROM search_internal.detailed_page(
        sort, sources, listing_ids, price_keys, date_keys, beds_keys, lim);
END
$$;
COMMENT ON FUNCTION search.detailed(text, text, text, text, numeric, numeric, integer, numeric, numeric, date,
                                    text, text, integer, boolean) IS
    'Listings meeting every criterion given (NULL: any): property_type; status; city; postal_code, a '
    '5-digit ZIP (ZIP+4 codes match their ZIP); list price from min_price to max_price; at least min_beds '
    'bedrooms, min_baths baths (full + half/2) and min_sqft of living area; listed on or after '
    'listed_since. sort: price (lowest first), -price (highest first), newest (latest list date first) or '
    'beds (most first), then by source and MLS number (the same way); no list date or bedrooms count sorts '
    'last, no price as the highest. Pages of lim (1-1000): pass the cursor of a page''s last row as after '
    'for the next one (keyset pagination: no row is skipped or repeated). Withdrawn and off-market '
    'listings only with include_withdrawn or status ''Withdrawn''. Example: SELECT * FROM '
    'search.detailed(property_type => ''Residential'', status => ''Active'', city => ''San Diego'', '
    'min_price => 500000, max_price => 900000, min_beds => 3, sort => ''newest'').';

CREATE OR REPLACE FUNCTION search_internal.agents_rows(p_low text, p_high text, p_office text, p_lim integer)
RETURNS SETOF search.agent_row
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT m.source, m.agent_mls_id, m.first_name, m.last_name,
       coalesce(m.full_name,
                nullif(btrim(coalesce(m.first_name, '') || ' ' || coalesce(m.last_name, '')), '')),
       m.office_mls_id, m.office_name, m.office_phone, m.mobile_phone, m.email
FROM (
    SELECT a.* FROM agents a
    WHERE p_low IS NOT NULL
      AND ((lower(a.last_name COLLATE "und-x-icu") ~>=~ p_low
            AND lower(a.last_name COLLATE "und-x-icu") ~<~ p_high)
           OR (lower(coalesce(a.full_name, coalesce(a.first_name, '') || ' ' || coalesce(a.last_name, ''))
                     COLLATE "und-x-icu")
               ~>=~ p_low
               AND lower(coalesce(a.full_name, coalesce(a.first_name, '') || ' ' || coalesce(a.last_name, ''))
                         COLLATE "und-x-icu") ~<~ p_high))
      AND (p_office IS NULL OR a.office_mls_id = p_office)
    UNION ALL
    SELECT a.* FROM agents a WHERE p_low IS NULL AND a.office_mls_id = p_office
) m
ORDER BY lower(m.last_name COLLATE "und-x-icu"), lower(m.first_name COLLATE "und-x-icu"), m.source,
         m.agent_mls_id
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.agents_rows(text, text, text, integer) IS
    'The statement of search.agents (arguments checked, the name prefix as a range). One generic plan fits '
    'every argument.';

CREATE OR REPLACE FUNCTION search.agents(name_prefix text DEFAULT NULL, office_mls_id text DEFAULT NULL,
                                         lim integer DEFAULT 20)
RETURNS SETOF search.agent_row
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET plan_cache_mode = force_generic_plan
SET jit = off
AS $$
DECLARE
    name_range text[];
    office text := btrim(office_mls_id);
BEGIN
    IF name_prefix IS NULL AND office_mls_id IS NULL THEN
        RAISE EXCEPTION 'search.agents: give name_prefix, office_mls_id or both'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF lim IS NULL OR lim NOT BETWEEN 1 AND 1000 THEN
        RAISE EXCEPTION 'search.agents: lim must be between 1 and 1000, not %', coalesce(lim::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF name_prefix IS NOT NULL THEN
        name_range := search_internal.prefix_range(name_prefix);
    END IF;
    RETURN QUERY SELECT * FROM search_internal.agents_rows(name_range[1], name_range[2], office, lim);
END
$$;
COMMENT ON FUNCTION search.agents(text, text, integer) IS
    'Agents whose first, last or full name (the feed''s, else "first last") starts with name_prefix '
    '(case-insensitive, Unicode) and of office office_mls_id, each when given (one at least); by last name, '
    'first name, source and MLS id; at most lim (1-1000, default 20). Example: SELECT * FROM '
    'search.agents(''tan'', ''SDO118'', 10).';

CREATE OR REPLACE FUNCTION search_internal.near_rows(
    p_lat double precision, p_lon double precision, p_miles double precision, p_type text, p_status text,
    p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric,
    p_listed_since date, p_lim integer, p_include_withdrawn boolean)
RETURNS SETOF search.listing_row
LANGUAGE sql STABLE PARALLEL SAFE AS $$
WITH nearest AS (
    (SELECT point(l.longitude, l.latitude) <@> point(p_lon, p_lat) AS miles
     FROM listings l
     WHERE l.latitude IS NOT NULL AND l.longitude IS NOT NULL AND l.standard_status = 'Active'
       AND p_status = 'Active'
       AND point(l.longitude, l.latitude) <@ search_internal.bounding_box(p_lat, p_lon, p_miles)
       AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
              l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date, l.off_market_at,
              p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft,
              p_listed_since, p_include_withdrawn)
     ORDER BY point(l.longitude, l.latitude) <-> point(p_lon, p_lat)
     LIMIT p_lim)
    UNION ALL
    (SELECT point(l.longitude, l.latitude) <@> point(p_lon, p_lat) AS miles
     FROM listings l
     WHERE l.latitude IS NOT NULL AND l.longitude IS NOT NULL
       AND p_status IS DISTINCT FROM 'Active'
       AND point(l.longitude, l.latitude) <@ search_internal.bounding_box(p_lat, p_lon, p_miles)
       AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
              l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date, l.off_market_at,
              p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft,
              p_listed_since, p_include_withdrawn)
     ORDER BY point(l.longitude, l.latitude) <-> point(p_lon, p_lat)
     LIMIT p_lim)
), reach AS (
    SELECT CASE WHEN count(*) < p_lim THEN p_miles ELSE least(max(nearest.miles), p_miles) END AS miles
    FROM nearest
), hits AS (
    SELECT * FROM (
        SELECT l.source, l.listing_id, point(l.longitude, l.latitude) <@> point(p_lon, p_lat) AS miles
        FROM reach
        JOIN listings l
          ON point(l.longitude, l.latitude) <@ search_internal.bounding_box(p_lat, p_lon, reach.miles)
         AND (point(l.longitude, l.latitude) <@> point(p_lon, p_lat)) <= reach.miles
        WHERE l.latitude IS NOT NULL AND l.longitude IS NOT NULL AND l.standard_status = 'Active'
       AND p_status = 'Active'
          AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
              l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date, l.off_market_at,
              p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft,
              p_listed_since, p_include_withdrawn)
        UNION ALL
        SELECT l.source, l.listing_id, point(l.longitude, l.latitude) <@> point(p_lon, p_lat) AS miles
        FROM reach
        JOIN listings l
          ON point(l.longitude, l.latitude) <@ search_internal.bounding_box(p_lat, p_lon, reach.miles)
         AND (point(l.longitude, l.latitude) <@> point(p_lon, p_lat)) <= reach.miles
        WHERE l.latitude IS NOT NULL AND l.longitude IS NOT NULL
       AND p_status IS DISTINCT FROM 'Active'
          AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
              l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date, l.off_market_at,
              p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft,
              p_listed_since, p_include_withdrawn)
    ) matched
    ORDER BY 3, 1, 2
    LIMIT p_lim
)
SELECT l.source, l.listing_id, l.standard_status, l.property_type, l.list_price, l.listing_contract_date,
       l.bedrooms_total, l.bathrooms_full, l.bathrooms_half, l.living_area, l.year_built, l.street_number,
       l.street_name, l.unit_number, l.city, l.state_or_province, l.postal_code, l.county_or_parish,
       l.mls_area, l.latitude, l.longitude, l.public_remarks, l.list_office_mls_id, l.list_office_name,
       l.list_agent_mls_id, a.first_name, a.last_name, a.mobile_phone, a.office_phone, a.email,
       l.modification_timestamp, l.off_market_at, h.miles, NULL::text
FROM hits h
CROSS JOIN LATERAL (SELECT * FROM listings l WHERE l.source = h.source AND l.listing_id = h.listing_id
                    LIMIT 1) l
LEFT JOIN LATERAL (SELECT * FROM agents a WHERE a.source = l.source AND a.agent_mls_id = l.list_agent_mls_id
                   LIMIT 1) a ON true
ORDER BY h.miles, h.source, h.listing_id
$$;
COMMENT ON FUNCTION search_internal.near_rows(double precision, double precision, double precision, text,
                                              text, numeric, numeric, integer, numeric, numeric, date,
                                              integer, boolean) IS
    'The statement of search.near (arguments checked): the lim matches nearest in the location index''s '
    'planar order are at most d miles away, so the true lim nearest are too; a scan of the box of d ranks '
    'the matches in it by great-circle distance. Active searches read listings_location_active_idx, the '
    'others listings_location_idx (one branch runs, chosen by p_status). One generic plan fits every '
    'argument.';

CREATE OR REPLACE FUNCTION search.near(
    lat double precision, lon double precision, miles double precision, property_type text DEFAULT NULL,
    status text DEFAULT NULL, min_price numeric DEFAULT NULL, max_price numeric DEFAULT NULL,
    min_beds integer DEFAULT NULL, min_baths numeric DEFAULT NULL, min_sqft numeric DEFAULT NULL,
    listed_since date DEFAULT NULL, lim integer DEFAULT 20, include_withdrawn boolean DEFAULT false)
RETURNS SETOF search.listing_row
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET plan_cache_mode = force_generic_plan
SET jit = off
AS $$
BEGIN
    IF lat IS NULL OR lat NOT BETWEEN -90 AND 90 THEN
        RAISE EXCEPTION 'search.near: lat must be between -90 and 90, not %', coalesce(lat::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF lon IS NULL OR lon NOT BETWEEN -180 AND 180 THEN
        RAISE EXCEPTION 'search.near: lon must be between -180 and 180, not %', coalesce(lon::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF miles IS NULL OR miles NOT BETWEEN 0 AND 12500 THEN
        RAISE EXCEPTION 'search.near: miles must be between 0 and 12500, not %', coalesce(miles::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF lim IS NULL OR lim NOT BETWEEN 1 AND 1000 THEN
        RAISE EXCEPTION 'search.near: lim must be between 1 and 1000, not %', coalesce(lim::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF min_price > max_price THEN
        RAISE EXCEPTION 'search.near: min_price % is greater than max_price %', min_price, max_price
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN QUERY SELECT * FROM search_internal.near_rows(lat, lon, miles, property_type, status, min_price,
        max_price, min_beds, min_baths, min_sqft, listed_since, lim, include_withdrawn);
END
$$;
COMMENT ON FUNCTION search.near(double precision, double precision, double precision, text, text, numeric,
                                numeric, integer, numeric, numeric, date, integer, boolean) IS
    'Listings within miles (0-12500) of (lat, lon) meeting the criteria given (as search.detailed), nearest '
    'first, with distance_miles (great circle, as earthdistance''s <@>), then by source and MLS number; at '
    'most lim (1-1000). Listings without coordinates are never near. Withdrawn and off-market listings only '
    'with include_withdrawn or status ''Withdrawn''. Example: SELECT listing_id, distance_miles FROM '
    'search.near(32.7157, -117.1611, 2, status => ''Active'', min_beds => 2).';

CREATE OR REPLACE FUNCTION search.monthly_payment(price numeric, down_payment_ratio numeric,
    annual_rate_percent numeric,
                                       years integer)
RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
SELECT CASE
    WHEN search_internal.check(down_payment_ratio BETWEEN 0 AND 1,
                               'search.monthly_payment: down_payment_ratio must be between 0 and 1')
     AND search_internal.check(annual_rate_percent BETWEEN 0 AND 100,
                               'search.monthly_payment: annual_rate_percent must be between 0 and 100')
     AND search_internal.check(years BETWEEN 1 AND 100,
                               'search.monthly_payment: years must be between 1 and 100')
     AND search_internal.check(price IS NULL OR price >= 0,
                               'search.monthly_payment: price must not be negative')
    THEN round(CASE WHEN annual_rate_percent = 0 THEN price * (1 - down_payment_ratio) / (12 * years)
                    ELSE price * (1 - down_payment_ratio) * (annual_rate_percent / 1200)
                         / (1 - power(1 + annual_rate_percent / 1200, -12 * years))
               END, 2)
END
$$;
COMMENT ON FUNCTION search.monthly_payment(numeric, numeric, numeric, integer) IS
    'The monthly principal and interest, in cents, of a fixed-rate loan of price less a down payment of '
    'down_payment_ratio (0-1) at annual_rate_percent (0-100; 0: the loan over the months) over years '
    '(1-100); NULL for a NULL price. Immutable. Example: search.monthly_payment(500000, 0.2, 6.5, 30) '
    '= 2528.27.';
