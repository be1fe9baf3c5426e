// import-bench: the Swift side of bench-import (mk/import.mk).
//
//   import-bench photos --out DIR [--count 200] [--width 4000] [--height 3000]
//       Writes photo-like JPEGs through Imaging's JPEGEncoder (every third one stored
//       sideways with EXIF orientation 6, as a phone held upright stores it). Each file has
//       its own content, so an import hashes, decodes and stores every one.
//   import-bench decode-limit [--threads 2] [--side 256] DIR...
//       The decode-bound limit of an import: every file read, hashed with SHA-256 and
//       decoded by its own library at the size the thumbnail needs (TurboJPEG at a DCT
//       scale, libheif from an embedded thumbnail, libwebp scaled; see LimitDecoders), on
//       `threads` threads and nothing else. Timed from the walk of DIR, as an import's rate
//       is (`wardrobe import` counts its walk). Prints one JSON object, with what was
//       decoded; an empty DIR gives 0 files (its CPU time is the tool's start-up).
//   import-bench decode-choices [--side 256] [--rounds 3] DIR...
//       Imaging's decoder asked for the thumbnail's size (DCT scale, scaled WebP, HEIF's
//       embedded thumbnail) against decoding the whole image, each then fitted to `side`:
//       CPU time per image of each way, what was decoded, and how far the two results lie
//       apart. Why the decoders decode less than the whole image; see DecodeChoices.swift.
//   import-bench decoded [--side 256] DIR...
//       What Imaging's decoder reads of each file for an import (one JSON object).
//   import-bench stages --model FILE [--rounds 3] DIR...
//       CPU time per image of each step of an import's worker, as `ImageProcessor.process`
//       and `ImportWork` take them (the thumbnail decoded again for the recipes included),
//       on one thread over the image files under DIR, best of `rounds`: where the time goes.
//       Process CPU time, so that the threads libheif decodes on are counted.
//   import-bench fingerprints DIR...
//       One line per image file: fingerprints of the thumbnail an import stores and of each
//       recipe's tensor, bit for bit, so two builds can be shown to store and classify the
//       same (see Fingerprints.swift).
//   import-bench model-cost --model FILE
//       CPU time per image of the model's `main` at batch sizes 1, 8, 16 and 64 (why the
//       import's workers classify in small batches).
import BenchSupport
import CCrypto
import CTurboJPEG
import Foundation
import Imaging
import Inference
import Synchronization

func fail(_ message: String) -> Never { benchFail("import-bench", message) }

/// Runs `body(index)` for 0..<count on `threads` threads, each taking the next index.
func parallelFor(_ count: Int, threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let next = Atomic<Int>(0)
    let group = DispatchGroup()
    for _ in 0..<threads {
        group.enter()
        let thread = Thread {
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < count else { break }
                body(index)
            }
            group.leave()
        }
        thread.start()
    }
    group.wait()
}

// MARK: - photos

func writePhotos(_ options: BenchOptions) throws {
    guard let out = options.values["out"] else { fail("photos needs --out DIR") }
    let count = options.int("count", default: 200)
    let width = options.int("width", default: 4000), height = options.int("height", default: 3000)
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let start = wallSeconds()
    let bytes = Atomic<Int>(0)
    parallelFor(count, threads: ProcessInfo.processInfo.activeProcessorCount) { index in
        // Every third photo is stored landscape and shown portrait (orientation 6).
        let sideways = index % 3 == 2
        let encoder = JPEGEncoder(quality: 92, orientation: sideways ? .rotated90Clockwise : nil)
        let photo = Bitmap(width: width, height: height, channels: 3,
                           pixels: photoLikePixels(width: width, height: height, seed: UInt64(index)))
        do {
            let jpeg = try encoder.encode(photo)
            try ImageFile.write(jpeg, to: "\(out)/photo-\(String(format: "%04d", index)).jpg")
            bytes.add(jpeg.count, ordering: .relaxed)
        } catch {
            fail("cannot write photo \(index): \(error)")
        }
    }
    let megabytes = Double(bytes.load(ordering: .relaxed)) / Double(count) / 1e6
    print("wrote \(count) photos of \(width)x\(height) to \(out), \(String(format: "%.2f", megabytes)) MB each, "
          + "in \(String(format: "%.1f", wallSeconds() - start)) s")
}

