// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "loaderd",
    products: [
        .library(name: "LoaderEngine", targets: ["LoaderEngine"]),
        .executable(name: "loaderd-bench", targets: ["loaderd-bench"]),
    ],
    targets: [
        // Pure frame math and JSON encoding: no I/O.
        .target(name: "LoaderEngine"),
        // Benchmarks (figures, never assertions): `swift run -c release loaderd-bench engine`.
        .executableTarget(name: "loaderd-bench", dependencies: ["LoaderEngine"]),
        .testTarget(
            name: "LoaderEngineTests",
            dependencies: ["LoaderEngine"],
            exclude: ["Fixtures"]
        ),
    ]
)
