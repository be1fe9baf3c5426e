// check-bench: what the cheap look for damage (Catalogue.checkCheaply: the
// file's header against its size, the schema, the right-most pages of the
// tables a run writes) costs the writing commands that run it, on a large
// catalogue.
//
//   check-bench --wardrobe PATH --db PATH --work DIR [--rounds R] [--photos N] [--json FILE]
//
// 1. The look alone, R times, each on a new connection (SQLite's page cache
//    empty, as in a new process; the file's pages wherever the OS keeps them,
//    as the commands find them).
// 2. Through the built binary, R rounds of three writing commands: `label`
//    of one image (the cheapest writing command), `import` of a folder of N
//    new photo-like JPEGs, and `reclassify` of the images that import stored.
// 3. The medians, and the look's median as a share of each command's median,
//    in wall time and in CPU time (user and system; the look's on its thread,
//    each command's of its whole process): on a machine shared with other jobs
//    wall times stretch and CPU times stay near what an idle machine shows.
//    The issue's bound is 5% of a writing command's own time.
//
// The commands write to the catalogue (a few rows each round), so --db should
// be a catalogue kept for this benchmark, not one another benchmark measures.
import BenchSupport
import Catalogue
import Foundation
import Imaging

func fail(_ message: String) -> Never { benchFail("check-bench", message) }

func median(_ samples: [Double]) -> Double {
    let sorted = samples.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func note(_ message: String) {
    FileHandle.standardError.write(Data("  \(message)\n".utf8))
}

/// Wall and CPU seconds of one timed thing.
struct Sample {
    var wall: Double
    var cpu: Double
}

/// One cheap look on a new connection, opened as a writing command's is up to
/// the look (identity and version read) but read-only, so timing it writes nothing.
func timeCheapLook(_ path: String) throws -> Sample {
    let catalogue = try Catalogue(path: path, mode: .readOnly, lookForDamage: false)
    let start = wallSeconds(), cpuStart = threadCPUSeconds()
    try catalogue.checkCheaply()
    return Sample(wall: wallSeconds() - start, cpu: threadCPUSeconds() - cpuStart)
}

/// Runs the binary; a failure ends the benchmark with its stderr.
func timeCommand(_ binary: String, _ arguments: [String], work: String) -> Sample {
    let errors = work + "/last.stderr"
    let run: ChildRun
    do { run = try runChild(binary, arguments, captureStdout: false, stderrPath: errors) } catch { fail("\(error)") }
    guard run.status == 0 else {
        let text = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        fail("wardrobe \(arguments.joined(separator: " ")) exited \(run.status): \(text)")
    }
    return Sample(wall: run.seconds, cpu: run.cpuSeconds)
}

/// `count` new photo-like 800x600 JPEGs in a new folder: `seed` makes them
/// differ from every earlier round's and run's, so import stores them all.
func writeNewPhotos(to folder: String, count: Int, seed: UInt64) {
    do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let encoder = JPEGEncoder(quality: 88)
        for index in 0..<count {
            let pixels = photoLikePixels(width: 800, height: 600, seed: seed &+ UInt64(index))
            let bytes = try encoder.encode(Bitmap(width: 800, height: 600, channels: 3, pixels: pixels))
            try Data(bytes).write(to: URL(fileURLWithPath: "\(folder)/\(index).jpg"))
        }
    } catch { fail("cannot write photos to \(folder): \(error)") }
}

struct Figure: Encodable {
    var command: String
    var median_ms: Double
    var cpu_median_ms: Double
    var check_share_percent: Double
    var check_cpu_share_percent: Double
}

struct Summary: Encodable {
    var catalogue: String
    var images: Int
    var file_bytes: Int64
    var rounds: Int
    var check_median_ms: Double
    var check_min_ms: Double
    var check_max_ms: Double
    var check_cpu_median_ms: Double
    var commands: [Figure]
}

