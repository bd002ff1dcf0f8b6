/// What the extractor reads from each structured record, compiled once per reader: the mapping's paths with their
/// names interned, the groups of embedded entries that repeat (`each:`, `rooms:`), and the names always written as
/// arrays in `extra`.
struct PathPlan: Sendable {
    /// One element step with interned names.
    struct Step: Sendable {
        /// The interned name, or -1 for `*` (any element).
        var name: Int32
        /// The namespace URI's id the element must have; nil: any namespace.
        var namespace: Int32?
        var predicate: (attribute: Int32, value: [UInt8])?
    }

    /// A compiled `RecordPath`.
    struct Path: Sendable {
        /// The path as written: the key of the raw field it fills.
        var text: String
        var steps: [Step]
        var attribute: Int32?
        /// For a plain name: the record's attribute of that name, read when no child element has the name.
        var fallbackAttribute: Int32?
        /// How many elements above the one it is read from the path starts (its leading `..` steps).
        var up = 0
        /// The path reads the name of the element it reaches (`name()`).
        var readsName = false
        /// Reads the element itself (`.`).
        var isSelf: Bool { steps.isEmpty && attribute == nil && up == 0 && !readsName }
    }

    /// An embedded entry with `each:` (or the mapping's `rooms:` and `unit_types:`): every element it matches (and
    /// `where` admits) is one child record.
    struct Group: Sendable {
        /// The entry's index in `Mapping.embedded` (`RawChild.roomsMapping`, `RawChild.unitTypesMapping`).
        var index: Int
        var each: Path
        /// Paths relative to the repeated element, with the trimmed text each must have (case-insensitive).
        var conditions: [Condition]
        /// The entry's field paths, relative to the repeated element.
        var paths: [Path]
        var firstSteps: FirstSteps
    }

    /// A `where` condition of an embedded entry: the text a path must read, trimmed, ignoring case.
    struct Condition: Sendable {
        var path: Path
        var value: String
        /// The value's bytes with A-Z folded to a-z when it is ASCII: an ASCII text is compared byte by byte.
        var asciiFolded: [UInt8]?

        init(path: Path, value: String) {
            self.path = path
            self.value = value
            asciiFolded = value.utf8.allSatisfy { $0 < 0x80 } ? value.utf8.map(Self.folded) : nil
        }

        /// Whether `text` (bytes a path read) is the value, trimmed, ignoring case; nil when only the `String`
        /// comparison can tell (a byte outside ASCII: Unicode whitespace and case).
        func admitsASCII(_ text: UnsafeBufferPointer<UInt8>) -> Bool? {
            guard let folded = asciiFolded else { return nil }
            // Unicode's white space within ASCII, as `Character.isWhitespace` has it: tab to carriage return, space.
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte >= 0x09 && byte <= 0x0D }
            var start = 0
            var end = text.count
            while start < end && isSpace(text[start]) { start += 1 }
            while end > start && isSpace(text[end - 1]) { end -= 1 }
            var equal = end - start == folded.count
            for i in start..<end {
                let byte = text[i]
                if byte >= 0x80 { return nil }
                equal = equal && Self.folded(byte) == folded[i - start]
            }
            return equal
        }

