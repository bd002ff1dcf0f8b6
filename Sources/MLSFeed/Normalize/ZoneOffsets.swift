import Foundation

/// UTC offsets of a time zone per 15-minute slot of local wall-clock time, computed once and shared by workers.
///
/// Foundation's `secondsFromGMT(for:)` costs thousands of instructions; a nightly dump has a few thousand distinct
/// slots, and DST transitions fall on slot boundaries, so the cache is exact and small.
final class ZoneOffsets: @unchecked Sendable {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var caches: [String: [Int: Int]] = [:]

    /// Seconds since the epoch of a local wall-clock time (`local` = seconds as if it were UTC) in `zone`.
    /// In the repeated hour of a DST fall-back the later (standard-time) instant is taken, as before.
    static func utc(local: Int, zone: TimeZone) -> Int {
        let slot = local >= 0 ? local / 900 : (local - 899) / 900
        lock.lock()
        let cached = caches[zone.identifier]?[slot]
        lock.unlock()
        if let offset = cached { return local - offset }
        let guess = local - zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(local)))
        let seconds = local - zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(guess)))
        lock.lock()
        caches[zone.identifier, default: [:]][slot] = local - seconds
        lock.unlock()
        return seconds
    }
}
