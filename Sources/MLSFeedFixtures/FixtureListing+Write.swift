import MLSFeed

extension FixtureListing {
    /// A random stream of its own for one field of this listing.
    private func stream(_ field: FixtureField) -> FixtureRandom {
        FixtureRandom(seed, UInt64(index), 100 + UInt64(field.rawValue))
    }

    /// Puts one value picked from `choices` by the field's own random stream.
    private func putPick(_ field: FixtureField, _ choices: [String], into rec: inout FixtureRecord) {
        var r = stream(field)
        rec.put(field, r.pick(choices))
    }

    private var isLand: Bool { propertyType == 3 }
    private var isCondo: Bool { propertyType == 1 }

    /// Writes every field's raw value into `rec` (which is reset first).
    func write(into rec: inout FixtureRecord) {
        rec.reset()
        rec.listing = self
        let city = FixtureMarket.cities[cityIndex]
        var flags = FixtureRandom(seed, UInt64(index), 2)
        rec.cdataRemarks = flags.chance(0.04)
        rec.quoteEntities = flags.chance(0.3)

        rec.put(.mlsNumber, emptyMLSNumber ? "" : mlsNumber)
        rec.put(.status, statusWord)
        rec.put(.propertyType, FixtureListing.propertyTypes[propertyType])
        var m = rec.mark
        if let badPrice {
            rec.append(badPrice)
        } else {
            FixtureListing.appendPrice(listPrice, style: priceStyle, to: &rec)
        }
        rec.close(.listPrice, from: m)
        var r = stream(.origPrice)
        if r.chance(0.85) {
            m = rec.mark
            FixtureListing.appendPrice(origPrice, style: priceStyle, to: &rec)
            rec.close(.origPrice, from: m)
        }
        if status == .sold {
            m = rec.mark
            FixtureListing.appendPrice(soldPrice, style: priceStyle, to: &rec)
            rec.close(.soldPrice, from: m)
            rec.put(.soldDate, FixtureClock.isoDate(soldDay))
        }
        r = stream(.listDate)
        rec.put(.listDate, r.chance(0.6) ? FixtureClock.isoDate(listDay) : FixtureClock.usDate(listDay))
        rec.put(.modified, modifiedText)
        writeStructure(into: &rec)
        writeAddress(city, into: &rec)
        writeText(city, into: &rec)
        writeAgent(into: &rec)
        writeExtras(city, into: &rec)
    }

    /// A small count, sometimes padded with spaces or left empty, as servlets send them.
    private func putCount(_ field: FixtureField, _ value: Int, into rec: inout FixtureRecord) {
        var r = stream(field)
        let roll = r.below(100)
        if roll < 3 { return }
        let m = rec.mark
        if roll < 8 { rec.append(" ") }
        rec.appendInt(value)
        if roll < 8 { rec.append(" ") }
        rec.close(field, from: m)
    }

    private func putArea(_ field: FixtureField, _ value: Int, grouped: Bool, into rec: inout FixtureRecord) {
        let m = rec.mark
        if grouped { rec.appendGrouped(value) } else { rec.appendInt(value) }
        rec.close(field, from: m)
    }

    private func writeStructure(into rec: inout FixtureRecord) {
        var r = stream(.bedrooms)
        let grouped = r.chance(0.4)
        if !isLand {
            let beds = isCondo ? r.between(0, 3) : propertyType == 2 ? r.between(4, 12) : r.between(2, 6)
            putCount(.bedrooms, beds, into: &rec)
            var b = stream(.fullBaths)
            putCount(.fullBaths, max(1, beds / 2 + b.between(0, 1)), into: &rec)
            putCount(.halfBaths, b.between(0, 2), into: &rec)
            var s = stream(.sqft)
            let sqft = isCondo ? s.between(450, 2200) : propertyType == 2 ? s.between(1800, 6500) : s.between(900, 5200)
            putArea(.sqft, sqft, grouped: grouped, into: &rec)
            var y = stream(.yearBuilt)
            if y.chance(0.98) { rec.putInt(.yearBuilt, y.between(1905, 2025)) }
            var st = stream(.stories)
            rec.putInt(.stories, isCondo ? 1 : st.between(1, 3))
            var g = stream(.garageSpaces)
            let garage = isCondo ? g.between(0, 2) : g.between(0, 4)
            rec.putInt(.garageSpaces, garage)
            rec.putInt(.parkingTotal, garage + g.between(0, 3))
            var f = stream(.fireplaces)
            rec.putInt(.fireplaces, f.between(0, 3))
            var p = stream(.pricePerSqft)
            _ = p.next()
            rec.putInt(.pricePerSqft, listPrice / max(sqft, 1))
        }
        var l = stream(.lotSqft)
        if isLand {
            putArea(.lotSqft, l.between(4000, 220_000), grouped: grouped, into: &rec)
        } else if !isCondo {
            putArea(.lotSqft, l.between(2500, 25_000), grouped: grouped, into: &rec)
        } else if l.chance(0.3) {
            rec.putInt(.lotSqft, 0)
        }
    }