// MARK: - decode-limit

/// The image files under `roots` that import-bench measures (by name: the generated sets and
/// the validation photos are named by their format).
func imageFiles(under roots: [String], suffixes: [String] = [".jpg", ".jpeg", ".heic", ".heif", ".avif", ".webp"]) -> [String] {
    var files: [String] = []
    for root in roots {
        guard let walker = FileManager.default.enumerator(atPath: root) else { fail("cannot read \(root)") }
        for case let path as String in walker where suffixes.contains(where: path.lowercased().hasSuffix) {
            files.append(root + "/" + path)
        }
    }
    return files.sorted()
}

func decodeLimit(_ options: BenchOptions) throws {
    let threads = options.int("threads", default: ProcessInfo.processInfo.activeProcessorCount)
    let side = options.int("side", default: 256)
    // The clock starts before the walk: an import's rate counts finding its files too.
    let start = wallSeconds()
    let files = imageFiles(under: options.positionals)
    let failures = Atomic<Int>(0)
    let decoded = Mutex<[String: Int]>([:])
    parallelFor(files.count, threads: threads) { index in
        guard let bytes = try? ImageFile.read(files[index]) else {
            failures.add(1, ordering: .relaxed)
            return
        }
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let what = bytes.withUnsafeBufferPointer { source -> String? in
            _ = EVP_Digest(source.baseAddress, source.count, &digest, &length, EVP_sha256(), nil)
            return LimitDecoders.decode(source, side: side)
        }
        guard let what, length == 32 else {
            failures.add(1, ordering: .relaxed)
            return
        }
        decoded.withLock { $0[what, default: 0] += 1 }
    }
    let seconds = wallSeconds() - start
    let failed = failures.load(ordering: .relaxed)
    let kinds = decoded.withLock { $0 }
    let summary = try String(decoding: JSONSerialization.data(withJSONObject: kinds, options: [.sortedKeys]), as: UTF8.self)
    print("""
        {"files": \(files.count), "failed": \(failed), "threads": \(threads), "seconds": \(seconds), \
        "images_per_second": \(files.isEmpty ? 0 : Double(files.count - failed) / seconds), "decoded": \(summary)}
        """)
}

// MARK: - model-cost

func modelCost(_ options: BenchOptions) throws {
    guard let path = options.values["model"] else { fail("model-cost needs --model FILE") }
    let main = try CompiledModel(contentsOf: URL(fileURLWithPath: path)).function(named: "main")
    let images = 256, size = ModelContract.valuesPerImage, classes = ModelContract.labels.count
    var state: UInt32 = 1
    let input = (0..<images * size).map { _ in
        state = state &* 1_664_525 &+ 1_013_904_223
        return Float(state >> 24) / 255
    }
    var output = [Float](repeating: 0, count: images * classes)
    for batch in [1, 8, 16, 64] {
        var best = Double.infinity
        for _ in 0..<5 {
            let start = threadCPUSeconds()
            for first in stride(from: 0, to: images, by: batch) {
                try input.withUnsafeBufferPointer { source in
                    try output.withUnsafeMutableBufferPointer { target in
                        try main.run(input: UnsafeBufferPointer(rebasing: source[first * size..<(first + batch) * size]),
                                     count: batch,
                                     output: UnsafeMutableBufferPointer(rebasing: target[first * classes..<(first + batch) * classes]))
                    }
                }
            }
            best = min(best, (threadCPUSeconds() - start) / Double(images))
        }
        print("batch \(batch): \(String(format: "%.3f", best * 1000)) ms CPU per image")
    }
}

