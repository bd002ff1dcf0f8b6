import Foundation
internal import CMalloc

/// glibc's malloc tuning for a pipeline of threads: the only user of `CMalloc`.
enum MallocArenas {
    /// Caps glibc's malloc at two arenas (its default is eight per core): records are allocated on one stage's
    /// thread and freed on another's, and every extra arena keeps free pages of its own (a first load's peak RSS
    /// is 5-6 MB lower, its time unchanged: README, Performance). An operator's own `MALLOC_ARENA_MAX` or
    /// `glibc.malloc.arena_max` tunable is left to rule. Call before the stages start.
    static func limit(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard !operatorChose(environment) else { return }
        _ = mallopt(M_ARENA_MAX, 2)
    }

    /// Whether the environment sets the arena count itself.
    static func operatorChose(_ environment: [String: String]) -> Bool {
        environment["MALLOC_ARENA_MAX"] != nil
            || (environment["GLIBC_TUNABLES"] ?? "").contains("glibc.malloc.arena_max")
    }
}
