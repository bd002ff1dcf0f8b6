/// What a command was asked to show does not exist (a run, a listing): exit code 1.
struct NotFound: Error, CustomStringConvertible {
    var message: String
    var description: String { "error: \(message)" }
}
