import Testing
@testable import YAMLConfig

@Suite struct EnvironmentExpanderTests {
    static let environment = ["A": "x", "EMPTY": "", "DIR": "/data"]

    @Test(arguments: [
        ("${A}", "x"),
        ("pre-${A}-post", "pre-x-post"),
        ("${MISSING:-fallback}", "fallback"),
        ("${EMPTY:-fallback}", "fallback"),
        ("${EMPTY}", ""),
        ("${MISSING:-}", ""),
        ("${MISSING:-a:-b}", "a:-b"),
        ("$${A}", "${A}"),
        ("$${A} and ${A}", "${A} and x"),
        ("${DIR}/${A}.xml", "/data/x.xml"),
    ])
    func expands(text: String, expected: String) throws {
        #expect(try EnvironmentExpander(environment: Self.environment).expand(text) == expected)
    }

    @Test(arguments: ["cost $5", "$$x", "plain", "{A}"])
    func leavesTextWithoutBracesAlone(text: String) throws {
        #expect(try EnvironmentExpander(environment: Self.environment).expand(text) == nil)
    }

    @Test(arguments: [
        ("${NOPE}", "environment variable NOPE is not set"),
        ("${A", "unterminated \"${\" (missing \"}\")"),
        ("${}", "invalid environment variable name \"\""),
        ("${1A}", "invalid environment variable name \"1A\""),
        ("${A B}", "invalid environment variable name \"A B\""),
    ])
    func failures(text: String, message: String) {
        let expander = EnvironmentExpander(environment: Self.environment)
        #expect(throws: EnvironmentExpander.Failure.self) { _ = try expander.expand(text) }
        do {
            _ = try expander.expand(text)
        } catch {
            #expect(error.message == message)
        }
    }
}