    private func writeAddress(_ city: FixtureMarket.City, into rec: inout FixtureRecord) {
        var r = stream(.streetNumber)
        rec.putInt(.streetNumber, r.between(1, 19_999))
        r = stream(.streetName)
        let street = r.pick(FixtureMarket.streets)
        rec.put(.streetName, street)
        r = stream(.unit)
        if isCondo || (propertyType == 2 && r.chance(0.3)) {
            switch r.below(4) {
            case 0: rec.put(.unit, "#\(r.between(1, 4))\(FixtureClock.pad(r.between(1, 30)))")
            case 1: rec.put(.unit, "Unit \(r.between(1, 40))")
            case 2: rec.put(.unit, ["A", "B", "C", "D"][r.below(4)])
            default: rec.putInt(.unit, r.between(101, 450))
            }
        }
        rec.put(.city, city.name)
        rec.put(.state, "CA")
        r = stream(.zipcode)
        let zip = r.pick(city.zips)
        if r.chance(0.12) {
            let m = rec.mark
            rec.append(zip)
            rec.append("-")
            rec.appendInt(r.between(1000, 9999))
            rec.close(.zipcode, from: m)
        } else {
            rec.put(.zipcode, zip)
        }
        rec.put(.county, city.county)
        rec.put(.area, zip + " - " + city.area)
        r = stream(.latitude)
        if r.chance(0.005) {
            rec.put(.latitude, "0")
            rec.put(.longitude, "0")
        } else {
            let places = r.chance(0.7) ? 6 : 4
            let scale = places == 6 ? 1_000_000.0 : 10_000.0
            let lat = Int(((city.latitude + (r.unit() - 0.5) * 0.09) * scale).rounded())
            let lon = Int(((city.longitude + (r.unit() - 0.5) * 0.09) * scale).rounded())
            var m = rec.mark
            rec.appendFixed(lat, places: places)
            rec.close(.latitude, from: m)
            m = rec.mark
            rec.appendFixed(lon, places: places)
            rec.close(.longitude, from: m)
        }
        r = stream(.crossStreet)
        if r.chance(0.6) { rec.put(.crossStreet, r.pick(FixtureMarket.streets)) }
        r = stream(.mapCode)
        if r.chance(0.5) {
            let page = r.between(1100, 1360)
            let column = ["A", "B", "C", "D", "E", "F", "G", "H", "J"][r.below(9)]
            rec.put(.mapCode, "\(page)-\(column)\(r.between(1, 7))")
        }
        r = stream(.apn)
        let book = r.between(100, 679), page = r.between(10, 990)
        let parcel = FixtureClock.pad(r.between(1, 99)), sub = FixtureClock.pad(r.below(100))
        rec.put(.apn, "\(book)-\(page)-\(parcel)-\(sub)")
        r = stream(.subdivision)
        if r.chance(0.5) { rec.put(.subdivision, r.pick(FixtureMarket.subdivisions)) }
        r = stream(.complexName)
        if isCondo && r.chance(0.7) {
            let name = r.pick(FixtureMarket.subdivisions)
            rec.put(.complexName, "The \(name) \(["Villas", "Lofts", "Terraces", "Residences"][r.below(4)])")
        }
    }

    private func writeText(_ city: FixtureMarket.City, into rec: inout FixtureRecord) {
        var r = stream(.publicRemarks)
        let target = r.between(100, 600)
        var m = rec.mark
        var length = 0
        var first = true
        var used: [Int] = []
        while true {
            var pick = r.below(FixtureMarket.phrases.count)
            while used.contains(pick) { pick = r.below(FixtureMarket.phrases.count) }
            used.append(pick)
            let phrase = FixtureMarket.phrases[pick]
            let n = phrase.utf8.count + (first ? 0 : 1)
            if length >= 100 && length + n > target { break }
            if !first { rec.append(" ") }
            rec.append(phrase)
            length += n
            first = false
        }
        rec.close(.publicRemarks, from: m)
        r = stream(.realtorRemarks)
        let notes = r.weighted([30, 50, 20])
        if notes > 0 {
            m = rec.mark
            for i in 0..<notes {
                if i > 0 { rec.append(" ") }
                rec.append(r.pick(FixtureMarket.privateNotes))
            }
            rec.close(.realtorRemarks, from: m)
        }
        r = stream(.directions)
        if r.chance(0.85) {
            let freeway = ["I-5", "I-8", "I-15", "I-805", "SR-163", "SR-52", "SR-78", "SR-94", "SR-125"][r.below(9)]
            let turn = r.chance(0.5) ? "left" : "right"
            let exit = r.pick(FixtureMarket.streets)
            let heading = ["east", "west", "north", "south"][r.below(4)]
            let street = r.pick(FixtureMarket.streets)
            let text = "\(freeway) to \(exit), \(heading) — \(turn) on \(street) to the property on the \(turn)."
            rec.put(.directions, text)
        }
        putPick(.ftrToshow, FixtureMarket.showing, into: &rec)
        r = stream(.ownerName)
        if r.chance(0.7) { rec.put(.ownerName, r.pick(FixtureMarket.ownerNames)) }
        r = stream(.virtualTourURL)
        if r.chance(0.4) { rec.put(.virtualTourURL, "https://tours.example.com/view?mls=\(mlsNumber)&branded=0") }
        r = stream(.photoCount)
        rec.putInt(.photoCount, r.between(0, 60))
    }

