-- search.detailed: criteria around a listing on the market (its type, status, city or ZIP, a price band, beds...),
-- sorted by price, -price, newest or beds; the first page of 20.
\set i random(1, :rows)
SELECT coalesce(ptype, '') AS ptype, coalesce(status, '') AS status, coalesce(city, '') AS city,
       coalesce(zip, '') AS zip, coalesce(min_price::text, '') AS minp, coalesce(max_price::text, '') AS maxp,
       coalesce(beds::text, '') AS beds, coalesce(baths::text, '') AS baths, coalesce(sqft::text, '') AS sqft,
       coalesce(since::text, '') AS since, sort
FROM bench_detailed WHERE id = :i \gset
SELECT * FROM search.detailed(property_type => nullif(:ptype, ''), status => nullif(:status, ''), city => nullif(:city, ''), postal_code => nullif(:zip, ''), min_price => nullif(:minp, '')::numeric, max_price => nullif(:maxp, '')::numeric, min_beds => nullif(:beds, '')::integer, min_baths => nullif(:baths, '')::numeric, min_sqft => nullif(:sqft, '')::numeric, listed_since => nullif(:since, '')::date, sort => :sort);
