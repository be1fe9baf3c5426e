import Catalogue
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
            let children = try (0..<processes).map { _ -> (Process, Pipe) in
                let process = Process()
                process.executableURL = bench
                process.arguments = ["open", "--db", db]
                let errors = Pipe()
                process.standardOutput = FileHandle.nullDevice
                process.standardError = errors
                try process.run()
                return (process, errors)
            }
            for (process, errors) in children {
                let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                #expect(process.terminationStatus == 0, "round \(round): \(text)")
            }
            let catalogue = try Catalogue(path: db, mode: .readOnly)
            #expect(try catalogue.version == Migrator.embedded.latestVersion)
            #expect(try catalogue.integrityCheck() == ["ok"])
        }
    }
}
