import Foundation
import Imaging
import Testing

/// A catalogue named with a `~` the shell left alone (`--db '~/c.sqlite'`, or WARDROBE_DB set
/// in a file no shell reads) is the path as written, as SQLite and every other path the tool
/// takes read it. Foundation read the `~` as the home folder, so the catalogue's folder was
/// made under $HOME while SQLite opened `./~/...`, and the command failed with "SQLite error
/// 14: unable to open database file", leaving a stray folder in the user's home folder
/// (Foundation's, from the password database, not $HOME: this test's run made /root/sub).
@Suite(.serialized) struct TildeCatalogueTests {
    @Test func aTildeInTheCatalogueNameIsANameLikeAnyOther() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(0)), to: "photos/a.png")
        let home = folder.root.appendingPathComponent("home"), work = folder.root.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let environment = ["HOME": home.path]
        let imported = try WardrobeProcess.run(["import", "--db", "~/sub/c.sqlite", "--quiet", "--prep", "fashion-mnist",
                                                folder.path("photos")], environment: environment, currentDirectory: work)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(FileManager.default.fileExists(atPath: work.path + "/~/sub/c.sqlite"), "the catalogue is where the name says")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).isEmpty, "nothing made in $HOME")
        let listed = try WardrobeProcess.run(["list", "--db", "~/sub/c.sqlite", "--ids"], environment: environment,
                                             currentDirectory: work)
        #expect(listed.status == 0 && listed.stdout == "1\n", "\(listed.stderr)")
    }
}
