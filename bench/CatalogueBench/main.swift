// catalogue-bench: drives the Catalogue module for benchmarks and tests.
//
//   catalogue-bench generate --db PATH --images N [--batch B] [--thumbnail-bytes T]
//       Writes N synthetic images (hash, path, thumbnail, classification) in
//       batches of B through the Catalogue API; prints rows per second.
//   catalogue-bench bench --db PATH --images N [--batch B] [--repeats R] [--json FILE]
//       generate, then the median times of "current top 50 for a label" and
//       "count for a label"; a JSON summary for the report.
//   catalogue-bench correct --db PATH --every K
//       Gives every K-th image a person's label (its label + 1 mod 10) through
//       the Catalogue API, in transactions of 10,000; K = 0 corrects nothing
//       and only brings the catalogue's schema up to date.
//   catalogue-bench lookalikes --db PATH --images N [--thumbnail-bytes T]
//       generate, each image with fingerprints and colours (Synthetic.lookalike: every tenth
//       a copy of the one before) and a thumbnail of T bytes (default 10,000, about the
//       validation photos' mean), as `similar` and `duplicates` compare them.
//   catalogue-bench similar --db PATH --wardrobe BINARY [--queries Q]
//       The median wall time of the whole process `wardrobe similar ID` (10 nearest) over Q
//       images spread over the catalogue, and of `wardrobe duplicates --json`, three runs.
//   catalogue-bench stress-write --db PATH [--batch B]
//       Writes batches forever (the crash and snapshot tests kill it); after
//       each commit prints "committed <images>" on stdout.
import Catalogue
import CatalogueFixtures
import BenchSupport
import Foundation

func fail(_ message: String) -> Never { benchFail("catalogue-bench", message) }

struct InsertRates {
    let wall: Double
    let cpu: Double
}

/// Inserts `count` images in batches, timing only the inserts (not the
/// making of synthetic data), as the Python peer does.
func generate(_ catalogue: Catalogue, count: Int, batch: Int, thumbnailBytes: Int, lookalikes: Bool = false) throws -> InsertRates {
    let model = try catalogue.registerModel(Synthetic.model())
    let run = try catalogue.openRun(command: "import", model: model, recipe: Recipe(name: "fashion-mnist", version: 1))
    var spent = 0.0
    var cpuSpent = 0.0
    var done = 0
    while done < count {
        let images = (done..<min(count, done + batch)).map { number in
            var image = Synthetic.image(number, thumbnailBytes: thumbnailBytes)
            if lookalikes { (image.fingerprint, image.colours) = Synthetic.lookalike(number) }
            return image
        }
        let start = wallSeconds()
        let cpuStart = processCPUSeconds()
        try catalogue.insertImages(images, run: run)
        spent += wallSeconds() - start
        cpuSpent += processCPUSeconds() - cpuStart
        done += images.count
        if done % 100_000 == 0 {
            FileHandle.standardError.write(Data("  \(done) images, \(Int(Double(done) / spent)) rows/s\n".utf8))
        }
    }
    try catalogue.closeRun(run, counts: RunCounts(seen: count, imported: count, classified: count))
    return InsertRates(wall: Double(count) / spent, cpu: Double(count) / cpuSpent)
}

/// Batches written through the storage protocol into either engine (a server's catalogue too), as
/// an import's writer writes them: each image with its path and its classification, one
/// transaction per batch. Rows (images) per second of wall time spent writing.
func insertThroughStore(_ store: any CatalogueStore, count: Int, batch: Int) throws -> Double {
    let model = try store.registerModel(Synthetic.model())
    let run = try store.openRun(command: "import", model: model, recipe: Recipe(name: "fashion-mnist", version: 1))
    var spent = 0.0
    var done = 0
    while done < count {
        let images = (done..<min(count, done + batch)).map { Synthetic.image($0, thumbnailBytes: 0) }
        let start = wallSeconds()
        try store.writing(run: run) { writes in
            try writes.insertImages(images, known: .gainsPathOnly)
            return RunCounts(seen: count, imported: done + images.count, classified: done + images.count)
        }
        spent += wallSeconds() - start
        done += images.count
    }
    try store.closeRun(run, counts: RunCounts(seen: count, imported: count, classified: count))
    return Double(count) / spent
}

