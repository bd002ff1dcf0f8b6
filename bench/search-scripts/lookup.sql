-- The parameter lookup alone (every search script starts with one): the baseline to subtract.
\set i random(1, :rows)
SELECT sort FROM bench_detailed WHERE id = :i \gset
