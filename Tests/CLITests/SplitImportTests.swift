import Catalogue
import CatalogueFixtures
import Foundation
import Imaging
import Testing

/// Several `wardrobe import` processes on one folder and one catalogue split its files
/// through their leases (`file_leases`): every file is read by one of them, and an image
/// met under two names at once is stored and classified once. On an SQLite file and on a
/// real PostgreSQL server.
@Suite(.serialized) struct SplitImportTests {
    struct Report: Decodable {
        var files_read: Int
        var passed_to_others: Int?
        var unchanged: Int
        var new_images: Int
        var new_paths: Int
    }

    @Test(arguments: CommandEngine.all)
    func fourImportersReadEveryFileOnceAndClassifyEveryImageOnce(engine: CommandEngine) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let png = PNGEncoder()
        // Enough files that no importer is done before the others have started, even on a
        // loaded machine (with 120, one of four once read them all, and the split was not seen).
        let distinct = 480
        for index in 0..<distinct {
            try folder.write(try png.encode(PhotoFolder.fashionBitmap(index)), to: "photos/\(index).png")
        }
        // Twelve of them again under other names, among the rest.
        for index in 0..<12 {
            try folder.write(try png.encode(PhotoFolder.fashionBitmap(index * 10)), to: "photos/copy-\(index).png")
        }
        let files = distinct + 12
        let db = engine == .postgresql ? try TestPostgres.shared().newDatabase() : folder.path("c.sqlite")
        // The catalogue exists first, so the race is over files, not over making it.
        _ = try CatalogueStorage.open(db, access: .create)
        let outcomes = try SimultaneousProcesses.run(
            WardrobeProcess.executable,
            ["import", "--db", db, "--prep", "fashion-mnist", "--jobs", "1", "--json", folder.path("photos")],
            count: 4, environment: ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()])
        var reports: [Report] = []
        for outcome in outcomes {
            #expect(outcome.status == 0, "\(outcome.stderr)")
            reports.append(try JSONDecoder().decode(Report.self, from: Data(outcome.stdout.utf8)))
        }
        // Every file read once, counted by the importers that read them.
        #expect(reports.map(\.files_read).reduce(0, +) == files, "\(reports.map(\.files_read))")
        // Each importer accounts for every file: read, left to another, or (planned after others had
        // stored it) found stored already.
        for report in reports {
            #expect(report.files_read + (report.passed_to_others ?? 0) + report.unchanged == files,
                    "read \(report.files_read), passed \(report.passed_to_others ?? 0), unchanged \(report.unchanged)")
        }
        #expect(reports.filter { $0.files_read > 0 }.count >= 2, "the work was not split: \(reports.map(\.files_read))")
        #expect(reports.map { $0.new_images + $0.new_paths }.reduce(0, +) == files)
        // Every image stored and classified once, each file's path kept, no lease left behind.
        let catalogue = try CatalogueStorage.open(db, access: .readOnly)
        let stats = try catalogue.stats()
        #expect(stats.images == distinct && stats.paths == files)
        #expect(stats.classifications == distinct, "\(stats.classifications - distinct) double classifications")
        let leases = try #require(CatalogueTable.all.first { $0.name == "file_leases" })
        var leftover = 0
        try catalogue.forEachRow(of: leases, columns: try catalogue.columns(of: leases)) { _ in leftover += 1 }
        #expect(leftover == 0)
        let check = try WardrobeProcess.run(["check", "--db", db])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }
}

/// The engines a test of the command line runs on: PostgreSQL only where it is installed.
enum CommandEngine: String, CaseIterable, CustomStringConvertible, Sendable {
    case sqlite, postgresql
    var description: String { rawValue }
    static let all: [CommandEngine] = TestPostgres.isInstalled ? allCases : [.sqlite]
}
