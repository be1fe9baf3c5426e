// bench-imaging: decode-and-prep throughput, single thread, beside the decode-bound limit
// (TurboJPEG decoding the same files at the same DCT scale, nothing else), and the cost of
// each prep recipe alone. Photos: generated 12-megapixel photo-like JPEGs, and the real
// 400x533 validation photos when ../shared/data/clothing-photos/validation exists (generated
// 400x533 ones otherwise).
import BenchSupport
import CTurboJPEG
import Foundation
import Imaging

let thumbnailSide = 256

/// Runs `body` over every file, repeating until at least `seconds` of CPU time have passed;
/// CPU seconds per image (wall seconds per image are tracked in `wallRatio`).
nonisolated(unsafe) var wallRatio = 1.0
func measure(_ files: [[UInt8]], seconds: Double = 1.5, _ body: ([UInt8]) throws -> Void) rethrows -> Double {
    for file in files.prefix(3) { try body(file) }   // warm up
    var count = 0
    let start = threadCPUSeconds(), wallStart = wallSeconds()
    repeat {
        for file in files { try body(file); count += 1 }
    } while threadCPUSeconds() - start < seconds
    let cpu = threadCPUSeconds() - start
    wallRatio = max(wallRatio, (wallSeconds() - wallStart) / cpu)
    return cpu / Double(count)
}

/// The decode-bound limit: TurboJPEG alone, same scale and flags as the module uses.
func turboJPEGDecode(_ jpeg: [UInt8], handle: tjhandle, buffer: inout [UInt8]) {
    var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
    jpeg.withUnsafeBufferPointer { source in
        _ = tjDecompressHeader3(handle, source.baseAddress, UInt(source.count), &width, &height, &subsampling, &colorspace)
    }
    let longest = Int(max(width, height))
    var count: Int32 = 0
    let factors = tjGetScalingFactors(&count)!
    var best = (num: 1, denom: 1)
    for i in 0..<Int(count) {
        let f = (num: Int(factors[i].num), denom: Int(factors[i].denom))
        guard f.num <= f.denom else { continue }
        let scaled = (longest * f.num + f.denom - 1) / f.denom
        if scaled >= thumbnailSide && scaled < (longest * best.num + best.denom - 1) / best.denom { best = f }
    }
    let w = (Int(width) * best.num + best.denom - 1) / best.denom
    let h = (Int(height) * best.num + best.denom - 1) / best.denom
    if buffer.count < w * h * 3 { buffer = [UInt8](repeating: 0, count: w * h * 3) }
    let status = jpeg.withUnsafeBufferPointer { source in
        buffer.withUnsafeMutableBufferPointer { target in
            tjDecompress2(handle, source.baseAddress, UInt(source.count), target.baseAddress, Int32(w), 0, Int32(h),
                          Int32(TJPF_RGB.rawValue), TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS)
        }
    }
    precondition(status == 0, "the benchmark's own JPEG failed to decode")
}

func photoLike(width: Int, height: Int, seed: UInt64) -> Bitmap {
    Bitmap(width: width, height: height, channels: 3, pixels: photoLikePixels(width: width, height: height, seed: seed))
}

let photosRoot: String = {
    let arguments = CommandLine.arguments
    if let index = arguments.firstIndex(of: "--photos"), index + 1 < arguments.count { return arguments[index + 1] }
    return "../shared/data/clothing-photos/validation"
}()

func realPhotos() -> [[UInt8]]? {
    let root = photosRoot
    guard let enumerator = FileManager.default.enumerator(atPath: root) else { return nil }
    var files = [[UInt8]]()
    for case let path as String in enumerator where path.lowercased().hasSuffix(".jpg") {
        if let bytes = try? ImageFile.read(root + "/" + path) { files.append(bytes) }
    }
    return files.isEmpty ? nil : files.sorted { $0.count < $1.count }
}

func row(_ cells: [String], widths: [Int]) -> String {
    zip(cells, widths).map { cell, width in
        cell.count >= width ? cell : (width < 0 ? cell : String(repeating: " ", count: width - cell.count) + cell)
    }.joined(separator: "  ")
}

