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
CREATE FUNCTION search_internal.area_scan_price(
    p_status_key text, p_city_key text, p_zip_key text, p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key numeric, p_start_source text, p_start_listing_id text)
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
          p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn)
ORDER BY 3, 1, 2
$$;
COMMENT ON FUNCTION search_internal.area_scan_price(text, text, text, text, text, numeric, numeric, integer, numeric, numeric, date, boolean, numeric, text, text) IS
    'The matches of one (status, city, ZIP) group in search.detailed''s price order after the start key, '
    'read from the covering index alone. Inlined into the merges.';

CREATE FUNCTION search_internal.area_merge4_price(
    p_status_keys text[], p_city_keys text[], p_zip_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key numeric, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.area_scan_price(p_status_keys[1], p_city_keys[1], p_zip_keys[1], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[2], p_city_keys[2], p_zip_keys[2], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[3], p_city_keys[3], p_zip_keys[3], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[4], p_city_keys[4], p_zip_keys[4], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3, 1, 2
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.area_merge4_price(
    text[], text[], text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, numeric, text, text, integer)
    IS 'The first p_lim matches in price order of up to 4 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE FUNCTION search_internal.area_merge16_price(
    p_status_keys text[], p_city_keys text[], p_zip_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key numeric, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.area_scan_price(p_status_keys[1], p_city_keys[1], p_zip_keys[1], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[2], p_city_keys[2], p_zip_keys[2], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[3], p_city_keys[3], p_zip_keys[3], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[4], p_city_keys[4], p_zip_keys[4], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[5], p_city_keys[5], p_zip_keys[5], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[6], p_city_keys[6], p_zip_keys[6], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[7], p_city_keys[7], p_zip_keys[7], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[8], p_city_keys[8], p_zip_keys[8], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[9], p_city_keys[9], p_zip_keys[9], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[10], p_city_keys[10], p_zip_keys[10], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[11], p_city_keys[11], p_zip_keys[11], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[12], p_city_keys[12], p_zip_keys[12], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[13], p_city_keys[13], p_zip_keys[13], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[14], p_city_keys[14], p_zip_keys[14], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[15], p_city_keys[15], p_zip_keys[15], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price(p_status_keys[16], p_city_keys[16], p_zip_keys[16], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3, 1, 2
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.area_merge16_price(
    text[], text[], text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, numeric, text, text, integer)
    IS 'The first p_lim matches in price order of up to 16 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE FUNCTION search_internal.area_scan_price_desc(
    p_status_key text, p_city_key text, p_zip_key text, p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key numeric, p_start_source text, p_start_listing_id text)
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
          p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn)
ORDER BY 3 DESC, 1 DESC, 2 DESC
$$;
COMMENT ON FUNCTION search_internal.area_scan_price_desc(text, text, text, text, text, numeric, numeric, integer, numeric, numeric, date, boolean, numeric, text, text) IS
    'The matches of one (status, city, ZIP) group in search.detailed''s -price order after the start key, '
    'read from the covering index alone. Inlined into the merges.';

CREATE FUNCTION search_internal.area_merge4_price_desc(
    p_status_keys text[], p_city_keys text[], p_zip_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key numeric, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[1], p_city_keys[1], p_zip_keys[1], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[2], p_city_keys[2], p_zip_keys[2], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[3], p_city_keys[3], p_zip_keys[3], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[4], p_city_keys[4], p_zip_keys[4], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3 DESC, 1 DESC, 2 DESC
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.area_merge4_price_desc(
    text[], text[], text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, numeric, text, text, integer)
    IS 'The first p_lim matches in -price order of up to 4 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE FUNCTION search_internal.area_merge16_price_desc(
    p_status_keys text[], p_city_keys text[], p_zip_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key numeric, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[1], p_city_keys[1], p_zip_keys[1], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[2], p_city_keys[2], p_zip_keys[2], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[3], p_city_keys[3], p_zip_keys[3], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[4], p_city_keys[4], p_zip_keys[4], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[5], p_city_keys[5], p_zip_keys[5], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[6], p_city_keys[6], p_zip_keys[6], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[7], p_city_keys[7], p_zip_keys[7], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[8], p_city_keys[8], p_zip_keys[8], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[9], p_city_keys[9], p_zip_keys[9], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[10], p_city_keys[10], p_zip_keys[10], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[11], p_city_keys[11], p_zip_keys[11], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[12], p_city_keys[12], p_zip_keys[12], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[13], p_city_keys[13], p_zip_keys[13], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[14], p_city_keys[14], p_zip_keys[14], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[15], p_city_keys[15], p_zip_keys[15], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_price_desc(p_status_keys[16], p_city_keys[16], p_zip_keys[16], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3 DESC, 1 DESC, 2 DESC
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.area_merge16_price_desc(
    text[], text[], text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, numeric, text, text, integer)
    IS 'The first p_lim matches in -price order of up to 16 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE FUNCTION search_internal.area_scan_newest(
    p_status_key text, p_city_key text, p_zip_key text, p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key date, p_start_source text, p_start_listing_id text)
RETURNS TABLE (source text, listing_id text, sort_key date)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT l.source, l.listing_id, coalesce(l.listing_contract_date, '-infinity')
FROM listings l
WHERE coalesce(l.standard_status, '') = p_status_key AND coalesce(l.city, '') = p_city_key
  AND coalesce(left(l.postal_code, 5), '') = p_zip_key
  AND (coalesce(l.listing_contract_date, '-infinity'), l.source, l.listing_id) < (p_start_key, p_start_source, p_start_listing_id)
  AND coalesce(l.listing_contract_date, '-infinity') >= coalesce(p_listed_since, '-infinity')
  AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
          l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date, l.off_market_at,
          p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn)
ORDER BY 3 DESC, 1 DESC, 2 DESC
$$;
COMMENT ON FUNCTION search_internal.area_scan_newest(text, text, text, text, text, numeric, numeric, integer, numeric, numeric, date, boolean, date, text, text) IS
    'The matches of one (status, city, ZIP) group in search.detailed''s newest order after the start key, '
    'read from the covering index alone. Inlined into the merges.';

CREATE FUNCTION search_internal.area_merge4_newest(
    p_status_keys text[], p_city_keys text[], p_zip_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key date, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key date)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[1], p_city_keys[1], p_zip_keys[1], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[2], p_city_keys[2], p_zip_keys[2], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[3], p_city_keys[3], p_zip_keys[3], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[4], p_city_keys[4], p_zip_keys[4], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3 DESC, 1 DESC, 2 DESC
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.area_merge4_newest(
    text[], text[], text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, date, text, text, integer)
    IS 'The first p_lim matches in newest order of up to 4 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE FUNCTION search_internal.area_merge16_newest(
    p_status_keys text[], p_city_keys text[], p_zip_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key date, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key date)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[1], p_city_keys[1], p_zip_keys[1], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[2], p_city_keys[2], p_zip_keys[2], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[3], p_city_keys[3], p_zip_keys[3], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[4], p_city_keys[4], p_zip_keys[4], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[5], p_city_keys[5], p_zip_keys[5], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[6], p_city_keys[6], p_zip_keys[6], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[7], p_city_keys[7], p_zip_keys[7], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[8], p_city_keys[8], p_zip_keys[8], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[9], p_city_keys[9], p_zip_keys[9], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[10], p_city_keys[10], p_zip_keys[10], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[11], p_city_keys[11], p_zip_keys[11], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[12], p_city_keys[12], p_zip_keys[12], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[13], p_city_keys[13], p_zip_keys[13], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[14], p_city_keys[14], p_zip_keys[14], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[15], p_city_keys[15], p_zip_keys[15], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_newest(p_status_keys[16], p_city_keys[16], p_zip_keys[16], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3 DESC, 1 DESC, 2 DESC
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.area_merge16_newest(
    text[], text[], text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, date, text, text, integer)
    IS 'The first p_lim matches in newest order of up to 16 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE FUNCTION search_internal.area_scan_beds(
    p_status_key text, p_city_key text, p_zip_key text, p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key integer, p_start_source text, p_start_listing_id text)
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
          p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn)
