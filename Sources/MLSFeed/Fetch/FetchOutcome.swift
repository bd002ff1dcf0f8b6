/// What opening an input gave: its bytes, or word that it has not changed since the last run (HTTP 304).
package enum FetchOutcome {
    case source(any ChunkSource)
    /// The server answered 304 Not Modified to the conditional GET.
    case notModified(InputIdentity)
}
