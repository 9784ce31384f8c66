// swift-tools-version:6.1
//
// The benchmark suite (issue 7): OpenCoreData against the raw SQLite C API (the floor) and GRDB.swift, on the same
// generated data, in the same process. It is a package of its own so that GRDB never slows the main build or CI.
//
//     swift run -c release Benchmarks            # the full suite
//     swift run -c release Benchmarks --quick    # reduced sizes, under two minutes

import PackageDescription

let package = Package(
    name: "Benchmarks",
    dependencies: [
        .package(name: "OpenCoreData", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // The system SQLite, called directly: the floor every ratio is taken against.
        .systemLibrary(name: "CBenchSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // glibc's `mallopt`, to keep the allocator warm between rounds (see main.swift).
        .systemLibrary(name: "CBenchMalloc"),
        .executableTarget(
            name: "Benchmarks",
            dependencies: [
                "CBenchSQLite",
                "CBenchMalloc",
                .product(name: "OpenCoreData", package: "OpenCoreData"),
                .product(name: "StoreBrowser", package: "OpenCoreData"),
                .product(name: "AtomicStoreFormats", package: "OpenCoreData"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
