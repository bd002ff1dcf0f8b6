import Foundation
internal import CMalloc

/// glibc's malloc tuning for a pipeline of threads: the only user of `CMalloc`.
///
/// Each setting is left to the operator who chose it: by its `MALLOC_*` environment variable or its
/// `GLIBC_TUNABLES` name. Measured on first loads of every format (bench/results/performance-history.md).
enum MallocTuning {
    /// One `mallopt` setting and how an operator would have chosen it.
    struct Setting {
        var option: Int32
        var value: Int32
        var variable: String
        var tunable: String
    }

    static let settings = [
        // Two arenas (glibc's default is eight per core): records are allocated on one stage's thread and freed on
        // another's, and every extra arena keeps free pages of its own (peak RSS 5-6 MB lower, time unchanged).
        Setting(option: M_ARENA_MAX, value: 2, variable: "MALLOC_ARENA_MAX", tunable: "glibc.malloc.arena_max"),
        // A fixed 512 KiB mmap threshold (glibc starts at 128 KiB and raises it, up to 32 MiB, each time a big
        // block is freed): bigger blocks (batch buffers, the stored set, the MLS-number filter) come from, and go
        // back to, the system instead of fragmenting the heap, while the 256 KiB read chunks are reused from the
        // heap instead of being mapped fresh each time (at 128 KiB: 68,000 page faults in a 100k reload). 1-2 MiB
        // saved more faults but raised a 1M syndication first load to 97-99 MiB
        // (bench/results/performance-history.md, eighth pass).
        Setting(option: M_MMAP_THRESHOLD, value: 512 << 10, variable: "MALLOC_MMAP_THRESHOLD_",
                tunable: "glibc.malloc.mmap_threshold"),
    ]

    /// Applies every setting the operator did not choose. Call before the stages start.
    static func apply(environment: [String: String] = ProcessInfo.processInfo.environment) {
        for setting in settings where !operatorChose(setting, environment) {
            _ = mallopt(setting.option, setting.value)
        }
    }

    /// With `jobs` pipelines running at once in the process, two arenas for each (unless the operator chose the
    /// number): the runs' threads then share malloc's locks as one run's do, and the process's memory stays about
    /// `jobs` times one run's. Call before the runs start.
    static func allowArenas(jobs: Int, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard jobs > 1, let arenas = settings.first(where: { $0.option == M_ARENA_MAX }),
              !operatorChose(arenas, environment) else { return }
        _ = mallopt(M_ARENA_MAX, arenas.value * Int32(min(jobs, 64)))
    }

    /// Whether the environment sets `setting` itself.
    static func operatorChose(_ setting: Setting, _ environment: [String: String]) -> Bool {
        environment[setting.variable] != nil || (environment["GLIBC_TUNABLES"] ?? "").contains(setting.tunable)
    }
}
