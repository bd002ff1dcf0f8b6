/// One attribute of a start tag, as the document spelled it after XML decoding (entities, normalization).
public struct XMLAttribute: Hashable, Sendable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
