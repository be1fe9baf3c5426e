import BenchSupport
import Foundation
import Imaging

/// `import-bench decode-choices`: whether decoding less than the whole image pays, per format.
///
/// Per file, two ways to the thumbnail's raster (longest side `side`), both through Imaging's
/// decoder as an import calls it: "reduced" asks the decoder for at least `side` pixels
/// (JPEG's DCT scale, WebP's scaled decoding, a HEIF file's embedded thumbnail when it is
/// large enough and turned like the image), "whole" decodes the whole image; each is then
/// fitted to `side`. The two alternate per file, and each file's time is its best of
/// `rounds` (CPU time of this thread, so other work on the machine costs less). "Apart" is
/// the mean absolute difference of the two rasters' samples (0-255): a few levels is
/// resampling and compression; a thumbnail turned the wrong way would show tens.
func decodeChoices(_ options: BenchOptions) throws {
    let files = imageFiles(under: options.positionals)
    guard !files.isEmpty else { fail("decode-choices: no image files under \(options.positionals)") }
    let side = options.int("side", default: 256)
    let rounds = options.int("rounds", default: 3)
    let decoder = ImageDecoder()

    struct Tally {
        var files = 0, reducedSeconds = 0.0, wholeSeconds = 0.0, apart = 0.0, worstApart = 0.0, differentSize = 0
        var decoded: [String: Int] = [:]
    }
    var tallies: [String: Tally] = [:]
    for file in files {
        let bytes = try ImageFile.read(file)
        var reduced = Double.infinity, whole = Double.infinity
        var reducedRaster: Bitmap?, wholeRaster: Bitmap?
        var what = ""
        for _ in 0..<rounds {
            var start = threadCPUSeconds()
            let small = try decoder.decode(bytes, minimumSide: side)
            let smallRaster = small.bitmap.fitted(longestSide: side)
            reduced = min(reduced, threadCPUSeconds() - start)
            start = threadCPUSeconds()
            let full = try decoder.decode(bytes)
            let fullRaster = full.bitmap.fitted(longestSide: side)
            whole = min(whole, threadCPUSeconds() - start)
            reducedRaster = smallRaster
            wholeRaster = fullRaster
            what = describe(small)
        }
        var tally = tallies[ImageFormat.sniff(bytes)?.name ?? "?", default: Tally()]
        tally.files += 1
        tally.reducedSeconds += reduced
        tally.wholeSeconds += whole
        tally.decoded[what, default: 0] += 1
        if let a = reducedRaster, let b = wholeRaster, a.width == b.width, a.height == b.height, a.channels == b.channels {
            let total = zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            let mean = Double(total) / Double(a.pixels.count)
            tally.apart += mean
            tally.worstApart = max(tally.worstApart, mean)
        } else {
            tally.differentSize += 1
        }
        tallies[ImageFormat.sniff(bytes)?.name ?? "?", default: Tally()] = tally
    }
    print("decode-choices: \(files.count) files, thumbnail side \(side), CPU ms per image (best of \(rounds))")
    print("format  files  reduced ms  whole ms  speed-up  apart mean/worst  reduced decode")
    for (format, tally) in tallies.sorted(by: { $0.key < $1.key }) {
        let n = Double(tally.files)
        let compared = Double(max(1, tally.files - tally.differentSize))
        let decoded = tally.decoded.sorted { $0.value > $1.value }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
        print(String(format: "%-6@ %6d %11.2f %9.2f %8.2fx %9.2f / %-6.2f  ", format as NSString, tally.files,
                     1000 * tally.reducedSeconds / n, 1000 * tally.wholeSeconds / n, tally.wholeSeconds / tally.reducedSeconds,
                     tally.apart / compared, tally.worstApart) + decoded
              + (tally.differentSize > 0 ? "; \(tally.differentSize) of different size, not compared" : ""))
    }
}

/// What the reduced decode read: "embedded thumbnail 320x240", "at DCT scale 1/8", ...
private func describe(_ image: DecodedImage) -> String {
    let size = "\(image.bitmap.width)x\(image.bitmap.height)"
    guard image.scale != .one else { return "whole \(size)" }
    switch image.format {
    case .heif, .avif: return "embedded thumbnail \(size)"
    case .webp: return "scaled \(size)"
    case .jpeg: return "at DCT scale \(image.scale.numerator)/\(image.scale.denominator)"
    case .png: return size
    }
}

/// `import-bench decoded DIR...`: what Imaging's decoder reads of each file when an import
/// asks it for the thumbnail's size, counted ("HEIF embedded thumbnail 320x240": 30). One
/// JSON object, for bench-import's report.
func decodedSummary(_ options: BenchOptions) throws {
    let files = imageFiles(under: options.positionals)
    let side = options.int("side", default: 256)
    let decoder = ImageDecoder()
    var counts: [String: Int] = [:]
    for file in files {
        let what: String
        do {
            let image = try decoder.decode(contentsOf: file, minimumSide: side)
            what = "\(image.format.name) " + describe(image)
        } catch {
            what = "failed"
        }
        counts[what, default: 0] += 1
    }
    let json = try JSONSerialization.data(withJSONObject: ["files": files.count, "decoded": counts], options: [.sortedKeys])
    print(String(decoding: json, as: UTF8.self))
}
