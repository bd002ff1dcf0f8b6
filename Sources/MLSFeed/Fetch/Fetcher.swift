import HTTPClient

/// Opens inputs as chunk streams: local files, standard input and http(s) URLs, gzip decompressed on the fly.
package enum Fetcher {
    /// The size of the chunks handed to the parser: 256 KiB. With the fetch stage's queue, about four chunks are in
    /// flight; 1 MiB chunks held 3 MB more of a run's peak memory for no speed (measured on 100k-listing feeds).
    package static let chunkSize = 1 << 18

    /// Opens one input: a local file (`.gz` decompressed as a stream by zlib — detected by magic bytes, not by
    /// name), stdin (`-`, gzip detected the same way), or an http(s) URL (`settings` gives its parameters, auth,
    /// timeouts and retries; with `conditional`, a 304 answer gives `.notModified`).
    ///
    /// A URL with `settings.paging` is several requests: open it with `pages(_:settings:)` instead.
    package static func open(_ input: InputFile, settings: FetchSettings = FetchSettings(),
                            conditional: Conditional? = nil) throws -> FetchOutcome {
        try open(input, settings: settings, conditional: conditional, cancellation: Cancellation())
    }

    /// `open(_:settings:conditional:)` that stops when `cancellation` is set: a transfer within 50 ms, a wait
    /// between attempts at once, either throwing `CancellationError`.
    package static func open(_ input: InputFile, settings: FetchSettings, conditional: Conditional?,
                             cancellation: Cancellation) throws -> FetchOutcome {
        guard InputLocator.isURL(input.location) else {
            return .source(try decoded(FileChunkSource(path: input.location)).source)
        }
        let request = try HTTPRequestPlan(base: input.location, settings: settings, conditional: conditional)
        guard settings.paging == nil else {
            throw FetchError("\(request.location): source.http.paging is set, so this input is read page by page "
                + "(Fetcher.pages)")
        }
        let spool = try SpoolDirectory(path: settings.spoolDirectory)
        switch try get(request, settings: settings, client: try client(), spool: spool, cancellation: cancellation) {
        case .body(let source): return .source(try decoded(source).source)
        case .notModified(let identity): return .notModified(identity)
        }
    }

    /// The pages of a paged http(s) input (`settings.paging`), fetched one at a time as the caller asks.
    package static func pages(_ input: InputFile, settings: FetchSettings) throws -> PagedSource {
        try pages(input, settings: settings, cancellation: Cancellation())
    }

    /// `pages(_:settings:)` whose page requests stop when `cancellation` is set (throwing `CancellationError`).
    package static func pages(_ input: InputFile, settings: FetchSettings, cancellation: Cancellation) throws
        -> PagedSource {
        guard let paging = settings.paging else {
            throw FetchError("\(input.displayName): source.http.paging is not set")
        }
        guard InputLocator.isURL(input.location) else {
            throw FetchError("\(input.displayName): paging needs an http(s) URL")
        }
        let plan = try HTTPRequestPlan(base: input.location, settings: settings, conditional: nil)
        return PagedSource(base: input.location, location: plan.location, settings: settings, paging: paging,
                           client: try client(), spool: try SpoolDirectory(path: settings.spoolDirectory),
                           cancellation: cancellation)
    }

    /// The key the run ledger stores `input` under and looks it up by: for a URL the full request URL (parameters
    /// and a query API key included) with secrets masked, for a file its path. It equals the `location` of the
    /// identity the fetch gives, so a lookup made before fetching finds what the last run recorded.
    package static func ledgerLocation(of input: InputFile, settings: FetchSettings) throws -> String {
        guard InputLocator.isURL(input.location) else { return input.location }
        return try HTTPRequestPlan(base: input.location, settings: settings, conditional: nil).location
    }

    /// Why a local gzip file is damaged, if it is: it is decompressed to its end (output discarded). A damaged
    /// stream yields garbage before zlib notices, so the parser often fails first; this names the real cause.
    package static func gzipDamage(of input: InputFile) -> FetchError? {
        guard !InputLocator.isURL(input.location), input.location != "-",
              let raw = try? FileChunkSource(path: input.location),
              let (source, _) = try? decoded(raw), source is GzipChunkSource else { return nil }
        do {
            while try source.next() != nil {}
            return nil
        } catch let error as FetchError {
            return error
        } catch {
            return FetchError("\(input.location): \(error)")
        }
    }

    /// Reads a local file to its end without parsing it, for its size and sha256 (to skip an unchanged file).
    package static func identity(of input: InputFile) throws -> InputIdentity {
        let source = try FileChunkSource(path: input.location)
        while try source.next() != nil {}
        return source.identity
    }

    /// A new libcurl client (one per input: its pages share its connection).
    static func client() throws -> HTTPClient {
        do {
            return try HTTPClient()
        } catch {
            throw FetchError("cannot start the HTTP client: \(error.message)")
        }
    }

    /// `raw` as the parser should see it: gunzipped when it starts with the gzip magic bytes `1f 8b`.
    /// `empty` is true when `raw` has no bytes at all.
    static func decoded(_ raw: any ChunkSource) throws -> (source: any ChunkSource, empty: Bool) {
        var first: [UInt8] = []
        while first.count < 2, let more = try raw.next() {
            first += more
        }
        if first.count >= 2 && first[0] == 0x1f && first[1] == 0x8b {
            return (try GzipChunkSource(raw: raw, first: first), false)
        }
        return (ReplayChunkSource(raw: raw, first: first), first.isEmpty)
    }
}
