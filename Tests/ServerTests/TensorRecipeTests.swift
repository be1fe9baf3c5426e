import Catalogue
import Foundation
import Imaging
import Testing
@testable import Wardrobe
import Server

/// The image page's tensor is prepared by the recipe rule every command follows (the
/// model's recipe, else `photo`), not by whatever recipe the image's last run used: the
/// server had a rule of its own, and a page showed a tensor no command would make.
@Suite struct TensorRecipeTests {
    @Test func theTensorFollowsTheModelsRecipeNotTheLastRuns() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wardrobe-tensor-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let package = FileManager.default.currentDirectoryPath
        try FileManager.default.copyItem(atPath: package + "/Fixtures/fashion-sample.png",
                                         toPath: folder.appendingPathComponent("sample.png").path)
        let path = root.appendingPathComponent("catalogue.sqlite").path
        let classifier = try ClothingClassifier(modelAt: package + "/Models/clothing.aimodel")
        let importer = Importer(catalogue: try Catalogue(path: path), classifier: classifier)
        let options = ImportOptions(paths: [folder.path], jobs: 1, recipe: try PrepRecipes.named("fashion-mnist"))
        _ = try importer.run(options, plan: try importer.plan(options), progress: { _ in }, failure: { _ in })
        let modelRecipe = try PrepRecipes.named(try #require(classifier.model.recipe)).identity
        #expect(!modelRecipe.hasPrefix("fashion-mnist"))

        let site = try WardrobeSite.over(path, readOnly: true)
        let server = try HTTPServer(host: "127.0.0.1", port: 0, handler: site)
        defer { server.stop(grace: 0) }
        let client = RawHTTP(port: server.port)
        let image = try #require(try Catalogue(path: path, mode: .readOnly).currentClassifications().first)
        #expect(image.recipe.name == "fashion-mnist")
        let tensor = try client.get("/tensor/\(image.image).png")
        #expect(tensor.status == 200)
        #expect(tensor.header("etag") == "\"t-\(image.sha256.hex)-\(modelRecipe)\"")
        #expect(try client.get("/image/\(image.image)").text.contains("recipe \(modelRecipe)"))
    }
}
