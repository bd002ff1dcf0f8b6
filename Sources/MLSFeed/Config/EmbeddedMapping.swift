/// One entry of a listing mapping's embedded rows (`embedded_agents`, `embedded_offices`, `embedded_media`,
/// `embedded_open_houses`): rows of another table made from each listing, from the listing's own keys or from each
/// element a repeated path matches (`each: ListingParticipants/Participant`, `each: Media`).
package struct EmbeddedMapping: Sendable, Hashable {
    /// A condition on a repeated element: the trimmed text at `path` equals `value` (ignoring case).
    package struct Condition: Sendable, Hashable {
        package var path: String
        package var value: String

        package init(path: String, value: String) {
            self.path = path
            self.value = value
        }
    }

    /// The table the entry's rows go to.
    package var entity: Entity
    /// The repeated element, relative to the record; nil: the fields are read from the record itself.
    package var each: String?
    /// Conditions each repeated element must meet (`where:`), e.g. `Role: Listing`.
    package var conditions: [Condition]
    /// The listing column that receives the first matching row's key (`link:`, agents and offices), when the
    /// listing's own mapping leaves it empty.
    package var link: String?
    /// The row's fields, their `from` relative to the repeated element (or the record).
    package var fields: [FieldMapping]

    package init(_ entity: Entity = .agent, each: String? = nil, conditions: [Condition] = [], link: String? = nil,
                 fields: [FieldMapping]) {
        self.entity = entity
        self.each = each
        self.conditions = conditions
        self.link = link
        self.fields = fields
    }
}
