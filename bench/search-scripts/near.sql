-- search.near: 2 miles around a point near a listing, with some of its criteria; the 20 nearest.
\set i random(1, :rows)
SELECT lat, lon, coalesce(ptype, '') AS ptype, coalesce(status, '') AS status, coalesce(min_price::text, '') AS minp,
       coalesce(max_price::text, '') AS maxp, coalesce(beds::text, '') AS beds
FROM bench_near WHERE id = :i \gset
SELECT * FROM search.near(:lat, :lon, 2, property_type => nullif(:ptype, ''), status => nullif(:status, ''), min_price => nullif(:minp, '')::numeric, max_price => nullif(:maxp, '')::numeric, min_beds => nullif(:beds, '')::integer);
