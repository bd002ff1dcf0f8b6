-- The whole listing: offices (rosters and the offices embedded in listings), open houses and media (photos) in
-- RESO names, keyed by source first like every source-scoped table, and a listing's rooms and unit types as
-- structured columns. Nullable columns without a default on listings: adding them rewrites nothing, and a row's
-- content hash counts them only when they hold a value, so stored rows keep their hashes.
CREATE TABLE offices (
    source text NOT NULL,
    office_mls_id text NOT NULL,
    office_key text,
    office_name text,
    phone text,
    email text,
    street_address text,
    city text,
    state_or_province text,
    postal_code text,
    modification_timestamp timestamptz,
    extra jsonb NOT NULL DEFAULT '{}',
    content_hash text NOT NULL,
    first_seen_run bigint NOT NULL,
    last_changed_run bigint NOT NULL,
    PRIMARY KEY (source, office_mls_id)
);
CREATE TABLE open_houses (
    source text NOT NULL,
    open_house_key text NOT NULL,
    listing_id text NOT NULL,
    start_at timestamptz,
    end_at timestamptz,
    open_house_type text,
    status text,
    remarks text,
    modification_timestamp timestamptz,
    extra jsonb NOT NULL DEFAULT '{}',
    content_hash text NOT NULL,
    first_seen_run bigint NOT NULL,
    last_changed_run bigint NOT NULL,
    PRIMARY KEY (source, open_house_key)
);
CREATE INDEX open_houses_listing_idx ON open_houses (source, listing_id, start_at);
CREATE TABLE media (
    source text NOT NULL,
    media_key text NOT NULL,
    listing_id text NOT NULL,
    media_order integer,
    media_url text,
    media_category text,
    short_description text,
    modification_timestamp timestamptz,
    image_width integer,
    image_height integer,
    extra jsonb NOT NULL DEFAULT '{}',
    content_hash text NOT NULL,
    first_seen_run bigint NOT NULL,
    last_changed_run bigint NOT NULL,
    PRIMARY KEY (source, media_key)
);
CREATE INDEX media_listing_idx ON media (source, listing_id, media_order);
ALTER TABLE listings ADD COLUMN rooms jsonb, ADD COLUMN unit_types jsonb;