        private static func folded(_ byte: UInt8) -> UInt8 {
            byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
        }
    }

    /// The paths of a list by the name of their first step, so that one pass over an element's children serves
    /// them all (a RESO record has a couple of hundred keys and a mapping dozens of paths).
    struct FirstSteps: Sendable {
        /// Path indexes for first-step name `n`: `entries[offsets[n]..<offsets[n + 1]]`.
        private(set) var offsets: [Int32] = [0]
        private(set) var entries: [Int32] = []
        /// Paths whose first step is `*`.
        private(set) var anyName: [Int32] = []
        /// Paths without steps (the element itself, its name, or one of its attributes).
        private(set) var noSteps: [Int32] = []
        /// Paths that start above the element (`..`).
        private(set) var upward: [Int32] = []

        init(_ paths: [Path] = []) {
            var byName: [[Int32]] = []
            for (index, path) in paths.enumerated() {
                guard path.up == 0 else {
                    upward.append(Int32(index))
                    continue
                }
                guard let first = path.steps.first else {
                    noSteps.append(Int32(index))
                    continue
                }
                guard first.name >= 0 else {
                    anyName.append(Int32(index))
                    continue
                }
                while byName.count <= Int(first.name) { byName.append([]) }
                byName[Int(first.name)].append(Int32(index))
            }
            for list in byName {
                entries.append(contentsOf: list)
                offsets.append(Int32(entries.count))
            }
        }

        /// The paths whose first step names `name`.
        func paths(named name: Int32) -> Range<Int> {
            guard name >= 0, Int(name) + 1 < offsets.count else { return 0..<0 }
            return Int(offsets[Int(name)])..<Int(offsets[Int(name) + 1])
        }
    }

    /// The record-level paths (fields, and embedded fields read from the record itself), distinct, in mapping order.
    var paths: [Path] = []
    var firstSteps = FirstSteps()
    var groups: [Group] = []
    /// Names whose values `extra` always holds as an array (`format.multi_value`).
    var alwaysArrays: Set<Int32> = []

    /// A plan that reads nothing.
    init() {}

    /// Compiles `mapping`'s paths; `intern` gives a name's id (the parser's own), `namespaces` maps prefixes to
    /// URIs. Every path was checked when the mapping was read; a prefix without a URI throws.
    init(mapping: Mapping, namespaces: [String: String], multiValue: [String], also: [String] = [],
         intern: (String) -> Int32) throws(RecordPathError) {
        func compile(_ text: String) throws(RecordPathError) -> Path {
            let path = try RecordPath(parsing: text)
            var steps: [Step] = []
            for step in path.steps {
                var namespace: Int32?
                if let prefix = step.prefix {
                    guard let uri = namespaces[prefix] else {
                        throw RecordPathError("\(quoted(text)): the prefix \(quoted(prefix)) is not in "
                            + "format.namespaces")
                    }
                    namespace = intern(uri)
                }
                let predicate = step.predicate.map { (intern($0.attribute), Array($0.value.utf8)) }
                steps.append(Step(name: step.name == "*" ? -1 : intern(step.name), namespace: namespace,
                                  predicate: predicate))
            }
            return Path(text: text, steps: steps, attribute: path.attribute.map(intern),
                        fallbackAttribute: path.isPlainName ? intern(path.steps[0].name) : nil, up: path.up,
                        readsName: path.readsName)
        }
        var seen = Set<String>()
        let fromRecord = mapping.embedded.filter { $0.each == nil }.flatMap(\.fields)
        for field in mapping.fields + fromRecord {
            for source in field.sources where seen.insert(source).inserted { paths.append(try compile(source)) }
        }
        for source in also where seen.insert(source).inserted { paths.append(try compile(source)) }
        for (index, agent) in mapping.embedded.enumerated() {
            guard let each = agent.each else { continue }
            var relative: [Path] = []
            var inGroup = Set<String>()
            for field in agent.fields {
                for source in field.sources where inGroup.insert(source).inserted {
                    relative.append(try compile(source))
                }
            }
            let conditions = try agent.conditions.map { condition throws(RecordPathError) in
                Condition(path: try compile(condition.path), value: condition.value)
            }
            groups.append(Group(index: index, each: try compile(each), conditions: conditions, paths: relative,
                                firstSteps: FirstSteps(relative)))
        }
        // The room and unit type elements are read whole: each one's JSON object is a row's element of the array.
        for (index, path) in [(RawChild.roomsMapping, mapping.rooms), (RawChild.unitTypesMapping, mapping.unitTypes)] {
            guard let path else { continue }
            groups.append(Group(index: index, each: try compile(path), conditions: [], paths: [],
                                firstSteps: FirstSteps()))
        }
        alwaysArrays = Set(multiValue.map(intern))
        firstSteps = FirstSteps(paths)
        readsAncestors = paths.contains { $0.up > 0 }
            || groups.contains { group in group.paths.contains { $0.up > group.each.steps.count } }
    }

    /// Whether a path reaches the elements around the record (their names and attributes must be kept).
    private(set) var readsAncestors = false
}
