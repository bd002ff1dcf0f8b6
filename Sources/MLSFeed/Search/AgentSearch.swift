/// The criteria of `search.agents`: a name prefix, an office, or both.
package struct AgentSearch: Sendable, Equatable {
    /// A case-insensitive prefix of the first, last or full name.
    package var namePrefix: String?
    package var officeID: String?
    /// 1-1000.
    package var limit = 20

    package init(namePrefix: String? = nil, officeID: String? = nil) {
        self.namePrefix = namePrefix
        self.officeID = officeID
    }
}
