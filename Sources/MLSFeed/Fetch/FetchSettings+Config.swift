import Foundation
import YAMLConfig

extension FetchSettings {
    static let configKeys = ["params", "headers", "auth", "paging", "timeout", "retries", "ca_file", "odata",
                             "rate_limit", "replication", "deleted_when"]

    /// Reads `source.http:`; nil gives the defaults. `${ENV}` is already expanded by the YAML loader.
    package init(config node: ConfigNode?) throws {
        self.init()
        guard let node else { return }
        try node.keys(allowed: Self.configKeys)
        if let params = node["params"] {
            self.params = try params.entries().map { ($0.key, try Self.scalar($0.value)) }
        }
        if let headers = node["headers"] {
            self.headers = try headers.entries().map { ($0.key, try Self.scalar($0.value)) }
        }
        if let auth = node["auth"] { self.auth = try Self.auth(auth) }
        if let paging = node["paging"] { self.paging = try Self.paging(paging) }
        if let timeout = node["timeout"] {
            try timeout.keys(allowed: ["connect", "read"])
            if let v = timeout["connect"] { connectTimeout = try v.seconds(in: 0.1...3600) }
            if let v = timeout["read"] { readTimeout = try v.seconds(in: 0.1...3600) }
        }
        if let retries = node["retries"] {
            try retries.keys(allowed: ["attempts", "backoff", "max_backoff"])
            if let v = retries["attempts"] { attempts = try v.int(in: 1...100) }
            if let v = retries["backoff"] { backoff = try v.seconds(in: 0...3600) }
            if let v = retries["max_backoff"] { maxBackoff = try v.seconds(in: 0...3600) }
        }
        if let caNode = node["ca_file"] { caFile = try Self.caFile(caNode) }
        if node["odata"] != nil || node["rate_limit"] != nil || node["replication"] != nil
            || node["deleted_when"] != nil {
            webAPI = try Self.webAPI(node)
            guard paging == nil else {
                throw node["paging"]!.error("an OData source follows @odata.nextLink: paging does not apply")
            }
        }
    }

    /// `odata`, `rate_limit`, `replication` and `deleted_when` of a RESO Web API source.
    private static func webAPI(_ node: ConfigNode) throws -> WebAPISettings {
        var api = WebAPISettings()
        if let odata = node["odata"] {
            try odata.keys(allowed: ["select", "filter", "expand", "top", "orderby", "max_pages"])
            if let v = odata["select"] { api.query.select = try v.stringList() }
            if let v = odata["filter"] { api.query.filter = try v.nonBlankString() }
            if let v = odata["expand"] { api.query.expand = try v.stringList() }
            if let v = odata["top"] { api.query.top = try v.int(in: 1...100_000) }
            if let v = odata["orderby"] { api.query.orderBy = try v.nonBlankString() }
            if let v = odata["max_pages"] { api.maxPages = try v.int(in: 1...10_000_000) }
        }
        if let limits = node["rate_limit"] {
            try limits.keys(allowed: ["requests_per_second", "requests_per_hour", "requests_per_day"])
            var limit = WebAPISettings.RateLimit()
            if let v = limits["requests_per_second"] { limit.perSecond = try v.double(in: 0.001...10_000) }
            if let v = limits["requests_per_hour"] { limit.perHour = try v.int(in: 1...100_000_000) }
            if let v = limits["requests_per_day"] { limit.perDay = try v.int(in: 1...100_000_000) }
            api.rateLimit = limit
        }
        if let replication = node["replication"] {
            try replication.keys(allowed: ["field", "start", "overlap", "key_sweep"])
            var settings = WebAPISettings.Replication(field: try replication.required("field").nonBlankString(),
                                                      start: try replication["start"]?.nonBlankString())
            if let overlap = replication["overlap"] { settings.overlap = try Self.age(overlap, in: 0...86_400) }
            if let sweep = replication["key_sweep"] {
                try sweep.keys(allowed: ["every"])
                settings.sweepEvery = try Self.age(try sweep.required("every"), in: 3600...(3660 * 86_400))
            }
            // The order (and the tie-break key) is checked, and completed, with the mapping (`PipelineConfig`).
            api.replication = settings
        }
        if let deleted = node["deleted_when"] {
            try deleted.keys(allowed: ["field", "equals"])
            api.deletion = WebAPISettings.Deletion(field: try deleted.required("field").nonBlankString(),
                                                   equals: try deleted.required("equals").string())
        }
        return api
    }

