import Foundation
import Testing

/// `forget` of a list: `-` reads the images from stdin, one a line, as `label -` does (the ids
/// of `list --ids`, the rows of `list --csv`); it took `-` for a file of that name and forgot
/// nothing. A word or a line that names no image is one error line naming it (and its line on
/// stdin), and every other image is still forgotten: the command exits 2, as one that finished
/// but some of whose inputs failed; 1 when it forgot none.
@Suite struct ForgetListTests {
    /// A catalogue of `count` photos, ids 1 to `count`.
    static func catalogue(_ count: Int, in folder: PhotoFolder) throws -> String {
        try folder.writePhotos(count, width: 64, height: 48, firstSeed: 1)
        let db = folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["import", "--quiet", "--jobs", "1", "--db", db, folder.path("photos")])
        try #require(imported.status == 0, "\(imported.stderr)")
        return db
    }

    static func ids(_ db: String) throws -> [Int] {
        try WardrobeProcess.run(["list", "--ids", "--db", db]).stdout.split(separator: "\n").compactMap { Int($0) }.sorted()
    }

    @Test func forgetReadsTheListOnStdinAndNamesEachLineThatNamesNoImage() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.catalogue(5, in: folder)
        // list --csv's header and the row of image 4, list --ids' 1, an id no image has, a word no image is.
        let csv = try WardrobeProcess.run(["list", "--csv", "--db", db]).stdout.split(separator: "\n")
        let row4 = try #require(csv.first { $0.hasPrefix("4,") }, "\(csv)")
        let input = "\(csv[0])\n1\n99\n\(row4)\nno-such-word\n"
        let forgot = try WardrobeProcess.run(["forget", "--yes", "--db", db, "-"], input: input)
        #expect(forgot.status == 2, "\(forgot.stdout)\(forgot.stderr)")
        let errors = forgot.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 2, "\(forgot.stderr)")
        #expect(errors.contains { $0.contains("standard input line 3: ") && $0.contains("image 99") }, "\(forgot.stderr)")
        #expect(errors.contains { $0.contains("standard input line 5: ") && $0.contains("'no-such-word'") }, "\(forgot.stderr)")
        #expect(forgot.stdout.hasPrefix("Forgot 2 images"), "\(forgot.stdout)")
        #expect(try Self.ids(db) == [2, 3, 5])

        // A pipe from list, as the help shows it.
        let listed = try WardrobeProcess.run(["list", "--ids", "--db", db])
        let all = try WardrobeProcess.run(["forget", "--yes", "--db", db, "-"], input: listed.stdout)
        #expect(all.status == 0 && all.stdout.hasPrefix("Forgot 3 images"), "\(all.stdout)\(all.stderr)")
        #expect(try Self.ids(db).isEmpty)
    }

    /// Arguments are taken alike: each that names no image is a line, the others forgotten.
    @Test func eachArgumentThatNamesNoImageIsNamedAndTheOthersAreForgotten() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.catalogue(3, in: folder)
        let forgot = try WardrobeProcess.run(["forget", "--yes", "--db", db, "98", "2", "97"])
        #expect(forgot.status == 2, "\(forgot.stdout)\(forgot.stderr)")
        let errors = forgot.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 2 && errors[0].contains("image 98") && errors[1].contains("image 97"), "\(forgot.stderr)")
        #expect(forgot.stdout.hasPrefix("Forgot 1 image:"), "\(forgot.stdout)")
        #expect(try Self.ids(db) == [1, 3])

        // None found: nothing forgotten, said so, still exit 1.
        let none = try WardrobeProcess.run(["forget", "--yes", "--db", db, "98"])
        #expect(none.status == 1 && none.stderr.contains("image 98") && none.stderr.contains("nothing was forgotten"),
                "\(none.stdout)\(none.stderr)")
        #expect(try Self.ids(db) == [1, 3])
    }

    /// A folder is no image: the error gives the pipe that forgets what was imported from it.
    @Test func aFolderGivesThePipeThatForgetsItsImages() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.catalogue(2, in: folder)
        let forgot = try WardrobeProcess.run(["forget", "--yes", "--db", db, folder.path("photos")])
        #expect(forgot.status == 1, "\(forgot.stdout)\(forgot.stderr)")
        #expect(forgot.stderr.contains("--ids | wardrobe forget --yes -"), "\(forgot.stderr)")
        #expect(try Self.ids(db) == [1, 2])
    }
}
