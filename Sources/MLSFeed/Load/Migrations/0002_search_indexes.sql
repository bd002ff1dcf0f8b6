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