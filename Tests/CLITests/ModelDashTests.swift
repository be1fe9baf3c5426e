import Foundation
import Testing

/// `-` for the model, as for the catalogue (`CataloguePathTests`): it was read as a file named
/// `-` ("model -: cannot read: No such file or directory"), or, with such a file in the folder,
/// used without a word, where a person meant stdin. A model is a file read whole and hashed,
/// never a stream: `--model -` (and every other place a model file is named) is wrong usage,
/// and `WARDROBE_MODEL=-` an error naming the variable, before anything is made.
@Suite struct ModelDashTests {
    static let sample = FileManager.default.currentDirectoryPath + "/Fixtures/fashion-sample.png"

    @Test(arguments: [
        (["import", "--model", "-", sample], "--model"),
        (["classify", "--model", "-", sample], "--model"),
        (["--model", "-", "prep", sample], "--model"),
        (["reclassify", "--model", "-"], "--model"),
        (["model", "evaluate", "--model", "-"], "--model"),
        (["model", "info", "-"], "FILE"),
        (["model", "use", "-"], "FILE"),
        (["model", "train", "--from", "-", "--out", "m.aimodel"], "--from"),
    ])
    func aDashForAModelIsWrongUsage(arguments: [String], name: String) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let result = try WardrobeProcess.run(arguments + ["--db", "c.sqlite"], currentDirectory: folder.root)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").first
                == "error: \(name) - would read a model file named '-': a model is a file, never stdin (./- names that file)",
                "\(arguments): \(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.root.path) == [], "nothing made")
    }

    /// The same said by WARDROBE_MODEL: no option to name, so a failure of one line.
    @Test(arguments: [["import", sample], ["classify", sample], ["prep", sample], ["model", "info"]])
    func aDashInWardrobeModelIsRefused(arguments: [String]) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let result = try WardrobeProcess.run(arguments + ["--db", "c.sqlite"], environment: ["WARDROBE_MODEL": "-"],
                                             currentDirectory: folder.root)
        #expect(result.status == 1, "\(arguments): \(result.stderr)")
        #expect(result.stderr == "error: WARDROBE_MODEL is -, which would read a model file named '-': "
                + "a model is a file, never stdin (./- names that file)\n", "\(arguments): \(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.root.path) == [], "nothing made")
    }
}
