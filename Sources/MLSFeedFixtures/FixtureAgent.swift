import MLSFeed

/// A listing agent of the generated market: a fixed pool, the same in every feed whatever the seed.
struct FixtureAgent {
    var id: String
    var firstName: String
    var lastName: String
    var carPhone: String
    var directPhone: String
    var email: String
    var officeID: String
    var officeName: String

    static let poolSize = 400

    static let pool: [FixtureAgent] = (0..<poolSize).map { make($0) }

    private static func make(_ k: Int) -> FixtureAgent {
        var r = FixtureRandom(0xA6E7, UInt64(k))
        let first = r.pick(FixtureMarket.firstNames)
        let last = r.pick(FixtureMarket.lastNames)
        let office = r.below(FixtureMarket.offices.count)
        let style = r.below(3)
        func phone(_ r: inout FixtureRandom) -> String {
            let area = r.pick(FixtureMarket.areaCodes)
            let line = FixtureClock.pad(r.below(100)) + FixtureClock.pad(r.below(100))
            switch style {
            case 0: return "(\(area)) 555-\(line)"
            case 1: return "\(area)-555-\(line)"
            default: return "\(area).555.\(line)"
            }
        }
        let car = phone(&r)
        let direct = r.chance(0.8) ? phone(&r) : ""
        let ascii = { (s: String) -> String in
            var out = ""
            for ch in s {
                switch ch {
                case "á", "à": out += "a"
                case "é", "è", "ë": out += "e"
                case "í": out += "i"
                case "ó", "ö": out += "o"
                case "ú", "ü": out += "u"
                case "ñ": out += "n"
                case "ç": out += "c"
                case "'", " ": break
                default: if ch.isASCII { out.append(ch) }
                }
            }
            return out
        }
        let domain = ["Example.com", "gmail.com", "compass.com", "exprealty.com", "BigBlockRealty.com"][r.below(5)]
        let email = r.chance(0.5)
            ? "\(ascii(first).prefix(1))\(ascii(last))@\(domain)"
            : "\(ascii(first).lowercased()).\(ascii(last).lowercased())@\(domain)"
        return FixtureAgent(id: "SDA\(10000 + k * 7)", firstName: first, lastName: last, carPhone: car,
                            directPhone: direct, email: email, officeID: "SDO\(100 + office)",
                            officeName: FixtureMarket.offices[office])
    }
}
