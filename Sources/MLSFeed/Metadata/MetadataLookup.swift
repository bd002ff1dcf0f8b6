/// The values of a lookup (an EDMX `EnumType`, a RETS `METADATA-LOOKUP_TYPE`), in the metadata's order.
package struct MetadataLookup: Sendable, Hashable {
    /// One value: the word a mapping stores for it, and every spelling a record may carry.
    package struct Entry: Sendable, Hashable {
        /// The stored word: the EDMX member name, or the RETS LongValue (else ShortValue, else Value).
        package var canonical: String
        /// The spellings, without repeats: the member name and its display name, or Value, ShortValue, LongValue.
        package var words: [String]

        package init(canonical: String, words: [String]) {
            self.canonical = canonical
            var seen = Set<String>()
            self.words = words.filter { !$0.isEmpty && seen.insert($0).inserted }
        }
    }

    package var name: String
    package var entries: [Entry]

    package init(name: String, entries: [Entry] = []) {
        self.name = name
        self.entries = entries
    }
}
