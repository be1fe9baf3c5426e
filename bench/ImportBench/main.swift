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
import CCrypto
import CTurboJPEG
import Foundation
import Imaging
import Inference
import Synchronization

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("import-bench: \(message)\n".utf8))
    exit(64)
}

struct Options {
    var values: [String: String] = [:]
    var positionals: [String] = []

    init(_ arguments: ArraySlice<String>) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument.hasPrefix("--") {
                guard let value = iterator.next() else { fail("\(argument) needs a value") }
                values[String(argument.dropFirst(2))] = value
            } else {
                positionals.append(argument)
            }
        }
    }

    func int(_ key: String, default fallback: Int) -> Int {
        guard let text = values[key] else { return fallback }
        guard let value = Int(text) else { fail("--\(key) needs a number") }
        return value
    }
}

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

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

/// A photo-like scene: a lit wall and floor with sensor grain, and a striped garment off
/// centre. The grain keeps the entropy-coded data near what a camera writes (about 3 MB for
/// 12 megapixels at quality 92), which is what decoding time depends on.
func photoLike(width: Int, height: Int, seed: UInt64) -> Bitmap {
    var state = (seed &+ 1) &* 0x9E37_79B9_7F4A_7C15
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    let centreX = width * (40 + Int(seed % 21)) / 100, centreY = height / 2
    let halfBody = width * 17 / 100, halfSleeves = width * 30 / 100
    let bodyTop = centreY - height * 3 / 10, bodyBottom = centreY + height * 3 / 10
    let sleeveBottom = centreY - height / 8
    let stripe = max(1, height / (40 + Int(seed % 30)))
    let floorTop = height * 3 / 4
    let garment: (Int, Int, Int) = [(60, 70, 130), (150, 40, 40), (40, 110, 60), (30, 30, 30)][Int(seed % 4)]
    pixels.withUnsafeMutableBufferPointer { out in
        for y in 0..<height {
            for x in 0..<width {
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                let grain = Int(state % 24) - 12
                let light = 256 - 64 * x / width
                let dx = abs(x - centreX)
                let inBody = dx < halfBody && y >= bodyTop && y < bodyBottom
                let inSleeves = dx < halfSleeves && y >= bodyTop && y < sleeveBottom
                var (r, g, b): (Int, Int, Int)
                if inBody || inSleeves {
                    let lighter = (y / stripe) % 2 == 0 ? 0 : 35
                    (r, g, b) = (garment.0 + lighter, garment.1 + lighter, garment.2 + lighter)
                } else if y >= floorTop {
                    (r, g, b) = (190 * light >> 8, 170 * light >> 8, 140 * light >> 8)
                } else {
                    (r, g, b) = (235 * light >> 8, 232 * light >> 8, 225 * light >> 8)
                }
                let i = (y * width + x) * 3
                out[i] = UInt8(clamping: r + grain)
                out[i + 1] = UInt8(clamping: g + grain)
                out[i + 2] = UInt8(clamping: b + grain)
            }
        }
    }
    return Bitmap(width: width, height: height, channels: 3, pixels: pixels)
}

func writePhotos(_ options: Options) throws {
    guard let out = options.values["out"] else { fail("photos needs --out DIR") }
    let count = options.int("count", default: 200)
    let width = options.int("width", default: 4000), height = options.int("height", default: 3000)
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let start = now()
    let bytes = Atomic<Int>(0)
    parallelFor(count, threads: ProcessInfo.processInfo.activeProcessorCount) { index in
        // Every third photo is stored landscape and shown portrait (orientation 6).
        let sideways = index % 3 == 2
        let encoder = JPEGEncoder(quality: 92, orientation: sideways ? .rotated90Clockwise : nil)
        let photo = photoLike(width: width, height: height, seed: UInt64(index))
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
          + "in \(String(format: "%.1f", now() - start)) s")
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

func decodeLimit(_ options: Options) throws {
    let files = jpegFiles(under: options.positionals)
    guard !files.isEmpty else { fail("decode-limit: no JPEG files under \(options.positionals)") }
    let threads = options.int("threads", default: ProcessInfo.processInfo.activeProcessorCount)
    let side = options.int("side", default: 256)
    let failures = Atomic<Int>(0)
    let start = now()
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
    let seconds = now() - start
    let failed = failures.load(ordering: .relaxed)
    print("""
        {"files": \(files.count), "failed": \(failed), "threads": \(threads), "seconds": \(seconds), \
        "images_per_second": \(Double(files.count - failed) / seconds)}
        """)
}

// MARK: - model-cost

func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func modelCost(_ options: Options) throws {
    guard let path = options.values["model"] else { fail("model-cost needs --model FILE") }
    let main = try CompiledModel(contentsOf: URL(fileURLWithPath: path)).function(named: "main")
    let images = 256
    var state: UInt32 = 1
    let input = (0..<images * 784).map { _ in
        state = state &* 1_664_525 &+ 1_013_904_223
        return Float(state >> 24) / 255
    }
    var output = [Float](repeating: 0, count: images * 10)
    for batch in [1, 8, 16, 64] {
        var best = Double.infinity
        for _ in 0..<5 {
            let start = threadCPUSeconds()
            for first in stride(from: 0, to: images, by: batch) {
                try input.withUnsafeBufferPointer { source in
                    try output.withUnsafeMutableBufferPointer { target in
                        try main.run(input: UnsafeBufferPointer(rebasing: source[first * 784..<(first + batch) * 784]),
                                     count: batch,
                                     output: UnsafeMutableBufferPointer(rebasing: target[first * 10..<(first + batch) * 10]))
                    }
                }
            }
            best = min(best, (threadCPUSeconds() - start) / Double(images))
        }
        print("batch \(batch): \(String(format: "%.3f", best * 1000)) ms CPU per image")
    }
}

// MARK: - stages

func stages(_ options: Options) throws {
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
let options = Options(arguments.dropFirst(2))
switch arguments[1] {
case "photos": try writePhotos(options)
case "decode-limit": try decodeLimit(options)
case "model-cost": try modelCost(options)
case "stages": try stages(options)
default: fail("unknown subcommand \(arguments[1])")
}
