import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// Several processes opening one new catalogue at once: each must see either nothing
/// or a whole catalogue, never another's migration half done (which once made an
/// opener refuse the file as "an SQLite database of another program").
@Suite(.serialized) struct ConcurrentOpeningTests {
    @Test(arguments: [2, 8])
    func processesCreatingOneCatalogueAtOnceAllSucceed(processes: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wardrobe-open-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bench = try CrashSafetyTests.benchExecutable()
        for round in 0..<8 {
            let db = folder.appendingPathComponent("round-\(round).sqlite").path
            for outcome in try SimultaneousProcesses.run(bench, ["open", "--db", db], count: processes) {
                #expect(outcome.status == 0, "round \(round): \(outcome.stderr)")
            }
            let catalogue = try Catalogue(path: db, mode: .readOnly)
            #expect(try catalogue.version == Migrator.embedded.latestVersion)
            #expect(try catalogue.integrityCheck() == ["ok"])
        }
    }
}
