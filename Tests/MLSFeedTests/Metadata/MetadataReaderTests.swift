import Foundation
import Testing
@testable import MLSFeed

/// Reading RESO `$metadata` (EDMX) and RETS METADATA replies (COMPACT, STANDARD-XML) with the streaming parser.
@Suite struct MetadataReaderTests {
    @Test func edmxEntityTypesWithTheirFieldsEnumTypesAndNavigation() throws {
        let document = try MetadataFixture.read("reso-metadata.xml")
        #expect(document.format == .edmx)
        #expect(document.provenance == "Version=4.0")
        #expect(document.tables.map(\.resource) == ["Property", "Member", "Media"])
        let property = try document.table(resource: "property", className: nil)
        #expect(property.qualifiedNames == ["org.reso.metadata.Property"])
        #expect(property.fields.count == 38)
        func field(_ name: String) throws -> MetadataField {
            try #require(property.fields.first { $0.name == name })
        }
        #expect(try field("ListPrice") == MetadataField(name: "ListPrice", displayName: "List Price", kind: .decimal,
                                                       typeLabel: "Edm.Decimal"))
        #expect(try field("ModificationTimestamp").kind == .timestamp)
        #expect(try field("ListingContractDate").kind == .date)
        #expect(try field("BedroomsTotal").kind == .integer)
        #expect(try field("PoolPrivateYN").kind == .boolean)
        #expect(try field("City") == MetadataField(name: "City", kind: .text, typeLabel: "Edm.String, lookup City",
                                                  lookupName: "City"))
        let status = try field("StandardStatus")
        #expect(status.lookup == "org.reso.metadata.enums.StandardStatus" && status.lookupName == "StandardStatus")
        #expect(status.kind == .text && !status.isMultiValued)
        #expect(try field("Appliances").isMultiValued)
        #expect(property.navigations.map(\.name) == ["ListAgent", "Media"])
        #expect(property.navigations.map(\.target) == ["org.reso.metadata.Member", "org.reso.metadata.Media"])
        #expect(property.navigations.map(\.isCollection) == [false, true])

        // Display names from StandardName (attribute or element form) and from a short Core.Description only.
        let types = try #require(document.lookups["org.reso.metadata.enums.PropertyType"])
        let words = Dictionary(uniqueKeysWithValues: types.entries.map { ($0.canonical, $0.words) })
        #expect(words["CommercialSale"] == ["CommercialSale", "Commercial Sale"])
        #expect(words["CommercialLease"] == ["CommercialLease", "Commercial Lease"])
        #expect(words["Land"] == ["Land"])
        #expect(words["Farm"] == ["Farm"])
    }

    @Test func retsCompactTableAndLookupsFromASecondFile() throws {
        var document = try MetadataFixture.read("rets-table-compact.xml")
        #expect(document.format == .retsCompact)
        #expect(document.lookups.isEmpty)
        let table = try document.table(resource: "Property", className: nil)
        #expect(table.className == "RES")
        #expect(table.provenance == "Resource=Property Class=RES Version=1.8.00012 Date=2026-01-15T08:30:00Z")
        #expect(table.fields.count == 30)
        #expect(table.fields[1] == MetadataField(name: "LIST_15", standardName: "StandardStatus", displayName: "Status",
                                                 kind: .text, typeLabel: "Character", lookup: "Property:ListingStatus",
                                                 lookupName: "ListingStatus"))
        #expect(table.fields[4].standardName == nil && table.fields[4].displayName == "Original List Price")
        #expect(table.fields.map(\.kind)[3...7] == [.decimal, .decimal, .date, .timestamp, .integer])
        #expect(table.fields.filter(\.isMultiValued).map(\.name) == ["LIST_7"])

        try document.addLookups(from: MetadataFixture.read("rets-lookups-compact.xml"))
        #expect(document.lookupFiles == ["rets-lookups-compact.xml"])
        #expect(document.lookups.keys.sorted()
            == ["Property:City", "Property:ListingStatus", "Property:LotFeatures", "Property:PropertyType"])
        let status = try #require(document.lookups["Property:ListingStatus"])
        #expect(status.entries.count == 8)
        #expect(status.entries[3] == MetadataLookup.Entry(canonical: "Sold", words: ["S", "Sold"]))
    }

    @Test func retsStandardXMLTablesOfTwoClassesWithLookupsInTheSameFile() throws {
        let document = try MetadataFixture.read("rets-standard-xml.xml")
        #expect(document.format == .retsStandardXML)
        #expect(document.tables.map { "\($0.resource):\($0.className ?? "")" } == ["Property:RE_1", "Property:LD_2"])
        #expect(document.tables.map(\.fields.count) == [15, 3])
        let residential = try document.table(resource: "Property", className: "re_1")
        #expect(residential.fields[2] == MetadataField(name: "L_AskingPrice", standardName: "ListPrice",
                                                       displayName: "Asking Price", kind: .decimal,
                                                       typeLabel: "Decimal"))
        #expect(residential.fields[14].displayName == "Owner's Association")
        let status = try #require(document.lookups["Property:Status"])
        #expect(status.entries[1] == MetadataLookup.Entry(canonical: "Under Contract - Showing",
                                                          words: ["AUC", "Active Under Contract",
                                                                  "Under Contract - Showing"]))
        #expect(throws: MetadataError("rets-standard-xml.xml: Property has several classes (RE_1, LD_2): choose one "
                                      + "with --class")) {
            try document.table(resource: "Property", className: nil)
        }
        #expect(throws: MetadataError("rets-standard-xml.xml: no class \"COM\" of Property (classes: RE_1, LD_2)")) {
            try document.table(resource: "Property", className: "COM")
        }
    }

    /// The reader holds no state across chunk boundaries that a split could break.
    @Test(arguments: ["reso-metadata.xml", "rets-table-compact.xml", "rets-lookups-compact.xml",
                      "rets-standard-xml.xml"])
    func everyChunkSizeReadsTheSameDocument(name: String) throws {
        let whole = try MetadataFixture.read(name)
        for chunk in [1, 2, 3, 7, 64, 1000] {
            let split = try MetadataFixture.read(name, chunk: chunk)
            #expect(split.tables == whole.tables, "chunk \(chunk)")
            #expect(split.lookups == whole.lookups, "chunk \(chunk)")
        }
    }

    /// A whole-system STANDARD-XML reply nests tables and lookups under the elements that name them.
    @Test func nestedStandardXMLTakesResourceClassAndLookupFromEnclosingElements() throws {
        let document = try MetadataReader.read(bytes: Array("""
            <RETS ReplyCode="0"><METADATA><METADATA-SYSTEM><System><SystemID>X</SystemID>
            <METADATA-RESOURCE><Resource><ResourceID>Property</ResourceID>
            <METADATA-CLASS><Class><ClassName>RES</ClassName>
            <METADATA-TABLE><Field><SystemName>MLS</SystemName><StandardName>ListingId</StandardName>
            <DataType>Character</DataType><LookupName/></Field></METADATA-TABLE></Class></METADATA-CLASS>
            <METADATA-LOOKUP><Lookup><LookupName>Yes_No</LookupName>
            <METADATA-LOOKUP_TYPE><LookupType><LongValue>Yes</LongValue><Value>1</Value></LookupType>
            </METADATA-LOOKUP_TYPE></Lookup></METADATA-LOOKUP></Resource></METADATA-RESOURCE>
            </System></METADATA-SYSTEM></METADATA></RETS>
            """.utf8), file: "system.xml")
        #expect(document.tables.map { "\($0.resource):\($0.className ?? "")" } == ["Property:RES"])
        #expect(document.tables.first?.fields.map(\.name) == ["MLS"])
        #expect(document.lookups["Property:Yes_No"]?.entries == [.init(canonical: "Yes", words: ["1", "Yes"])])
    }

    @Test(arguments: [
        ("<RETS ReplyCode=\"20503\" ReplyText=\"No Metadata Found\"/>",
         "m.xml:1:1: error: the RETS server replied 20503: No Metadata Found"),
        ("<RETS ReplyCode=\"0\">\n<METADATA-TABLE Resource=\"Property\" Class=\"RES\">\n"
            + "<COLUMNS>\tSystemName\tDataType\t</COLUMNS>\n<DATA>\tLIST_1\tCharacter\tExtra\t</DATA>\n"
            + "</METADATA-TABLE></RETS>",
         "m.xml:4:1: error: DATA has 3 fields, COLUMNS has 2"),
        ("<RETS ReplyCode=\"0\"><METADATA-TABLE Resource=\"Property\"><DATA>\tA\t</DATA></METADATA-TABLE></RETS>",
         "m.xml:1:57: error: DATA before COLUMNS"),
        ("<RETS ReplyCode=\"0\"><METADATA-TABLE Resource=\"Property\">\n<COLUMNS>\tLongName\t</COLUMNS>\n"
            + "<DATA>\tPrice\t</DATA></METADATA-TABLE></RETS>",
         "m.xml:3:1: error: a METADATA-TABLE field without a SystemName"),
        ("<RETS ReplyCode=\"0\">\n  <METADATA-TABLE Class=\"RES\"/></RETS>",
         "m.xml:2:3: error: METADATA-TABLE without a Resource attribute"),
        ("<RETS ReplyCode=\"0\"><DELIMITER value=\"zz\"/></RETS>",
         "m.xml:1:21: error: DELIMITER value \"zz\" is not a hex character code"),
        ("<RETS ReplyCode=\"0\"/>", "error: m.xml: no METADATA-TABLE or METADATA-LOOKUP_TYPE in the RETS reply"),
        ("<dump><listing/></dump>",
         "m.xml:1:1: error: expected RESO $metadata (edmx:Edmx) or a RETS METADATA reply (RETS), found dump"),
        ("<edmx:Edmx xmlns:edmx=\"e\"><edmx:DataServices><Schema Namespace=\"n\">\n<EntityType Name=\"P\">"
            + "<Property Type=\"Edm.String\"/></EntityType></Schema></edmx:DataServices></edmx:Edmx>",
         "m.xml:2:22: error: Property without a Name attribute"),
        ("{\"$Version\": \"4.01\"}",
         "m.xml:1:1: error: not an XML document: it starts with the bytes 7b 22 24 56 65 72 73 69, not \"<\""),
        ("<?xml version=\"1.0\"?>\n<!DOCTYPE RETS [<!ENTITY a \"aaaa\">]>\n<RETS>&a;</RETS>",
         "m.xml:2:17: error: entity declarations are not allowed (entity \"a\")"),
        // A truncated document fails at its end (after the last line break), wherever libxml2 stopped reading.
        ("<RETS ReplyCode=\"0\"><METADATA-TABLE Resource=\"P\">\n<COLUMNS>\tSystemName\t</COLUMNS>\n",
         "m.xml:3:1: error: Premature end of data in tag METADATA-TABLE line 1"),
        ("<RETS ReplyCode=\"0\"><METADATA-TABLE Resource=\"P\">\n<COLUMNS>\tSystemName\t</COLUMNS>",
         "m.xml:2:32: error: Premature end of data in tag METADATA-TABLE line 1"),
    ])
    func badDocumentsFailWithTheirPosition(text: String, message: String) {
        #expect(MetadataFixture.error(reading: text) == message)
    }
}
