import Testing
@testable import YAMLConfig

@Suite struct YAMLDocumentTests {
    // MARK: - Structure and positions

    @Test func buildsATreeWithOneBasedMarks() throws {
        let root = try YAMLDocument.parse("name: x\nlist:\n  - 1\n  - two\n", file: "f.yaml", environment: [:])
        guard case .mapping(let entries) = root.kind else {
            Issue.record("expected a mapping")
            return
        }
        #expect(entries.map(\.key) == ["name", "list"])
        #expect(entries.map(\.keyMark) == [Mark(line: 1, column: 1), Mark(line: 2, column: 1)])
        #expect(entries[0].value.mark == Mark(line: 1, column: 7))
        guard case .sequence(let items) = entries[1].value.kind else {
            Issue.record("expected a sequence")
            return
        }
        #expect(items.map(\.mark) == [Mark(line: 3, column: 5), Mark(line: 4, column: 5)])
        #expect(items.map(\.isPlainScalar) == [true, true])
    }

    @Test(arguments: [("a", true), ("'a'", false), ("\"a\"", false), ("!!str a", false), ("|\n  a", false)])
    func plainness(yaml: String, isPlain: Bool) throws {
        #expect(try value(yaml).node.isPlainScalar == isPlain)
    }

    @Test(arguments: [("~", true), ("null", true), ("NULL", true), ("", true), ("'~'", false), ("!!str null", false),
                      ("nul", false), ("0", false)])
    func nullness(yaml: String, isNull: Bool) throws {
        #expect(try value(yaml).node.isNull == isNull)
    }

    @Test(arguments: ["", "# only a comment\n", "~\n", "---\n"])
    func emptyDocumentIsAnEmptyMapping(text: String) throws {
        #expect(try document(text).entries().isEmpty)
    }

