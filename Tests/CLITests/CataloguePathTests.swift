import Foundation
import Imaging
import Testing

/// Where a catalogue is made, and where not. `--db -` made a catalogue file named `-` (as a
/// name for stdin or stdout it means nothing to an SQLite file); a path a person gave in a
/// folder that does not exist made that folder and every one above it, so a mistyped
/// folder became a new catalogue nobody would look in. Only the default place is made.
@Suite struct CataloguePathTests {
    static let sample = FileManager.default.currentDirectoryPath + "/Fixtures/fashion-sample.png"

    @Test(arguments: [["import", "--db", "-"], ["classify", "--db", "-"], ["--db", "-", "list"], ["stats", "--db", "-"]])
    func aDashForTheCatalogueIsWrongUsage(arguments: [String]) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let operand = arguments.contains("list") || arguments.contains("stats") ? [] : [Self.sample]
        let result = try WardrobeProcess.run(arguments + operand, currentDirectory: folder.root)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").first
                == "error: --db - would make a catalogue file named '-': a catalogue is a file, never stdin or stdout (./- names that file)",
                "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.root.path) == [], "no file named '-'")
    }

    /// The same said by WARDROBE_DB: no option to name, so a failure of one line.
    @Test(arguments: [["import", sample], ["classify", sample], ["list"], ["prep", sample]])
    func aDashInWardrobeDBIsRefused(arguments: [String]) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let result = try WardrobeProcess.run(arguments, environment: ["WARDROBE_DB": "-"], currentDirectory: folder.root)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr == "error: WARDROBE_DB is -, which would make a catalogue file named '-': "
                + "a catalogue is a file, never stdin or stdout (./- names that file)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.root.path) == [], "no file named '-'")
    }

    @Test(arguments: ["import", "classify"])
    func aCatalogueNamedInAFolderThatDoesNotExistIsRefused(command: String) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = folder.path("Pictrues/wardrobe/c.sqlite")
        for (arguments, environment) in [(["--db", db], [String: String]()), ([], ["WARDROBE_DB": db])] {
            let result = try WardrobeProcess.run([command] + arguments + [Self.sample], environment: environment)
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr == "error: \(db): cannot create the catalogue: the folder \(folder.path("Pictrues/wardrobe")) "
                    + "does not exist; make it first, or check the name\n")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.root.path) == [], "no folder made")
        }
    }

    /// The default place is the one whose folders are made.
    @Test func theDefaultCatalogueGetsItsFolders() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let result = try WardrobeProcess.run(["classify", Self.sample], environment: ["XDG_DATA_HOME": folder.path("data/home")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("data/home/wardrobe/catalogue.sqlite")))
    }

    /// A person who names the default place (`--db`, `$WARDROBE_DB`) named a path like any
    /// other: its missing folders are an error, not made. It used to be told from the default
    /// by comparing the strings, so naming the default place made its folders.
    @Test func theDefaultPathNamedIsNamedAndGetsNoFolders() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let environment = ["XDG_DATA_HOME": folder.path("data/home")]
        let db = folder.path("data/home/wardrobe/catalogue.sqlite")
        for (arguments, named) in [(["--db", db], [String: String]()), ([], ["WARDROBE_DB": db])] {
            let result = try WardrobeProcess.run(["classify"] + arguments + [Self.sample],
                                                 environment: environment.merging(named) { $1 })
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr == "error: \(db): cannot create the catalogue: the folder \(folder.path("data/home/wardrobe")) "
                    + "does not exist; make it first, or check the name\n")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.root.path) == [], "no folder made")
        }
    }

    /// A HOME that is not an absolute path names no home. Taken as it was, an empty one put the
    /// default catalogue in `/.local/share/wardrobe` at the root, and a relative one under the
    /// folder the command ran in, another catalogue in each folder. Now refused, saying what to set.
    @Test(arguments: ["", "relative"])
    func aHomeThatIsNoAbsolutePathIsRefused(home: String) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let rootLocalExisted = FileManager.default.fileExists(atPath: "/.local")
        let result = try WardrobeProcess.run(["classify", Self.sample], environment: ["HOME": home],
                                             currentDirectory: folder.root)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr == "error: HOME is '\(home)', not an absolute path, so the catalogue has no default place; "
                + "set HOME or XDG_DATA_HOME to a folder, or name the catalogue with --db\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.root.path) == [], "nothing made where it ran")
        #expect(rootLocalExisted || !FileManager.default.fileExists(atPath: "/.local"), "nothing made at the root")
    }

    /// A HOME that is not there: the catalogue's folders were made from the root up, a whole
    /// home nobody had. Refused as a relative one is.
    @Test func aHomeThatIsNotThereIsNotMade() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let home = folder.path("nobody/home")
        let result = try WardrobeProcess.run(["classify", Self.sample], environment: ["HOME": home],
                                             currentDirectory: folder.root)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr == "error: HOME is '\(home)', which is not a folder, so the catalogue has no default place; "
                + "set HOME or XDG_DATA_HOME to a folder, or name the catalogue with --db\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path("nobody")), "no home made")
    }

    /// A file where one of the default place's folders should be: the error says which, where
    /// it said only "cannot make folder DIR", leaving the reason to guess.
    @Test func aFileInTheWayOfTheDefaultFoldersIsNamed() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(Array("not a folder\n".utf8), to: "data")
        let result = try WardrobeProcess.run(["classify", Self.sample], environment: ["XDG_DATA_HOME": folder.path("data/home")])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr == "error: \(folder.path("data/home/wardrobe/catalogue.sqlite")): cannot create the catalogue: "
                + "cannot make folder \(folder.path("data/home/wardrobe")): \(folder.path("data")) is not a folder\n")
    }

    /// Commands that only read refuse a catalogue that is not there, and make nothing.
    @Test func readingCommandsMakeNoCatalogue() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = folder.path("none/c.sqlite")
        for arguments in [["list"], ["show", "1"], ["stats"], ["export"], ["history", "1"], ["failures"], ["check"],
                          ["backup", folder.path("copy.sqlite")], ["model", "list"], ["serve", "--port", "0"]] {
            let result = try WardrobeProcess.run(arguments + ["--db", db])
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("error: \(db): no catalogue there yet"), "\(arguments): \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.root.path) == [])
    }
}
