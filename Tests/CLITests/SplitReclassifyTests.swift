import Catalogue
import CatalogueFixtures
import Foundation
import Imaging
import Testing

/// Several `wardrobe reclassify` processes on one catalogue split its images through their
/// leases (`image_leases`): one killed part-way loses only its leases, the other finishes
/// what it left, and every image ends with exactly one classification of the reclassification.
/// On an SQLite file and on a real PostgreSQL server.
@Suite(.serialized) struct SplitReclassifyTests {
    struct Report: Decodable {
        var reclassified: Int
        var done_elsewhere: Int
        var selected: Int
    }

    static let images = 900

    @Test(arguments: CommandEngine.all)
    func twoReclassifiersOneKilledClassifyEveryImageOnce(engine: CommandEngine) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let png = PNGEncoder()
        for index in 0..<Self.images {
            try folder.write(try png.encode(PhotoFolder.fashionBitmap(index)), to: "photos/\(index).png")
        }
        let db = engine == .postgresql ? try TestPostgres.shared().newDatabase() : folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", "--json", folder.path("photos")])
        #expect(imported.status == 0, "\(imported.stderr)")

        // Two at once with another recipe (so each image is prepared again from its thumbnail);
        // the second is killed once it has committed part of its share.
        let arguments = ["reclassify", "--db", db, "--prep", "photo", "--jobs", "1", "--json"]
        let survivor = try Self.start(arguments, output: folder.path("survivor.json"))
        let victim = try Self.start(arguments, output: folder.path("victim.json"))
        var committedWhenKilled = 0
        for _ in 0..<5000 {
            committedWhenKilled = try Self.classifications(in: db, byProcess: victim.processIdentifier)
            if committedWhenKilled > 0 || !victim.isRunning { break }
            usleep(2_000)
        }
        kill(victim.processIdentifier, SIGKILL)
        victim.waitUntilExit()
        survivor.waitUntilExit()
        #expect(victim.terminationReason == .uncaughtSignal)
        #expect(survivor.terminationStatus == 0)
        let committed = try Self.classifications(in: db, byProcess: victim.processIdentifier)
        #expect(committed > 0 && committed < Self.images, "killed part-way (\(committed) committed)")

        // The survivor classified everything the killed one had not committed, and no more.
        let report = try JSONDecoder().decode(Report.self, from: Data(contentsOf: URL(fileURLWithPath: folder.path("survivor.json"))))
        #expect(report.selected == Self.images)
        #expect(report.reclassified == Self.images - committed, "\(report)")
        #expect(report.done_elsewhere == committed, "\(report)")

        // Every image exactly once in the reclassification, none twice, no lease left behind.
        let perImage = try Self.reclassificationsPerImage(in: db)
        #expect(perImage.count == Self.images)
        let twice = perImage.values.filter { $0 > 1 }.count
        #expect(twice == 0, "\(twice) images classified more than once")
        let catalogue = try CatalogueStorage.open(db, access: .readOnly)
        #expect(try Self.rows(of: "image_leases", ["image_id"], in: catalogue).isEmpty)
        let check = try WardrobeProcess.run(["check", "--db", db])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

        // That reclassification finished: the same command again begins the next, of every image.
        let next = try WardrobeProcess.run(arguments)
        #expect(next.status == 0, "\(next.stderr)")
        let again = try JSONDecoder().decode(Report.self, from: Data(next.stdout.utf8))
        #expect(again.reclassified == Self.images && again.done_elsewhere == 0, "\(again)")
    }

    private static func start(_ arguments: [String], output: String) throws -> Process {
        let process = Process()
        process.executableURL = WardrobeProcess.executable
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        FileManager.default.createFile(atPath: output, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Classifications committed by the runs of the process `pid` (its runs' owner names it).
    private static func classifications(in db: String, byProcess pid: Int32) throws -> Int {
        guard let catalogue = try? CatalogueStorage.open(db, access: .readOnly) else { return 0 }
        let runs = try rows(of: "runs", ["id", "owner"], in: catalogue).filter { row in
            guard case .text(let owner) = row[1] else { return false }
            return owner.split(separator: " ").dropFirst(2).first == Substring(String(pid))
        }.map { integer($0[0]) }
        return try rows(of: "classifications", ["run_id"], in: catalogue).filter { runs.contains(integer($0[0])) }.count
    }

    /// How many classifications each image has from `reclassify` runs (the catalogue has no other).
    private static func reclassificationsPerImage(in db: String) throws -> [Int64: Int] {
        let catalogue = try CatalogueStorage.open(db, access: .readOnly)
        let runs = Set(try rows(of: "runs", ["id", "command"], in: catalogue).filter { $0[1] == .text("reclassify") }
            .map { integer($0[0]) })
        var counts: [Int64: Int] = [:]
        for row in try rows(of: "classifications", ["image_id", "run_id"], in: catalogue) where runs.contains(integer(row[1])) {
            counts[integer(row[0]), default: 0] += 1
        }
        return counts
    }

    private static func integer(_ value: StoredValue) -> Int64 {
        if case .integer(let number) = value { return number }
        return -1
    }

    private static func rows(of name: String, _ wanted: [String], in catalogue: any CatalogueStore) throws -> [[StoredValue]] {
        let table = try #require(CatalogueTable.all.first { $0.name == name })
        let columns = try wanted.map { column in try #require(try catalogue.columns(of: table).first { $0.name == column }) }
        var found: [[StoredValue]] = []
        try catalogue.forEachRow(of: table, columns: columns) { found.append($0) }
        return found
    }
}
