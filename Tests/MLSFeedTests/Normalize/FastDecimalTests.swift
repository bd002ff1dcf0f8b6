import Testing
@testable import MLSFeed

@Suite struct FastDecimalTests {
    /// The largest hundredths value rounded up overflowed Int64 and trapped (found reading the code while writing
    /// the coerce fuzz target, which then reproduced it); it is "not a number" like any other overflow.
    @Test(arguments: [
        ("decimal", "92233720368547758.075", "not a number"),
        ("integer", "92233720368547758.075", "not an integer"),
        ("money", "92233720368547758.075", "not a price"),
        ("money", "$92,233,720,368,547.758075M", "not a price"),
    ])
    func roundingUpPastTheLargestValueFails(type: String, raw: String, rule: String) {
        #expect(throws: CoercionFailure(rule)) {
            switch type {
            case "decimal": _ = try Coercion.decimal(raw)
            case "integer": _ = try Coercion.integer(raw)
            default: _ = try Coercion.money(raw)
            }
        }
    }

    /// Just below, the same numbers round up and fit.
    @Test(arguments: [
        ("92233720368547758.065", "92233720368547758.07"), ("92233720368547758.074", "92233720368547758.07"),
    ])
    func roundingUpBelowTheLargestValueFits(raw: String, expected: String) throws {
        #expect(try Coercion.decimal(raw) == expected)
    }
}
