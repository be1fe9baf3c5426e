import Foundation
import Inference
import Testing

/// What `model train` writes is a model every command can use, written over nothing the
/// training read, from photos it could read.
@Suite struct TrainingOutputTests {
    static let root = FileManager.default.currentDirectoryPath
    static let samples = root + "/Fixtures/samples/"

    /// A fine-tune of a parent whose last layer is near float32's limit (finite on a black and a
    /// white image, so the parent loads) overflows in its first step. The model it made was
    /// written and reported ("wrote ...: 468010 parameters, test accuracy 0.0938"), status 0, and
    /// every command then refused the file ("its output for a black or a white image is inf").
    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func aTrainingThatDivergesWritesNoModel() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        var file = try ModelFile(contentsOf: URL(fileURLWithPath: Self.root + "/Models/clothing.aimodel"))
        var weight = try #require(file.tensors["fc2.weight"])
        weight.scalars = weight.scalars.map { $0 * 1e30 }
        file.tensors["fc2.weight"] = weight
        let parent = folder.path("huge.aimodel"), out = folder.path("tuned.aimodel")
        try file.write(to: URL(fileURLWithPath: parent))
        #expect(try WardrobeProcess.run(["classify", "--sample", "--model", parent]).status == 0, "the parent loads")

        let result = try WardrobeProcess.run(["model", "train", "--from", parent, "--limit", "128", "--epochs", "1", "--out", out])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("error: the training diverged: the model it made cannot be used (its output for a black or "
            + "a white image is inf, not a finite number: a weight overflows float32), so it was not written; train with a "
            + "lower --learning-rate, or from another model\n"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
