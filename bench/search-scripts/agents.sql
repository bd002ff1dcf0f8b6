-- search.agents: the first letters of a first, last or full name, sometimes with the agent's office.
\set i random(1, :rows)
SELECT name_prefix, coalesce(office, '') AS office FROM bench_agents WHERE id = :i \gset
SELECT * FROM search.agents(:name_prefix, nullif(:office, ''), 20);
