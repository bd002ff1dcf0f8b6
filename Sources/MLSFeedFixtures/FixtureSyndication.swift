import MLSFeed

/// One listing as a RETS Syndication 2012-03 `<Listing>` (the shape ListHub distributes): address in the
/// `commons:` namespace, price with its currency, photos, participants, office, location, typed details.
/// Elements follow the schema's order; two spaces of indentation per level.
enum FixtureSyndication {
    /// The default namespace of the document and the prefix-bound one of the address and expenses.
    static let namespace = "http://rets.org/xsd/Syndication/2012-03"
    static let commonsNamespace = "http://rets.org/xsd/RETSCommons"

    /// Photos written per listing (at most).
    static let maxPhotos = 4

    /// A photo's URL (shared with `reso-json`'s `Media`).
    static func photoURL(_ mlsNumber: String, _ order: Int) -> String {
        "https://photos.example.com/sdmls/\(mlsNumber)/\(order + 1).jpg"
    }

    /// The root element's start tag.
    static func root(source: String, generated: String) -> String {
        "<Listings xmlns=\"\(namespace)\" xmlns:commons=\"\(commonsNamespace)\" "
            + "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" listingsKey=\"\(source)-\(generated)\" "
            + "version=\"0.96\" versionTimestamp=\"\(generated)\">\n"
    }

    /// Appends the record as an indented `<Listing>` element and a line break.
    static func write(_ rec: FixtureRecord, into out: inout [UInt8]) {
        guard let listing = rec.listing else { preconditionFailure("a record written without its listing") }
        var xml = Element(rec: rec, out: out)
        out = []
        xml.open("Listing", 1)
        writeAddress(&xml)
        let price = listing.writtenListPrice(.syndication).text
        xml.line("ListPrice", 2, price, attributes: " currencyCode=\"USD\"")
        xml.line("ListingURL", 2, "https://www.example.com/listing/\(listing.mlsNumber)")
        xml.line("ProviderName", 2, "San Diego MLS")
        xml.field("Bedrooms", 2, .bedrooms, integer: true)
        let (type, subType) = listing.syndicationPropertyType
        xml.line("PropertyType", 2, type)
        if let subType { xml.line("PropertySubType", 2, subType) }
        xml.line("ListingKey", 2, FixtureResoJSON.listingKey(rec.text(.mlsNumber)))
        xml.line("ListingCategory", 2, "Purchase")
        xml.line("ListingStatus", 2, listing.standardStatus(.syndication))
        writePhotos(&xml, listing)
        xml.line("DiscloseAddress", 2, "true")
        xml.field("ListingDescription", 2, .publicRemarks, cdata: rec.cdataRemarks)
        xml.line("MlsId", 2, "SDMLS")
        xml.line("MlsName", 2, "San Diego MLS")
        xml.line("MlsNumber", 2, rec.text(.mlsNumber))
        xml.field("LivingArea", 2, .sqft, integer: true)
        xml.field("LotSize", 2, .lotSqft, integer: true)
        xml.field("YearBuilt", 2, .yearBuilt, integer: true)
        xml.line("ListingDate", 2, FixtureClock.isoDate(listing.listDay))
        xml.field("FullBathrooms", 2, .fullBaths, integer: true)
        xml.field("HalfBathrooms", 2, .halfBaths, integer: true)
        writeParticipants(&xml, listing)
        writeOffice(&xml)
        writeLocation(&xml)
        writeExpenses(&xml)
        writeDetails(&xml)
        xml.line("ModificationTimestamp", 2, listing.writtenModified(.syndication))
        xml.close("Listing", 1)
        out = xml.out
    }

    private static func writeAddress(_ xml: inout Element) {
        xml.open("Address", 2)
        xml.line("commons:preference-order", 3, "1")
        xml.line("commons:address-preference-order", 3, "1")
        var street = xml.rec.text(.streetNumber) + " " + xml.rec.text(.streetName)
        if xml.rec.has(.unit) { street += " #" + xml.rec.text(.unit).replacing("#", with: "") }
        xml.line("commons:FullStreetAddress", 3, street)
        xml.field("commons:UnitNumber", 3, .unit)
        xml.field("commons:City", 3, .city)
        xml.field("commons:StateOrProvince", 3, .state)
        xml.field("commons:PostalCode", 3, .zipcode)
        xml.line("commons:Country", 3, "US")
        xml.close("Address", 2)
    }

    private static func writePhotos(_ xml: inout Element, _ listing: FixtureListing) {
        let count = min(xml.rec.integer(.photoCount) ?? 0, maxPhotos)
        guard count > 0 else { return }
        xml.open("Photos", 2)
        for order in 0..<count {
            xml.open("Photo", 3)
            xml.line("MediaModificationTimestamp", 4, listing.writtenModified(.syndication))
            xml.line("MediaURL", 4, photoURL(listing.mlsNumber, order))
            xml.close("Photo", 3)
        }
        xml.close("Photos", 2)
    }

    /// The listing agent and, for some listings, a co-listing agent from the same pool.
    private static func writeParticipants(_ xml: inout Element, _ listing: FixtureListing) {
        xml.open("ListingParticipants", 2)
        let rec = xml.rec
        xml.open("Participant", 3)
        xml.line("ParticipantKey", 4, "P-" + rec.text(.laId))
        xml.field("ParticipantId", 4, .laId)
        xml.field("FirstName", 4, .laFirstName)
        xml.field("LastName", 4, .laLastName)
        xml.line("Role", 4, "Listing")
        xml.field("PrimaryContactPhone", 4, .laCarPhone)
        xml.field("OfficePhone", 4, .laPhoneDirectOffice)
        xml.field("Email", 4, .laMemberEmail)
        xml.close("Participant", 3)
        var r = FixtureRandom(listing.seed, UInt64(listing.index), 8)
        if r.chance(0.15) {
            let agent = FixtureAgent.pool[r.below(FixtureAgent.poolSize)]
            if agent.id != rec.text(.laId) {
                xml.open("Participant", 3)
                xml.line("ParticipantKey", 4, "P-" + agent.id)
                xml.line("ParticipantId", 4, agent.id)
                xml.line("FirstName", 4, agent.firstName)
                xml.line("LastName", 4, agent.lastName)
                xml.line("Role", 4, "Co-Listing")
                xml.line("PrimaryContactPhone", 4, agent.carPhone)
                xml.line("Email", 4, agent.email)
                xml.close("Participant", 3)
            }
        }
        xml.close("ListingParticipants", 2)
    }

