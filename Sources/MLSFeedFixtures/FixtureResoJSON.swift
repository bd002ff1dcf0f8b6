import MLSFeed

/// One listing as a RESO Web API `Property` record (Data Dictionary 2.0 names, `$expand=ListAgent,Media`), with
/// what real servers send: decimals as numbers or strings, integers as `12.0` from some, "String List, Multi"
/// fields as arrays (as a comma string from a few), `null`, escaped non-ASCII, local `SDMLS_` fields.
enum FixtureResoJSON {
    /// How a field's text becomes JSON.
    enum Kind {
        /// A string, as is.
        case text
        /// A number from a count or area (` 3 `, `1,850`).
        case integer
        /// A number written as the text is (`32.748912`).
        case decimal
        /// `true`/`false` from `Yes`/`No`/`Y`/`N`.
        case flag
        /// A "String List, Multi": an array of the comma-separated items.
        case list
    }

    /// The fields written from their text, in record order (the core facts are written from the listing first).
    static let fields: [(field: FixtureField, name: String, kind: Kind)] = [
        (.bedrooms, "BedroomsTotal", .integer), (.fullBaths, "BathroomsFull", .integer),
        (.halfBaths, "BathroomsHalf", .integer), (.sqft, "LivingArea", .integer),
        (.lotSqft, "LotSizeSquareFeet", .integer), (.yearBuilt, "YearBuilt", .integer),
        (.streetNumber, "StreetNumber", .text), (.streetName, "StreetName", .text), (.unit, "UnitNumber", .text),
        (.city, "City", .text), (.state, "StateOrProvince", .text), (.zipcode, "PostalCode", .text),
        (.county, "CountyOrParish", .text), (.area, "MLSAreaMajor", .text),
        (.latitude, "Latitude", .decimal), (.longitude, "Longitude", .decimal),
        (.publicRemarks, "PublicRemarks", .text), (.realtorRemarks, "PrivateRemarks", .text),
        (.directions, "Directions", .text), (.ftrToshow, "ShowingInstructions", .text),
        (.ownerName, "OwnerName", .text),
        (.laId, "ListAgentMlsId", .text), (.loId, "ListOfficeMlsId", .text), (.loName, "ListOfficeName", .text),
        (.dom, "DaysOnMarket", .integer), (.cdom, "CumulativeDaysOnMarket", .integer),
        (.pool, "PoolFeatures", .list), (.spa, "SpaYN", .flag), (.view, "View", .list),
        (.hoaFee, "AssociationFee", .integer), (.hoaFrequency, "AssociationFeeFrequency", .text),
        (.schoolDistrict, "HighSchoolDistrict", .text), (.elementarySchool, "ElementarySchool", .text),
        (.highSchool, "HighSchool", .text), (.garageSpaces, "GarageSpaces", .integer),
        (.parkingTotal, "ParkingTotal", .integer), (.roof, "Roof", .list), (.heating, "Heating", .list),
        (.cooling, "Cooling", .list), (.zoning, "Zoning", .text), (.apn, "ParcelNumber", .text),
        (.stories, "StoriesTotal", .integer), (.fireplaces, "FireplacesTotal", .integer),
        (.laundry, "LaundryFeatures", .list), (.flooring, "Flooring", .list), (.appliances, "Appliances", .list),
        (.exterior, "ExteriorFeatures", .list), (.sewer, "Sewer", .list), (.water, "WaterSource", .list),
        (.construction, "ConstructionMaterials", .list), (.style, "ArchitecturalStyle", .list),
        (.lotDescription, "LotFeatures", .list), (.seniorCommunity, "SeniorCommunityYN", .flag),
        (.solar, "SDMLS_Solar", .text), (.taxRate, "SDMLS_TaxRate", .text), (.melloRoos, "SDMLS_MelloRoosYN", .flag),
        (.virtualTourURL, "VirtualTourURLUnbranded", .text), (.photoCount, "PhotosCount", .integer),
        (.subdivision, "SubdivisionName", .text), (.complexName, "BuildingName", .text),
        (.pricePerSqft, "SDMLS_PricePerSqft", .integer), (.listingTerms, "ListingTerms", .list),
        (.occupancy, "OccupantType", .text), (.crossStreet, "CrossStreet", .text), (.mapCode, "MapCoordinate", .text),
        (.internetDisplay, "InternetEntireListingDisplayYN", .flag),
    ]

    /// Photos written in `Media` (the count stays in `PhotosCount`).
    static let maxMedia = 3

    /// `ListingKey`: the server's own key for the listing (the MLS number with the vendor's prefix).
    static func listingKey(_ mlsNumber: String) -> String {
        mlsNumber.isEmpty ? "" : "3yd-SDMLS-" + mlsNumber
    }

