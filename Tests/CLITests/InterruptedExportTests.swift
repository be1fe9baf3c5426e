import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// Ctrl-C or SIGTERM during `export --output FILE`: the export is written under a temporary
/// name beside FILE and renamed when whole, but the signal ended the process there and left
/// the part (a hidden `.FILE.XXXXXX`, megabytes) behind, every time.
@Suite(.serialized) struct InterruptedExportTests {
    /// A catalogue whose full export takes a good part of a second.
    private static func catalogue(at path: String, images: Int) throws {
        let catalogue = try Catalogue(path: path)
        let model = try catalogue.registerModel(Synthetic.model(3))
        let run = try catalogue.openRun(command: "import", model: model, recipe: Recipe(name: "photo", version: 1))
        for start in stride(from: 0, to: images, by: 2_000) {
            try catalogue.insertImages((start..<min(images, start + 2_000)).map { Synthetic.image($0, thumbnailBytes: 0) }, run: run)
        }
        try catalogue.closeRun(run, counts: RunCounts(seen: images, imported: images, classified: images))
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aStoppedExportLeavesNothingAndKeepsTheOldFile(signal: Int32) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        try Self.catalogue(at: db, images: 60_000)
        let target = folder.path("out/export.csv")
        try folder.write(Array("the export before\n".utf8), to: "out/export.csv")

        let process = Process()
        process.executableURL = WardrobeProcess.executable
        process.arguments = ["export", "--db", db, "--all", "--output", target]
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Stop it once its temporary file is there and growing.
        let out = folder.path("out")
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let parts = (try? FileManager.default.contentsOfDirectory(atPath: out))?.filter { $0.hasPrefix(".") } ?? []
            if let part = parts.first,
               let size = try? FileManager.default.attributesOfItem(atPath: out + "/" + part)[.size] as? Int, size > 0 {
                break
            }
            usleep(1_000)
        }
        kill(process.processIdentifier, signal)
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationReason == .exit && process.terminationStatus == 130,
                     "stopped by the signal (status 130): \(process.terminationReason) \(process.terminationStatus) \(said)")
        #expect(said == "interrupted: nothing was written to \(target)\n", "\(said)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == ["export.csv"], "no part left behind")
        #expect(FileManager.default.contents(atPath: target) == Data("the export before\n".utf8))
    }
}