let quick = CommandLine.arguments.contains("--quick")
// --profile NAME: only the recipe, over and over on the photos' rasters, for a profiler.
if let index = CommandLine.arguments.firstIndex(of: "--profile"), CommandLine.arguments.dropFirst(index + 1).first == "load" {
    let files = realPhotos() ?? []
    let perImage = try measure(files, seconds: 3) { _ = try ImageProcessor().load(bytes: $0) }
    print(String(format: "load: %.3f ms per image over %d files", perImage * 1000, files.count))
    exit(0)
}
if let index = CommandLine.arguments.firstIndex(of: "--profile"), index + 1 < CommandLine.arguments.count {
    var recipe = try PrepRecipes.named(CommandLine.arguments[index + 1])
    if let sideIndex = CommandLine.arguments.firstIndex(of: "--working-side"), let side = Int(CommandLine.arguments[sideIndex + 1]) {
        recipe = PhotoRecipe(workingSide: side)
    }
    let rasters = try (realPhotos() ?? []).map { try ImageProcessor().load(bytes: $0).raster }
    var index = 0
    let perImage = measure(rasters.map { _ in [] }, seconds: 3) { _ in _ = recipe.prepare(rasters[index % rasters.count]); index += 1 }
    print(String(format: "%@: %.3f ms per image over %d rasters", recipe.identity, perImage * 1000, rasters.count))
    exit(0)
}
let seconds = quick ? 0.3 : 1.5
print("bench-imaging: single thread, thumbnail side \(thumbnailSide), \(quick ? "quick" : "full") run")

var sets = [(name: String, files: [[UInt8]])]()
do {
    let start = wallSeconds()
    let large = try (0..<(quick ? 2 : 4)).map { seed in
        try JPEGEncoder(quality: 88).encode(photoLike(width: 4000, height: 3000, seed: UInt64(seed)))
    }
    print(String(format: "generated %d 4000x3000 JPEGs (%.1f MB each) in %.1f s", large.count,
                 Double(large[0].count) / 1e6, wallSeconds() - start))
    sets.append(("12 MP generated", large))
    if let real = realPhotos() {
        sets.append(("400x533 real (\(real.count))", real))
    } else {
        print("\(photosRoot) not found: using generated 400x533 photos")
        let small = try (0..<16).map { try JPEGEncoder(quality: 88).encode(photoLike(width: 400, height: 533, seed: UInt64($0))) }
        sets.append(("400x533 generated", small))
    }
} catch {
    print("error: \(error)")
    exit(1)
}

let processor = ImageProcessor(thumbnailSide: thumbnailSide)
let handle = tjInitDecompress()!
var buffer = [UInt8]()
let widths = [22, 14, 10, 12, 10, 10]
print("")
print(row(["photos", "pipeline", "ms/image", "images/s", "of limit", "recipe ms"], widths: widths))
do {
    for set in sets {
        let limit = measure(set.files, seconds: seconds) { turboJPEGDecode($0, handle: handle, buffer: &buffer) }
        print(row([set.name, "tj decode", String(format: "%.2f", limit * 1000), String(format: "%.0f", 1 / limit), "1.00", "-"], widths: widths))
        let decodeOnly = try measure(set.files, seconds: seconds) { _ = try processor.load(bytes: $0) }
        print(row([set.name, "load", String(format: "%.2f", decodeOnly * 1000), String(format: "%.0f", 1 / decodeOnly),
                   String(format: "%.2f", limit / decodeOnly), "-"], widths: widths))
        let rasters = try set.files.map { try processor.load(bytes: $0).raster }
        for recipe in PrepRecipes.all {
            let total = try measure(set.files, seconds: seconds) { _ = recipe.prepare(try processor.load(bytes: $0).raster) }
            var index = 0
            let prepOnly = measure(rasters.map { _ in [] }, seconds: seconds) { _ in
                _ = recipe.prepare(rasters[index % rasters.count]); index += 1
            }
            print(row([set.name, "load+" + recipe.name, String(format: "%.2f", total * 1000), String(format: "%.0f", 1 / total),
                       String(format: "%.2f", limit / total), String(format: "%.3f", prepOnly * 1000)], widths: widths))
        }
        let full = try measure(set.files, seconds: seconds) { _ = try processor.process(bytes: $0, recipe: PrepRecipes.photo) }
        print(row([set.name, "process", String(format: "%.2f", full * 1000), String(format: "%.0f", 1 / full),
                   String(format: "%.2f", limit / full), "-"], widths: widths))
    }
} catch {
    print("error: \(error)")
    exit(1)
}
tjDestroy(handle)
print("""

Times are CPU time of the one benchmark thread; wall time was up to \(String(format: "%.1f", wallRatio))x that on this
run, because the machine is shared. tj decode: TurboJPEG alone at the module's DCT scale (the
decode-bound limit). load: sniff, header, limits, EXIF, decode, orientation, reduction to the
256 raster. load+recipe: that plus the recipe. recipe ms: the recipe alone on the raster.
process: load, thumbnail JPEG and photo recipe (what an import does). of limit: tj decode time
divided by the pipeline's time.
""")

