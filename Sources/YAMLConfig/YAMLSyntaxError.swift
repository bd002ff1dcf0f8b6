/// A problem libyaml reported while reading a document, with its position.
struct YAMLSyntaxError: Error {
    let message: String
    let mark: Mark
}
