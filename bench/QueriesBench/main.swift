import SeededRandom

// queries-bench: measures `wardrobe reclassify` and `wardrobe list` through
// the built binary, as a user runs them.
//
//   queries-bench --wardrobe PATH --work DIR [--fashion N] [--photos N]
//                 [--validation DIR] [--million-db PATH] [--repeats R] [--json FILE]
//
// 1. Writes N Fashion-MNIST test images as PNG and N synthetic photos as JPEG
//    (with the project's own encoders), imports each set, and the folder of
//    real photos when present, into a fresh catalogue.
// 2. Reclassifies each catalogue with the same model and recipe: images per
//    second, and the share of stored labels the thumbnails reproduce.
// 3. With --million-db (a catalogue made by `catalogue-bench generate`), the
//    median wall time of `wardrobe list --label L` over R runs, rotating labels;
//    with --corrected-db (the same catalogue with a share of its images given a
//    person's label by `catalogue-bench correct`) the same commands on it,
//    run alternately with the first, and the ratio of the medians.
//
//   queries-bench thumbnails --model FILE --folder DIR --prep RECIPE
//       Labels from stored thumbnails (JPEG at several settings, PNG) against
//       labels from the images themselves, with accuracy on the real-photo set.
//   queries-bench probe FILE
//       Images/s of the model at batch sizes 1, 8, 32, 128 on one thread.
import BenchSupport
import Foundation
import Imaging
import Training
import Wardrobe

func fail(_ message: String) -> Never { benchFail("queries-bench", message) }

func note(_ message: String) {
    FileHandle.standardError.write(Data("  \(message)\n".utf8))
}

