#if MLSFEED_TEST_HOOKS
import Postgres

extension TestPause {
    /// Pauses here when asked to, inside a statement on `connection` (`pg_sleep`), exactly where a real merge or
    /// index build would block in libpq. Throws what the interrupted statement throws (a cancelled statement).
    func reach(connection: Connection) throws {
        guard isRequested else { return }
        // The COPYs queued so far have reached the server when the pause is announced.
        try connection.settleCopies()
        announce()
        try connection.execute("SELECT pg_sleep(3600)")
    }
}
#endif
