import Testing
@testable import YAMLConfig

@Suite struct ConfigNodeTests {
    @Test(arguments: [("42", 42), ("-7", -7), ("+3", 3), ("0", 0), ("\"12\"", 12), ("'9'", 9)])
    func integers(yaml: String, expected: Int) throws {
        #expect(try value(yaml).int() == expected)
    }

    @Test(arguments: [
        ("lots", "expected an integer, got \"lots\""),
        ("4.5", "expected an integer, got \"4.5\""),
        ("99999999999999999999", "expected an integer, got \"99999999999999999999\""),
        ("[1]", "expected an integer, got a list"),
        ("{a: 1}", "expected an integer, got a mapping"),
    ])
    func integerErrors(yaml: String, message: String) throws {
        let node = try value(yaml)
        #expect(failureMessage { _ = try node.int() } == message)
    }

    @Test(arguments: [("1.5", 1.5), ("-2e3", -2000.0), ("7", 7.0), ("0.25", 0.25), (".inf", Double.infinity)])
    func doubles(yaml: String, expected: Double) throws {
        #expect(try value(yaml).double() == expected)
    }

    @Test(arguments: [
        ("abc", "expected a number, got \"abc\""),
        ("nan", "expected a number, got \"nan\""),
        ("0x10", "expected a number, got \"0x10\""),
        ("1.2.3", "expected a number, got \"1.2.3\""),
        ("[1]", "expected a number, got a list"),
    ])
    func doubleErrors(yaml: String, message: String) throws {
        let node = try value(yaml)
        #expect(failureMessage { _ = try node.double() } == message)
    }

    @Test(arguments: [
        ("true", true), ("True", true), ("YES", true), ("on", true),
        ("false", false), ("no", false), ("Off", false), ("\"no\"", false),
    ])
    func booleans(yaml: String, expected: Bool) throws {
        #expect(try value(yaml).bool() == expected)
    }

    @Test(arguments: [
        ("maybe", "expected true or false, got \"maybe\""),
        ("1", "expected true or false, got \"1\""),
        ("'say \"hi\"'", "expected true or false, got \"say \\\"hi\\\"\""),
        ("{a: 1}", "expected true or false, got a mapping"),
    ])
    func booleanErrors(yaml: String, message: String) throws {
        let node = try value(yaml)
        #expect(failureMessage { _ = try node.bool() } == message)
    }

    @Test(arguments: [
        ("plain text", "plain text"), ("'42'", "42"), ("\"a\\tb\"", "a\tb"), ("|\n  two\n  lines", "two\nlines"),
    ])
    func strings(yaml: String, expected: String) throws {
        #expect(try value(yaml).string() == expected)
    }

    @Test func stringOfAListIsAnError() throws {
        let node = try value("[a]")
        #expect(failure { _ = try node.string() } == "f.yaml:1:4: error: v: expected a scalar")
    }

