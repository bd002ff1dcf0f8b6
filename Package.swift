// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "mlsfeed",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "mlsfeed", targets: ["mlsfeed"]),
        .library(name: "MLSFeed", targets: ["MLSFeed"]),
    ],
    targets: [
        // C libraries from Debian, wrapped as system-library targets (module map + shim header only).
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CYajl", pkgConfig: "yajl", providers: [.apt(["libyajl-dev"])]),
        .systemLibrary(name: "CMalloc"),  // glibc's <malloc.h>: the CLI's MallocTuning only

        // Thin safe wrappers: the only importers of their C modules.
        .target(name: "XMLStream", dependencies: ["CLibXML2"]),
        .target(name: "Postgres", dependencies: ["CLibPQ"]),
        .target(name: "YAMLConfig", dependencies: ["CYAML"]),
        .target(name: "Inflate", dependencies: ["CZlib"]),
        .target(name: "Digest", dependencies: ["CCrypto"]),
        .target(name: "HTTPClient", dependencies: ["CCurl"]),
        .target(name: "JSONStream", dependencies: ["CYajl"]),
        // The embedded PostgreSQL: cluster and server process management (connects through `Postgres`).
        .target(name: "EmbeddedPostgres", dependencies: ["Postgres"]),

        // The domain: one folder per pipeline stage. Its `.sql` files (migrations, the search API) are compiled in as
        // string literals by the EmbedSQL plugin, so the binary carries them wherever it is copied.
        // Test hooks (`TestPause`) only in debug builds, which the tests run: a release build has neither their
        // code nor their environment variables' names.
        .target(name: "MLSFeed", dependencies: ["XMLStream", "JSONStream", "Postgres", "YAMLConfig", "Inflate",
                                                   "Digest", "HTTPClient"],
                exclude: ["Load/Migrations/README.md"],
                swiftSettings: [.define("MLSFEED_TEST_HOOKS", .when(configuration: .debug))],
                plugins: ["EmbedSQL"]),
        // The build tool of EmbedSQL: `.sql` files in, one Swift file of string literals out (C library only).
        .executableTarget(name: "sql-embed"),
        .plugin(name: "EmbedSQL", capability: .buildTool(), dependencies: ["sql-embed"]),
        // Deterministic synthetic feeds and their truth files (`mlsfeed fixtures generate`, tests, benchmarks).
        .target(name: "MLSFeedFixtures", dependencies: ["MLSFeed"]),
        .executableTarget(name: "mlsfeed", dependencies: ["MLSFeed", "MLSFeedFixtures", "Postgres", "EmbeddedPostgres",
                                                          "YAMLConfig", "CMalloc"]),

        .testTarget(name: "XMLStreamTests", dependencies: ["XMLStream"], resources: [.copy("Fixtures")]),
        // Throwaway PostgreSQL cluster and fresh databases for the test targets (never linked into the tool).
        .target(name: "PostgresTestSupport", dependencies: ["Postgres", "EmbeddedPostgres"]),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "PostgresTestSupport"]),
        .testTarget(name: "JSONStreamTests", dependencies: ["JSONStream"]),
        .testTarget(name: "EmbeddedPostgresTests", dependencies: ["EmbeddedPostgres", "Postgres"]),
        .testTarget(name: "YAMLConfigTests", dependencies: ["YAMLConfig"], resources: [.copy("Fixtures")]),
        .testTarget(name: "InflateTests", dependencies: ["Inflate"]),
        .testTarget(name: "DigestTests", dependencies: ["Digest"]),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient"], resources: [.copy("Fixtures")]),
        .testTarget(name: "MLSFeedTests", dependencies: ["MLSFeed", "MLSFeedFixtures", "Digest", "HTTPClient",
                                                        "PostgresTestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "MLSFeedFixturesTests", dependencies: ["MLSFeedFixtures", "MLSFeed"]),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer harnesses (Fuzz/README.md): only in the build `scripts/fuzz` makes (MLSFEED_FUZZ=1, its own
// --build-path, every module compiled with ASan and coverage); never part of a normal build or test run.
if Context.environment["MLSFEED_FUZZ"] == "1" {
    package.targets += [
        .systemLibrary(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer", "MLSFeed", "JSONStream"], path: "Fuzz/FuzzSupport"),
    ] + ["xml-triples", "xml-rets", "xml-plain", "xml-structured", "reso-json", "yaml-config", "coerce"].map {
        .executableTarget(name: $0, dependencies: ["FuzzSupport", "MLSFeed", "YAMLConfig"], path: "Fuzz/\($0)")
    }
}
