/// A memo of values by 64-bit fingerprint that forgets everything once it holds `limit` entries: for results that
/// repeat (the few thousand agents every listing of a feed names), with memory bounded whatever the feed.
package struct BoundedMemo<Value> {
    private var entries: [UInt64: Value] = [:]
    private let limit: Int

    package init(limit: Int = 50_000) {
        self.limit = max(1, limit)
    }

    package subscript(_ key: UInt64) -> Value? {
        entries[key]
    }

    package mutating func store(_ value: Value, for key: UInt64) {
        if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
        entries[key] = value
    }

    package var count: Int { entries.count }
}