    @Test func oneOfPicksTheMatchingValue() throws {
        let formats = [("triples", 1), ("rets", 2), ("columns", 3)]
        #expect(try value("rets").oneOf(formats) == 2)
        let node = try value("xml")
        #expect(failure { _ = try node.oneOf(formats) }
            == "f.yaml:1:4: error: v: expected one of: triples, rets, columns, got \"xml\"")
    }

    @Test(arguments: [("a", ["a"]), ("[a, b]", ["a", "b"]), ("[]", []), ("\"x y\"", ["x y"]), ("~", []), ("''", [""])])
    func stringLists(yaml: String, expected: [String]) throws {
        #expect(try value(yaml).stringList() == expected)
    }

    @Test func stringListErrors() throws {
        let mapping = try value("{a: 1}")
        #expect(failure { _ = try mapping.stringList() } == "f.yaml:1:4: error: v: expected a list")
        let nested = try value("[a, [b]]")
        #expect(failure { _ = try nested.stringList() } == "f.yaml:1:8: error: v[1]: expected a scalar")
    }

    @Test func arrayDoesNotPromoteAScalar() throws {
        let node = try value("a")
        #expect(failure { _ = try node.array() } == "f.yaml:1:4: error: v: expected a list")
        let items = try value("[x, y]").array()
        #expect(items.map(\.path) == ["v[0]", "v[1]"])
    }

    @Test func subscriptSkipsAbsentAndNullValues() throws {
        let root = try document("a: ~\nb: null\nc:\nd: \"~\"\ne: ''\nf: 0\n")
        #expect(root["a"] == nil)
        #expect(root["b"] == nil)
        #expect(root["c"] == nil)
        #expect(root["zz"] == nil)
        #expect(try root["d"]?.string() == "~")
        #expect(try root["e"]?.string() == "")
        #expect(try root["f"]?.int() == 0)
        #expect(try root.entries().map(\.key) == ["a", "b", "c", "d", "e", "f"])
    }

    @Test func missingRequiredKey() throws {
        let root = try document("source: x\nstages:\n  load:\n    upsert: true\n")
        #expect(failure { _ = try root.required("format") } == "f.yaml:1:1: error: missing required key \"format\"")
        let load = try root.required("stages").required("load")
        #expect(failure { _ = try load.required("batch_size") }
            == "f.yaml:4:5: error: stages.load: missing required key \"batch_size\"")
        #expect(try load.required("upsert").bool() == true)
    }

    @Test func requiredNullValueIsMissing() throws {
        let root = try document("source: x\nformat:\n")
        #expect(failure { _ = try root.required("format") } == "f.yaml:1:1: error: missing required key \"format\"")
    }

    @Test func wrongTypeDeepInTheTree() throws {
        let root = try document("source: x\nstages:\n  load:\n    batch_size: lots\n")
        let size = try root.required("stages").required("load").required("batch_size")
        #expect(failure { _ = try size.int() }
            == "f.yaml:4:17: error: stages.load.batch_size: expected an integer, got \"lots\"")
    }

    @Test func unknownKeyWithSuggestion() throws {
        let root = try document("stages:\n  fetch: {}\n  lod:\n    batch_size: 5\n")
        let stages = try root.required("stages")
        #expect(failure { try stages.keys(allowed: ["fetch", "parse", "load"]) }
            == "f.yaml:3:3: error: stages.lod: unknown key \"lod\"; did you mean \"load\"?")
    }

    @Test func unknownKeyWithoutSuggestion() throws {
        let root = try document("source: x\nwhatever: 1\n")
        #expect(failure { try root.keys(allowed: ["source", "format", "stages"]) }
            == "f.yaml:2:1: error: whatever: unknown key \"whatever\"; expected one of: source, format, stages")
    }

    @Test func unknownKeyWhereNoKeysAreAllowed() throws {
        let root = try document("x: 1\n")
        #expect(failure { try root.keys(allowed: []) } == "f.yaml:1:1: error: x: unknown key \"x\"")
    }

    @Test func allowedKeysPass() throws {
        let root = try document("source: x\nformat: rets\n")
        try root.keys(allowed: ["source", "format", "stages"])
    }

    @Test func keysOnAScalarIsAnError() throws {
        let node = try value("5")
        #expect(failure { try node.keys(allowed: ["a"]) } == "f.yaml:1:4: error: v: expected a mapping")
        #expect(failure { _ = try node.entries() } == "f.yaml:1:4: error: v: expected a mapping")
    }

    @Test func nestedPathsWithSequenceIndexes() throws {
        let text = """
            mapping:
              - source: lp
                target: list_price
              - source: beds
                target: [1]
              - source: baths
                tagret: bathrooms_full
            """
        let items = try document(text).required("mapping").array()
        #expect(try items[0].required("target").string() == "list_price")
        #expect(failure { _ = try items[1].required("target").string() }
            == "f.yaml:5:13: error: mapping[1].target: expected a scalar")
        #expect(failure { try items[2].keys(allowed: ["source", "target"]) }
            == "f.yaml:7:5: error: mapping[2].tagret: unknown key \"tagret\"; did you mean \"target\"?")
    }

    @Test func errorAtANodeUsesItsPath() throws {
        let port = try document("db:\n  port: 99999\n").required("db").required("port")
        #expect(port.error("port out of range").description == "f.yaml:2:9: error: db.port: port out of range")
    }

    @Test func loadReturnsACursorAtTheRoot() throws {
        let path = fixturePath("pipeline.yaml")
        let root = try ConfigNode.load(path: path, environment: [:])
        #expect(root.path == "")
        #expect(root.file == path)
        #expect(try root.required("source").string() == "sdmls")
    }
}
