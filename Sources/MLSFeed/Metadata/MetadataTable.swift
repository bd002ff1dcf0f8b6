/// One resource's fields as a metadata document describes them: an EDMX `EntityType`, or a RETS
/// `METADATA-TABLE` (one resource and class).
package struct MetadataTable: Sendable, Hashable {
    /// A navigation property of an EDMX entity type (`ListAgent` → `org.reso.metadata.Member`).
    package struct Navigation: Sendable, Hashable {
        package var name: String
        /// The target type as written (`org.reso.metadata.Member`, `Collection(org.reso.metadata.Media)`).
        package var typeLabel: String
        /// The target entity type's qualified name, without `Collection(...)`.
        package var target: String
        package var isCollection: Bool

        package init(name: String, typeLabel: String) {
            self.name = name
            self.typeLabel = typeLabel
            let collection = typeLabel.hasPrefix("Collection(") && typeLabel.hasSuffix(")")
            self.isCollection = collection
            self.target = collection ? String(typeLabel.dropFirst(11).dropLast()) : typeLabel
        }
    }

    /// The resource: the EDMX entity type name (`Property`), or the RETS `Resource` (`Property`, `Agent`).
    package var resource: String
    /// The RETS class (`RES`); nil for EDMX.
    package var className: String?
    /// The names this table answers to as a navigation target: `Namespace.Name` and `Alias.Name` (EDMX).
    package var qualifiedNames: [String] = []
    /// What the header comment says about where the table came from (`Version=1.8.0 Date=...`).
    package var provenance: String = ""
    package var fields: [MetadataField] = []
    package var navigations: [Navigation] = []
    /// The properties of the EDMX entity's `<Key>` (`ListingKey`): what identifies a record; empty for RETS.
    package var keyFields: [String] = []

    package init(resource: String, className: String? = nil) {
        self.resource = resource
        self.className = className
    }
}
