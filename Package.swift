// swift-tools-version:6.0
// wardrobe: a catalogue of clothing photos, classified by a bundled Fashion-MNIST model.
// Dependencies point one way: wardrobe -> (CommandLineKit, Server, Wardrobe); Server -> Wardrobe;
// Wardrobe -> (Catalogue, Imaging, Inference, Training); Training -> (Inference, SeededRandom);
// Inference -> ClothingContract; Imaging -> ClothingContract (the contract's side and labels,
// declared once); and every one of them but ClothingContract and SeededRandom -> Files.
// Wardrobe is the one way in: it imports Catalogue internally, so nothing above it names a
// storage type. CommandLineKit knows nothing of clothing or catalogues. Each target's
// dependencies are exactly the modules its sources import. No package outside the toolchain;
// C libraries come from Debian.
import PackageDescription

let package = Package(
    name: "wardrobe",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "wardrobe", targets: ["wardrobe"]),
        .library(name: "Wardrobe", targets: ["Wardrobe"]),
        .library(name: "Inference", targets: ["Inference"]),
    ],
    targets: [
        // System libraries: a module map plus a shim header each.
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CPNG", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CTurboJPEG", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CWebP", providers: [.apt(["libwebp-dev"])]),
        // Libraries loaded when first needed, not at every start (Sources/CLazyLibrary says why):
        // libheif (libheif-dev) for HEIC and AVIF photos; libmicrohttpd (libmicrohttpd-dev) for
        // `serve`; libpq, PostgreSQL's own client (libpq-dev), when a catalogue on a server is opened;
        // OpenBLAS (libopenblas-dev) when training first multiplies.
        .target(name: "CLazyLibrary"),
        .target(name: "CHeif", dependencies: ["CLazyLibrary"]),
        .target(name: "CMicroHTTPD", dependencies: ["CLazyLibrary"]),
        .target(name: "CPostgreSQL", dependencies: ["CLazyLibrary"]),
        .target(name: "COpenBLAS", dependencies: ["CLazyLibrary"]),
        // Jansson: checks a model header for a key named twice (ModelFile+Safetensors).
        .systemLibrary(name: "CJansson", providers: [.apt(["libjansson-dev"])]),
        // The C library's wcwidth: terminal columns per character, for tables.
        .systemLibrary(name: "CWideCharacters"),

        // The runtime's kernels: C with AVX-512 intrinsics chosen at run time, -O3 in
        // every configuration so that debug test runs stay quick.
        .target(name: "CInferenceKernels",
                cSettings: [.unsafeFlags(["-O3", "-fno-math-errno"])]),
        // Opening files that must be regular (never blocking on a FIFO) and writing
        // output files without replacing what must not be replaced.
        .target(name: "Files"),
        // SplitMix64: the deterministic stream that seeds training and makes the data of
        // tests and benchmarks, importable by each of them without any other dependency.
        .target(name: "SeededRandom"),
        // The contract (28x28, one channel, the ten labels in order), in a module of its own so
        // that the runtime and the prep recipes take it from one place.
        .target(name: "ClothingContract"),
        .target(name: "Inference", dependencies: ["ClothingContract", "CInferenceKernels", "CJansson", "Files"],
                swiftSettings: optimised),
        // libpng reports errors by longjmp, which must not cross Swift frames: this small
        // C target holds every libpng call behind setjmp.
        .target(name: "CPNGSupport", linkerSettings: [.linkedLibrary("png")]),
        .target(name: "CSocketSupport"),
        .target(name: "Imaging", dependencies: ["CTurboJPEG", "CPNGSupport", "CHeif", "CWebP", "ClothingContract", "Files"],
                swiftSettings: optimised),
        .target(name: "Catalogue", dependencies: ["CSQLite", "CPostgreSQL", "Files"],
                plugins: ["EmbedMigrations"]),
        // migrations/*.sql become Swift source at build time, so the installed
        // binary carries its schema and works from any directory.
        .executableTarget(name: "EmbedMigrationsTool", path: "Plugins/EmbedMigrationsTool"),
        .plugin(name: "EmbedMigrations", capability: .buildTool(),
                dependencies: ["EmbedMigrationsTool"]),
        // Child process for crash and concurrency tests, and the catalogue
        // benchmark / 1M-image generator (subcommands).
        .executableTarget(name: "catalogue-bench", dependencies: ["Catalogue", "CatalogueFixtures", "BenchSupport"],
                          path: "bench/CatalogueBench"),
        // Times `wardrobe reclassify` and `wardrobe list` through the built binary (bench-queries).
        // What the cheap look for damage costs writing commands on a large catalogue (bench-check).
        .executableTarget(name: "check-bench", dependencies: ["Catalogue", "Imaging", "BenchSupport"], path: "bench/CheckBench"),
        .executableTarget(name: "queries-bench", dependencies: ["Wardrobe", "Imaging", "Training", "BenchSupport", "SeededRandom"], path: "bench/QueriesBench"),
        // Shared by the benchmark tools: option parsing, clocks, timed child
        // processes, and the photo-like pictures bench-imaging and bench-import encode.
        .target(name: "BenchSupport", dependencies: ["SeededRandom"], path: "bench/BenchSupport"),
        // Test support: deterministic synthetic images, models and classifications
        // (shared with catalogue-bench), simultaneous processes, a small tmpfs, and
        // the rows of `wardrobe list --json` as tests read them.
        .target(name: "CatalogueFixtures", dependencies: ["Catalogue", "SeededRandom"], path: "Tests/Support/CatalogueFixtures"),
        // The loopback connection the HTTP test clients of ServerTests and CLITests share.
        .target(name: "LoopbackSocket", path: "Tests/Support/LoopbackSocket"),
        .target(name: "Training", dependencies: ["Inference", "CZlib", "COpenBLAS", "Files", "SeededRandom"],
                swiftSettings: optimised),
        // Compiled for testing in every configuration: its tests run against release builds and
        // reach, with @testable, the run engine and the use cases' parts that speak the storage's
        // types, which stay internal (Catalogue is an internal import).
        .target(name: "Wardrobe", dependencies: ["Catalogue", "Imaging", "Inference", "Training", "CCrypto", "Files"],
                swiftSettings: [.unsafeFlags(["-enable-testing"])]),
        // The command-line frame: commands, options declared once on the properties they
        // fill, the parser, help, console and progress. Not named `CommandLine`: a module
        // of that name would shadow Swift's `CommandLine` (the process's arguments) in
        // every file that imports it.
        .target(name: "CommandLineKit", dependencies: ["Files", "CWideCharacters"]),
        // The executable only parses, calls Wardrobe and prints.
        // `wardrobe serve`: pages and handlers over Wardrobe, on libmicrohttpd.
        .target(name: "Server", dependencies: ["Wardrobe", "Files", "CMicroHTTPD", "CSocketSupport"]),
        // Compiled for testing, as Wardrobe is: CLITests run its commands in their own process
        // to count what each one opens (OpenOnceTests).
        .executableTarget(name: "wardrobe", dependencies: ["Server", "Wardrobe", "CommandLineKit", "Files"],
                          swiftSettings: [.unsafeFlags(["-enable-testing"])]),
        // Developer tools for images: contact sheets of prepped tensors, fixture regeneration.
        .executableTarget(name: "ImagingTools", dependencies: ["Imaging", "Training", "CHeif", "SeededRandom", "BenchSupport"], path: "tools/ImagingTools"),
        .executableTarget(name: "ImagingBench", dependencies: ["Imaging", "CTurboJPEG", "BenchSupport"], path: "bench/ImagingBench",
                          swiftSettings: optimised),

        // bench-import's generator of 12-megapixel photos and its decode-bound limit.
        .executableTarget(name: "import-bench", dependencies: ["Imaging", "Inference", "CTurboJPEG", "CHeif", "CWebP", "CCrypto", "BenchSupport"],
                          path: "bench/ImportBench"),
        // inference-bench: times the runtime, writes the reference model, runs
        // models for the format check (mk/inference.mk); CPeakFLOPS measures the core's peak.
        .target(name: "CPeakFLOPS", path: "bench/CPeakFLOPS", cSettings: [.unsafeFlags(["-O2"])]),
        .executableTarget(name: "inference-bench", dependencies: ["Inference", "CPeakFLOPS", "BenchSupport", "SeededRandom"],
                          path: "bench/InferenceBench", swiftSettings: optimised),

        .testTarget(name: "SystemLibraryTests",
                    dependencies: ["CSQLite", "CPNG", "CTurboJPEG", "COpenBLAS", "CZlib", "CCrypto", "CHeif", "CWebP"]),
        .testTarget(name: "InferenceTests", dependencies: ["Inference", "SeededRandom"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "Training", "SeededRandom"]),
        .testTarget(name: "CatalogueTests", dependencies: ["Catalogue", "CatalogueFixtures"]),
        .testTarget(name: "TrainingTests", dependencies: ["Training", "Inference"]),
        .testTarget(name: "WardrobeTests", dependencies: ["Wardrobe", "Catalogue", "Imaging", "Inference", "Training", "Files", "SeededRandom"]),
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit"]),
        .testTarget(name: "ServerTests", dependencies: ["Server", "Wardrobe", "Catalogue", "Imaging", "LoopbackSocket"]),
        .testTarget(name: "CLITests", dependencies: ["wardrobe", "Catalogue", "CatalogueFixtures", "Imaging", "Training",
                                                     "LoopbackSocket", "SeededRandom"]),
    ]
)

/// Release builds of the numeric modules drop Swift's overflow and bounds
/// checks (-Ounchecked): their loops index within sizes that are checked once,
/// up front (model specialisation, image headers). AVX-512 comes from the C
/// kernels of CInferenceKernels, chosen at run time by CPUID.
var optimised: [SwiftSetting] {
    [.unsafeFlags(["-Ounchecked"], .when(configuration: .release))]
}
