CREATE TABLE ingest_runs (
    id bigserial PRIMARY KEY,
    pipeline text NOT NULL,
    source text NOT NULL,
    mode text NOT NULL CHECK (mode IN ('incremental', 'full')),
    status text NOT NULL
        CHECK (status IN ('running', 'succeeded', 'failed', 'interrupted', 'unchanged')),
    started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    finished_at timestamptz,
    inputs jsonb NOT NULL DEFAULT '[]',
    read bigint NOT NULL DEFAULT 0,
    rejected bigint NOT NULL DEFAULT 0,
    duplicates bigint NOT NULL DEFAULT 0,
    inserted bigint NOT NULL DEFAULT 0,
    updated bigint NOT NULL DEFAULT 0,
    unchanged bigint NOT NULL DEFAULT 0,
    stale bigint NOT NULL DEFAULT 0,
    withdrawn bigint NOT NULL DEFAULT 0,
    agents_inserted bigint NOT NULL DEFAULT 0,
    agents_updated bigint NOT NULL DEFAULT 0,
    timings jsonb NOT NULL DEFAULT '{}',
    warnings text[] NOT NULL DEFAULT '{}',
    error text
);
CREATE INDEX ingest_runs_pipeline_idx ON ingest_runs (pipeline, source, id DESC);

CREATE TABLE listings (
    source text NOT NULL,
    listing_id text NOT NULL,
    standard_status text,
    property_type text,
    list_price numeric(14,2),
    original_list_price numeric(14,2),
    close_price numeric(14,2),
    listing_contract_date date,
    modification_timestamp timestamptz,
    bedrooms_total integer,
    bathrooms_full integer,
    bathrooms_half integer,
    living_area numeric,
    lot_size_square_feet numeric,
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
    private_remarks text,
    directions text,
    showing_instructions text,
    owner_name text,
    list_agent_mls_id text,
    list_office_mls_id text,
    list_office_name text,
    extra jsonb NOT NULL DEFAULT '{}',
    content_hash text NOT NULL,
    first_seen_run bigint NOT NULL,
    last_changed_run bigint NOT NULL,
    off_market_at timestamptz,
    PRIMARY KEY (source, listing_id)
);

CREATE TABLE agents (
    source text NOT NULL,
    agent_mls_id text NOT NULL,
    first_name text,
    last_name text,
    office_mls_id text,
    office_name text,
    office_phone text,
    mobile_phone text,
    email text,
    extra jsonb NOT NULL DEFAULT '{}',
    content_hash text NOT NULL,
    first_seen_run bigint NOT NULL,
    last_changed_run bigint NOT NULL,
    PRIMARY KEY (source, agent_mls_id)
);

CREATE TABLE rejects (
    id bigserial PRIMARY KEY,
    run_id bigint NOT NULL,
    source text NOT NULL,
    entity text NOT NULL,
    key text,
    file text NOT NULL,
    line integer NOT NULL,
    column_number integer NOT NULL,
    ordinal bigint NOT NULL,
    reasons text[] NOT NULL,
    raw jsonb NOT NULL
);
CREATE INDEX rejects_run_idx ON rejects (run_id, entity, key);
CREATE INDEX rejects_key_idx ON rejects (source, entity, key);

CREATE TABLE listing_history (
    id bigserial PRIMARY KEY,
    source text NOT NULL,
    listing_id text NOT NULL,
    run_id bigint NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    modification_timestamp timestamptz,
    change text NOT NULL CHECK (change IN ('price', 'status', 'price+status', 'withdrawn', 'returned')),
    old_price numeric(14,2),
    new_price numeric(14,2),
    old_status text,
    new_status text
);
CREATE INDEX listing_history_listing_idx ON listing_history (source, listing_id, id);
CREATE INDEX listing_history_run_idx ON listing_history (run_id);