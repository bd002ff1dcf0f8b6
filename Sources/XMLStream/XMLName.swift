/// An element or attribute name interned by one `XMLPushParser`: compare by `id`, read `string` when needed.
///
/// Ids are stable for the lifetime of the parser that made them; names from different parsers do not mix.
public struct XMLName: Hashable, Sendable, CustomStringConvertible {
    /// The parser-local id: equal names have equal ids.
    public let id: Int
    /// The name as text (created once per distinct name, not per event).
    public let string: String

    init(id: Int, string: String) {
        self.id = id
        self.string = string
    }

    public static func == (lhs: XMLName, rhs: XMLName) -> Bool { lhs.id == rhs.id }

    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    public var description: String { string }
}
