/// An agent as `search.agents` returns it.
package struct SearchAgent: Sendable, Equatable {
    package var source: String
    package var agentID: String
    package var firstName: String?
    package var lastName: String?
    /// "first last", as given or joined.
    package var fullName: String?
    package var officeID: String?
    package var officeName: String?
    package var officePhone: String?
    package var mobilePhone: String?
    package var email: String?

    /// The SELECT list `init(row:)` reads, over `search.agents(...) r`.
    static let columns = "r.source, r.agent_mls_id, r.first_name, r.last_name, r.full_name, r.office_mls_id, "
        + "r.office_name, r.office_phone, r.mobile_phone, r.email"

    /// A row of `columns`.
    init(row: [String?]) {
        source = row[0] ?? ""
        agentID = row[1] ?? ""
        firstName = row[2]
        lastName = row[3]
        fullName = row[4]
        officeID = row[5]
        officeName = row[6]
        officePhone = row[7]
        mobilePhone = row[8]
        email = row[9]
    }
}
