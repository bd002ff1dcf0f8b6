DROP INDEX listings_quick_idx;
DROP INDEX listings_type_status_price_idx;
DROP INDEX listings_list_date_idx;
DROP INDEX listings_rooms_idx;
DROP INDEX listings_city_idx;
DROP INDEX listings_county_idx;
DROP INDEX listings_postal_code_idx;
DROP INDEX listings_agent_idx;
DROP INDEX listings_location_idx;
DROP INDEX agents_last_name_idx;
DROP INDEX agents_first_name_idx;

-- search.detailed: one index per sort key, after the (status, city, ZIP) group; the criteria ride along.
CREATE INDEX listings_search_price_idx ON listings (
        (coalesce(standard_status, '')), (coalesce(city, '')), (coalesce(left(postal_code, 5), '')),
        (coalesce(list_price, 'Infinity')), source, listing_id)
    INCLUDE (standard_status, city, postal_code, property_type, list_price, listing_contract_date,
             bedrooms_total, bathrooms_full, bathrooms_half, living_area, off_market_at);
CREATE INDEX listings_search_newest_idx ON listings (
        (coalesce(standard_status, '')), (coalesce(city, '')), (coalesce(left(postal_code, 5), '')),
        (coalesce(listing_contract_date, '-infinity')), source, listing_id)
    INCLUDE (standard_status, city, postal_code, property_type, list_price, listing_contract_date,
             bedrooms_total, bathrooms_full, bathrooms_half, living_area, off_market_at);
CREATE INDEX listings_search_beds_idx ON listings (
        (coalesce(standard_status, '')), (coalesce(city, '')), (coalesce(left(postal_code, 5), '')),
        (coalesce(bedrooms_total, -1)), source, listing_id)
    INCLUDE (standard_status, city, postal_code, property_type, list_price, listing_contract_date,
             bedrooms_total, bathrooms_full, bathrooms_half, living_area, off_market_at);
-- search.near: planar KNN and boxes on the point, the criteria ride along.
CREATE INDEX listings_location_idx ON listings USING gist (point(longitude, latitude))
    INCLUDE (latitude, longitude, standard_status, property_type, list_price, listing_contract_date,
             bedrooms_total, bathrooms_full, bathrooms_half, living_area, off_market_at, source, listing_id)
    WHERE latitude IS NOT NULL AND longitude IS NOT NULL;
-- search.quick: street number, then a prefix of the street name.
CREATE INDEX listings_street_idx
    ON listings (street_number, (lower(street_name COLLATE "und-x-icu")) text_pattern_ops);
-- search.agents: prefixes of the last name and of the full name (the feed's, else "first last", which covers
-- the first name).
CREATE INDEX agents_last_name_idx ON agents ((lower(last_name COLLATE "und-x-icu")) text_pattern_ops);
CREATE INDEX agents_full_name_idx ON agents (
    (lower(coalesce(full_name, coalesce(first_name, '') || ' ' || coalesce(last_name, ''))
           COLLATE "und-x-icu")) text_pattern_ops);
-- search.listing uses the primary key and listings_listing_id_idx (every source); search.agents by office
-- uses agents_office_idx.
-- The covering indexes answer from the index alone only on pages the visibility map marks all-visible, and a
-- nightly delta rewrites about 3% of the listings: vacuum after 2% of them changed instead of 20%.
ALTER TABLE listings SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02);

CREATE SCHEMA search_internal;
COMMENT ON SCHEMA search_internal IS
    'Helpers of the search functions; not a contract: they may change with any migration.';

CREATE FUNCTION search_internal.check(ok boolean, message text) RETURNS boolean
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

CREATE FUNCTION search_internal.bounding_box(lat double precision, lon double precision, miles double precision)
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

