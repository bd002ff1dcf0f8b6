/// One field of a metadata resource: the key records carry, how the metadata names and types it.
package struct MetadataField: Sendable, Hashable {
    /// What a field's values are, as far as the metadata says.
    package enum Kind: Sendable, Hashable {
        case text, integer, decimal, date, timestamp, boolean, other
    }

    /// The key records carry: the EDMX property name, or the RETS SystemName (`LIST_105`).
    package var name: String
    /// The RETS StandardName (`ListPrice`); nil for EDMX, whose property names are the standard names.
    package var standardName: String?
    /// A human name: the EDMX `RESO.OData.Metadata.StandardName` annotation (`List Price`), or the RETS LongName.
    package var displayName: String?
    package var kind: Kind
    /// The type as the metadata spells it, for comments: `Edm.Decimal`, `Collection(...Appliances)`, `Character`.
    package var typeLabel: String
    /// The key of the field's lookup in `MetadataDocument.lookups` (an EDMX enum type, a RETS lookup), if any.
    package var lookup: String?
    /// The lookup's name as the metadata gives it (`StandardStatus`, `ListingStatus`), for comments.
    package var lookupName: String?
    /// Whether one record can hold several values (an EDMX collection or flags enum, a RETS `LookupMulti`).
    package var isMultiValued = false

    package init(name: String, standardName: String? = nil, displayName: String? = nil, kind: Kind,
                 typeLabel: String, lookup: String? = nil, lookupName: String? = nil, isMultiValued: Bool = false) {
        self.name = name
        self.standardName = standardName
        self.displayName = displayName
        self.kind = kind
        self.typeLabel = typeLabel
        self.lookup = lookup
        self.lookupName = lookupName
        self.isMultiValued = isMultiValued
    }
}
