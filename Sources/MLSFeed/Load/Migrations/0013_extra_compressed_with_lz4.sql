DO $$
BEGIN
    IF EXISTS (SELECT FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
        ALTER TABLE listings ALTER COLUMN extra SET COMPRESSION lz4;
        ALTER TABLE agents ALTER COLUMN extra SET COMPRESSION lz4;
    END IF;
END
$$;