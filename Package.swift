// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "loaderd",
    products: [
        .library(name: "LoaderEngine", targets: ["LoaderEngine"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .executable(name: "loaderd", targets: ["loaderd"]),
        .executable(name: "loaderd-bench", targets: ["loaderd-bench"]),
    ],
    targets: [
        // Pure frame math and JSON encoding: no I/O.
        .target(name: "LoaderEngine"),
        // Sockets, event loops, HTTP/1.1 parsing, responses, SSE. Knows nothing of loaders.
        .target(name: "HTTPServer", dependencies: ["CLinux"]),
        // epoll and eventfd headers for Swift (not in the toolchain's Glibc module).
        .target(name: "CLinux"),
        // Redis's protocol (RESP2): replies parsed as they arrive, commands written.
        .target(name: "Redis", dependencies: ["HTTPServer", "CLinux"]),
        // Routes, sessions, config, metrics, OpenAPI: the glue between the two.
        .target(name: "LoaderService", dependencies: ["LoaderEngine", "HTTPServer", "Redis"]),
        // The executable: flags, config file, signals.
        .executableTarget(name: "loaderd", dependencies: ["LoaderService", "Redis"]),
        // Benchmarks (figures, never assertions): `swift run -c release loaderd-bench engine`.
        .executableTarget(name: "loaderd-bench", dependencies: ["LoaderEngine", "HTTPServer", "LoaderService"]),
        // SSE load generator: N streams on one epoll loop, frames checked against their schedule.
        .executableTarget(name: "loaderd-loadgen", dependencies: ["CLinux"]),
        .testTarget(
            name: "LoaderEngineTests",
            dependencies: ["LoaderEngine"],
            exclude: ["Fixtures"]
        ),
        // A blocking socket client and polling helpers shared by the live tests.
        .target(name: "HTTPTestSupport", dependencies: ["HTTPServer"], path: "Tests/HTTPTestSupport"),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "HTTPTestSupport"]),
        .testTarget(name: "RedisTests", dependencies: ["Redis", "HTTPServer", "HTTPTestSupport"]),
        .testTarget(name: "LoaderServiceTests", dependencies: ["LoaderService", "HTTPServer", "LoaderEngine", "HTTPTestSupport"]),
    ]
)