    @Test func aSecondDocumentIsAnError() {
        #expect(failure { _ = try document("a: 1\n---\nb: 2\n") }
            == "f.yaml:2:1: error: a file may hold only one YAML document")
    }

    @Test func anExplicitSingleDocumentIsFine() throws {
        #expect(try document("---\na: 1\n...\n").required("a").int() == 1)
    }

    // MARK: - Syntax errors from libyaml

    @Test(arguments: [
        ("key: value: other\n", "f.yaml:1:11: error: mapping values are not allowed in this context"),
        ("a: [1, 2\nb: 3\n",
         "f.yaml:2:2: error: did not find expected ',' or ']' (while parsing a flow sequence at line 1, column 4)"),
        ("a:\n\tb: 1\n",
         "f.yaml:2:1: error: found character that cannot start any token (while scanning for the next token)"),
        ("a: \"open\n",
         "f.yaml:2:1: error: found unexpected end of stream (while scanning a quoted scalar at line 1, column 4)"),
        ("a: 1\n b: 2\n", "f.yaml:2:3: error: mapping values are not allowed in this context"),
        ("a: \u{1}\n", "f.yaml:1:4: error: control characters are not allowed"),
    ])
    func syntaxErrors(text: String, expected: String) {
        #expect(failure { _ = try YAMLDocument.parse(text, file: "f.yaml", environment: [:]) } == expected)
    }

    @Test func invalidUTF8IsAReaderErrorWithAPosition() {
        let bytes: [UInt8] = Array("a: 1\nbé: ".utf8) + [0xFF]
        #expect(failure { _ = try YAMLDocument.parse(bytes: bytes, file: "f.yaml", environment: [:]) }
            == "f.yaml:2:5: error: invalid leading UTF-8 octet")
    }

    // MARK: - Checks libyaml does not make

    @Test func duplicateKey() {
        #expect(failure { _ = try document("source: a\nformat: b\nsource: c\n") }
            == "f.yaml:3:1: error: source: duplicate key \"source\" (first at line 1)")
    }

    @Test func duplicateKeyInANestedMapping() {
        #expect(failure { _ = try document("stages:\n  load: {a: 1, a: 2}\n") }
            == "f.yaml:2:16: error: stages.load.a: duplicate key \"a\" (first at line 2)")
    }

    @Test func sameKeyInDifferentMappingsIsFine() throws {
        let root = try document("a:\n  x: 1\nb:\n  x: 2\n")
        #expect(try root.required("b").required("x").int() == 2)
    }

    @Test(arguments: [
        ("? [a, b]\n: 1\n", "f.yaml:1:3: error: mapping keys must be scalars"),
        ("top:\n  {[a]: 1}\n", "f.yaml:2:4: error: top: mapping keys must be scalars"),
    ])
    func nonScalarKeys(text: String, expected: String) {
        #expect(failure { _ = try document(text) } == expected)
    }

    @Test func tooDeeplyNested() {
        let text = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(failureMessage { _ = try document(text) } == "nesting too deep (more than 100 levels)")
    }

    // MARK: - Anchors, aliases, merge keys

    @Test func aliasesAreExpanded() throws {
        let root = try document("base: &b\n  host: db\n  port: 5432\ncopy: *b\nn: &n 7\nm: *n\n")
        #expect(try root.required("copy").required("host").string() == "db")
        #expect(try root.required("copy").required("port").int() == 5432)
        let m = try root.required("m")
        #expect(try m.int() == 7)
        #expect(m.mark == Mark(line: 6, column: 4))
    }

    @Test func anAliasKeyIsItsScalar() throws {
        let root = try document("k: &k name\nmap:\n  *k : value\n")
        #expect(try root.required("map").required("name").string() == "value")
    }

    @Test func anAnchoredKeyCanBeReused() throws {
        let root = try document("&k name: 1\nother: *k\n")
        #expect(try root.required("other").string() == "name")
    }

    @Test func unknownAlias() {
        #expect(failure { _ = try document("a: 1\nb: *nope\n") } == "f.yaml:2:4: error: b: unknown alias \"*nope\"")
    }

    @Test func aliasToItselfIsUnknown() {
        #expect(failure { _ = try document("a: &x [1, *x]\n") } == "f.yaml:1:11: error: a[1]: unknown alias \"*x\"")
    }

    @Test func mergeKeys() throws {
        let text = """
            defaults: &d
              batch_size: 500
              upsert: true
            extra: &e
              retries: 3
              upsert: false
            load:
              <<: [*d, *e]
              batch_size: 1000
            """
        let load = try document(text).required("load")
        #expect(try load.entries().map(\.key) == ["upsert", "retries", "batch_size"])
        #expect(try load.required("batch_size").int() == 1000)
        #expect(try load.required("upsert").bool() == true)
        #expect(try load.required("retries").int() == 3)
    }

    @Test func quotedMergeKeyIsAnOrdinaryKey() throws {
        let root = try document("d: &d {a: 1}\nm:\n  '<<': *d\n")
        #expect(try root.required("m").entries().map(\.key) == ["<<"])
    }

    @Test func mergeOfAScalarIsAnError() {
        #expect(failure { _ = try document("m:\n  <<: 5\n") }
            == "f.yaml:2:7: error: a merge key \"<<\" needs a mapping or a list of mappings")
    }

    @Test func billionLaughsFailsFast() {
        let text = """
            a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
            b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
            c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
            d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
            e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
            f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
            g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
            h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
            i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
            """
        let clock = ContinuousClock()
        var result = ""
        let elapsed = clock.measure {
            result = failure { _ = try document(text) }
        }
        #expect(result == "f.yaml:5:8: error: e[0]: too many alias expansions (more than 10000 nodes)")
        #expect(elapsed < .seconds(1))
    }

    @Test func manySmallAliasesWithinTheBudgetAreFine() throws {
        let text = "x: &x [1, 2, 3]\nlist:\n" + String(repeating: "  - *x\n", count: 2000)
        #expect(try document(text).required("list").array().count == 2000)
    }

    // MARK: - Environment variables

    @Test func environmentVariablesAreExpanded() throws {
        let text = "host: ${PGHOST}\nport: ${PGPORT:-5432}\nurl: 'postgres://${PGHOST}/mls'\nlit: $${HOME}\n"
        let root = try document(text, environment: ["PGHOST": "db.local"])
        #expect(try root.required("host").string() == "db.local")
        #expect(try root.required("port").int() == 5432)
        #expect(try root.required("url").string() == "postgres://db.local/mls")
        #expect(try root.required("lit").string() == "${HOME}")
    }

    @Test func missingEnvironmentVariable() {
        #expect(failure { _ = try document("db:\n  password: ${PGPASSWORD}\n") }
            == "f.yaml:2:13: error: db.password: environment variable PGPASSWORD is not set")
    }

    @Test func anExpandedValueIsTakenLiterally() throws {
        let root = try document("a: ${X}\nb: ${Y:-}\n", environment: ["X": "null"])
        #expect(try root["a"]?.string() == "null")
        #expect(try root["b"]?.string() == "")
    }

    @Test func keysAreNotExpanded() throws {
        let root = try document("${K}: 1\n")
        #expect(try root.entries().map(\.key) == ["${K}"])
    }

    // MARK: - Files

    @Test func loadsTheFixturePipeline() throws {
        let path = fixturePath("pipeline.yaml")
        let root = ConfigNode(try YAMLDocument.load(path: path, environment: [:]), file: path)
        try root.keys(allowed: ["source", "format", "input", "defaults", "stages", "mapping", "timezone", "notes"])
        #expect(try root.required("format").string() == "triples")
        let input = try root.required("input")
        #expect(try input.required("path").string() == "/var/feeds/sdmls.xml")
        #expect(try input.required("encoding").string() == "UTF-8")
        #expect(try input.required("sanitize").bool() == true)
        let load = try root.required("stages").required("load")
        #expect(try load.entries().map(\.key) == ["upsert", "batch_size"])
        #expect(try load.required("batch_size").int() == 1000)
        #expect(try load.required("upsert").bool() == true)
        let required = try root.required("stages").required("validate").required("required").stringList()
        #expect(required == ["listing_id", "standard_status", "list_price"])
        let mapping = try root.required("mapping").array()
        #expect(mapping.count == 2)
        #expect(mapping[1].path == "mapping[1]")
        #expect(try mapping[1].required("source").string() == "la_first_name")
        #expect(root["notes"] == nil)
    }

    @Test func fixtureUsesTheEnvironment() throws {
        let root = try ConfigNode.load(path: fixturePath("pipeline.yaml"), environment: ["FEED_DIR": "/srv/in"])
        #expect(try root.required("input").required("path").string() == "/srv/in/sdmls.xml")
    }

    @Test func fixtureWithAWrongType() throws {
        let path = fixturePath("bad-type.yaml")
        let root = try ConfigNode.load(path: path, environment: [:])
        let size = try root.required("stages").required("load").required("batch_size")
        #expect(failure { _ = try size.int() }
            == "\(path):4:17: error: stages.load.batch_size: expected an integer, got \"lots\"")
    }

    @Test func commentOnlyFixtureIsEmpty() throws {
        #expect(try ConfigNode.load(path: fixturePath("empty.yaml"), environment: [:]).entries().isEmpty)
    }

    @Test func unreadableFiles() {
        #expect(failure { _ = try YAMLDocument.load(path: "/nonexistent/x.yaml", environment: [:]) }
            == "/nonexistent/x.yaml: error: no such file")
        let directory = fixturePath("")
        #expect(failure { _ = try YAMLDocument.load(path: directory, environment: [:]) }
            == "\(directory): error: is a directory, not a YAML file")
    }

    @Test func errorDescriptionWithoutPath() {
        let error = ConfigError(file: "c.yaml", line: 3, column: 5, message: "boom")
        #expect(error.description == "c.yaml:3:5: error: boom")
        #expect(ConfigError(file: "c.yaml", line: 3, column: 5, path: "a.b", message: "boom").description
            == "c.yaml:3:5: error: a.b: boom")
    }
}
