-- search.quick: a street number and the first 3-9 letters of its street name (lower case), Active or any status.
\set i random(1, :rows)
SELECT street_number, street_prefix, coalesce(status, '') AS status FROM bench_quick WHERE id = :i \gset
SELECT * FROM search.quick(:street_number, :street_prefix, NULL, nullif(:status, ''), 20);