ORDER BY 3 DESC, 1 DESC, 2 DESC
$$;
COMMENT ON FUNCTION search_internal.area_scan_beds(text, text, text, text, text, numeric, numeric, integer, numeric, numeric, date, boolean, integer, text, text) IS
    'The matches of one (status, city, ZIP) group in search.detailed''s beds order after the start key, '
    'read from the covering index alone. Inlined into the merges.';

CREATE FUNCTION search_internal.area_merge4_beds(
    p_status_keys text[], p_city_keys text[], p_zip_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key integer, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key integer)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[1], p_city_keys[1], p_zip_keys[1], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[2], p_city_keys[2], p_zip_keys[2], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[3], p_city_keys[3], p_zip_keys[3], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[4], p_city_keys[4], p_zip_keys[4], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3 DESC, 1 DESC, 2 DESC
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.area_merge4_beds(
    text[], text[], text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, integer, text, text, integer)
    IS 'The first p_lim matches in beds order of up to 4 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE FUNCTION search_internal.area_merge16_beds(
    p_status_keys text[], p_city_keys text[], p_zip_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key integer, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key integer)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[1], p_city_keys[1], p_zip_keys[1], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[2], p_city_keys[2], p_zip_keys[2], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[3], p_city_keys[3], p_zip_keys[3], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[4], p_city_keys[4], p_zip_keys[4], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[5], p_city_keys[5], p_zip_keys[5], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[6], p_city_keys[6], p_zip_keys[6], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[7], p_city_keys[7], p_zip_keys[7], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[8], p_city_keys[8], p_zip_keys[8], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[9], p_city_keys[9], p_zip_keys[9], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[10], p_city_keys[10], p_zip_keys[10], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[11], p_city_keys[11], p_zip_keys[11], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[12], p_city_keys[12], p_zip_keys[12], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[13], p_city_keys[13], p_zip_keys[13], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[14], p_city_keys[14], p_zip_keys[14], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[15], p_city_keys[15], p_zip_keys[15], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.area_scan_beds(p_status_keys[16], p_city_keys[16], p_zip_keys[16], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
) k
ORDER BY 3 DESC, 1 DESC, 2 DESC
LIMIT p_lim
$$;
COMMENT ON FUNCTION search_internal.area_merge16_beds(
    text[], text[], text[], text, text, numeric, numeric, integer, numeric, numeric, date, boolean, integer, text, text, integer)
    IS 'The first p_lim matches in beds order of up to 16 groups (the arrays'' '
    'elements; NULL: none): their scans merged (Merge Append), each read only as far as the page '
    'needs.';

