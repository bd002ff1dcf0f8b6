/// Validators from the last successful run, sent as a conditional GET (`If-None-Match`, `If-Modified-Since`).
package struct Conditional: Sendable, Hashable {
    package var etag: String?
    package var lastModified: String?

    package init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }
}