let options = BenchOptions(CommandLine.arguments.dropFirst(), tool: "check-bench")
let binary = options.string("wardrobe")
let db = options.string("db")
let work = options.string("work")
let rounds = options.int("rounds", default: 15)
let photos = options.int("photos", default: 4)
guard rounds > 0, photos > 0 else { fail("--rounds and --photos must be positive") }

let images: Int
do {
    let catalogue = try Catalogue(path: db, mode: .readOnly)
    images = try catalogue.stats().images
} catch { fail("cannot open \(db): \(error)") }
let fileBytes = ((try? FileManager.default.attributesOfItem(atPath: db))?[.size] as? NSNumber)?.int64Value ?? 0
note("\(images) images, \(fileBytes / 1_000_000) MB; \(rounds) rounds")

try? FileManager.default.removeItem(atPath: work)
do { try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true) } catch { fail("\(error)") }

// Once, untimed: anything left to migrate or mark is done before the rounds.
_ = timeCommand(binary, ["label", "--db", db, "--clear", "1"], work: work)

var checks: [Sample] = []
var label: [Sample] = []
var imports: [Sample] = []
var reclassify: [Sample] = []
let runSeed = UInt64(Date().timeIntervalSince1970 * 1000)
for round in 0..<rounds {
    do { checks.append(try timeCheapLook(db)) } catch { fail("the cheap look failed: \(error)") }
    let image = 1 + (round * 7_919) % max(1, images)
    label.append(timeCommand(binary, ["label", "--db", db, "coat", String(image)], work: work))
    let folder = "\(work)/photos-\(round)"
    writeNewPhotos(to: folder, count: photos, seed: runSeed &+ UInt64(round * photos) &* 1_000_003)
    imports.append(timeCommand(binary, ["import", "--db", db, "-q", folder], work: work))
    let paths = (0..<photos).map { "\(folder)/\($0).jpg" }
    reclassify.append(timeCommand(binary, ["reclassify", "--db", db] + paths, work: work))
    note("round \(round + 1): look \(String(format: "%.3f", checks.last!.wall * 1000)) ms, "
         + "label \(Int(label.last!.wall * 1000)) ms, import \(Int(imports.last!.wall * 1000)) ms, "
         + "reclassify \(Int(reclassify.last!.wall * 1000)) ms")
}

let check = median(checks.map(\.wall)), checkCPU = median(checks.map(\.cpu))
func figure(_ name: String, _ samples: [Sample]) -> Figure {
    let wall = median(samples.map(\.wall)), cpu = median(samples.map(\.cpu))
    return Figure(command: name, median_ms: wall * 1000, cpu_median_ms: cpu * 1000,
                  check_share_percent: check / wall * 100, check_cpu_share_percent: checkCPU / cpu * 100)
}
let summary = Summary(
    catalogue: db, images: images, file_bytes: fileBytes, rounds: rounds,
    check_median_ms: check * 1000, check_min_ms: checks.map(\.wall).min()! * 1000,
    check_max_ms: checks.map(\.wall).max()! * 1000, check_cpu_median_ms: checkCPU * 1000,
    commands: [figure("label coat ID (one image)", label),
               figure("import -q FOLDER (\(photos) new 800x600 JPEGs)", imports),
               figure("reclassify PATH... (those \(photos))", reclassify)])

print("cheap look for damage on \(images) images (\(fileBytes / 1_000_000) MB), \(rounds) rounds:")
print(String(format: "  the look alone: median %.3f ms (min %.3f, max %.3f), CPU %.3f ms", summary.check_median_ms,
             summary.check_min_ms, summary.check_max_ms, summary.check_cpu_median_ms))
for figure in summary.commands {
    print("  \(figure.command): median " + String(format: "%.1f ms, CPU %.1f ms; the look is %.2f%% of it (CPU: %.2f%%; bound: 5%%)",
                                                    figure.median_ms, figure.cpu_median_ms, figure.check_share_percent,
                                                    figure.check_cpu_share_percent))
}
if let file = options.values["json"] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    do { try encoder.encode(summary).write(to: URL(fileURLWithPath: file)) } catch { fail("cannot write \(file): \(error)") }
}
