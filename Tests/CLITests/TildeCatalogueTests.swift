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
        let arguments = ["import", "--db", "~/sub/c.sqlite", "--quiet", "--prep", "fashion-mnist", folder.path("photos")]
        // A folder named in --db is not made: the refusal shows the `~` as written.
        let refused = try WardrobeProcess.run(arguments, environment: environment, currentDirectory: work)
        #expect(refused.status == 1 && refused.stderr.contains("the folder ~/sub does not exist"), "\(refused.stderr)")
        try FileManager.default.createDirectory(atPath: work.path + "/~/sub", withIntermediateDirectories: true)
        let imported = try WardrobeProcess.run(arguments, environment: environment, currentDirectory: work)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(FileManager.default.fileExists(atPath: work.path + "/~/sub/c.sqlite"), "the catalogue is where the name says")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).isEmpty, "nothing made in $HOME")
        let listed = try WardrobeProcess.run(["list", "--db", "~/sub/c.sqlite", "--ids"], environment: environment,
                                             currentDirectory: work)
        #expect(listed.status == 0 && listed.stdout == "1\n", "\(listed.stderr)")
    }

    /// The same for the photos: `import '~/photos'` of a folder named `~` in the working folder
    /// recorded its files under the home folder (/root/photos/a.png), where no file is, and
    /// `classify` recorded its file there too.
    @Test func aTildeInAPhotoPathIsANameLikeAnyOther() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(0)), to: "work/~/photos/a.png")
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(1)), to: "work/~/photos/b.png")
        let work = folder.root.appendingPathComponent("work")
        let run = { (arguments: [String]) in
            try WardrobeProcess.run([arguments[0], "--db", "c.sqlite"] + arguments.dropFirst(), currentDirectory: work)
        }
        #expect(try run(["import", "--quiet", "--prep", "fashion-mnist", "~/photos/a.png"]).status == 0)
        #expect(try run(["classify", "--prep", "fashion-mnist", "~/photos/b.png"]).status == 0)
        let csv = try run(["list", "--csv", "--sort", "id"]).stdout
        let expected = work.resolvingSymlinksInPath().path + "/~/photos/"
        #expect(csv.contains(expected + "a.png,") && csv.contains(expected + "b.png,"), "\(csv)")
        let shown = try run(["show", "--no-preview", "~/photos/a.png"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let pruned = try run(["prune", "--json", "~/photos"])
        #expect(pruned.stdout.contains("\"missing\" : 0") && pruned.stdout.contains("\"checked\" : 2"), "\(pruned.stdout)")
    }
}
