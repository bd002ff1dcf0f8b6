import Foundation

/// Times as commands print them: ISO 8601 UTC in JSON, local `yyyy-MM-dd HH:mm:ss` in tables.
enum TimeText {
    nonisolated(unsafe) private static let isoFormatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()

    private static let localFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter
    }()

    /// `2026-11-29T01:02:03.250Z`.
    static func iso(_ date: Date) -> String { isoFormatter.string(from: date) }

    /// `2026-11-28 17:02:03` in the local time zone.
    static func local(_ date: Date) -> String { localFormatter.string(from: date) }

    /// `""` for nil.
    static func local(_ date: Date?) -> String { date.map(local) ?? "" }
}