    /// Seconds given as a number or an age (`300`, `5m`, `7d`; see `RetentionAge`) within `range`.
    private static func age(_ node: ConfigNode, in range: ClosedRange<Int>) throws -> Int {
        let text = try node.string()
        let seconds = Int(text).map(Int64.init) ?? RetentionAge(text)?.seconds
        guard let seconds, range.contains(Int(clamping: seconds)) else {
            let (lowest, highest) = (RetentionAge.shown(range.lowerBound), RetentionAge.shown(range.upperBound))
            throw node.error("expected seconds or an age like 5m, 12h or 7d, from \(lowest) to \(highest), got "
                + quoted(text))
        }
        return Int(seconds)
    }

    /// A readable file, relative paths resolved against the pipeline file.
    private static func caFile(_ node: ConfigNode) throws -> String {
        let given = try node.string()
        guard !given.isEmpty else { throw node.error("the CA file path is empty") }
        let path = resolve(given, relativeTo: node.file)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw node.error("CA file \(quoted(path)) does not exist")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw node.error("CA file \(quoted(path)) is not readable")
        }
        return path
    }

    private static func auth(_ node: ConfigNode) throws -> Auth {
        try node.keys(allowed: ["basic", "bearer", "api_key", "oauth2"])
        let kinds = try node.entries().filter { !$0.value.isNull }
        guard kinds.count == 1, let kind = kinds.first else {
            throw node.error("expected exactly one of: basic, bearer, api_key, oauth2")
        }
        switch kind.key {
        case "basic":
            try kind.value.keys(allowed: ["user", "password"])
            return .basic(user: try kind.value.required("user").string(),
                          password: try kind.value["password"]?.string() ?? "")
        case "oauth2":
            let grant = kind.value
            try grant.keys(allowed: ["token_url", "client_id", "client_secret", "scope"])
            let tokenURL = try grant.required("token_url").nonBlankString()
            guard InputLocator.isURL(tokenURL) else { throw grant["token_url"]!.error("expected an http(s) URL") }
            let clientID = try grant.required("client_id").nonBlankString()
            return .oauth2(OAuth2Settings(tokenURL: tokenURL, clientID: clientID,
                                          clientSecret: try grant.required("client_secret").nonBlankString(),
                                          scope: try grant["scope"]?.nonBlankString()))
        case "bearer":
            let token = try kind.value.string()
            guard !token.isEmpty else { throw kind.value.error("the bearer token is empty") }
            return .bearer(token)
        default:
            let apiKey = kind.value
            try apiKey.keys(allowed: ["header", "query", "value"])
            let value = try apiKey.required("value").string()
            guard !value.isEmpty else { throw apiKey.error("the API key value is empty") }
            switch (apiKey["header"], apiKey["query"]) {
            case (let header?, nil): return .apiKeyHeader(name: try header.string(), value: value)
            case (nil, let query?): return .apiKeyQuery(name: try query.string(), value: value)
            default: throw apiKey.error("expected exactly one of: header, query")
            }
        }
    }

    private static func paging(_ node: ConfigNode) throws -> Paging {
        try node.keys(allowed: ["param", "offset_param", "start", "size_param", "size", "max_pages"])
        let mode: Paging.Mode
        switch (node["param"], node["offset_param"]) {
        case (let page?, nil): mode = .page(param: try page.string())
        case (nil, let offset?): mode = .offset(param: try offset.string())
        default: throw node.error("expected exactly one of: param (page numbers), offset_param (offsets)")
        }
        var paging = Paging(mode: mode, start: try node["start"]?.int(), sizeParam: try node["size_param"]?.string())
        if let v = node["size"] { paging.size = try v.int(in: 1...1_000_000) }
        if let v = node["max_pages"] { paging.maxPages = try v.int(in: 1...10_000_000) }
        return paging
    }

    private static func scalar(_ node: ConfigNode) throws -> String {
        if node.isNull { return "" }
        return try node.string()
    }

}
