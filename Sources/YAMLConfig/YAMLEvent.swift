/// One libyaml parse event, copied out of C memory into Swift values.
enum YAMLEvent {
    case streamStart
    case streamEnd
    case documentStart(mark: Mark)
    case documentEnd
    case alias(anchor: String, mark: Mark)
    /// `isPlain` is true for a plain, untagged scalar.
    case scalar(value: String, anchor: String?, isPlain: Bool, mark: Mark)
    case sequenceStart(anchor: String?, mark: Mark)
    case sequenceEnd
    case mappingStart(anchor: String?, mark: Mark)
    case mappingEnd
}
