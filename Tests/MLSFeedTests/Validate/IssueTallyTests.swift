import Testing
@testable import MLSFeed

/// Issues counted by field and rule, and unknown enum values by value too, with a bound on the values kept.
@Suite struct IssueTallyTests {
    @Test func valuesAreCountedOneByOneUpToTheBoundThenTogether() {
        var first = IssueTally()
        var second = IssueTally()
        let limit = IssueTally.valuesPerRule
        for index in 0..<limit {
            first.add(field: "property_type", rule: "unknown value", example: "V\(index)", byValue: true)
        }
        first.add(field: "property_type", rule: "unknown value", example: "V0", byValue: true)
        second.add(field: "property_type", rule: "unknown value", example: "Extra1", byValue: true)
        second.add(field: "property_type", rule: "unknown value", example: "Extra2", byValue: true)
        second.add(field: "property_type", rule: "unknown value", example: "V1", byValue: true)
        second.add(field: "list_price", rule: "not a price", example: "a")
        second.add(field: "list_price", rule: "not a price", example: "b")
        first.merge(second)
        let lines = first.lines
        #expect(lines.count == limit + 2)
        #expect(lines.first == #"list_price: 2 not a price ("a")"#)
        #expect(lines.contains(#"property_type: 2 unknown value ("V0")"#))
        #expect(lines.contains(#"property_type: 2 unknown value ("V1")"#))
        #expect(lines.last == #"property_type: 2 unknown value, other values ("Extra1")"#)
    }
}
