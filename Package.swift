// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "BoardArchive",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "boardarchive", targets: ["BoardArchiveCLI"]),
        .library(name: "BoardArchive", targets: ["BoardArchive"]),
        .library(name: "FixtureAPI", targets: ["FixtureAPI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The shared archive store on PostgreSQL (issue 24): connections, TLS through NIOSSL, SCRAM authentication.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Already in the graph through async-http-client; declared because the library and tests import them.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // Already in the graph through async-http-client; HMAC-SHA256 for --pseudonymize-writers.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/onevcat/Rainbow", from: "4.2.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CCmarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
        ),
        // The library, one target per pipeline stage; each may import only what it lists (no cycles).
        // Model: boards, posts, dates, text normalisation, digests of typed inputs, small shared pieces.
        .target(name: "BoardArchiveModel"),
        // Store: the archive store seam, SQLite (GRDB) and PostgreSQL behind it.
        .target(
            name: "BoardArchiveStore",
            dependencies: [
                "BoardArchiveModel",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Crawl: the board API client over HTTP into the store.
        .target(
            name: "BoardArchiveCrawl",
            dependencies: [
                // Render: the renderer's own reading of a body finds the pictures a crawl keeps (issue 28).
                "BoardArchiveModel", "BoardArchiveStore", "BoardArchiveRender",
                // Crypto: the SHA-256 that addresses a kept picture.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // Render: Markdown (cmark-gfm), templates (Mustache), page addresses and page data.
        .target(
            name: "BoardArchiveRender",
            dependencies: [
                "BoardArchiveModel", "BoardArchiveStore", "CCmarkGFM",
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        // Search: the search index's format, builder, codec and reader; highlighting and keyword selection.
        .target(name: "BoardArchiveSearch", dependencies: ["BoardArchiveModel", "BoardArchiveStore", "BoardArchiveRender"]),
        // Site: the build as steps (pages, search, keyword pages, feeds, sitemaps), its output, state and publishing.
        .target(
            name: "BoardArchiveSite",
            dependencies: [
                "BoardArchiveModel", "BoardArchiveStore", "BoardArchiveRender", "BoardArchiveSearch",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The one import of the command and the tests: re-exports the stages.
        .target(
            name: "BoardArchive",
            dependencies: [
                "BoardArchiveModel", "BoardArchiveStore", "BoardArchiveCrawl", "BoardArchiveRender", "BoardArchiveSearch",
                "BoardArchiveSite",
            ]
        ),
        .target(
            name: "FixtureAPI",
            dependencies: [
                "BoardArchive",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Resources/demo-dataset.json"), .copy("Resources/media")]
        ),
        .executableTarget(
            name: "BoardArchiveCLI",
            dependencies: [
                "BoardArchive",
                "FixtureAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Rainbow", package: "Rainbow"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "BoardArchiveTests",
            dependencies: [
                "BoardArchive", "FixtureAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            resources: [.copy("Golden")]
        ),
        .testTarget(
            name: "BoardArchiveCLITests",
            dependencies: [
                "BoardArchive", "FixtureAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
    ]
)
