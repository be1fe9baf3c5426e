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
    /// written and reported ("wrote ...: 468,010 parameters, test accuracy 0.0938"), status 0, and
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

    /// `--out mine` beside a parent `mine.aimodel` wrote the new model's rehearsal (the parent's
    /// photos and the new ones) over the parent's: the parent's next fine-tune rehearsed and
    /// calibrated on photos the parent never learned from. Neither the model nor its rehearsal
    /// may replace the parent's rehearsal; both are refused before any training.
    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func neitherTheModelNorItsRehearsalReplacesTheParentsRehearsal() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let parent = folder.path("mine.aimodel"), rehearsal = folder.path("mine.rehearsal.safetensors")
        try FileManager.default.copyItem(atPath: Self.root + "/Models/clothing.aimodel", toPath: parent)
        try FileManager.default.copyItem(atPath: Self.root + "/Models/clothing.rehearsal.safetensors", toPath: rehearsal)
        let before = try Data(contentsOf: URL(fileURLWithPath: rehearsal))
        for file in ["test-8-sandal.jpg", "test-9-sneaker.jpg", "test-0-ankle-boot.png"] {
            try folder.write([UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.samples + file))), to: "photos/shoes/" + file)
        }
        try folder.write(Array("shoes: Sandal, Sneaker, Ankle boot\n".utf8), to: "photos.map")
        let common = ["model", "train", "--from", parent, "--photos", folder.path("photos"), "--map", folder.path("photos.map"),
                      "--limit", "64", "--epochs", "1", "--out"]

        let beside = try WardrobeProcess.run(common + [folder.path("mine")])
        #expect(beside.status == 1, "\(beside.stderr)")
        #expect(beside.stderr == "error: model \(rehearsal): cannot write the rehearsal: is the rehearsal of the model being "
            + "fine-tuned, which this command reads; write the output elsewhere\n", "\(beside.stderr)")
        #expect(!beside.stderr.contains("epoch"), "refused before training: \(beside.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("mine")))

        let over = try WardrobeProcess.run(common + [rehearsal])
        #expect(over.status == 1, "\(over.stderr)")
        #expect(over.stderr == "error: model \(rehearsal): cannot write: is the rehearsal of the model being fine-tuned, "
            + "which this command reads; write the output elsewhere\n", "\(over.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: rehearsal)) == before, "the parent's rehearsal is as it was")
    }

    /// Asked to learn from folders of photos none of which could be read, the training went on
    /// for its minutes on Fashion-MNIST alone and wrote a model recording the photo recipe and a
    /// rehearsal of "the 0 photos it learned from", status 0. It is refused with the first reason.
    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func photosNoneOfWhichCanBeReadAreRefused() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(Array("not a photo".utf8), to: "photos/coats/a.jpg")
        try folder.write([], to: "photos/coats/b.jpg")
        try folder.write(Array("coats: Coat\n".utf8), to: "photos.map")
        let out = folder.path("coats.aimodel")
        let result = try WardrobeProcess.run(["model", "train", "--photos", folder.path("photos"), "--map", folder.path("photos.map"),
                                              "--limit", "64", "--epochs", "1", "--out", out])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("error: photo folder \(folder.path("photos")): none of the 2 photos of the mapped folders "
            + "could be prepared (the first, \(folder.path("photos"))/coats/a.jpg: "), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("), so there is nothing to learn from them\n"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(!FileManager.default.fileExists(atPath: folder.path("coats.rehearsal.safetensors")))
    }
}