CREATE FUNCTION search_internal.matches(
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

CREATE SCHEMA search;
COMMENT ON SCHEMA search IS
    'mlsfeed''s search API, the stable contract for downstream apps: call these functions, not the tables.';

CREATE TYPE search.listing_row AS (
    source text,
    listing_id text,
    standard_status text,
    property_type text,
    list_price numeric(14,2),
    listing_contract_date date,
    bedrooms_total integer,
    bathrooms_full integer,
    bathrooms_half integer,
    living_area numeric,
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
    list_office_mls_id text,
    list_office_name text,
    list_agent_mls_id text,
    agent_first_name text,
    agent_last_name text,
    agent_mobile_phone text,
    agent_office_phone text,
    agent_email text,
    modification_timestamp timestamptz,
    off_market_at timestamptz,
    distance_miles double precision,
    cursor text
);
COMMENT ON TYPE search.listing_row IS
    'A listing as the search functions return it, with its listing agent''s name and phones; '
    'distance_miles is set by search.near, cursor (for the next page) by search.detailed.';

CREATE FUNCTION search_internal.prefix_range(prefix text) RETURNS text[]
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

CREATE FUNCTION search_internal.listing_rows(p_source text, p_listing_id text, p_include_withdrawn boolean)
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

CREATE FUNCTION search.listing(source text, listing_id text, include_withdrawn boolean DEFAULT false)
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

CREATE FUNCTION search_internal.quick_rows(p_number text, p_low text, p_high text, p_area text,
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

CREATE FUNCTION search.quick(street_number text, street_name text, area text DEFAULT NULL,
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

CREATE FUNCTION search_internal.places(status text, city text, postal_code text, include_withdrawn boolean)
RETURNS TABLE (status_key text, city_key text, zip_key text)
LANGUAGE plpgsql STABLE PARALLEL SAFE ROWS 8 AS $$
DECLARE
    s text;
    c text;
    z text;
BEGIN
    IF places.status IS NOT NULL THEN
        s := places.status;
    ELSE
        SELECT min(coalesce(l.standard_status, '')) INTO s FROM listings l;
    END IF;
    WHILE s IS NOT NULL LOOP
        IF places.status IS NOT NULL OR places.include_withdrawn OR s <> 'Withdrawn' THEN
            IF places.city IS NOT NULL AND places.postal_code IS NOT NULL THEN
                status_key := s; city_key := places.city; zip_key := places.postal_code;
                RETURN NEXT;
            ELSIF places.city IS NOT NULL THEN
                SELECT min(coalesce(left(l.postal_code, 5), '')) INTO z FROM listings l
                WHERE coalesce(l.standard_status, '') = s AND coalesce(l.city, '') = places.city;
                WHILE z IS NOT NULL LOOP
                    status_key := s; city_key := places.city; zip_key := z;
                    RETURN NEXT;
                    SELECT min(coalesce(left(l.postal_code, 5), '')) INTO z FROM listings l
                    WHERE coalesce(l.standard_status, '') = s AND coalesce(l.city, '') = places.city
                      AND coalesce(left(l.postal_code, 5), '') > z;
                END LOOP;
            ELSIF places.postal_code IS NOT NULL THEN
                SELECT min(coalesce(l.city, '')) INTO c FROM listings l
                WHERE coalesce(l.standard_status, '') = s;
                WHILE c IS NOT NULL LOOP
                    status_key := s; city_key := c; zip_key := places.postal_code;
                    RETURN NEXT;
                    SELECT min(coalesce(l.city, '')) INTO c FROM listings l
                    WHERE coalesce(l.standard_status, '') = s AND coalesce(l.city, '') > c;
                END LOOP;
            ELSE
                SELECT coalesce(l.city, ''), coalesce(left(l.postal_code, 5), '') INTO c, z FROM listings l
                WHERE coalesce(l.standard_status, '') = s
                ORDER BY coalesce(l.city, ''), coalesce(left(l.postal_code, 5), '') LIMIT 1;
                WHILE FOUND LOOP
                    status_key := s; city_key := c; zip_key := z;
                    RETURN NEXT;
                    SELECT coalesce(l.city, ''), coalesce(left(l.postal_code, 5), '') INTO c, z
                    FROM listings l
                    WHERE coalesce(l.standard_status, '') = s
                      AND (coalesce(l.city, ''), coalesce(left(l.postal_code, 5), '')) > (c, z)
                    ORDER BY coalesce(l.city, ''), coalesce(left(l.postal_code, 5), '') LIMIT 1;
                END LOOP;
            END IF;
        END IF;
        EXIT WHEN places.status IS NOT NULL;
        SELECT min(coalesce(l.standard_status, '')) INTO s FROM listings l
        WHERE coalesce(l.standard_status, '') > s;
    END LOOP;
END
$$;
COMMENT ON FUNCTION search_internal.places(text, text, text, boolean) IS
    'The (status, city, ZIP) groups of the search indexes that a detailed search reads: status, city and '
    'postal_code when given, else every value present, found by skipping through the index (one probe '
    'per value); Withdrawn only when asked for. A missing value is ''''.';

CREATE FUNCTION search_internal.detailed_rows(
    p_type text, p_status text, p_city text, p_zip text, p_min_price numeric, p_max_price numeric,
    p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_sort text,
    p_start_key text, p_start_source text, p_start_listing_id text, p_lim integer, p_include_withdrawn boolean)
RETURNS SETOF search.listing_row
LANGUAGE sql STABLE PARALLEL SAFE AS $$
WITH hits (source, listing_id, price_key, date_key, beds_key) AS (
    SELECT h.source, h.listing_id, h.sort_key, NULL::date, NULL::integer
    FROM search_internal.places(p_status, p_city, p_zip, p_include_withdrawn) g
    CROSS JOIN LATERAL (
        SELECT l.source, l.listing_id, coalesce(l.list_price, 'Infinity') AS sort_key
        FROM listings l
        WHERE coalesce(l.standard_status, '') = g.status_key AND coalesce(l.city, '') = g.city_key
          AND coalesce(left(l.postal_code, 5), '') = g.zip_key
          AND (coalesce(l.list_price, 'Infinity'), l.source, l.listing_id)
              > (p_start_key::numeric, p_start_source, p_start_listing_id)
          AND coalesce(l.list_price, 'Infinity') <= coalesce(p_max_price, 'Infinity')
          AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
                  l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date,
                  l.off_market_at, p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths,
                  p_min_sqft, p_listed_since, p_include_withdrawn)
        ORDER BY coalesce(l.list_price, 'Infinity'), l.source, l.listing_id
        LIMIT p_lim) h
    WHERE p_sort = 'price'
  UNION ALL
    SELECT h.source, h.listing_id, h.sort_key, NULL::date, NULL::integer
    FROM search_internal.places(p_status, p_city, p_zip, p_include_withdrawn) g
    CROSS JOIN LATERAL (
        SELECT l.source, l.listing_id, coalesce(l.list_price, 'Infinity') AS sort_key
        FROM listings l
        WHERE coalesce(l.standard_status, '') = g.status_key AND coalesce(l.city, '') = g.city_key
          AND coalesce(left(l.postal_code, 5), '') = g.zip_key
          AND (coalesce(l.list_price, 'Infinity'), l.source, l.listing_id)
              < (p_start_key::numeric, p_start_source, p_start_listing_id)
          AND coalesce(l.list_price, 'Infinity') >= coalesce(p_min_price, '-Infinity')
          AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
                  l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date,
                  l.off_market_at, p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths,
                  p_min_sqft, p_listed_since, p_include_withdrawn)
        ORDER BY coalesce(l.list_price, 'Infinity') DESC, l.source DESC, l.listing_id DESC
        LIMIT p_lim) h
    WHERE p_sort = '-price'
  UNION ALL
    SELECT h.source, h.listing_id, NULL::numeric, h.sort_key, NULL::integer
    FROM search_internal.places(p_status, p_city, p_zip, p_include_withdrawn) g
    CROSS JOIN LATERAL (
        SELECT l.source, l.listing_id, coalesce(l.listing_contract_date, '-infinity') AS sort_key
        FROM listings l
        WHERE coalesce(l.standard_status, '') = g.status_key AND coalesce(l.city, '') = g.city_key
          AND coalesce(left(l.postal_code, 5), '') = g.zip_key
          AND (coalesce(l.listing_contract_date, '-infinity'), l.source, l.listing_id)
              < (p_start_key::date, p_start_source, p_start_listing_id)
          AND coalesce(l.listing_contract_date, '-infinity') >= coalesce(p_listed_since, '-infinity')
          AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
                  l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date,
                  l.off_market_at, p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths,
                  p_min_sqft, p_listed_since, p_include_withdrawn)
        ORDER BY coalesce(l.listing_contract_date, '-infinity') DESC, l.source DESC, l.listing_id DESC
        LIMIT p_lim) h
    WHERE p_sort = 'newest'
  UNION ALL
    SELECT h.source, h.listing_id, NULL::numeric, NULL::date, h.sort_key
    FROM search_internal.places(p_status, p_city, p_zip, p_include_withdrawn) g
    CROSS JOIN LATERAL (
        SELECT l.source, l.listing_id, coalesce(l.bedrooms_total, -1) AS sort_key
        FROM listings l
        WHERE coalesce(l.standard_status, '') = g.status_key AND coalesce(l.city, '') = g.city_key
          AND coalesce(left(l.postal_code, 5), '') = g.zip_key
          AND (coalesce(l.bedrooms_total, -1), l.source, l.listing_id)
              < (p_start_key::integer, p_start_source, p_start_listing_id)
          AND coalesce(l.bedrooms_total, -1) >= coalesce(p_min_beds, -1)
          AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
                  l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date,
                  l.off_market_at, p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths,
                  p_min_sqft, p_listed_since, p_include_withdrawn)
        ORDER BY coalesce(l.bedrooms_total, -1) DESC, l.source DESC, l.listing_id DESC
        LIMIT p_lim) h
    WHERE p_sort = 'beds'
), page AS (
    SELECT * FROM hits h
    ORDER BY CASE WHEN p_sort = 'price' THEN h.price_key END,
         CASE WHEN p_sort = '-price' THEN h.price_key END DESC, h.date_key DESC, h.beds_key DESC,
         CASE WHEN p_sort = 'price' THEN h.source END, CASE WHEN p_sort = 'price' THEN h.listing_id END,
         CASE WHEN p_sort <> 'price' THEN h.source END DESC,
         CASE WHEN p_sort <> 'price' THEN h.listing_id END DESC
    LIMIT p_lim
)
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
FROM page p
-- A key lookup per row of the page whatever the planner guesses of its size (LIMIT keeps each lookup a
-- subquery of its own: the keys are unique).
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
COMMENT ON FUNCTION search_internal.detailed_rows(text, text, text, text, numeric, numeric, integer, numeric,
                                                  numeric, date, text, text, text, text, integer, boolean) IS
    'The statement of search.detailed (arguments checked, scans'' start computed): in each (status, city, '
    'ZIP) group of search_internal.places, the first lim matches in the order of the sort''s index after '
    '(start_key, start_source, start_listing_id); then the first lim of those. One generic plan fits every '
    'argument.';

CREATE FUNCTION search.detailed(
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
    RETURN QUERY SELECT * FROM search_internal.detailed_rows(
        property_type, status, city, postal_code, min_price, max_price, min_beds, min_baths, min_sqft,
        listed_since, sort, start_key, start_source, start_listing_id, lim, include_withdrawn);
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

CREATE TYPE search.agent_row AS (
    source text,
    agent_mls_id text,
    first_name text,
    last_name text,
    full_name text,
    office_mls_id text,
    office_name text,
    office_phone text,
    mobile_phone text,
    email text
);
COMMENT ON TYPE search.agent_row IS 'An agent as search.agents returns it; full_name is the '
    'one the feed gives, else "first last".';

CREATE FUNCTION search_internal.agents_rows(p_low text, p_high text, p_office text, p_lim integer)
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

CREATE FUNCTION search.agents(name_prefix text DEFAULT NULL, office_mls_id text DEFAULT NULL,
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

CREATE FUNCTION search_internal.near_rows(
    p_lat double precision, p_lon double precision, p_miles double precision, p_type text, p_status text,
    p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric,
    p_listed_since date, p_lim integer, p_include_withdrawn boolean)
RETURNS SETOF search.listing_row
LANGUAGE sql STABLE PARALLEL SAFE AS $$
WITH nearest AS (
    SELECT point(l.longitude, l.latitude) <@> point(p_lon, p_lat) AS miles
    FROM listings l
    WHERE l.latitude IS NOT NULL AND l.longitude IS NOT NULL
      AND point(l.longitude, l.latitude) <@ search_internal.bounding_box(p_lat, p_lon, p_miles)
      AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
              l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date, l.off_market_at,
              p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft,
              p_listed_since, p_include_withdrawn)
    ORDER BY point(l.longitude, l.latitude) <-> point(p_lon, p_lat)
    LIMIT p_lim
), reach AS (
    SELECT CASE WHEN count(*) < p_lim THEN p_miles ELSE least(max(nearest.miles), p_miles) END AS miles
    FROM nearest
), hits AS (
    SELECT l.source, l.listing_id, point(l.longitude, l.latitude) <@> point(p_lon, p_lat) AS miles
    FROM reach
    JOIN listings l
      ON point(l.longitude, l.latitude) <@ search_internal.bounding_box(p_lat, p_lon, reach.miles)
     AND (point(l.longitude, l.latitude) <@> point(p_lon, p_lat)) <= reach.miles
    WHERE l.latitude IS NOT NULL AND l.longitude IS NOT NULL
      AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
              l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date, l.off_market_at,
              p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft,
              p_listed_since, p_include_withdrawn)
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
    'the matches in it by great-circle distance. One generic plan fits every argument.';

CREATE FUNCTION search.near(
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

CREATE FUNCTION search.monthly_payment(price numeric, down_payment_ratio numeric, annual_rate_percent numeric,
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