import Testing
@testable import MLSFeed

@Suite struct RetentionAgeTests {
    @Test(arguments: [
        ("180d", Int64(15_552_000)), ("12h", 43_200), ("2w", 1_209_600), ("30m", 1800), ("45s", 45), ("1d", 86_400),
    ])
    func agesInTheirUnits(text: String, seconds: Int64) throws {
        let age = try #require(RetentionAge(text))
        #expect(age.seconds == seconds)
        #expect(age.description == text)
    }

    @Test(arguments: ["", "d", "0d", "-1d", "1.5d", "90", "90D", "90 d", "d90", "１d", "99999999999999999d",
                      "400000w"])
    func notAnAge(text: String) {
        #expect(RetentionAge(text) == nil)
    }
}
