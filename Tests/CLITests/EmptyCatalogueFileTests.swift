import Foundation
import Testing

/// An empty file where the catalogue should be (made by `touch`, or left by a first open
/// that never wrote) holds no catalogue yet, as a missing file does. Reading commands
/// called it "catalogue version 0 must be upgraded to 11; open it once for writing",
/// which sent a person looking for an old catalogue that is not there.
@Suite(.serialized) struct EmptyCatalogueFileTests {
    @Test(arguments: [["list"], ["stats"], ["export"], ["show", "1"], ["history", "1"], ["failures"], ["model", "list"]])
    func readingAnEmptyFileSaysThereIsNoCatalogueYet(command: [String]) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(FileManager.default.createFile(atPath: db, contents: Data()))
        let result = try WardrobeProcess.run(command + ["--db", db])
        #expect(result.status == 1, "\(command): \(result.stdout)")
        #expect(result.stderr == "error: \(db): no catalogue there yet; import photos first ('wardrobe import FOLDER'), "
                + "or name another catalogue with --db\n", "\(command): \(result.stderr)")
        let size = try FileManager.default.attributesOfItem(atPath: db)[.size] as? Int
        #expect(size == 0, "the file is left as it was")
    }

    /// A command that makes a catalogue makes it in an empty file, as where there is none
    /// (`db=$(mktemp)` then `wardrobe import --db $db`). Looking in it for an adopted model,
    /// `import` and `classify` refused it with "no catalogue there yet; import photos first".
    @Test(arguments: ["import", "classify"])
    func aCommandThatMakesTheCatalogueMakesItInAnEmptyFile(command: String) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(FileManager.default.createFile(atPath: db, contents: Data()))
        let sample = FileManager.default.currentDirectoryPath + "/Fixtures/fashion-sample.png"
        let made = try WardrobeProcess.run([command, "--db", db, sample])
        #expect(made.status == 0, "\(made.stderr)")
        let listed = try WardrobeProcess.run(["list", "--db", db, "--ids"])
        #expect(listed.status == 0 && listed.stdout == "1\n", "\(listed.stdout) \(listed.stderr)")
    }
}
