// swift-tools-version:6.1
//
// OpenCoreData: Apple's Core Data persistence stack for Linux, and `coredata`, the terminal browser.
// The module graph is described in docs/ARCHITECTURE.md; the reasons for it in docs/DECISIONS.md.

import CompilerPluginSupport
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "OpenCoreData",
    products: [
        .library(name: "OpenCoreData", targets: ["OpenCoreData"]),
        // The browser's UI-free logic, for the benchmark suite's browser workloads.
        .library(name: "StoreBrowser", targets: ["StoreBrowser"]),
        // The atomic store file codecs, for the benchmark suite's loader workloads.
        .library(name: "AtomicStoreFormats", targets: ["AtomicStoreFormats"]),
        .executable(name: "coredata", targets: ["coredata"]),
        // Xcode's model compiler for SwiftPM on Linux: `.xcdatamodeld` → `.momd` among a target's resources.
        .executable(name: "ocd-momc", targets: ["ocd-momc"]),
        .plugin(name: "OpenCoreDataModelCompiler", targets: ["OpenCoreDataModelCompiler"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The `@Managed` macro's implementation (a compiler plugin): built for the host only, linked into no library.
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    ],
    targets: [
        // MARK: C libraries, one system-library target each (swift-nio's `C` prefix).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CNCurses", pkgConfig: "ncursesw", providers: [.apt(["libncurses-dev"])]),
        .systemLibrary(name: "CReadline", pkgConfig: "readline", providers: [.apt(["libreadline-dev"])]),
        // The one Swift runtime entry point the object registry needs (`swift_tryRetain`), behind a C shim that
        // lives in the storage room (CoreDataObjectGraph/Storage), the one folder of unsafe code.
        .systemLibrary(name: "CSwiftRuntime", path: "Sources/CoreDataObjectGraph/Storage/CSwiftRuntime"),

        // MARK: Building blocks with no Core Data meaning (swift-collections: one module per capability).
        .target(name: "SQLiteDatabase", dependencies: ["CSQLite"], swiftSettings: strictSettings),
        .target(name: "PropertyListCoding", swiftSettings: strictSettings),
        .target(name: "KeyValueCoding", swiftSettings: strictSettings),
        // MATCHES calls the toolchain's ICU (`_FoundationICU`, which Foundation itself links) to bound its backtracking.
        .target(name: "Predicates", dependencies: ["KeyValueCoding", "TerminalText"], swiftSettings: strictSettings,
                linkerSettings: [.linkedLibrary("_FoundationICU")]),
        .target(name: "TerminalText", swiftSettings: strictSettings),
        .target(name: "UndoManagement", swiftSettings: strictSettings),
        // The terminal layer: the only module that imports CNCurses and CReadline (GPL-3, kept behind `LineEditor`).
        .target(name: "TerminalUI", dependencies: ["CNCurses", "CReadline", "TerminalText"], swiftSettings: strictSettings),

        // MARK: Core Data semantics.
        .target(
            name: "CoreDataModel",
            dependencies: ["PropertyListCoding", "Predicates", "CLibCrypto"],
            swiftSettings: strictSettings),
        .target(
            name: "CoreDataSQLiteFormat",
            dependencies: ["CoreDataModel", "SQLiteDatabase", "PropertyListCoding", "Predicates", "TerminalText", "CZlib"],
            swiftSettings: strictSettings),

        // The atomic stores' file formats (XML and binary), as bytes ⇄ model-checked contents; no store plumbing.
        .target(name: "AtomicStoreFormats", dependencies: ["CoreDataModel", "PropertyListCoding"], swiftSettings: strictSettings),

        .target(
            name: "CoreDataObjectGraph",
            dependencies: ["CoreDataModel", "CoreDataSQLiteFormat", "SQLiteDatabase", "Predicates", "KeyValueCoding", "PropertyListCoding",
                           "UndoManagement", "CSwiftRuntime", "AtomicStoreFormats"],
            exclude: ["Storage/CSwiftRuntime"],
            swiftSettings: strictSettings),

        // MARK: Declaring managed properties as Apple's `@NSManaged` does: `@Managed var name: String?` and Xcode's
        // `addToTags(_:)` family. The declarations, and the plugin that expands them (swift-syntax, host only).
        .macro(name: "CoreDataMacrosPlugin", dependencies: [
            .product(name: "SwiftSyntax", package: "swift-syntax"),
            .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
            .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
            .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
        ], swiftSettings: strictSettings),
        .target(name: "CoreDataMacros", dependencies: ["CoreDataMacrosPlugin"], swiftSettings: strictSettings),

        // MARK: The umbrella: only re-exports (swift-nio's `NIO`).
        .target(
            name: "OpenCoreData",
            dependencies: ["CoreDataModel", "CoreDataSQLiteFormat", "CoreDataObjectGraph", "CoreDataMacros", "Predicates", "KeyValueCoding",
                           "UndoManagement"],
            swiftSettings: strictSettings),

        // MARK: Opening a store for the commands and the browser alike, UI-free: `StoreSession`, its errors, and the
        // text forms of values (typed `KEY=VALUE`, printed cells).
        .target(
            name: "StoreAccess",
            dependencies: ["CoreDataModel", "CoreDataSQLiteFormat", "CoreDataObjectGraph", "Predicates", "TerminalText"],
            swiftSettings: strictSettings),

        // MARK: The browser's logic, UI-free: sessions, table models, key map -> actions, drawn into `Screen`s.
        .target(
            name: "StoreBrowser",
            dependencies: ["StoreAccess", "CoreDataModel", "CoreDataSQLiteFormat", "CoreDataObjectGraph", "Predicates",
                           "PropertyListCoding", "SQLiteDatabase", "TerminalUI", "TerminalText", "UndoManagement"],
            swiftSettings: strictSettings),

        // MARK: The command-line tool. In-repo targets name every module they import (checked by PackageRulesTests);
        // the umbrella is for code outside the package.
        .executableTarget(
            name: "coredata",
            dependencies: [
                "CoreDataModel", "CoreDataSQLiteFormat", "CoreDataObjectGraph", "KeyValueCoding", "Predicates", "SQLiteDatabase",
                "StoreAccess", "StoreBrowser", "TerminalUI", "TerminalText", "JSONDirectoryStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings),

        // MARK: The model compiler (momc's job) and the build plugin that runs it on a target's models; neither
        // depends on the terminal modules.
        .executableTarget(name: "ocd-momc", dependencies: ["CoreDataModel"], swiftSettings: strictSettings),
        .plugin(name: "OpenCoreDataModelCompiler", capability: .buildTool(), dependencies: ["ocd-momc"]),

        // MARK: Fuzzing: the targets (run by the test suite's short runs) and the libFuzzer / long-run executable.
        .target(name: "FuzzTargets",
                dependencies: ["Predicates", "PropertyListCoding", "CoreDataModel", "CoreDataSQLiteFormat", "SQLiteDatabase", "TerminalText",
                               "AtomicStoreFormats"],
                swiftSettings: strictSettings),
        .executableTarget(name: "coredata-fuzz", dependencies: ["FuzzTargets"], swiftSettings: strictSettings),

        // A Core Data program written for Apple's platforms (docs/PORTING.md), run and checked by ExampleProgramTests.
        // Its Notes.xcdatamodeld becomes Notes.momd among its resources, as Xcode compiles it on Apple's platforms.
        .executableTarget(name: "core-data-example", dependencies: ["OpenCoreData"], path: "Examples/NotesExample",
                          swiftSettings: strictSettings, plugins: ["OpenCoreDataModelCompiler"]),

        // A custom atomic store written against the public API only (a guide to NSAtomicStore): a directory of JSON
        // files, one per entity. `coredata` registers it, so `--type jsondirectory` opens one.
        .target(name: "JSONDirectoryStore", dependencies: ["OpenCoreData"], path: "Examples/JSONDirectoryStore", swiftSettings: strictSettings),

        // A scrolling list on the real terminal, driven by the tmux end-to-end test.
        .executableTarget(name: "terminal-demo", dependencies: ["TerminalUI", "TerminalText"], swiftSettings: strictSettings),

        // MARK: Tests.
        // A pass-through SQLite VFS that injects I/O failures (and crashes) at a chosen call, for the fault tests.
        .target(name: "CSQLiteFaultVFS", dependencies: ["CSQLite"], path: "Tests/CSQLiteFaultVFS"),
        .executableTarget(name: "StoreStressHelper", dependencies: ["OpenCoreData", "CSQLiteFaultVFS"], path: "Tests/StoreStressHelper",
                          swiftSettings: strictSettings),
        .target(name: "CoreDataTestSupport", dependencies: ["SQLiteDatabase"], path: "Tests/CoreDataTestSupport", swiftSettings: strictSettings),
        .testTarget(name: "SQLiteDatabaseTests", dependencies: ["SQLiteDatabase", "CoreDataTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "PropertyListCodingTests", dependencies: ["PropertyListCoding", "CoreDataTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "KeyValueCodingTests", dependencies: ["KeyValueCoding"], swiftSettings: strictSettings),
        .testTarget(name: "PredicatesTests", dependencies: ["Predicates", "KeyValueCoding"], swiftSettings: strictSettings),
        .testTarget(name: "CoreDataModelTests", dependencies: ["CoreDataModel", "CoreDataTestSupport", "PropertyListCoding"], swiftSettings: strictSettings),
        .testTarget(name: "CoreDataSQLiteFormatTests", dependencies: ["CoreDataSQLiteFormat", "CoreDataModel", "CoreDataTestSupport", "Predicates", "SQLiteDatabase",
                                                                  "TerminalText"], swiftSettings: strictSettings),
        .testTarget(name: "AtomicStoreFormatsTests", dependencies: ["AtomicStoreFormats", "CoreDataModel", "CoreDataTestSupport", "PropertyListCoding"],
                    swiftSettings: strictSettings),
        .testTarget(name: "TerminalTextTests", dependencies: ["TerminalText"], swiftSettings: strictSettings),
        .testTarget(name: "UndoManagementTests", dependencies: ["UndoManagement"], swiftSettings: strictSettings),
        .testTarget(name: "CoreDataObjectGraphTests", dependencies: ["CoreDataObjectGraph", "CoreDataMacros", "CoreDataModel", "CoreDataSQLiteFormat", "CoreDataTestSupport", "SQLiteDatabase", "PropertyListCoding",
                                                                 "Predicates", "UndoManagement", "KeyValueCoding"], swiftSettings: strictSettings),
        .testTarget(name: "OpenCoreDataTests", dependencies: ["OpenCoreData"], swiftSettings: strictSettings),
        // A model compiled by the plugin into the test bundle's resources, loaded through `Bundle.module`.
        .testTarget(name: "ModelCompilerPluginTests", dependencies: ["OpenCoreData"], swiftSettings: strictSettings,
                    plugins: ["OpenCoreDataModelCompiler"]),
        // The macro's expansions, as text in the test file (swift-syntax's own test support: no other package).
        .testTarget(name: "CoreDataMacrosTests", dependencies: [
            "CoreDataMacrosPlugin",
            .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
        ], swiftSettings: strictSettings),
        .testTarget(name: "JSONDirectoryStoreTests", dependencies: ["JSONDirectoryStore", "OpenCoreData", "CoreDataTestSupport"],
                    swiftSettings: strictSettings),
        .testTarget(name: "CommandLineTests", dependencies: ["CoreDataTestSupport", "SQLiteDatabase", "CoreDataSQLiteFormat"], swiftSettings: strictSettings),
        .testTarget(name: "StoreBrowserTests", dependencies: ["StoreBrowser", "StoreAccess", "TerminalUI", "TerminalText", "CoreDataObjectGraph",
                                                          "CoreDataSQLiteFormat",
                                                          "CoreDataModel", "Predicates", "CoreDataTestSupport", "SQLiteDatabase"],
                    swiftSettings: strictSettings),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "TerminalText", "CNCurses", "CoreDataTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets", "CoreDataTestSupport"], exclude: ["Seeds"],
                    swiftSettings: strictSettings),
        // Package.swift against the sources: declared dependencies versus imports, unsafe code only in its rooms.
        .testTarget(name: "PackageRulesTests", swiftSettings: strictSettings),
        // The real `coredata` binary driven through tmux (send-keys, capture-pane): needs `swift build` first.
        .testTarget(name: "BrowserEndToEndTests", dependencies: ["CoreDataTestSupport", "SQLiteDatabase"], swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
