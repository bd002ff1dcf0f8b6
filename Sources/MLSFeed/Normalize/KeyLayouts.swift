/// A normalize worker's key layouts, kept from batch to batch: the last few distinct key sequences it met.
///
/// A header-once feed gives every batch the same keys, and a record with a key more or fewer (a dirty one) comes
/// between two with the usual keys. With one layout per batch, rebuilt for such a record and again after it, a
/// rebuild (about 190,000 instructions for 80 keys) took 2% of a reload's instructions.
struct KeyLayouts {
    /// Layouts kept; the least recently used one goes when another is built.
    static let capacity = 4

    /// Most recently used first.
    private(set) var layouts: [KeyLayout] = []

    /// The layout of `fields`: a kept one that describes them, else one built for them.
    mutating func adopt(_ fields: [RawField], mapping: Mapping, placed: Set<String>) -> KeyLayout {
        if let index = layouts.firstIndex(where: { $0.describes(fields) }) {
            if index > 0 { layouts.insert(layouts.remove(at: index), at: 0) }
            return layouts[0]
        }
        var layout = KeyLayout()
        layout.adopt(fields, mapping: mapping, placed: placed)
        if layouts.count == Self.capacity { layouts.removeLast() }
        layouts.insert(layout, at: 0)
        return layout
    }
}
