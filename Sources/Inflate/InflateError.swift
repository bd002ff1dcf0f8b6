/// A zlib failure: its code's meaning plus zlib's own message (`corrupt data (incorrect header check)`).
package struct InflateError: Error, Sendable, Equatable {
    package var message: String

    package init(message: String) {
        self.message = message
    }
}
