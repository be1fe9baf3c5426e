import Catalogue
import Foundation
import Testing

/// Another process holding the catalogue's write lock (a `sqlite3` shell left inside a
/// transaction) past the busy timeout. A command that had to write said only "SQLite error 5:
/// database is locked - while executing `BEGIN IMMEDIATE`": neither who held it nor what became
/// of the work. It now says so in one line, and the catalogue is as it was.
@Suite struct LockedCatalogueTests {
    static let sample = FileManager.default.currentDirectoryPath + "/Fixtures/fashion-sample.png"

    @Test(arguments: [["label", "coat", "1"], ["import", sample]])
    func aCatalogueLockedByAnotherProcessIsSaidToBe(arguments: [String]) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        let made = try WardrobeProcess.run(["classify", "--db", db, Self.sample])
        try #require(made.status == 0, "\(made.stderr)")

        // Held by this process, which is another one to the command's.
        let holder = try Database(path: db)
        try holder.executeScript("BEGIN IMMEDIATE")
        defer { try? holder.executeScript("ROLLBACK") }
        let result = try WardrobeProcess.run(arguments + ["--db", db])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr == "error: \(db): another process kept the catalogue locked for more than 5 s, so nothing "
                + "more could be written; what was written before is kept; run the command again when that process "
                + "is done (SQLite error 5: database is locked - while executing `BEGIN IMMEDIATE`)\n")
        try holder.executeScript("ROLLBACK")
        let listed = try WardrobeProcess.run(["list", "--db", db, "--ids"])
        #expect(listed.stdout == "1\n", "the catalogue as it was: \(listed.stdout) \(listed.stderr)")
    }
}
