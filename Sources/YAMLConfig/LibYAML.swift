internal import CYAML

/// Owns one libyaml parser and the bytes it reads; the only code in the package that touches libyaml.
///
/// Events are copied into Swift values and freed before `next()` returns.
final class LibYAMLParser {
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let input: UnsafeMutableBufferPointer<UInt8>
    private var isInitialized = false

    init(bytes: [UInt8]) throws(YAMLSyntaxError) {
        parser = .allocate(capacity: 1)
        parser.initialize(to: yaml_parser_t())
        input = .allocate(capacity: max(bytes.count, 1))
        _ = input.initialize(from: bytes)
        let result = yaml_parser_initialize(parser)
        isInitialized = result != 0
        try check(result)
        yaml_parser_set_input_string(parser, input.baseAddress, bytes.count)
    }

    deinit {
        if isInitialized {
            yaml_parser_delete(parser)
        }
        parser.deinitialize(count: 1)
        parser.deallocate()
        input.deallocate()
    }

    /// The next event of the stream; after `.streamEnd` do not call again.
    func next() throws(YAMLSyntaxError) -> YAMLEvent {
        var event = yaml_event_t()
        try check(yaml_parser_parse(parser, &event))
        defer { yaml_event_delete(&event) }
        return Self.convert(event)
    }

    /// The single checking helper every libyaml return code passes through (libyaml returns 1 on success).
    private func check(_ result: Int32) throws(YAMLSyntaxError) {
        guard result == 0 else { return }
        throw currentError()
    }

    private func currentError() -> YAMLSyntaxError {
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? "unknown libyaml error"
        switch state.error {
        case YAML_MEMORY_ERROR:
            return YAMLSyntaxError(message: "out of memory while parsing YAML", mark: .start)
        case YAML_READER_ERROR:
            return YAMLSyntaxError(message: problem, mark: markOfByte(state.problem_offset))
        default:
            var message = problem
            let problemMark = Self.mark(state.problem_mark)
            if let context = state.context {
                let contextMark = Self.mark(state.context_mark)
                let start = contextMark == problemMark
                    ? "" : " at line \(contextMark.line), column \(contextMark.column)"
                message += " (\(String(cString: context))\(start))"
            }
            return YAMLSyntaxError(message: message, mark: problemMark)
        }
    }

    /// Reader errors only carry a byte offset: turn it into a line and a column counted in characters.
    private func markOfByte(_ offset: Int) -> Mark {
        var line = 1
        var column = 1
        for byte in input.prefix(min(offset, input.count)) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return Mark(line: line, column: column)
    }

    private static func mark(_ mark: yaml_mark_t) -> Mark {
        Mark(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    private static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    private static func convert(_ event: yaml_event_t) -> YAMLEvent {
        let mark = mark(event.start_mark)
        switch event.type {
        case YAML_STREAM_START_EVENT:
            return .streamStart
        case YAML_DOCUMENT_START_EVENT:
            return .documentStart(mark: mark)
        case YAML_DOCUMENT_END_EVENT:
            return .documentEnd
        case YAML_ALIAS_EVENT:
            return .alias(anchor: text(event.data.alias.anchor) ?? "", mark: mark)
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let bytes = UnsafeBufferPointer(start: scalar.value, count: scalar.value == nil ? 0 : scalar.length)
            let value = String(decoding: bytes, as: UTF8.self)
            let isPlain = scalar.style == YAML_PLAIN_SCALAR_STYLE && scalar.tag == nil
            return .scalar(value: value, anchor: text(scalar.anchor), isPlain: isPlain, mark: mark)
        case YAML_SEQUENCE_START_EVENT:
            return .sequenceStart(anchor: text(event.data.sequence_start.anchor), mark: mark)
        case YAML_SEQUENCE_END_EVENT:
            return .sequenceEnd
        case YAML_MAPPING_START_EVENT:
            return .mappingStart(anchor: text(event.data.mapping_start.anchor), mark: mark)
        case YAML_MAPPING_END_EVENT:
            return .mappingEnd
        default:
            return .streamEnd
        }
    }
}
