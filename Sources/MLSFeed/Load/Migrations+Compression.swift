extension Migrations {
    /// Migration 13: `extra` compressed with LZ4 instead of PostgreSQL's default pglz, where the server has LZ4.
    ///
    /// A listing's `extra` jsonb is the part of its row big enough to be compressed (RESO JSON and syndication
    /// listings carry 1.5-2.5 KB of it, most over the 2 KB threshold). pglz was the server's largest single cost in
    /// a RESO JSON first load (10% of the machine's samples in `perf`); LZ4 compresses several times faster, and
    /// reads decompress faster too, for about the same size. Rows written before keep their pglz values (both are
    /// read alike). A server built without LZ4 lists no `lz4` among `default_toast_compression`'s values: the
    /// columns stay as they were.
    static let lz4Extra = """
        DO $$
        BEGIN
            IF EXISTS (SELECT FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
                ALTER TABLE listings ALTER COLUMN extra SET COMPRESSION lz4;
                ALTER TABLE agents ALTER COLUMN extra SET COMPRESSION lz4;
            END IF;
        END
        $$;
        """
}
