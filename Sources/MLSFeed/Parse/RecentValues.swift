/// The last long value seen at each field position of a batch's records, so that a value repeated from one record
/// to the next (office names, agents, timestamps, ...) shares one String instead of allocating (and later freeing)
/// another.
struct RecentValues {
    private var recent: [(range: Range<Int>, value: String)] = []

    /// Values this long or shorter are small Strings, stored inline: nothing to share.
    private static let inlineLength = 15

    /// The value at `range` of `bytes`, for field `position` of the current record.
    @inline(__always)
    mutating func string(_ bytes: [UInt8], _ range: Range<Int>, position: Int) -> String {
        if range.count <= Self.inlineLength { return DelimitedText.string(bytes, range) }
        if position >= recent.count {
            recent += repeatElement((range: 0..<0, value: ""), count: position + 1 - recent.count)
        }
        if range.count == recent[position].range.count && bytes[range] == bytes[recent[position].range] {
            return recent[position].value
        }
        let value = DelimitedText.string(bytes, range)
        recent[position] = (range, value)
        return value
    }
}