    private func writeAgent(into rec: inout FixtureRecord) {
        var r = stream(.laId)
        let agent = FixtureAgent.pool[r.below(FixtureAgent.poolSize)]
        rec.put(.laId, agent.id)
        rec.put(.laFirstName, agent.firstName)
        rec.put(.laLastName, agent.lastName)
        rec.put(.laCarPhone, agent.carPhone)
        rec.put(.laPhoneDirectOffice, agent.directPhone)
        rec.put(.laMemberEmail, agent.email)
        rec.put(.loId, agent.officeID)
        rec.put(.loName, agent.officeName)
    }

    private func writeExtras(_ city: FixtureMarket.City, into rec: inout FixtureRecord) {
        let modifiedDay = FixtureClock.floorDiv(modified, 86400)
        var r = stream(.dom)
        let dom = max(0, (status == .sold ? soldDay : modifiedDay) - listDay)
        rec.putInt(.dom, dom)
        rec.putInt(.cdom, dom + (r.chance(0.2) ? r.between(1, 200) : 0))
        r = stream(.pool)
        if !isLand { rec.put(.pool, r.pick(FixtureMarket.pools)) }
        r = stream(.spa)
        if !isLand && r.chance(0.7) { rec.put(.spa, r.chance(0.3) ? "Yes" : "No") }
        putPick(.view, FixtureMarket.views, into: &rec)
        r = stream(.hoaFee)
        if isCondo || r.chance(0.2) {
            rec.putInt(.hoaFee, isCondo ? r.between(180, 900) : r.between(30, 250))
            rec.put(.hoaFrequency, r.pick(FixtureMarket.hoaFrequencies))
        }
        rec.put(.schoolDistrict, city.district)
        r = stream(.elementarySchool)
        if r.chance(0.6) { rec.put(.elementarySchool, r.pick(FixtureMarket.schools)) }
        r = stream(.highSchool)
        if r.chance(0.6) { rec.put(.highSchool, r.pick(FixtureMarket.schools)) }
        if !isLand {
            putPick(.roof, FixtureMarket.roofs, into: &rec)
            putPick(.heating, FixtureMarket.heatings, into: &rec)
            putPick(.cooling, FixtureMarket.coolings, into: &rec)
            putPick(.laundry, FixtureMarket.laundries, into: &rec)
            putPick(.flooring, FixtureMarket.floorings, into: &rec)
            r = stream(.appliances)
            let m = rec.mark
            let all = FixtureMarket.appliances
            var first = true
            for item in all where r.chance(0.5) {
                if !first { rec.append(",") }
                rec.append(item)
                first = false
            }
            rec.close(.appliances, from: m)
            putPick(.exterior, FixtureMarket.exteriors, into: &rec)
            putPick(.construction, FixtureMarket.constructions, into: &rec)
            putPick(.style, FixtureMarket.styles, into: &rec)
            r = stream(.solar)
            rec.put(.solar, ["Owned", "Leased", "None", "", "Power Purchase Agreement"][r.below(5)])
        }
        putPick(.zoning, FixtureMarket.zonings, into: &rec)
        putPick(.sewer, FixtureMarket.sewers, into: &rec)
        putPick(.water, FixtureMarket.waters, into: &rec)
        putPick(.lotDescription, FixtureMarket.lotDescriptions, into: &rec)
        r = stream(.seniorCommunity)
        rec.put(.seniorCommunity, r.chance(0.05) ? "Yes" : "No")
        r = stream(.taxRate)
        let m = rec.mark
        rec.appendFixed(r.between(1050, 1350), places: 3)
        rec.append("%")
        rec.close(.taxRate, from: m)
        r = stream(.melloRoos)
        rec.put(.melloRoos, r.chance(0.15) ? "Yes" : "No")
        putPick(.listingTerms, FixtureMarket.listingTerms, into: &rec)
        putPick(.occupancy, FixtureMarket.occupancies, into: &rec)
        r = stream(.internetDisplay)
        rec.put(.internetDisplay, r.chance(0.95) ? "Y" : "N")
    }
}
