// import-bench: the Swift side of bench-import (mk/import.mk).
//
//   import-bench photos --out DIR [--count 200] [--width 4000] [--height 3000]
//       Writes photo-like JPEGs through Imaging's JPEGEncoder (every third one stored
//       sideways with EXIF orientation 6, as a phone held upright stores it). Each file has
//       its own content, so an import hashes, decodes and stores every one.
//   import-bench decode-limit [--threads 2] [--side 256] DIR...
//       The decode-bound limit of an import: every file read, hashed with SHA-256 and
//       decoded by TurboJPEG at the DCT scale the thumbnail needs, on `threads` threads and
//       nothing else. Prints one JSON object.
//   import-bench stages --model FILE DIR...
//       CPU time per image of each step of an import's worker, one thread, over the JPEGs
//       under DIR: where the time goes, for profiling.
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

func jpegFiles(under roots: [String]) -> [String] {
    var files: [String] = []
    for root in roots {
        guard let walker = FileManager.default.enumerator(atPath: root) else { fail("cannot read \(root)") }
        for case let path as String in walker {
            let lowered = path.lowercased()
            if lowered.hasSuffix(".jpg") || lowered.hasSuffix(".jpeg") { files.append(root + "/" + path) }
        }
    }
    return files.sorted()
}

/// The DCT scale TurboJPEG offers that gives the smallest image whose longest side is
/// still at least `side`, as the import's decoder chooses it.
func scaled(width: Int, height: Int, side: Int) -> (width: Int, height: Int) {
    var count: Int32 = 0
    let factors = tjGetScalingFactors(&count)!
    let longest = max(width, height)
    var best = (width: width, height: height)
    for i in 0..<Int(count) {
        let num = Int(factors[i].num), denom = Int(factors[i].denom)
        guard num <= denom else { continue }
        let scaledLongest = (longest * num + denom - 1) / denom
        if scaledLongest >= side && scaledLongest < max(best.width, best.height) {
            best = ((width * num + denom - 1) / denom, (height * num + denom - 1) / denom)
        }
    }
    return best
}

func decodeLimit(_ options: BenchOptions) throws {
    let files = jpegFiles(under: options.positionals)
    guard !files.isEmpty else { fail("decode-limit: no JPEG files under \(options.positionals)") }
    let threads = options.int("threads", default: ProcessInfo.processInfo.activeProcessorCount)
    let side = options.int("side", default: 256)
    let failures = Atomic<Int>(0)
    let start = wallSeconds()
    parallelFor(files.count, threads: threads) { index in
        guard let bytes = try? ImageFile.read(files[index]), let handle = tjInitDecompress() else {
            failures.add(1, ordering: .relaxed)
            return
        }
        defer { tjDestroy(handle) }
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = bytes.withUnsafeBufferPointer { source -> Int32 in
            _ = EVP_Digest(source.baseAddress, source.count, &digest, &length, EVP_sha256(), nil)
            guard tjDecompressHeader3(handle, source.baseAddress, UInt(source.count),
                                      &width, &height, &subsampling, &colorspace) == 0 else { return -1 }
            let size = scaled(width: Int(width), height: Int(height), side: side)
            var pixels = [UInt8](repeating: 0, count: size.width * size.height * 3)
            return tjDecompress2(handle, source.baseAddress, UInt(source.count), &pixels, Int32(size.width), 0,
                                 Int32(size.height), TJPF_RGB.rawValue, 0)
        }
        if status != 0 || length != 32 { failures.add(1, ordering: .relaxed) }
    }
    let seconds = wallSeconds() - start
    let failed = failures.load(ordering: .relaxed)
    print("""
        {"files": \(files.count), "failed": \(failed), "threads": \(threads), "seconds": \(seconds), \
        "images_per_second": \(Double(files.count - failed) / seconds)}
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
    let files = jpegFiles(under: options.positionals)
    let processor = ImageProcessor()
    var spent: [String: Double] = [:]
    var order: [String] = []
    func timed<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        if spent[name] == nil { order.append(name) }
        let start = threadCPUSeconds()
        defer { spent[name, default: 0] += threadCPUSeconds() - start }
        return try body()
    }
    var output = [Float](repeating: 0, count: 10)
    for file in files {
        let bytes = try timed("read") { try ImageFile.read(file) }
        _ = timed("sha-256") {
            var digest = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            return EVP_Digest(bytes, bytes.count, &digest, &length, EVP_sha256(), nil)
        }
        let decoded = try timed("decode + orient") { try processor.decoder.decode(bytes, minimumSide: processor.thumbnailSide) }
        let raster = timed("fit to 256") { decoded.bitmap.fitted(longestSide: processor.thumbnailSide) }
        _ = try timed("thumbnail encode") { try processor.thumbnailEncoder.encode(raster) }
        for recipe in [PrepRecipes.fashionMNIST] + PrepRecipes.all.filter({ $0.name != "fashion-mnist" }) {
            let tensor = timed("prep \(recipe.name)") { recipe.prepare(raster) }
            try timed("classify") {
                try tensor.values.withUnsafeBufferPointer { source in
                    try output.withUnsafeMutableBufferPointer { try main.run(input: source, count: 1, output: $0) }
                }
            }
        }
    }
    for name in order {
        let perImage = spent[name]! / Double(files.count) / (name == "classify" ? Double(PrepRecipes.all.count) : 1)
        print("\(name.padding(toLength: 20, withPad: " ", startingAt: 0)) \(String(format: "%7.3f", perImage * 1000)) ms")
    }
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: import-bench photos|decode-limit ...") }
let options = BenchOptions(arguments.dropFirst(2), tool: "import-bench", allowsPositionals: true)
switch arguments[1] {
case "photos": try writePhotos(options)
case "decode-limit": try decodeLimit(options)
case "model-cost": try modelCost(options)
case "stages": try stages(options)
default: fail("unknown subcommand \(arguments[1])")
}
