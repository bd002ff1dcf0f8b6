internal import CCurl

/// Owns one `curl_slist` of request header lines, freed in `deinit` (once the transfer using it is over).
final class CurlHeaderList {
    private(set) var list: UnsafeMutablePointer<curl_slist>?

    /// `Name: value` lines (`Name;` for an empty value, which libcurl sends as an empty header).
    init(_ headers: [(name: String, value: String)]) throws(HTTPClientError) {
        for (name, value) in headers {
            guard !name.isEmpty, !name.contains(where: { ":\r\n".contains($0) }),
                  !value.contains(where: { "\r\n".contains($0) })
            else {
                throw .local("invalid request header \(String(reflecting: name))")
            }
            try append(value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
    }

    /// Adds a raw line (`Expect:` removes a header libcurl would add).
    func append(_ line: String) throws(HTTPClientError) {
        guard let longer = line.withCString({ curl_slist_append(list, $0) }) else {
            throw .local("curl_slist_append failed (out of memory?)")
        }
        list = longer
    }

    deinit {
        curl_slist_free_all(list)
    }
}
