import Catalogue
import Foundation
import Imaging
import Testing
import Training
@testable import Wardrobe

/// The contract: a model is prepared once per process, never per image.
@Suite(.serialized) struct PrepareOnceTests {
    static var modelPath: String {
        // Tests run from the package root; the bundled model lives in Models/.
        FileManager.default.currentDirectoryPath + "/Models/clothing.aimodel"
    }

    @Test func anImportOfManyFilesPreparesTheModelOnce() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wardrobe-once-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let test = try FashionMNIST(split: .test)
        for index in 0..<60 {
            let bitmap = Bitmap(width: 28, height: 28, channels: 1, pixels: Array(test.image(index)))
            try Data(try PNGEncoder().encode(bitmap)).write(to: root.appendingPathComponent("\(index).png"))
        }

        // A copy of its own, so classifiers other tests make at the same time are not counted.
        let model = root.appendingPathComponent("model.aimodel").path
        try FileManager.default.copyItem(atPath: Self.modelPath, toPath: model)
        let classifier = try ClothingClassifier(modelAt: model)
        #expect(classifier.ready)
        let catalogue = try Catalogue(path: root.appendingPathComponent("c.sqlite").path)
        let importer = Importer(catalogue: catalogue, classifier: classifier)
        let options = ImportOptions(paths: [root.path], jobs: 2, recipe: try PrepRecipes.named("fashion-mnist"))
        let report = try importer.run(options, plan: try importer.plan(options), progress: { _ in }, failure: { _ in })
        #expect(report.newImages == 60)
        #expect(ClothingClassifier.preparationCount(forModelAt: model) == 1)
    }

    @Test func aMissingModelFileIsAnErrorNamingIt() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID().uuidString).aimodel").path
        #expect(throws: WardrobeError.self) { try ClothingClassifier(modelAt: path) }
        do {
            _ = try ClothingClassifier(modelAt: path)
        } catch {
            #expect(error.description.contains(path))
        }
    }
}
