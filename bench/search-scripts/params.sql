-- The parameters of the pgbench scripts, drawn from the loaded data (random rows, seeded: the same data gives the
-- same parameters). :rows rows per search kind. The rows are picked in a subquery of their own: beside an
-- ORDER BY random(), every random() of the same select list is that one sort key (one value, and the smallest ones).
SELECT setseed(0.42);

DROP TABLE IF EXISTS bench_listing, bench_quick, bench_agents, bench_detailed, bench_near;

CREATE TABLE bench_listing AS
SELECT row_number() OVER () AS id, source, listing_id
FROM (SELECT source, listing_id FROM listings
      WHERE off_market_at IS NULL AND standard_status <> 'Withdrawn' ORDER BY random() LIMIT :rows) s;

CREATE TABLE bench_quick AS
SELECT row_number() OVER () AS id, street_number, lower(left(street_name, 3 + (r * 7)::integer)) AS street_prefix,
       CASE WHEN r < 0.5 THEN 'Active' END AS status
FROM (SELECT street_number, street_name, random() AS r
      FROM (SELECT street_number, street_name FROM listings
            WHERE off_market_at IS NULL AND standard_status <> 'Withdrawn' AND street_number IS NOT NULL
              AND street_name IS NOT NULL
            ORDER BY random() LIMIT :rows) picked) s;

CREATE TABLE bench_agents AS
SELECT row_number() OVER () AS id,
       CASE WHEN r < 0.45 THEN left(last_name, 2 + (r * 8)::integer)
            WHEN r < 0.85 THEN left(first_name, 2 + ((r - 0.45) * 8)::integer)
            ELSE first_name || ' ' || left(last_name, 1 + ((r - 0.85) * 10)::integer) END AS name_prefix,
       CASE WHEN random() < 0.2 THEN office_mls_id END AS office
FROM (SELECT picked.*, random() AS r
      FROM (SELECT a.* FROM agents a CROSS JOIN generate_series(1, 20) copies
            WHERE first_name IS NOT NULL AND last_name IS NOT NULL ORDER BY random() LIMIT :rows) picked) s;

-- Criteria around a listing on the market, each one it meets itself (a page is never empty by construction).
CREATE TABLE bench_detailed AS
SELECT row_number() OVER () AS id,
       CASE WHEN r1 < 0.85 THEN property_type END AS ptype,
       CASE WHEN r2 < 0.8 THEN 'Active' ELSE standard_status END AS status,
       CASE WHEN r3 < 0.6 THEN city END AS city,
       CASE WHEN r3 >= 0.6 AND r3 < 0.9 THEN left(postal_code, 5) END AS zip,
       CASE WHEN r4 < 0.8 THEN round(list_price * 0.7, -4) END AS min_price,
       CASE WHEN r4 < 0.9 THEN round(list_price * 1.3, -4) END AS max_price,
       CASE WHEN r5 < 0.6 AND bedrooms_total > 1 THEN bedrooms_total - 1 END AS beds,
       CASE WHEN r6 < 0.25 AND coalesce(bathrooms_full, 0) + 0.5 * coalesce(bathrooms_half, 0) >= 2 THEN 2 END AS baths,
       CASE WHEN r6 >= 0.85 AND living_area IS NOT NULL THEN round(living_area * 0.8, -2) END AS sqft,
       CASE WHEN r7 < 0.15 THEN listing_contract_date - 30 END AS since,
       CASE WHEN r8 < 0.4 THEN 'price' WHEN r8 < 0.7 THEN 'newest' WHEN r8 < 0.9 OR property_type = 'Land'
            THEN '-price' ELSE 'beds' END AS sort
FROM (SELECT l.*, random() AS r1, random() AS r2, random() AS r3, random() AS r4, random() AS r5, random() AS r6,
             random() AS r7, random() AS r8
      FROM (SELECT * FROM listings
            WHERE off_market_at IS NULL AND standard_status <> 'Withdrawn' AND list_price IS NOT NULL
            ORDER BY random() LIMIT :rows) l) s;

CREATE TABLE bench_near AS
SELECT row_number() OVER () AS id,
       round((latitude + (r1 - 0.5) * 0.01)::numeric, 6) AS lat,
       round((longitude + (r2 - 0.5) * 0.01)::numeric, 6) AS lon,
       CASE WHEN r3 < 0.7 THEN property_type END AS ptype,
       CASE WHEN r4 < 0.8 THEN 'Active' END AS status,
       CASE WHEN r5 < 0.5 THEN round(list_price * 0.7, -4) END AS min_price,
       CASE WHEN r5 < 0.5 THEN round(list_price * 1.3, -4) END AS max_price,
       CASE WHEN r6 < 0.4 AND bedrooms_total > 1 THEN bedrooms_total - 1 END AS beds
FROM (SELECT l.*, random() AS r1, random() AS r2, random() AS r3, random() AS r4, random() AS r5, random() AS r6
      FROM (SELECT * FROM listings
            WHERE off_market_at IS NULL AND standard_status <> 'Withdrawn' AND latitude IS NOT NULL
              AND list_price IS NOT NULL
            ORDER BY random() LIMIT :rows) l) s;

ALTER TABLE bench_listing ADD PRIMARY KEY (id);
ALTER TABLE bench_quick ADD PRIMARY KEY (id);
ALTER TABLE bench_agents ADD PRIMARY KEY (id);
ALTER TABLE bench_detailed ADD PRIMARY KEY (id);
ALTER TABLE bench_near ADD PRIMARY KEY (id);
ANALYZE bench_listing, bench_quick, bench_agents, bench_detailed, bench_near;
