/// The RESO values of a lookup whose words mlsfeed stores as RESO member names (`StandardStatus`,
/// `PropertyType`): a lookup entry is mapped to the member one of its words names, and a metadata document
/// without the lookup's values gets these.
struct RESOValues: Sendable {
    /// The lookup's RESO name, for comments (`StandardStatus`).
    var name: String
    /// Member names with their display names, when those differ (`ActiveUnderContract`, `Active Under Contract`).
    var members: [(member: String, display: String?)]
    /// Other words that mean a member (`Sold` → `Closed`).
    var synonyms: [(word: String, member: String)] = []

    /// The member `word` names (ignoring case, spaces and underscores), if any.
    func member(for word: String) -> String? {
        let key = FieldMapping.enumKey(word)
        for (member, display) in members
        where FieldMapping.enumKey(member) == key || display.map(FieldMapping.enumKey) == key {
            return member
        }
        return synonyms.first { FieldMapping.enumKey($0.word) == key }?.member
    }

    /// The values as lookup entries: each member, spelled as its member name and its display name.
    var entries: [MetadataLookup.Entry] {
        members.map { MetadataLookup.Entry(canonical: $0.member, words: [$0.member] + ($0.display.map { [$0] } ?? [])) }
    }

    /// The statuses of `listings.standard_status` (see the data model).
    static let standardStatus = RESOValues(
        name: "StandardStatus",
        members: [("Active", nil), ("ActiveUnderContract", "Active Under Contract"), ("Pending", nil),
                  ("Closed", nil), ("Expired", nil), ("Withdrawn", nil), ("Canceled", nil), ("Hold", nil),
                  ("ComingSoon", "Coming Soon")],
        synonyms: [("Sold", "Closed"), ("Cancelled", "Canceled")])

    /// The property types of `listings.property_type`.
    static let propertyType = RESOValues(
        name: "PropertyType",
        members: [("Residential", nil), ("ResidentialIncome", "Residential Income"),
                  ("ResidentialLease", "Residential Lease"), ("Land", nil), ("CommercialSale", "Commercial Sale"),
                  ("CommercialLease", "Commercial Lease"), ("BusinessOpportunity", "Business Opportunity"),
                  ("Farm", nil), ("ManufacturedInPark", "Manufactured In Park")])
}
