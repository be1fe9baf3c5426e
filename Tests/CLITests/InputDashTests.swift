import Foundation
import Testing

/// `-` where a command reads a photo, a folder or a map: taken as a file named `-`, so
/// `classify -` waited for nothing on stdin but classified a file of that name when one was
/// there, and `import -` imported it. Every input here is read from the file system (photos
/// are hashed and their paths recorded), never from stdin: wrong usage naming the argument,
/// before anything is read or made, as for outputs, `--db -` and `--model -`.
@Suite struct InputDashTests {
    static let sample = FileManager.default.currentDirectoryPath + "/Fixtures/fashion-sample.png"

    @Test(arguments: [
        (["classify", "-"], "FILE..."),
        (["prep", "-"], "FILE"),
        (["import", "-"], "PATH..."),
        (["model", "evaluate", "--images", "-", "--map", "m"], "--images"),
        (["model", "evaluate", "--data", "-"], "--data"),
        // --data names no folder: taken the old way, these fail at once instead of training.
        (["model", "train", "--photos", "-", "--map", "m", "--data", "no-such-folder", "--out", "x.aimodel"], "--photos"),
        (["model", "train", "--photos", "p", "--map", "-", "--data", "no-such-folder", "--out", "x.aimodel"], "--map"),
        (["model", "train", "--data", "-", "--out", "x.aimodel"], "--data"),
    ])
    func aDashForAnInputIsWrongUsage(arguments: [String], name: String) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        // A real photo named `-`, which the old reading took.
        try folder.write(Array(try Data(contentsOf: URL(fileURLWithPath: Self.sample))), to: "-")
        let db = folder.path("c.sqlite")
        let result = try WardrobeProcess.run(arguments + ["--db", db], currentDirectory: folder.root)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").first
                == "error: \(name) - would read a file or folder named '-', not stdin (./- names that file)",
                "\(arguments): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db), "no catalogue made")
    }

    /// `./-` still names that file.
    @Test func aFileNamedDashIsReadAsDotSlashDash() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(Array(try Data(contentsOf: URL(fileURLWithPath: Self.sample))), to: "-")
        let result = try WardrobeProcess.run(["classify", "--no-save", "--prep", "fashion-mnist", "./-"],
                                             currentDirectory: folder.root)
        #expect(result.status == 0 && result.stdout.hasPrefix("./-: "), "\(result.stdout)\(result.stderr)")
    }
}
