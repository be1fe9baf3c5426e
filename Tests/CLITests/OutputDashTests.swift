import Foundation
import Testing

/// `-` where a command writes a file: `export --output -` made a file named `-` and said
/// "exported 7 rows to -", where a person meant stdout; so did `prep --out` and
/// `--thumbnail`, `model train --out` and `backup`. Every output is a file made beside its
/// name and renamed when whole, never a stream named `-`: wrong usage naming the option,
/// and nothing made (as for `--db -` and `--model -`).
@Suite struct OutputDashTests {
    static let sample = FileManager.default.currentDirectoryPath + "/Fixtures/fashion-sample.png"

    @Test(arguments: [
        (["export", "--output", "-"], "--output"),
        (["prep", sample, "--out", "-"], "--out"),
        (["prep", sample, "--thumbnail", "-"], "--thumbnail"),
        // --data names no folder: taken the old way, this fails at once instead of training.
        (["model", "train", "--out", "-", "--data", "no-such-folder"], "--out"),
        (["backup", "-"], "FILE"),
    ])
    func aDashForAnOutputFileIsWrongUsage(arguments: [String], name: String) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let made = try WardrobeProcess.run(["classify", "--db", folder.path("c.sqlite"), Self.sample])
        try #require(made.status == 0, "\(made.stderr)")
        let result = try WardrobeProcess.run(arguments + ["--db", folder.path("c.sqlite")], currentDirectory: folder.root)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").first
                == "error: \(name) - would write a file named '-', not to stdout (./- names that file)",
                "\(arguments): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("-")), "no file named '-'")
    }
}
