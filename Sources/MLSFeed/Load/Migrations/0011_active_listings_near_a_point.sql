CREATE INDEX listings_location_active_idx ON listings USING gist (point(longitude, latitude))
    INCLUDE (latitude, longitude, standard_status, property_type, list_price, listing_contract_date,
             bedrooms_total, bathrooms_full, bathrooms_half, living_area, off_market_at, source, listing_id)
    WHERE latitude IS NOT NULL AND longitude IS NOT NULL AND standard_status = 'Active';

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
