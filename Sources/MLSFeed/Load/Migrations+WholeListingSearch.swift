extension Migrations {
    /// The search rows' new columns (migration 17, after the tables): every row the first photo's URL
    /// (`photo_url`, by `media_listing_idx`, one lookup per row of a page), `search.listing` the listing's photos
    /// in order, its open houses to come and its office's name and phone. Appended at the end of
    /// `search.listing_row`; each function that makes the rows replaced whole.
    static let wholeListingSearch = #"""
        ALTER TYPE search.listing_row
            ADD ATTRIBUTE photo_url text,
            ADD ATTRIBUTE photos jsonb,
            ADD ATTRIBUTE open_houses jsonb,
            ADD ATTRIBUTE office_name text,
            ADD ATTRIBUTE office_phone text;
        COMMENT ON TYPE search.listing_row IS
            'A listing as the search functions return it, with its listing agent''s name and phones; '
            'distance_miles is set by search.near, cursor (for the next page) by search.detailed; photo_url is its '
            'first photo''s; photos, open_houses (to come), office_name and office_phone are set by search.listing.';

        CREATE FUNCTION search_internal.first_photo(p_source text, p_listing_id text)
        RETURNS TABLE (media_url text)
        LANGUAGE sql STABLE PARALLEL SAFE AS $$
        SELECT m.media_url FROM media m
        WHERE m.source = p_source AND m.listing_id = p_listing_id AND m.media_url IS NOT NULL
          AND (m.media_category IS NULL OR lower(m.media_category) = 'photo')
        ORDER BY m.media_order NULLS LAST, m.media_key
        LIMIT 1
        $$;
        COMMENT ON FUNCTION search_internal.first_photo(text, text) IS
            'The URL of the listing''s first photo: its first media row by media_order (then key) with a URL and a '
            'category Photo or none, read from media_listing_idx. Inlined into the search rows'' statements as a '
            'lateral join, one lookup per row returned.';

        CREATE OR REPLACE FUNCTION search_internal.listing_rows(p_source text, p_listing_id text,
                                                               p_include_withdrawn boolean)
         RETURNS SETOF search.listing_row
         LANGUAGE sql
         STABLE PARALLEL SAFE
        AS $$
        SELECT l.source, l.listing_id, l.standard_status, l.property_type, l.list_price, l.listing_contract_date,
               l.bedrooms_total, l.bathrooms_full, l.bathrooms_half, l.living_area, l.year_built, l.street_number,
               l.street_name, l.unit_number, l.city, l.state_or_province, l.postal_code, l.county_or_parish,
               l.mls_area, l.latitude, l.longitude, l.public_remarks, l.list_office_mls_id, l.list_office_name,
               l.list_agent_mls_id, a.first_name, a.last_name, a.mobile_phone, a.office_phone, a.email,
               l.modification_timestamp, l.off_market_at, NULL::double precision, NULL::text,
               p.media_url,
               (SELECT jsonb_agg(jsonb_build_object('media_key', m.media_key, 'media_order', m.media_order,
                                                    'media_url', m.media_url, 'media_category', m.media_category,
                                                    'short_description', m.short_description)
                                 ORDER BY m.media_order NULLS LAST, m.media_key)
                FROM media m WHERE m.source = l.source AND m.listing_id = l.listing_id),
               (SELECT jsonb_agg(jsonb_build_object('open_house_key', o.open_house_key, 'start_at', o.start_at,
                                                    'end_at', o.end_at, 'open_house_type', o.open_house_type,
                                                    'status', o.status, 'remarks', o.remarks)
                                 ORDER BY o.start_at, o.open_house_key)
                FROM open_houses o
                WHERE o.source = l.source AND o.listing_id = l.listing_id AND coalesce(o.end_at, o.start_at) >= now()),
               f.office_name, f.phone
        FROM listings l
        LEFT JOIN agents a ON a.source = l.source AND a.agent_mls_id = l.list_agent_mls_id
        LEFT JOIN LATERAL search_internal.first_photo(l.source, l.listing_id) p ON true
        LEFT JOIN LATERAL (SELECT f.office_name, f.phone FROM offices f
                           WHERE f.source = l.source AND f.office_mls_id = l.list_office_mls_id LIMIT 1) f ON true
        WHERE l.listing_id = p_listing_id AND (p_source IS NULL OR l.source = p_source)
          AND (p_include_withdrawn OR (l.off_market_at IS NULL AND l.standard_status IS DISTINCT FROM 'Withdrawn'))
        ORDER BY l.source
        $$;

        CREATE OR REPLACE FUNCTION search_internal.quick_rows(p_number text, p_low text, p_high text, p_area text,
                                                             p_status text, p_lim integer, p_include_withdrawn boolean)
         RETURNS SETOF search.listing_row
         LANGUAGE sql
         STABLE PARALLEL SAFE
        AS $$
        SELECT l.source, l.listing_id, l.standard_status, l.property_type, l.list_price, l.listing_contract_date,
               l.bedrooms_total, l.bathrooms_full, l.bathrooms_half, l.living_area, l.year_built, l.street_number,
               l.street_name, l.unit_number, l.city, l.state_or_province, l.postal_code, l.county_or_parish,
               l.mls_area, l.latitude, l.longitude, l.public_remarks, l.list_office_mls_id, l.list_office_name,
               l.list_agent_mls_id, l.first_name, l.last_name, l.mobile_phone, l.office_phone, l.email,
               l.modification_timestamp, l.off_market_at, NULL::double precision, NULL::text,
               p.media_url, NULL::jsonb, NULL::jsonb, NULL::text, NULL::text
        FROM (
            SELECT l.*, a.first_name, a.last_name, a.mobile_phone, a.office_phone, a.email,
                   lower(l.street_name COLLATE "und-x-icu") AS name_key
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
        ) l
        -- The first photo of each listing of the page, not of every match.
        LEFT JOIN LATERAL search_internal.first_photo(l.source, l.listing_id) p ON true
        ORDER BY l.name_key, l.unit_number NULLS FIRST, l.source, l.listing_id
        $$;

        CREATE OR REPLACE FUNCTION search_internal.detailed_page(
            p_sort text, p_sources text[], p_listing_ids text[], p_price_keys numeric[], p_date_keys date[],
            p_beds_keys integer[], p_lim integer)
         RETURNS SETOF search.listing_row
         LANGUAGE sql
         STABLE PARALLEL SAFE
        AS $$
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
                   p.source, p.listing_id)::text, 'UTF8'), 'base64'), E'+/\n', '-_'),
               ph.media_url, NULL::jsonb, NULL::jsonb, NULL::text, NULL::text
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
        LEFT JOIN LATERAL search_internal.first_photo(l.source, l.listing_id) ph ON true
        ORDER BY CASE WHEN p_sort = 'price' THEN p.price_key END,
                 CASE WHEN p_sort = '-price' THEN p.price_key END DESC, p.date_key DESC, p.beds_key DESC,
                 CASE WHEN p_sort = 'price' THEN p.source END, CASE WHEN p_sort = 'price' THEN p.listing_id END,
                 CASE WHEN p_sort <> 'price' THEN p.source END DESC,
                 CASE WHEN p_sort <> 'price' THEN p.listing_id END DESC
        $$;

        CREATE OR REPLACE FUNCTION search_internal.near_rows(
            p_lat double precision, p_lon double precision, p_miles double precision, p_type text, p_status text,
            p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric,
            p_listed_since date, p_lim integer, p_include_withdrawn boolean)
         RETURNS SETOF search.listing_row
         LANGUAGE sql
         STABLE PARALLEL SAFE
        AS $$
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
               l.modification_timestamp, l.off_market_at, h.miles, NULL::text,
               p.media_url, NULL::jsonb, NULL::jsonb, NULL::text, NULL::text
        FROM hits h
        CROSS JOIN LATERAL (SELECT * FROM listings l WHERE l.source = h.source AND l.listing_id = h.listing_id
                            LIMIT 1) l
        LEFT JOIN LATERAL (SELECT * FROM agents a WHERE a.source = l.source AND a.agent_mls_id = l.list_agent_mls_id
                           LIMIT 1) a ON true
        LEFT JOIN LATERAL search_internal.first_photo(l.source, l.listing_id) p ON true
        ORDER BY h.miles, h.source, h.listing_id
        $$;
        """#
}
