import Foundation
import Testing

/// Paths import cannot look at get a reason a person can act on. The system's words
/// misled for links: a symbolic link whose target is gone failed as "No such file or
/// directory" (named on the command line: "no such file or folder", with a guess at
/// another name), and a loop of links named on the command line as "no such file or
/// folder", although each is there under that name.
@Suite(.serialized) struct UnreachablePathTests {
    static let sample = FileManager.default.currentDirectoryPath + "/Fixtures/fashion-sample.png"

    private func folderWithLinks() throws -> PhotoFolder {
        let folder = try PhotoFolder()
        try folder.write(Array(try Data(contentsOf: URL(fileURLWithPath: Self.sample))), to: "photos/good.png")
        let links = FileManager.default
        try links.createSymbolicLink(atPath: folder.path("photos/dangling.jpg"), withDestinationPath: folder.path("gone.jpg"))
        try links.createSymbolicLink(atPath: folder.path("photos/loop-a.jpg"), withDestinationPath: "loop-b.jpg")
        try links.createSymbolicLink(atPath: folder.path("photos/loop-b.jpg"), withDestinationPath: "loop-a.jpg")
        return folder
    }

    @Test func linksInAFolderFailWithWhatIsWrongWithThem() throws {
        let folder = try folderWithLinks()
        defer { folder.remove() }
        let result = try WardrobeProcess.run(["import", "--db", folder.path("c.sqlite"), "--prep", "fashion-mnist",
                                              folder.path("photos")])
        #expect(result.status == 2, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains("error: \(folder.path("photos/dangling.jpg")): a symbolic link to '\(folder.path("gone.jpg"))', which is not there"),
                "\(result.stderr)")
        for name in ["loop-a.jpg", "loop-b.jpg"] {
            #expect(lines.contains("error: \(folder.path("photos/" + name)): a symbolic link that leads back to itself (a loop of links)"),
                    "\(result.stderr)")
        }
        #expect(result.stdout.contains("new images  1"), "\(result.stdout)")
    }

    @Test func linksNamedOnTheCommandLineAreNotCalledMissing() throws {
        let folder = try folderWithLinks()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        let dangling = try WardrobeProcess.run(["import", "--db", db, folder.path("photos/dangling.jpg")])
        #expect(dangling.status == 64, "\(dangling.stderr)")
        #expect(dangling.stderr.hasPrefix("error: \(folder.path("photos/dangling.jpg")): a symbolic link to '\(folder.path("gone.jpg"))', which is not there\n"),
                "\(dangling.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db), "wrong usage writes nothing")

        let loop = try WardrobeProcess.run(["import", "--db", db, folder.path("photos/loop-a.jpg")])
        #expect(loop.status == 2, "\(loop.stderr)")
        #expect(loop.stderr == "error: \(folder.path("photos/loop-a.jpg")): a symbolic link that leads back to itself (a loop of links)\n",
                "\(loop.stderr)")
    }

    /// Files named to commands that read one file each (classify, prep, model info) were
    /// "unreadable: No such file or directory" for a dangling link and "Too many levels of
    /// symbolic links" for a loop; they say what import says.
    @Test func commandsThatReadAFileSayTheSame() throws {
        let folder = try folderWithLinks()
        defer { folder.remove() }
        let dangling = folder.path("photos/dangling.jpg"), loop = folder.path("photos/loop-a.jpg")
        let classify = try WardrobeProcess.run(["classify", "--no-save", dangling, loop, folder.path("photos/good.png")])
        #expect(classify.status == 2, "\(classify.stderr)")
        #expect(classify.stderr.contains("\(dangling): unreadable: a symbolic link to '\(folder.path("gone.jpg"))', which is not there\n"),
                "\(classify.stderr)")
        #expect(classify.stderr.contains("\(loop): unreadable: a symbolic link that leads back to itself (a loop of links)\n"),
                "\(classify.stderr)")
        let info = try WardrobeProcess.run(["model", "info", loop])
        #expect(info.status == 1 && info.stderr.contains("a symbolic link that leads back to itself"), "\(info.stderr)")
    }
}