func median(_ samples: [Double]) -> Double {
    let sorted = samples.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Runs the wardrobe binary; stdout is returned when `capture`, else discarded.
/// With `quiet`, stderr (such as `list`'s "100 of N images shown" hint, once
/// per timed run) is kept in a file and shown only if the command fails.
func wardrobe(_ binary: String, _ arguments: [String], capture: Bool = true,
              quiet: Bool = false) -> (status: Int32, stdout: Data, seconds: Double) {
    let errorsPath = NSTemporaryDirectory() + "queries-bench-\(getpid()).stderr"
    defer { if quiet { try? FileManager.default.removeItem(atPath: errorsPath) } }
    let run: ChildRun
    do {
        run = try runChild(binary, arguments, captureStdout: capture, stderrPath: quiet ? errorsPath : nil)
    } catch {
        fail("\(error)")
    }
    if quiet, run.status != 0, let errors = FileManager.default.contents(atPath: errorsPath) {
        FileHandle.standardError.write(errors)
    }
    return (run.status, run.stdout, run.seconds)
}

/// A photo-like picture: a light, noisy, slightly shaded background and a
/// garment-like shape (a body with sleeves, or trousers) in a random colour.
func syntheticPhoto(width: Int, height: Int, seed: Int) -> Bitmap {
    var state = UInt64(truncatingIfNeeded: seed) &* SplitMix64.gamma | 1
    func random() -> UInt64 {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        return state
    }
    let colour = (Int(random() % 200), Int(random() % 200), Int(random() % 200))
    let trousers = seed % 3 == 0
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    let cx = Double(width) / 2, top = Double(height) * 0.15, bottom = Double(height) * 0.85
    let bodyHalf = Double(width) * 0.18, sleeve = Double(width) * 0.36
    for y in 0..<height {
        let fy = Double(y)
        for x in 0..<width {
            let noise = Int(random() % 20)
            let dx = abs(Double(x) - cx)
            let inside: Bool
            if trousers {
                inside = fy > top && fy < bottom && dx < bodyHalf * 1.1 && (fy < top + (bottom - top) * 0.3 || dx > bodyHalf * 0.15)
            } else {
                let inBody = fy > top && fy < bottom && dx < bodyHalf
                let inSleeves = fy > top && fy < top + (bottom - top) * 0.35 && dx < sleeve - (fy - top) * 0.4
                inside = inBody || inSleeves
            }
            let i = (y * width + x) * 3
            if inside {
                pixels[i] = UInt8(min(255, colour.0 + noise))
                pixels[i + 1] = UInt8(min(255, colour.1 + noise))
                pixels[i + 2] = UInt8(min(255, colour.2 + noise))
            } else {
                let shade = 200 + (x + y) * 30 / (width + height) + noise / 2
                pixels[i] = UInt8(min(255, shade)); pixels[i + 1] = UInt8(min(255, shade - 4)); pixels[i + 2] = UInt8(min(255, shade - 10))
            }
        }
    }
    return Bitmap(width: width, height: height, channels: 3, pixels: pixels)
}

func write(_ bytes: [UInt8], to path: String) {
    do { try Data(bytes).write(to: URL(fileURLWithPath: path)) } catch { fail("cannot write \(path): \(error)") }
}

func makeFashionSet(_ folder: String, count: Int) {
    let test: FashionMNIST
    do { test = try FashionMNIST(split: .test) } catch { fail("Fashion-MNIST test set: \(error)") }
    let encoder = PNGEncoder()
    for index in 0..<min(count, test.count) {
        let bitmap = Bitmap(width: FashionMNIST.side, height: FashionMNIST.side, channels: 1, pixels: Array(test.image(index)))
        do { write(try encoder.encode(bitmap), to: "\(folder)/\(index).png") } catch { fail("PNG: \(error)") }
    }
}

func makePhotoSet(_ folder: String, count: Int) {
    let encoder = JPEGEncoder(quality: 85)
    for index in 0..<count {
        do {
            write(try encoder.encode(syntheticPhoto(width: 800, height: 600, seed: index + 1)), to: "\(folder)/\(index).jpg")
        } catch { fail("JPEG: \(error)") }
    }
}

struct ReclassifyResult: Encodable {
    var set: String
    var images: Int
    var recipe: String
    var import_images_per_s: Double
    var reclassify_images_per_s: Double
    var same_label_share: Double
}

struct Report: Decodable {
    var reclassified: Int
    var recipe: String
    var images_per_second: Double
    var same_label_share: Double?
}

/// Imports `folder` into a fresh catalogue, then reclassifies it `repeats` times.
func measureReclassify(_ binary: String, set: String, folder: String, prep: [String], work: String,
                       repeats: Int) -> ReclassifyResult {
    let db = "\(work)/\(set).sqlite"
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
    let imported = wardrobe(binary, ["import", "--db", db, "--quiet"] + prep + [folder], capture: false)
    guard imported.status == 0 || imported.status == 2 else { fail("import of \(folder) failed") }
    var count = 0
    var rates: [Double] = []
    var shares: [Double] = []
    var recipe = ""
    for _ in 0..<repeats {
        let run = wardrobe(binary, ["reclassify", "--db", db, "--json"])
        guard run.status == 0, let report = try? JSONDecoder().decode(Report.self, from: run.stdout) else {
            fail("reclassify of \(db) failed")
        }
        count = report.reclassified
        rates.append(report.images_per_second)
        shares.append(report.same_label_share ?? 0)
        recipe = report.recipe
    }
    let result = ReclassifyResult(set: set, images: count, recipe: recipe,
                                  import_images_per_s: Double(count) / imported.seconds,
                                  reclassify_images_per_s: median(rates), same_label_share: shares[0])
    note("\(set): \(count) images, import \(Int(result.import_images_per_s))/s, reclassify \(Int(result.reclassify_images_per_s))/s, labels kept \(String(format: "%.2f%%", shares[0] * 100))")
    return result
}

if CommandLine.arguments.dropFirst().first == "probe" {
    guard CommandLine.arguments.count == 3 else { fail("usage: queries-bench probe MODEL.aimodel") }
    let classifier: ClothingClassifier
    do { classifier = try ClothingClassifier(modelAt: CommandLine.arguments[2]) } catch { fail("\(error)") }
    for batch in [1, 8, 32, 128] {
        let tensors = [Float](repeating: 0.3, count: batch * ClothingClassifier.pixelsPerImage)
        let start = wallSeconds()
        var done = 0
        while wallSeconds() - start < 2 {
            _ = tensors.withUnsafeBufferPointer { classifier.classify(tensors: $0, count: batch) }
            done += batch
        }
        print("batch \(batch): \(Int(Double(done) / (wallSeconds() - start))) images/s")
    }
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "thumbnails" {
    // queries-bench thumbnails --model FILE --folder DIR --prep RECIPE
    let options = BenchOptions(CommandLine.arguments.dropFirst(2), tool: "queries-bench")
    let settings = [85, 90, 95].flatMap { quality in
        [ThumbnailAgreement.Setting.jpeg(JPEGEncoder(quality: quality), "JPEG q\(quality) 4:2:0"),
         ThumbnailAgreement.Setting.jpeg(JPEGEncoder(quality: quality, subsampling: .none), "JPEG q\(quality) 4:4:4")]
    } + [ThumbnailAgreement.Setting.png]
    ThumbnailAgreement.measure(folder: options.string("folder"), modelPath: options.string("model"),
                               recipeName: options.string("prep"), settings: settings)
    exit(0)
}

let options = BenchOptions(CommandLine.arguments.dropFirst(), tool: "queries-bench")
let binary = options.string("wardrobe")
let work = options.string("work")
let repeats = options.int("repeats", default: 21)
try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)

var results: [ReclassifyResult] = []
let fashionFolder = "\(work)/fashion", photoFolder = "\(work)/photos"
for folder in [fashionFolder, photoFolder] {
    try? FileManager.default.removeItem(atPath: folder)
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
}
// A set of 0 images is left out (--fashion 0 --photos 0: only the list timings).
let fashionCount = options.int("fashion", default: 2000), photoCount = options.int("photos", default: 300)
makeFashionSet(fashionFolder, count: fashionCount)
makePhotoSet(photoFolder, count: photoCount)
if fashionCount > 0 {
    results.append(measureReclassify(binary, set: "fashion-mnist-png", folder: fashionFolder,
                                     prep: ["--prep", "fashion-mnist"], work: work, repeats: 3))
}
if photoCount > 0 {
    results.append(measureReclassify(binary, set: "synthetic-photos", folder: photoFolder, prep: [], work: work, repeats: 3))
}
if let validation = options.values["validation"] {
    if FileManager.default.fileExists(atPath: validation) {
        // One folder per class: import them all into one catalogue.
        results.append(measureReclassify(binary, set: "clothing-photos-validation", folder: validation, prep: [],
                                         work: work, repeats: 3))
    } else {
        note("\(validation) not found: the real-photo set is skipped")
    }
}

struct ListResult: Encodable {
    var images: Int
    var command: String
    var median_ms: Double
}
var lists: [ListResult] = []
if let million = options.values["million-db"] {
    let labels = ClothingClassifier.labels
    struct Stats: Decodable { var images: Int; var corrected: Int? }
    func stats(_ db: String) -> Stats {
        (try? JSONDecoder().decode(Stats.self, from: wardrobe(binary, ["stats", "--db", db, "--json"]).stdout))
            ?? Stats(images: 0, corrected: nil)
    }
    // The plain and the corrected catalogue alternate, round by round, so that
    // whatever else the machine does weighs on both alike.
    let catalogues = [(million, "")] + (options.values["corrected-db"].map { [($0, ", 10% corrected")] } ?? [])
    for (name, extra) in [("list --label L (table, first 100)", [String]()),
                          ("list --label L --limit 50 --json", ["--limit", "50", "--json"]),
                          ("list --label L --csv (every match)", ["--csv"])] {
        let rounds = extra.contains("--csv") ? max(5, repeats / 4) : repeats
        var samples = Array(repeating: [Double](), count: catalogues.count)
        for round in 0..<rounds {
            for (index, catalogue) in catalogues.enumerated() {
                let run = wardrobe(binary, ["list", "--db", catalogue.0, "--label", labels[round % 10]] + extra,
                                   capture: false, quiet: true)
                guard run.status == 0 else { fail("list on \(catalogue.0) failed") }
                samples[index].append(run.seconds)
            }
        }
        for (index, catalogue) in catalogues.enumerated() {
            let facts = stats(catalogue.0)
            lists.append(ListResult(images: facts.images, command: name + catalogue.1,
                                    median_ms: median(samples[index]) * 1000))
            note("\(name)\(catalogue.1) on \(facts.images) images (\(facts.corrected ?? 0) corrected): median "
                 + "\(String(format: "%.1f", median(samples[index]) * 1000)) ms over \(rounds) runs")
        }
        if catalogues.count == 2 {
            note("  corrected / plain: \(String(format: "%.3f", median(samples[1]) / median(samples[0])))x")
        }
    }
}

// The table for the report.
print("| set | images | recipe | import images/s | reclassify images/s | labels kept |")
print("|---|---:|---|---:|---:|---:|")
for r in results {
    print("| \(r.set) | \(r.images) | \(r.recipe) | \(Int(r.import_images_per_s)) | \(Int(r.reclassify_images_per_s)) | \(String(format: "%.2f%%", r.same_label_share * 100)) |")
}
if !lists.isEmpty {
    print("")
    print("| command (whole process) | catalogue images | median ms |")
    print("|---|---:|---:|")
    for l in lists { print("| \(l.command) | \(l.images) | \(String(format: "%.1f", l.median_ms)) |") }
}
if let file = options.values["json"] {
    struct Summary: Encodable { var reclassify: [ReclassifyResult]; var list: [ListResult] }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    if let data = try? encoder.encode(Summary(reclassify: results, list: lists)) {
        try? data.write(to: URL(fileURLWithPath: file))
    }
}
