-- search.listing: an MLS number of a listing on the market, with its source.
\set i random(1, :rows)
SELECT source, listing_id FROM bench_listing WHERE id = :i \gset
SELECT * FROM search.listing(:source, :listing_id);
