/// A normalize worker's key layouts, kept from batch to batch: the one it used last, and the others it met by the
/// fingerprint of their keys.
///
/// A header-once feed gives every record the same keys: the last layout serves it, with no hashing. A record with
/// a key more or fewer (a dirty one) comes between two with the usual keys. Nested records (RESO JSON, syndication)
/// carry the mapped paths that matched, in the mapping's order: a few hundred distinct sequences in a feed, so a
/// kept layout serves most records where four recently used ones served one in seven (a RESO JSON `--force`
/// reload built a layout for 86% of its listings, 13% of its instructions).
struct KeyLayouts {
    /// Layouts kept by fingerprint; all are forgotten when another would exceed this.
    static let capacity = 256

    /// The layout used last.
    private(set) var recent: KeyLayout?
    /// Layouts by the fingerprint of their keys.
    private var byKeys = BoundedMemo<KeyLayout>(limit: capacity)
    /// How many layouts were built (tests).
    private(set) var built = 0

    /// The layout of `fields`: the last one or a kept one that describes them, else one built for them.
    mutating func adopt(_ fields: [RawField], index: KeyIndex) -> KeyLayout {
        if let recent, recent.describes(fields) { return recent }
        let fingerprint = KeyLayout.fingerprint(of: fields)
        if let kept = byKeys[fingerprint], kept.describes(fields) {
            recent = kept
            return kept
        }
        var layout = KeyLayout()
        layout.adopt(fields, index: index)
        built += 1
        byKeys.store(layout, for: fingerprint)
        recent = layout
        return layout
    }

    /// How many layouts are kept by fingerprint.
    var kept: Int { byKeys.count }
}
