import Foundation

/// UTC offsets of a time zone per 15-minute slot of local wall-clock time, computed once and shared by workers.
///
/// Foundation's `secondsFromGMT(for:)` costs thousands of instructions; a nightly dump has a few thousand distinct
/// slots, and DST transitions fall on slot boundaries, so the cache is exact and small.
///
/// A wall-clock time that occurs twice (the repeated hour when daylight saving time ends) is the **first**
/// occurrence, the earlier instant (still daylight time): `2019-11-03 01:30` in Los Angeles is 08:30 UTC. One
/// that never occurs (the hour skipped when it starts, `2019-03-10 02:30`) has no instant.
final class ZoneOffsets: @unchecked Sendable {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var caches: [String: [Int: Int]] = [:]
    /// The cached "offset" of a skipped slot.
    private static let skipped = Int.min

    /// Seconds since the epoch of a local wall-clock time (`local` = seconds as if it were UTC) in `zone`, or nil
    /// when that wall-clock time does not exist there.
    static func utc(local: Int, zone: TimeZone) -> Int? {
        let slot = local >= 0 ? local / 900 : (local - 899) / 900
        lock.lock()
        let cached = caches[zone.identifier]?[slot]
        lock.unlock()
        if let offset = cached { return offset == skipped ? nil : local - offset }
        let offset = resolve(local: local, zone: zone)
        lock.lock()
        caches[zone.identifier, default: [:]][slot] = offset ?? skipped
        lock.unlock()
        return offset.map { local - $0 }
    }

    /// The offset that maps `local` to its first instant, nil when none does. The offsets a day before and after
    /// are the only candidates (zones change offset at most once in two days); each is kept if it maps back.
    private static func resolve(local: Int, zone: TimeZone) -> Int? {
        func offset(at instant: Int) -> Int { zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))) }
        let before = offset(at: local - 86_400)
        let after = offset(at: local + 86_400)
        let candidates = before == after ? [before] : [before, after]
        // The larger offset gives the earlier instant.
        return candidates.filter { offset(at: local - $0) == $0 }.max()
    }

    /// Why `local` has no instant in `zone`, for the rule text: the skip of daylight saving time, or another change.
    static func skipReason(local: Int, zone: TimeZone) -> String {
        let later = Date(timeIntervalSince1970: Double(local + 86_400))
        let earlier = Date(timeIntervalSince1970: Double(local - 86_400))
        let dst = zone.isDaylightSavingTime(for: later) && !zone.isDaylightSavingTime(for: earlier)
        return dst ? "skipped by daylight saving time" : "skipped by a change of its UTC offset"
    }
}
