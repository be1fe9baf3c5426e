import CommandLineKit
import Foundation
import Testing
@testable import wardrobe
import Wardrobe

/// Each command opens its catalogue once, as a model is prepared once: the commands run
/// in this process, as `main` runs them, and the openings of their catalogue are counted.
/// (`check` reads the file as a plain database, never opening it as a catalogue; `serve`
/// keeps running, and opens it as the others do, through `WardrobeSetup.openCatalogue`.)
@Suite(.serialized) struct OpenOnceTests {
    @Test func eachCommandOpensItsCatalogueOnce() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.writePhotos(3, width: 96, height: 128, firstSeed: 4300)
        let db = folder.path("c.sqlite")
        let root = FileManager.default.currentDirectoryPath
        let sample = root + "/Fixtures/fashion-sample.png"
        let model = root + "/Models/clothing.aimodel"
        let commands: [[String]] = [
            ["import", folder.path("photos")],
            ["classify", sample],
            ["list"], ["show", "1"], ["history", "1"], ["stats"], ["failures"], ["export"],
            ["label", "Dress", "1", "2", "3"],
            ["reclassify"],
            ["prune"],
            ["model", "use", model], ["model", "list"], ["model", "info"],
            ["model", "evaluate", "--limit", "20"],
            ["prep", sample],
            ["model", "train", "--corrections", "--limit", "64", "--epochs", "1", "--out", folder.path("tuned.aimodel")],
            ["backup", folder.path("copy.sqlite")],
            ["forget", "--yes", "2"],
        ]
        let environment = ["HOME": folder.root.path, "NO_COLOR": "1",
                           "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        for words in commands {
            let before = OpenCatalogue.openings(at: db)
            let status = CommandLineTool.run(words + ["--db", db], root: RootCommand.self,
                                             console: Console(environment: environment))
            #expect(status == 0, "\(words)")
            #expect(OpenCatalogue.openings(at: db) - before == 1, "\(words) opened its catalogue \(OpenCatalogue.openings(at: db) - before) times")
        }
        // check reads every page of the file without opening it as a catalogue.
        let before = OpenCatalogue.openings(at: db)
        #expect(CommandLineTool.run(["check", "--db", db], root: RootCommand.self, console: Console(environment: environment)) == 0)
        #expect(OpenCatalogue.openings(at: db) == before)
    }
}
