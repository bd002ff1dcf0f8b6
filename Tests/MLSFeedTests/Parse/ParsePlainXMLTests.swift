import Foundation
import Testing
import MLSFeed

@Suite struct ParsePlainXMLTests {
    @Test func attributesAreFields() throws {
        var plain = PlainXMLSettings()
        plain.recordElement = "location"
        let (records, _) = try ParseFixture.read("plain-locations.xml", ParseSettings(format: .xml(plain)))
        #expect(records.map(\.pairs) == [
            ["lat=37.33", "lon=-122.03", "name=Peets & Co", "d=0.07"],
            ["lat=32.75", "lon=-117.16", "name=Café Ñ", "d=1.5"],
        ])
        #expect(records.map(\.place) == ["3:3", "4:3"])
    }

    @Test func childrenAreFieldsAndRepeatedChildrenRepeatTheKey() throws {
        let (records, _) = try ParseFixture.read("plain-listings.xml", ParseFixture.xml)
        #expect(records.map(\.pairs) == [
            ["status=Active", "ListingId=230012345", "ListPrice=549000", "Feature=Pool", "Feature=Spa",
             "Remarks=Big & <bright> é", "Unit="],
            ["ListingId=230012346", "Price=600000"],
        ])
        #expect(records.map(\.ordinal) == [0, 1])
        #expect(records.map(\.place) == ["4:3", "12:3"])
        #expect(records[0].value("Feature") == "Pool")
    }
}
