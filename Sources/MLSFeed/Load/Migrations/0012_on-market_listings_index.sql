CREATE INDEX listings_on_market_idx ON listings (source)
    INCLUDE (listing_id, raw_hash, modification_timestamp)
    WHERE off_market_at IS NULL;