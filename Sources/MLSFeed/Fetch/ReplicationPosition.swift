/// Where a replicated Web API resource stands: the last record the last committed run loaded (its replication
/// field's value and its tie-break key) and whether that run read to the server's end. It decides what the next
/// run asks for and where that run leaves it; pure, so the rule is tested without a server.
///
/// A run that caught up starts `overlap` before the position with `ge`, so records sharing the position's
/// timestamp and records the server committed late (with an earlier timestamp) are read again; unchanged ones cost
/// nothing (their fingerprints are recognised). A run that stopped early (`max_pages`, a request budget) resumes
/// strictly after the last record it loaded, in the order `field, key` the requests ask for, so a group of records
/// sharing one timestamp larger than a run can fetch still advances. The position never passes the last record of
/// the last page a run loaded; a run that fails or is stopped leaves it where it was (it is written in the run's
/// transaction).
package struct ReplicationPosition: Sendable, Hashable {
    /// The replication field's value of the last record loaded, UTC (`2026-11-05T10:00:00Z`).
    package var timestamp: String
    /// That record's tie-break key (`replication.key`); nil when not known (a position kept before keys were).
    package var key: String?
    /// Whether the run that left it read to the server's end (no `@odata.nextLink` left).
    package var caughtUp: Bool

    package init(timestamp: String, key: String?, caughtUp: Bool) {
        self.timestamp = timestamp
        self.key = key
        self.caughtUp = caughtUp
    }

    /// The `$filter` clause of a run starting at `position` (nil: never run, from `replication.start`, else from
    /// the beginning: no clause).
    package static func filter(from position: ReplicationPosition?, _ replication: WebAPISettings.Replication)
        -> String? {
        let field = replication.field
        guard let position else { return replication.start.map { "\(field) ge \($0)" } }
        guard let instant = microseconds(position.timestamp) else {
            // Not a timestamp this type wrote: asked for as it is, from the position on.
            return "\(field) ge \(position.timestamp)"
        }
        guard !position.caughtUp, let key = position.key, !replication.key.isEmpty else {
            let back = position.caughtUp ? Int64(replication.overlap) * 1_000_000 : 0
            return "\(field) ge \(literal(instant - back))"
        }
        let at = literal(instant)
        return "(\(field) gt \(at)) or (\(field) eq \(at) and \(replication.key) gt \(quotedLiteral(key)))"
    }

    /// The position a run leaves that started at `position` and read `last` as the last record of its last page
    /// (its timestamp in UTC canonical form and its key; nil when it read none), having read to the server's end
    /// (`reachedEnd`) or stopped early.
    package static func after(_ position: ReplicationPosition?, last: (timestamp: String, key: String)?,
                              reachedEnd: Bool) -> ReplicationPosition? {
        guard let last else {
            guard var kept = position else { return nil }
            if reachedEnd { kept.caughtUp = true }
            return kept
        }
        return ReplicationPosition(timestamp: last.timestamp, key: last.key, caughtUp: reachedEnd)
    }

    /// A UTC timestamp `yyyy-MM-ddTHH:mm:ss[.fraction]Z` as microseconds since 1970 (a fraction past the sixth
    /// digit is dropped); nil for any other text.
    static func microseconds(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z"), bytes[4] == UInt8(ascii: "-"),
              bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
              bytes[16] == UInt8(ascii: ":") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (0x30...0x39).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var fraction = 0
        if bytes[19] == UInt8(ascii: ".") {
            guard bytes.count > 21 else { return nil }
            var scale = 100_000
            for index in 20..<(bytes.count - 1) {
                guard (0x30...0x39).contains(bytes[index]) else { return nil }
                fraction += Int(bytes[index] - 0x30) * scale
                scale /= 10
            }
        } else if bytes.count != 20 {
            return nil
        }
        let days = Int64(CivilDate.days(year, month, day))
        return ((days * 86_400 + Int64(hour * 3600 + minute * 60 + second)) * 1_000_000) + Int64(fraction)
    }

    /// An OData `DateTimeOffset` literal to the microsecond: `2026-11-05T09:55:00.000000Z`.
    static func literal(_ microseconds: Int64) -> String {
        let seconds = microseconds >= 0 ? microseconds / 1_000_000 : (microseconds - 999_999) / 1_000_000
        let fraction = Int(microseconds - seconds * 1_000_000)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = Int(seconds - days * 86_400)
        let (year, month, day) = CivilDate.civil(Int(days))
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T\(padded(inDay / 3600, 2)):"
            + "\(padded(inDay % 3600 / 60, 2)):\(padded(inDay % 60, 2)).\(padded(fraction, 6))Z"
    }

    /// An OData string literal: in single quotes, a quote doubled.
    static func quotedLiteral(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