    /// Appends the record as one JSON object (no line break).
    static func write(_ rec: FixtureRecord, into out: inout [UInt8]) {
        guard let listing = rec.listing else { preconditionFailure("a record written without its listing") }
        var r = FixtureRandom(listing.seed, UInt64(listing.index), 7)
        let floatIntegers = r.chance(0.1), listsAsText = r.chance(0.05)
        let ascii = rec.quoteEntities
        var first = true
        out.append(UInt8(ascii: "{"))
        FixtureJSONText.key("ListingKey", first: &first, into: &out)
        FixtureJSONText.string(listingKey(rec.text(.mlsNumber)), into: &out)
        FixtureJSONText.key("ListingId", first: &first, into: &out)
        FixtureJSONText.string(rec.bytes, rec.spans[FixtureField.mlsNumber.rawValue], asciiOnly: false, into: &out)
        FixtureJSONText.key("StandardStatus", first: &first, into: &out)
        FixtureJSONText.string(listing.standardStatus(.resoJSON), into: &out)
        let (type, subType) = listing.resoPropertyType
        FixtureJSONText.key("PropertyType", first: &first, into: &out)
        FixtureJSONText.string(type, into: &out)
        if let subType {
            FixtureJSONText.key("PropertySubType", first: &first, into: &out)
            FixtureJSONText.string(subType, into: &out)
        }
        let price = listing.writtenListPrice(.resoJSON)
        FixtureJSONText.key("ListPrice", first: &first, into: &out)
        number(price.text, quoted: price.quoted, into: &out)
        writePrice("OriginalListPrice", rec.has(.origPrice) ? listing.origPrice : nil, listing, &first, &out)
        writePrice("ClosePrice", rec.has(.soldPrice) ? listing.soldPrice : nil, listing, &first, &out)
        if rec.has(.soldDate) {
            FixtureJSONText.key("CloseDate", first: &first, into: &out)
            FixtureJSONText.string(FixtureClock.isoDate(listing.soldDay), into: &out)
        }
        FixtureJSONText.key("ListingContractDate", first: &first, into: &out)
        FixtureJSONText.string(FixtureClock.isoDate(listing.listDay), into: &out)
        FixtureJSONText.key("ModificationTimestamp", first: &first, into: &out)
        FixtureJSONText.string(listing.writtenModified(.resoJSON), into: &out)
        for (field, name, kind) in fields {
            guard rec.has(field) else {
                if field == .unit {
                    FixtureJSONText.key(name, first: &first, into: &out)
                    out.append(contentsOf: "null".utf8)
                }
                continue
            }
            if kind == .flag && rec.flag(field) == nil { continue }
            FixtureJSONText.key(name, first: &first, into: &out)
            switch kind {
            case .text:
                FixtureJSONText.string(rec.bytes, rec.spans[field.rawValue], asciiOnly: ascii, into: &out)
            case .integer:
                out.append(contentsOf: String(rec.integer(field) ?? 0).utf8)
                if floatIntegers { out.append(contentsOf: ".0".utf8) }
            case .decimal:
                out.append(contentsOf: rec.bytes[rec.spans[field.rawValue]])
            case .flag:
                out.append(contentsOf: (rec.flag(field) == true ? "true" : "false").utf8)
            case .list where listsAsText:
                FixtureJSONText.string(rec.bytes, rec.spans[field.rawValue], asciiOnly: ascii, into: &out)
            case .list:
                out.append(UInt8(ascii: "["))
                for (i, item) in rec.items(field).enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    FixtureJSONText.string(rec.bytes, item, asciiOnly: ascii, into: &out)
                }
                out.append(UInt8(ascii: "]"))
            }
        }
        writeAgent(rec, ascii: ascii, first: &first, into: &out)
        writeMedia(rec, listing, first: &first, into: &out)
        out.append(UInt8(ascii: "}"))
    }

    private static func writePrice(_ name: String, _ price: Int?, _ listing: FixtureListing, _ first: inout Bool,
                                   _ out: inout [UInt8]) {
        guard let price else { return }
        FixtureJSONText.key(name, first: &first, into: &out)
        let text = FixtureListing.typedPriceText(price, style: listing.priceStyle)
        number(text, quoted: listing.priceStyle == 2, into: &out)
    }

    /// A number's text as a JSON number, or as a string (as some servers send decimals).
    private static func number(_ text: String, quoted: Bool, into out: inout [UInt8]) {
        if quoted { FixtureJSONText.string(text, into: &out) } else { out.append(contentsOf: text.utf8) }
    }

    /// `ListAgent`: the listing agent's `Member` record, expanded.
    private static func writeAgent(_ rec: FixtureRecord, ascii: Bool, first: inout Bool, into out: inout [UInt8]) {
        FixtureJSONText.key("ListAgent", first: &first, into: &out)
        var inner = true
        out.append(UInt8(ascii: "{"))
        let members: [(FixtureField, String)] = [
            (.laId, "MemberMlsId"), (.laFirstName, "MemberFirstName"), (.laLastName, "MemberLastName"),
            (.laMemberEmail, "MemberEmail"), (.laCarPhone, "MemberMobilePhone"),
            (.laPhoneDirectOffice, "MemberDirectPhone"), (.loId, "OfficeMlsId"),
        ]
        for (field, name) in members where rec.has(field) {
            FixtureJSONText.key(name, first: &inner, into: &out)
            FixtureJSONText.string(rec.bytes, rec.spans[field.rawValue], asciiOnly: ascii, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `Media`: the first photos, as expanded `Media` records.
    private static func writeMedia(_ rec: FixtureRecord, _ listing: FixtureListing, first: inout Bool,
                                   into out: inout [UInt8]) {
        FixtureJSONText.key("Media", first: &first, into: &out)
        out.append(UInt8(ascii: "["))
        let key = listingKey(listing.mlsNumber)
        for order in 0..<min(rec.integer(.photoCount) ?? 0, maxMedia) {
            if order > 0 { out.append(UInt8(ascii: ",")) }
            var inner = true
            out.append(UInt8(ascii: "{"))
            FixtureJSONText.key("MediaKey", first: &inner, into: &out)
            FixtureJSONText.string("\(key)-\(order + 1)", into: &out)
            FixtureJSONText.key("MediaCategory", first: &inner, into: &out)
            FixtureJSONText.string("Photo", into: &out)
            FixtureJSONText.key("Order", first: &inner, into: &out)
            out.append(contentsOf: String(order + 1).utf8)
            FixtureJSONText.key("MediaURL", first: &inner, into: &out)
            FixtureJSONText.string(FixtureSyndication.photoURL(listing.mlsNumber, order), into: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
    }
}
