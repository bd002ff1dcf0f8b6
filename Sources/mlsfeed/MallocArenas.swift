internal import CMalloc

/// glibc's malloc tuning for a pipeline of threads: the only user of `CMalloc`.
enum MallocArenas {
    /// Caps glibc's malloc at two arenas (its default is eight per core): records are allocated on one stage's
    /// thread and freed on another's, and every extra arena keeps free pages of its own (a first load's peak RSS
    /// is 5-6 MB lower, its time unchanged: README, Performance). Call before the stages start.
    static func limit() {
        _ = mallopt(M_ARENA_MAX, 2)
    }
}