    private static func writeOffice(_ xml: inout Element) {
        xml.open("Offices", 2)
        xml.open("Office", 3)
        xml.line("OfficeKey", 4, "O-" + xml.rec.text(.loId))
        xml.field("OfficeId", 4, .loId)
        xml.line("Level", 4, "Office")
        xml.field("Name", 4, .loName)
        xml.close("Office", 3)
        xml.close("Offices", 2)
    }

    private static func writeLocation(_ xml: inout Element) {
        xml.open("Location", 2)
        xml.field("Latitude", 3, .latitude)
        xml.field("Longitude", 3, .longitude)
        xml.field("County", 3, .county)
        xml.field("ParcelId", 3, .apn)
        xml.field("Directions", 3, .directions)
        if xml.rec.has(.subdivision) {
            xml.open("Community", 3)
            xml.field("commons:Subdivision", 4, .subdivision)
            xml.close("Community", 3)
        }
        xml.close("Location", 2)
    }

    private static func writeExpenses(_ xml: inout Element) {
        guard xml.rec.has(.hoaFee) else { return }
        let period = xml.rec.has(.hoaFrequency) ? " currencyPeriod=\"\(xml.rec.text(.hoaFrequency))\"" : ""
        xml.open("Expenses", 2)
        xml.open("Expense", 3)
        xml.line("commons:ExpenseCategory", 4, "Homeowner Association Fee")
        xml.line("commons:ExpenseValue", 4, String(xml.rec.integer(.hoaFee) ?? 0), attributes: period)
        xml.close("Expense", 3)
        xml.close("Expenses", 2)
    }

    private static func writeDetails(_ xml: inout Element) {
        xml.open("DetailedCharacteristics", 2)
        xml.list("Appliances", "Appliance", .appliances)
        xml.field("ArchitectureStyle", 3, .style)
        xml.list("CoolingSystems", "CoolingSystem", .cooling)
        xml.list("ExteriorTypes", "ExteriorType", .exterior)
        xml.list("FloorCoverings", "FloorCovering", .flooring)
        xml.list("HeatingSystems", "HeatingSystem", .heating)
        if let spa = xml.rec.flag(.spa) { xml.line("HasSpa", 3, spa ? "true" : "false") }
        xml.field("NumFloors", 3, .stories, integer: true)
        xml.field("NumParkingSpaces", 3, .parkingTotal, integer: true)
        xml.list("RoofTypes", "RoofType", .roof)
        xml.list("ViewTypes", "ViewType", .view)
        xml.close("DetailedCharacteristics", 2)
    }

    /// Writes indented elements of one record into a byte buffer.
    private struct Element {
        let rec: FixtureRecord
        var out: [UInt8]

        mutating func indent(_ level: Int) {
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: level * 2))
        }

        mutating func open(_ name: String, _ level: Int) {
            indent(level)
            startTag(name)
            out.append(UInt8(ascii: "\n"))
        }

        mutating func close(_ name: String, _ level: Int) {
            indent(level)
            endTag(name)
        }

        mutating func startTag(_ name: String, _ attributes: String = "") {
            out.append(UInt8(ascii: "<"))
            out.append(contentsOf: name.utf8)
            out.append(contentsOf: attributes.utf8)
            out.append(UInt8(ascii: ">"))
        }

        /// `</name>` and a line break.
        mutating func endTag(_ name: String) {
            out.append(contentsOf: "</".utf8)
            out.append(contentsOf: name.utf8)
            out.append(contentsOf: ">\n".utf8)
        }

        /// `<name attributes>text</name>` on a line of its own, the text escaped.
        mutating func line(_ name: String, _ level: Int, _ text: String, attributes: String = "") {
            indent(level)
            startTag(name, attributes)
            FixtureXMLText.escaped(text, into: &out)
            endTag(name)
        }

        /// The field's value as an element, when it has one; `integer` reads counts and areas as numbers.
        mutating func field(_ name: String, _ level: Int, _ field: FixtureField, integer: Bool = false,
                            cdata: Bool = false) {
            guard rec.has(field) else { return }
            if integer {
                guard let value = rec.integer(field) else { return }
                line(name, level, String(value))
                return
            }
            indent(level)
            startTag(name)
            if cdata {
                FixtureXMLText.cdata(rec.bytes, rec.spans[field.rawValue], split: nil, into: &out)
            } else {
                FixtureXMLText.escaped(rec.bytes, rec.spans[field.rawValue], quotes: rec.quoteEntities, split: nil,
                                       into: &out)
            }
            endTag(name)
        }

        /// A repeated element per comma-separated item, inside a group element.
        mutating func list(_ group: String, _ name: String, _ field: FixtureField) {
            let items = rec.items(field)
            guard !items.isEmpty else { return }
            open(group, 3)
            for item in items {
                indent(4)
                startTag(name)
                FixtureXMLText.escaped(rec.bytes, item, quotes: rec.quoteEntities, split: nil, into: &out)
                endTag(name)
            }
            close(group, 3)
        }
    }
}