CREATE FUNCTION search_internal.status_scan_price(
    p_status_key text, p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key numeric, p_start_source text, p_start_listing_id text)
RETURNS TABLE (source text, listing_id text, sort_key numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT l.source, l.listing_id, coalesce(l.list_price, 'Infinity')
FROM listings l
WHERE coalesce(l.standard_status, '') = p_status_key
  AND (coalesce(l.list_price, 'Infinity'), l.source, l.listing_id) > (p_start_key, p_start_source, p_start_listing_id)
  AND coalesce(l.list_price, 'Infinity') <= coalesce(p_max_price, 'Infinity')
  AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
          l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date, l.off_market_at,
          p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn)
ORDER BY 3, 1, 2
$$;
COMMENT ON FUNCTION search_internal.status_scan_price(text, text, text, numeric, numeric, integer, numeric, numeric, date, boolean, numeric, text, text) IS
    'The matches of one status in search.detailed''s price order after the start key, '
    'read from the covering index alone. Inlined into the merges.';

CREATE FUNCTION search_internal.status_merge4_price(
    p_status_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key numeric, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.status_scan_price(p_status_keys[1], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[2], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[3], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[4], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
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

CREATE FUNCTION search_internal.status_merge16_price(
    p_status_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key numeric, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.status_scan_price(p_status_keys[1], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[2], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[3], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[4], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[5], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[6], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[7], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[8], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[9], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[10], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[11], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[12], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[13], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[14], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[15], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price(p_status_keys[16], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
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

CREATE FUNCTION search_internal.status_scan_price_desc(
    p_status_key text, p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key numeric, p_start_source text, p_start_listing_id text)
RETURNS TABLE (source text, listing_id text, sort_key numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT l.source, l.listing_id, coalesce(l.list_price, 'Infinity')
FROM listings l
WHERE coalesce(l.standard_status, '') = p_status_key
  AND (coalesce(l.list_price, 'Infinity'), l.source, l.listing_id) < (p_start_key, p_start_source, p_start_listing_id)
  AND coalesce(l.list_price, 'Infinity') >= coalesce(p_min_price, '-Infinity')
  AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
          l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date, l.off_market_at,
          p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn)
ORDER BY 3 DESC, 1 DESC, 2 DESC
$$;
COMMENT ON FUNCTION search_internal.status_scan_price_desc(text, text, text, numeric, numeric, integer, numeric, numeric, date, boolean, numeric, text, text) IS
    'The matches of one status in search.detailed''s -price order after the start key, '
    'read from the covering index alone. Inlined into the merges.';

CREATE FUNCTION search_internal.status_merge4_price_desc(
    p_status_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key numeric, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[1], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[2], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[3], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[4], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
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

CREATE FUNCTION search_internal.status_merge16_price_desc(
    p_status_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key numeric, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[1], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[2], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[3], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[4], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[5], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[6], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[7], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[8], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[9], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[10], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[11], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[12], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[13], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[14], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[15], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_price_desc(p_status_keys[16], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
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

CREATE FUNCTION search_internal.status_scan_newest(
    p_status_key text, p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key date, p_start_source text, p_start_listing_id text)
RETURNS TABLE (source text, listing_id text, sort_key date)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT l.source, l.listing_id, coalesce(l.listing_contract_date, '-infinity')
FROM listings l
WHERE coalesce(l.standard_status, '') = p_status_key
  AND (coalesce(l.listing_contract_date, '-infinity'), l.source, l.listing_id) < (p_start_key, p_start_source, p_start_listing_id)
  AND coalesce(l.listing_contract_date, '-infinity') >= coalesce(p_listed_since, '-infinity')
  AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
          l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date, l.off_market_at,
          p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn)
ORDER BY 3 DESC, 1 DESC, 2 DESC
$$;
COMMENT ON FUNCTION search_internal.status_scan_newest(text, text, text, numeric, numeric, integer, numeric, numeric, date, boolean, date, text, text) IS
    'The matches of one status in search.detailed''s newest order after the start key, '
    'read from the covering index alone. Inlined into the merges.';

CREATE FUNCTION search_internal.status_merge4_newest(
    p_status_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key date, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key date)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[1], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[2], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[3], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[4], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
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

CREATE FUNCTION search_internal.status_merge16_newest(
    p_status_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key date, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key date)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[1], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[2], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[3], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[4], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[5], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[6], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[7], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[8], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[9], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[10], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[11], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[12], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[13], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[14], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[15], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_newest(p_status_keys[16], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
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

CREATE FUNCTION search_internal.status_scan_beds(
    p_status_key text, p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key integer, p_start_source text, p_start_listing_id text)
RETURNS TABLE (source text, listing_id text, sort_key integer)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT l.source, l.listing_id, coalesce(l.bedrooms_total, -1)
FROM listings l
WHERE coalesce(l.standard_status, '') = p_status_key
  AND (coalesce(l.bedrooms_total, -1), l.source, l.listing_id) < (p_start_key, p_start_source, p_start_listing_id)
  AND coalesce(l.bedrooms_total, -1) >= coalesce(p_min_beds, -1)
  AND search_internal.matches(l.standard_status, l.property_type, l.list_price, l.bedrooms_total,
          l.bathrooms_full, l.bathrooms_half, l.living_area, l.listing_contract_date, l.off_market_at,
          p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn)
ORDER BY 3 DESC, 1 DESC, 2 DESC
$$;
COMMENT ON FUNCTION search_internal.status_scan_beds(text, text, text, numeric, numeric, integer, numeric, numeric, date, boolean, integer, text, text) IS
    'The matches of one status in search.detailed''s beds order after the start key, '
    'read from the covering index alone. Inlined into the merges.';

CREATE FUNCTION search_internal.status_merge4_beds(
    p_status_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key integer, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key integer)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[1], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[2], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[3], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[4], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
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

CREATE FUNCTION search_internal.status_merge16_beds(
    p_status_keys text[], p_status text, p_type text, p_min_price numeric, p_max_price numeric, p_min_beds integer, p_min_baths numeric, p_min_sqft numeric, p_listed_since date, p_include_withdrawn boolean, p_start_key integer, p_start_source text, p_start_listing_id text, p_lim integer)
RETURNS TABLE (source text, listing_id text, sort_key integer)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT * FROM (
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[1], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[2], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[3], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[4], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[5], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[6], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[7], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[8], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[9], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[10], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[11], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[12], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[13], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[14], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[15], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
        p_start_key, p_start_source, p_start_listing_id)
    UNION ALL
    SELECT * FROM search_internal.status_scan_beds(p_status_keys[16], p_status, p_type, p_min_price, p_max_price, p_min_beds, p_min_baths, p_min_sqft, p_listed_since, p_include_withdrawn,
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
        size := CASE WHEN n - first < 4 THEN 4
                     ELSE 16 END;
        last := first + size - 1;
        IF sort = 'price' AND by_area AND size = 4 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   price_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, price_keys
            FROM search_internal.area_merge4_price(
                status_keys[first:last], city_keys[first:last], zip_keys[first:last], status_wanted, type_wanted, min_price, max_price,
                min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::numeric,
                start_source, start_listing_id, lim) k;
        ELSIF sort = 'price' AND by_area AND size = 16 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   price_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, price_keys
            FROM search_internal.area_merge16_price(
                status_keys[first:last], city_keys[first:last], zip_keys[first:last], status_wanted, type_wanted, min_price, max_price,
                min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::numeric,
                start_source, start_listing_id, lim) k;
        ELSIF sort = '-price' AND by_area AND size = 4 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   price_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, price_keys
            FROM search_internal.area_merge4_price_desc(
                status_keys[first:last], city_keys[first:last], zip_keys[first:last], status_wanted, type_wanted, min_price, max_price,
                min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::numeric,
                start_source, start_listing_id, lim) k;
        ELSIF sort = '-price' AND by_area AND size = 16 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   price_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, price_keys
            FROM search_internal.area_merge16_price_desc(
                status_keys[first:last], city_keys[first:last], zip_keys[first:last], status_wanted, type_wanted, min_price, max_price,
                min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::numeric,
                start_source, start_listing_id, lim) k;
        ELSIF sort = 'newest' AND by_area AND size = 4 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   date_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, date_keys
            FROM search_internal.area_merge4_newest(
                status_keys[first:last], city_keys[first:last], zip_keys[first:last], status_wanted, type_wanted, min_price, max_price,
                min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::date,
                start_source, start_listing_id, lim) k;
        ELSIF sort = 'newest' AND by_area AND size = 16 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   date_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, date_keys
            FROM search_internal.area_merge16_newest(
                status_keys[first:last], city_keys[first:last], zip_keys[first:last], status_wanted, type_wanted, min_price, max_price,
                min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::date,
                start_source, start_listing_id, lim) k;
        ELSIF sort = 'beds' AND by_area AND size = 4 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   beds_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, beds_keys
            FROM search_internal.area_merge4_beds(
                status_keys[first:last], city_keys[first:last], zip_keys[first:last], status_wanted, type_wanted, min_price, max_price,
                min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::integer,
                start_source, start_listing_id, lim) k;
        ELSIF sort = 'beds' AND by_area AND size = 16 THEN
            SELECT sources || array_agg(k.source), listing_ids || array_agg(k.listing_id),
                   beds_keys || array_agg(k.sort_key)
            INTO sources, listing_ids, beds_keys
            FROM search_internal.area_merge16_beds(
                status_keys[first:last], city_keys[first:last], zip_keys[first:last], status_wanted, type_wanted, min_price, max_price,
                min_beds, min_baths, min_sqft, listed_since, withdrawn, start_key::integer,
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
