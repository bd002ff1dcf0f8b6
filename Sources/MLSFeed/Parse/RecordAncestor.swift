/// An element around a structured record (its parent, the parent's parent, ...), as far as a path leaving the
/// record can read it: its name and attributes (`../name()`, `../@version`). The reader keeps them while the
/// element is open and only when the mapping has such a path; its text and other children are not kept (they may
/// be anywhere in the document, before or after the record).
struct RecordAncestor: Sendable {
    /// One attribute: its interned name and value.
    struct Attribute: Sendable {
        var name: Int32
        var value: String
    }

    /// The interned local name.
    var name: Int32
    var attributes: [Attribute]
}
