import Foundation
import Inference
import Testing

/// A model whose weights overflow float32 gives inf or nan, from which no label follows (the
/// import used to fail whole, on the catalogue's check that a confidence is in 0...1). One that
/// overflows on every image is refused when it loads; one that overflows on some images fails
/// those, each with the reason, while the rest go on and nothing stored changes.
@Suite(.serialized) struct OverflowingModelTests {
    static let root = FileManager.default.currentDirectoryPath
    static let photos = root + "/Fixtures/photos"

    /// The bundled model with last-layer weights at +-3e38: from every hidden unit (the output
    /// overflows on any image), or only from `unit`, which a black and a white image leave at 0
    /// and two of the twelve demo photos do not.
    static func overflowing(at path: String, unit: Int? = nil) throws {
        var file = try ModelFile(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/Models/clothing.aimodel"))))
        var weight = try #require(file.tensors["fc2.weight"])
        let hidden = weight.shape[1]
        for label in 0..<weight.shape[0] {
            for h in 0..<hidden where unit == nil || h == unit {
                weight.scalars[label * hidden + h] = label == 0 ? 3e38 : -3e38
            }
        }
        file.tensors["fc2.weight"] = weight
        try file.write(to: URL(fileURLWithPath: path))
    }

    @Test func aModelThatOverflowsOnEveryImageIsRefusedWhenItLoads() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let model = folder.path("overflowing.aimodel")
        try Self.overflowing(at: model)
        for command in [["classify", "--no-save", Self.photos + "/shoes"], ["import", "--db", folder.path("c.sqlite"), Self.photos],
                        ["model", "use", "--db", folder.path("c.sqlite")]] {
            let result = try WardrobeProcess.run(command + (command[0] == "model" ? [model] : ["--model", model]))
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.hasPrefix("error: model ") && result.stderr.hasSuffix(
                "its output for a black or a white image is inf, not a finite number: a weight overflows float32\n"),
                "\(command): \(result.stderr)")
        }
        let listed = try WardrobeProcess.run(["list", "--db", folder.path("c.sqlite"), "--ids"])
        #expect(listed.stdout.isEmpty, "nothing imported: \(listed.stdout)")
    }

    @Test func imagesOnWhichAModelOverflowsFailAndTheRestGoOn() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let model = folder.path("overflowing.aimodel"), db = folder.path("c.sqlite")
        try Self.overflowing(at: model, unit: 0)
        let reason = "the model's output for it is not a finite number (a weight overflows float32 on this image)"

        let imported = try WardrobeProcess.run(["import", "--db", folder.path("fresh.sqlite"), "--model", model, Self.photos])
        #expect(imported.status == 2, "\(imported.stderr)")
        let failed = imported.stderr.split(separator: "\n").filter { $0.hasSuffix(reason) }
        #expect(failed.count == 2, "\(imported.stderr)")
        #expect(imported.stdout.contains("new images  10"), "\(imported.stdout)")

        // A catalogue made with the bundled model keeps those two images' labels when re-run.
        #expect(try WardrobeProcess.run(["import", "--db", db, Self.photos]).status == 0)
        let before = try WardrobeProcess.run(["list", "--db", db, "--csv", "--sort", "id"]).stdout
        let rerun = try WardrobeProcess.run(["reclassify", "--db", db, "--model", model])
        #expect(rerun.status == 2, "\(rerun.stderr)")
        #expect(rerun.stderr.split(separator: "\n").filter { $0.hasSuffix(reason) }.count == 2, "\(rerun.stderr)")
        let after = try WardrobeProcess.run(["list", "--db", db, "--csv", "--sort", "id"]).stdout
        let unchanged = zip(before.split(separator: "\n"), after.split(separator: "\n")).filter { $0.0 == $0.1 }
        #expect(unchanged.count == 1 + 2, "the header and the two images the new model could not label:\n\(after)")
    }

    /// `model evaluate --images` classified each photo and fed its confidence to the calibration
    /// report, whose binning met NaN in `Int(_:)`: a model that overflows on two photos stopped
    /// the whole evaluation. Those two now fail, each with the reason, and the rest are scored.
    @Test func evaluatingPhotosOnWhichAModelOverflowsFailsThoseAndGoesOn() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let model = folder.path("overflowing.aimodel")
        try Self.overflowing(at: model, unit: 0)
        let reason = "the model's output for it is not a finite number (a weight overflows float32 on this image)"
        try Data("dress: Dress\nhat: Bag\nlongsleeve: Pullover, Shirt\noutwear: Coat\npants: Trouser\nshirt: Shirt\n"
            .appending("shoes: Sandal, Sneaker, Ankle boot\nt-shirt: T-shirt/top\n").utf8)
            .write(to: URL(fileURLWithPath: folder.path("photos.map")))
        let evaluated = try WardrobeProcess.run(["model", "evaluate", "--model", model, "--images", Self.photos,
                                                 "--map", folder.path("photos.map"), "--json"])
        #expect(evaluated.status == 0, "\(evaluated.stderr)")
        let failed = evaluated.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: " + Self.photos) && $0.hasSuffix(reason) }
        #expect(failed.count == 2, "\(evaluated.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(evaluated.stdout.utf8)) as? [String: Any]
        let recipes = report?["recipes"] as? [[String: Any]]
        #expect(recipes?.first?["photos"] as? Int == 10, "the other ten are scored: \(evaluated.stdout)")
    }

    /// A model file made elsewhere may record its test accuracy or its temperature as text that
    /// is no number: `model info --json` stopped in JSONEncoder ("EncodingError"), and
    /// `evaluate --uncalibrated` multiplied NaN into every logit. Each now says which file and what.
    @Test func aTrainingRecordThatIsNoNumberIsNamed() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let model = folder.path("odd-record.aimodel")
        var file = try ModelFile(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.root + "/Models/clothing.aimodel"))))
        file.description.training["test_accuracy"] = "nan"
        file.description.training["temperature"] = "inf"
        try file.write(to: URL(fileURLWithPath: model))

        let info = try WardrobeProcess.run(["model", "info", "--json", model])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stderr == "warning: model \(model): the test accuracy it records, 'nan', is not a number\n")
        let json = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
        #expect(json?["name"] as? String == "clothing", "the rest is shown: \(info.stdout)")
        #expect((json?["training"] as? [String: String])?["test_accuracy"] == "nan", "as recorded")
        #expect(try WardrobeProcess.run(["model", "info", model]).stdout.contains("test accuracy  'nan', not a number"))

        try Data("shoes: Sandal, Sneaker, Ankle boot\n".utf8).write(to: URL(fileURLWithPath: folder.path("photos.map")))
        let evaluated = try WardrobeProcess.run(["model", "evaluate", "--model", model, "--images", Self.photos,
                                                 "--map", folder.path("photos.map"), "--uncalibrated", "--json"])
        #expect(evaluated.status == 1)
        #expect(evaluated.stderr == "error: model \(model): the temperature it records, 'inf', is not a positive number\n")
        #expect(evaluated.stdout.isEmpty)
    }
}
