DROP INDEX listings_location_idx;
DROP INDEX listings_price_idx;
DROP INDEX listings_office_idx;
CREATE INDEX listings_location_idx ON listings USING gist (point(longitude, latitude))
    WHERE latitude IS NOT NULL AND longitude IS NOT NULL;