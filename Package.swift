// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "loaderd",
    products: [
        .library(name: "LoaderEngine", targets: ["LoaderEngine"]),
        .library(name: "EventLoop", targets: ["EventLoop"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .executable(name: "loaderd", targets: ["loaderd"]),
        .executable(name: "loaderd-bench", targets: ["loaderd-bench"]),
    ],
    targets: [
        // Pure frame math and JSON encoding: no I/O.
        .target(name: "LoaderEngine"),
        // epoll event loops: timers, tasks from other threads, an embedded loop
        // whose clock a test moves; socket addresses. What HTTPServer and Redis share.
        .target(name: "EventLoop", dependencies: ["CLinux"]),
        // Sockets, connections, HTTP/1.1 parsing, responses, SSE. Knows nothing of loaders.
        .target(name: "HTTPServer", dependencies: ["EventLoop", "CLinux"]),
        // epoll and eventfd headers for Swift (not in the toolchain's Glibc module).
        .target(name: "CLinux"),
        // Redis's protocol (RESP2): replies parsed as they arrive, commands written.
        .target(name: "Redis", dependencies: ["EventLoop", "CLinux"]),
        // DEFLATE, PNG, APNG, GIF, checksums: bytes from pixels, knowing nothing
        // of loaders, so a codec is built and tested on its own. No I/O.
        .target(name: "Codecs"),
        // The rasteriser: frames drawn into pixels (the codecs' RGBAImage). No I/O.
        .target(name: "Raster", dependencies: ["LoaderEngine", "Codecs"]),
        // The writers that need no HTTP: SVG, CSS, HTML, Lottie from the engine's
        // frames and sampled loop. Apart, so that no writer can reach a request.
        .target(name: "LoaderFormats", dependencies: ["LoaderEngine"]),
        // Session stores (memory with a journal, Redis) behind `SessionStore`:
        // they know sessions, loaders and time, never HTTP, so none can reach a request.
        .target(name: "LoaderSessions", dependencies: ["LoaderEngine", "EventLoop", "Redis"]),
        // Routes, config, metrics, OpenAPI, the session API: the HTTP application over the rest.
        .target(name: "LoaderService", dependencies: ["LoaderEngine", "EventLoop", "HTTPServer", "Redis", "Codecs", "Raster", "LoaderFormats", "LoaderSessions"]),
        // The executable: flags, config file, signals.
        .executableTarget(name: "loaderd", dependencies: ["LoaderService", "LoaderSessions", "LoaderEngine", "EventLoop", "HTTPServer", "Redis"]),
        // Benchmarks (figures, never assertions): `swift run -c release loaderd-bench engine`.
        .executableTarget(name: "loaderd-bench", dependencies: ["LoaderEngine", "EventLoop", "HTTPServer", "LoaderService", "LoaderFormats", "Codecs"]),
        // SSE load generator: N streams on one epoll loop, frames checked against their schedule.
        .executableTarget(name: "loaderd-loadgen", dependencies: ["CLinux"]),
        // Each module's tests are its own target, built and run apart.
        .testTarget(
            name: "LoaderEngineTests",
            dependencies: ["LoaderEngine"],
            exclude: ["Fixtures"]
        ),
        // A blocking socket client, polling helpers and a directory clean-up shared by the tests.
        .target(name: "HTTPTestSupport", dependencies: ["EventLoop", "HTTPServer"], path: "Tests/HTTPTestSupport"),
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop"]),
        .testTarget(name: "CodecsTests", dependencies: ["Codecs"]),
        .testTarget(name: "RasterTests", dependencies: ["Raster", "Codecs", "LoaderEngine"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["EventLoop", "HTTPServer", "HTTPTestSupport"]),
        .testTarget(name: "RedisTests", dependencies: ["Redis", "EventLoop", "HTTPTestSupport"]),
        .testTarget(name: "LoaderFormatsTests", dependencies: ["LoaderFormats", "LoaderEngine"]),
        .testTarget(name: "LoaderSessionsTests", dependencies: ["LoaderSessions", "LoaderEngine", "HTTPTestSupport"]),
        .testTarget(name: "LoaderServiceTests", dependencies: ["LoaderService", "LoaderFormats", "LoaderSessions", "EventLoop", "HTTPServer", "LoaderEngine", "HTTPTestSupport"]),
    ]
)
