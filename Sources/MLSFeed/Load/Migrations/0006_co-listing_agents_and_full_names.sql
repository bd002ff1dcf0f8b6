ALTER TABLE listings ADD COLUMN co_list_agent_mls_id text;
ALTER TABLE agents ADD COLUMN full_name text;