// MARK: - stages

func stages(_ options: BenchOptions) throws {
    guard let path = options.values["model"] else { fail("stages needs --model FILE") }
    let main = try CompiledModel(contentsOf: URL(fileURLWithPath: path)).function(named: "main")
    let files = imageFiles(under: options.positionals)
    let rounds = options.int("rounds", default: 3)
    let processor = ImageProcessor()
    let recipes = [PrepRecipes.fashionMNIST] + PrepRecipes.all.filter { $0.name != "fashion-mnist" }
    var best: [String: Double] = [:]
    var order: [String] = []
    var output = [Float](repeating: 0, count: 10)
    for _ in 0..<rounds {
        var spent: [String: Double] = [:]
        func timed<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
            if !order.contains(name) { order.append(name) }
            let start = processCPUSeconds()
            defer { spent[name, default: 0] += processCPUSeconds() - start }
            return try body()
        }
        for file in files {
            let bytes = try timed("read") { try ImageFile.read(file) }
            _ = timed("sha-256") {
                var digest = [UInt8](repeating: 0, count: 32)
                var length: UInt32 = 0
                return EVP_Digest(bytes, bytes.count, &digest, &length, EVP_sha256(), nil)
            }
            let decoded = try timed("decode + orient") { try processor.decoder.decode(bytes, minimumSide: processor.thumbnailSide) }
            let raster = timed("fit to 256") { decoded.bitmap.fitted(longestSide: processor.thumbnailSide) }
            let thumbnail = try timed("thumbnail encode") { try processor.thumbnailEncoder.encode(raster) }
            let seen = try timed("thumbnail decode") { try processor.decoder.decode(thumbnail).bitmap }
            // Colour and fingerprints as import takes them: beside the photo recipe's tensor
            // from its one segmentation, and alone (segmenting again) beside any other recipe's.
            _ = timed("photo + measuring") { PhotoRecipe().prepareMeasuring(seen) }
            _ = timed("measuring alone") { PhotoRecipe().measure(seen) }
            // Its parts: the working copy and its segmentation (the photo recipe's own), then
            // what measuring adds on them, the colours and the fingerprints.
            let rgb = seen.rgb()
            let working = timed("working copy") { PhotoRecipe().workingCopy(ofRGB: rgb) }
            let mask = timed("segmentation") {
                PhotoRecipe().garmentMask(width: working.width, height: working.height, colours: working.samples)
            }
            _ = timed("colours") { GarmentColours(rgb: rgb, working: working.samples, mask: mask) }
            _ = timed("fingerprints") {
                ImageFingerprint(width: working.width, height: working.height, samples: working.samples, mask: mask)
            }
            for recipe in recipes {
                let tensor = timed("prep \(recipe.name)") { recipe.prepare(seen) }
                try timed("classify") {
                    try tensor.values.withUnsafeBufferPointer { source in
                        try output.withUnsafeMutableBufferPointer { try main.run(input: source, count: 1, output: $0) }
                    }
                }
            }
        }
        for (name, seconds) in spent { best[name] = min(best[name] ?? .infinity, seconds) }
    }
    for name in order {
        let perImage = best[name]! / Double(files.count) / (name == "classify" ? Double(recipes.count) : 1)
        print("\(name.padding(toLength: 20, withPad: " ", startingAt: 0)) \(String(format: "%7.3f", perImage * 1000)) ms")
    }
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: import-bench photos|decode-limit ...") }
let options = BenchOptions(arguments.dropFirst(2), tool: "import-bench", allowsPositionals: true)
switch arguments[1] {
case "photos": try writePhotos(options)
case "decode-limit": try decodeLimit(options)
case "decode-choices": try decodeChoices(options)
case "decoded": try decodedSummary(options)
case "model-cost": try modelCost(options)
case "stages": try stages(options)
case "fingerprints": try fingerprints(options)
default: fail("unknown subcommand \(arguments[1])")
}
