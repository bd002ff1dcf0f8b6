-- Every search row returns its listing's first photo, and search.listing its photos, its open houses to come and
-- its office's name and phone. A row type changes outside CREATE OR REPLACE, so the attributes are added here, at
-- the end of search.listing_row (callers reading columns by name see nothing move); migration 19 (search
-- functions) makes the functions fill them.
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