func median(_ samples: [Double]) -> Double {
    let sorted = samples.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Median seconds of `body` over `repeats` calls, rotating over the ten labels.
func time(repeats: Int, _ body: (Int) throws -> Void) rethrows -> Double {
    for label in 0..<10 { try body(label) }  // warm the cache and the prepared statements
    var samples: [Double] = []
    for index in 0..<repeats {
        let start = wallSeconds()
        try body(index % 10)
        samples.append(wallSeconds() - start)
    }
    return median(samples)
}

func stressWrite(_ catalogue: Catalogue, batch: Int) throws -> Never {
    let model = try catalogue.registerModel(Synthetic.model())
    let importRun = try catalogue.openRun(command: "import", model: model, recipe: Recipe(name: "fashion-mnist", version: 1))
    let redoRun = try catalogue.openRun(command: "reclassify", model: model, recipe: Recipe(name: "photo", version: 1))
    var next = try catalogue.stats().images
    var previous: [ImageID] = []
    while true {
        let images = (next..<next + batch).map { Synthetic.image($0) }
        let inserted = try catalogue.insertImages(images, run: importRun)
        next += batch
        // Straight to the file descriptor: no buffer to lose when killed.
        let line = "committed \(next)\n"
        _ = line.withCString { write(1, $0, strlen($0)) }
        // A second transaction: the previous batch reclassified by another run.
        try catalogue.addClassifications(previous.map { ($0, Synthetic.classification(Int($0.rawValue), variant: 1)) },
                                         run: redoRun)
        previous = inserted.map(\.image)
    }
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: catalogue-bench generate|bench|insert|open|correct|stress-write --db PATH ...") }
let options = BenchOptions(arguments.dropFirst(2), tool: "catalogue-bench")
do {
    switch arguments[1] {
    case "generate":
        let catalogue = try Catalogue(path: options.string("db"))
        let rate = try generate(catalogue, count: options.int("images", default: 1_000_000),
                                batch: options.int("batch", default: 1_000),
                                thumbnailBytes: options.int("thumbnail-bytes", default: 0))
        print("inserted \(options.int("images", default: 1_000_000)) images at \(Int(rate.wall)) rows/s (\(Int(rate.cpu)) per CPU second)")
    case "bench":
        let path = options.string("db")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let catalogue = try Catalogue(path: path)
        let count = options.int("images", default: 1_000_000)
        let repeats = options.int("repeats", default: 500)
        let batch = options.int("batch", default: 1_000)
        let rate = try generate(catalogue, count: count, batch: batch,
                                thumbnailBytes: options.int("thumbnail-bytes", default: 0))
        try catalogue.database.executeScript("ANALYZE")
        let top50 = try time(repeats: repeats) { label in
            let rows = try catalogue.currentClassifications(ClassificationQuery(label: label, limit: 50))
            precondition(rows.count == 50)
        }
        let counted = try time(repeats: repeats) { label in
            let count = try catalogue.countCurrentClassifications(ClassificationQuery(label: label))
            precondition(count > 0)
        }
        let json = """
            {"images": \(count), "batch": \(batch), "insert_rows_per_s": \(Int(rate.wall)), "insert_rows_per_cpu_s": \(Int(rate.cpu)), "top50_median_ms": \(top50 * 1000), "count_median_ms": \(counted * 1000)}
            """
        print(json)
        if let file = options.values["json"] { try json.write(toFile: file, atomically: true, encoding: .utf8) }
    case "insert":
        // Either engine: the catalogue at --db (a file or a server's database) is made if it is not there.
        let store = try CatalogueStorage.open(options.string("db"), access: .create)
        let count = options.int("images", default: 20_000), batch = options.int("batch", default: 500)
        let rate = try insertThroughStore(store, count: count, batch: batch)
        print("{\"images\": \(count), \"batch\": \(batch), \"insert_rows_per_s\": \(Int(rate))}")
    case "open":
        // Opens (creating and migrating) a catalogue and says so: many of these at once
        // on one new path test that no opener sees another's migration half done.
        let catalogue = try Catalogue(path: options.string("db"))
        print("opened at version \(try catalogue.version)")
    case "correct":
        let catalogue = try Catalogue(path: options.string("db"))
        let every = options.int("every", default: 10)
        var corrected = 0
        if every > 0 {
            let ids = try catalogue.database.rows(
                "SELECT image_id, label FROM current_classifications WHERE image_id % :every = 1 ORDER BY image_id", [":every": every]) {
                (ImageID($0.int64(0)), $0.int(1))
            }
            for start in stride(from: 0, to: ids.count, by: 10_000) {
                let chunk = ids[start..<min(ids.count, start + 10_000)]
                for label in 0..<10 {
                    let images = chunk.filter { $0.1 == label }.map(\.0)
                    try catalogue.correct(images, .label((label + 1) % 10), command: "catalogue-bench")
                    corrected += images.count
                }
            }
        }
        // Both catalogues of bench-queries get the same statistics, corrected or not.
        try catalogue.database.executeScript("ANALYZE")
        print("corrected \(corrected) images")
    case "lookalikes":
        let catalogue = try Catalogue(path: options.string("db"))
        let count = options.int("images", default: 100_000)
        let rate = try generate(catalogue, count: count, batch: 1_000,
                                thumbnailBytes: options.int("thumbnail-bytes", default: 10_000), lookalikes: true)
        print("inserted \(count) images with fingerprints and colours at \(Int(rate.wall)) rows/s")
    case "similar":
        let path = options.string("db"), wardrobe = options.string("wardrobe")
        let images = try Catalogue(path: path).stats().images
        let queries = options.int("queries", default: 50)
        var seconds: [Double] = [], cpu: [Double] = []
        for index in 0..<queries {
            let id = 1 + index * images / queries
            let run = try runChild(wardrobe, ["similar", "--db", path, String(id)], captureStdout: true,
                               stderrPath: "/dev/null")
            guard run.status == 0, String(decoding: run.stdout, as: UTF8.self).split(separator: "\n").count == 10 else {
                fail("wardrobe similar \(id) did not list 10 images")
            }
            seconds.append(run.seconds)
            cpu.append(run.cpuSeconds)
        }
        print(String(format: "similar: %d queries on %d images, median %.1f ms wall (%.1f ms CPU), slowest %.1f ms",
                     queries, images, median(seconds) * 1000, median(cpu) * 1000, seconds.max()! * 1000))
        var duplicates: [Double] = [], duplicatesCPU: [Double] = []
        var groups = 0
        for _ in 0..<3 {
            let run = try runChild(wardrobe, ["duplicates", "--db", path, "--json"], captureStdout: true,
                               stderrPath: "/dev/null")
            guard run.status == 0 else { fail("wardrobe duplicates failed") }
            duplicates.append(run.seconds)
            duplicatesCPU.append(run.cpuSeconds)
            groups = String(decoding: run.stdout, as: UTF8.self).components(separatedBy: "\"images\" :").count - 1
        }
        print(String(format: "duplicates: %d groups among %d images, median %.2f s wall (%.2f s CPU) of 3 runs",
                     groups, images, median(duplicates), median(duplicatesCPU)))
    case "stress-write":
        try stressWrite(try Catalogue(path: options.string("db")), batch: options.int("batch", default: 20))
    default:
        fail("unknown subcommand \(arguments[1])")
    }
} catch {
    FileHandle.standardError.write(Data("catalogue-bench: \(error)\n".utf8))
    exit(1)
}
