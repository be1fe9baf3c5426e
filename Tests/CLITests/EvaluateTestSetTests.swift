import Foundation
import Testing

/// `model evaluate` on the Fashion-MNIST test set scores only what it can: an image whose
/// logits are not finite has no label, and a test set of no images has no accuracy.
@Suite struct EvaluateTestSetTests {
    /// A model that overflows on some test images (not on a black or a white one, so it loads)
    /// had those counted under the argmax of NaN: 'accuracy 0.6743 (6743 of 10000)'. They are
    /// now left out of every figure and counted apart (`not_finite` in --json).
    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func imagesWithoutAFiniteOutputAreCountedApart() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let model = folder.path("overflowing.aimodel")
        try OverflowingModelTests.overflowing(at: model, unit: 0)
        let result = try WardrobeProcess.run(["model", "evaluate", "--model", model, "--limit", "1000", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let images = try #require(report["images"] as? Int), notFinite = try #require(report["not_finite"] as? Int)
        #expect(notFinite > 0 && images + notFinite == 1000, "\(report)")
        let confusion = try #require(report["confusion"] as? [[Int]])
        #expect(confusion.joined().reduce(0, +) == images)
        #expect(report["correct"] as? Int == confusion.indices.reduce(0) { $0 + confusion[$1][$1] })

        let text = try WardrobeProcess.run(["model", "evaluate", "--model", model, "--limit", "1000"])
        #expect(text.stdout.contains("accuracy  ") && text.stdout.contains(" of \(images))\n"), "\(text.stdout)")
        #expect(text.stdout.contains("not scored \(notFinite) images: the model's output for them is not a finite number"),
                "\(text.stdout)")
    }

    /// With --limit 1 nine classes have no image: each was 'accuracy 0.0000', as if wrong; it
    /// is '-' (null in --json). And '1 images ... 1 Fashion-MNIST test images' take their number.
    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func aClassWithNoImageHasNoAccuracy() throws {
        let text = try WardrobeProcess.run(["model", "evaluate", "--limit", "1"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stderr.hasPrefix("1 image in "), "\(text.stderr)")
        #expect(text.stdout.contains("images    1 Fashion-MNIST test image\n"), "\(text.stdout)")
        let rows = text.stdout.split(separator: "\n").filter { $0.hasSuffix("       0       -") }
        #expect(rows.count == 9, "\(text.stdout)")
        let json = try WardrobeProcess.run(["model", "evaluate", "--limit", "1", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let classes = try #require(report["classes"] as? [[String: Any]])
        #expect(classes.filter { $0["images"] as? Int == 0 }.allSatisfy { $0["accuracy"] is NSNull }, "\(classes)")
        #expect(classes.filter { $0["images"] as? Int == 1 }.allSatisfy { $0["accuracy"] is Double }, "\(classes)")
    }

    /// A test set of no images was 'accuracy 0.0000 (0 of 0)', status 0.
    @Test func aTestSetOfNoImagesIsAnError() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        // zlib reads a file that is not gzip as it is: the IDX bytes, plainly.
        try folder.write([0, 0, 8, 3, 0, 0, 0, 0, 0, 0, 0, 28, 0, 0, 0, 28], to: "data/t10k-images-idx3-ubyte.gz")
        try folder.write([0, 0, 8, 1, 0, 0, 0, 0], to: "data/t10k-labels-idx1-ubyte.gz")
        let result = try WardrobeProcess.run(["model", "evaluate", "--data", folder.path("data")])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr == "error: \(folder.path("data")): its Fashion-MNIST test set holds no images, so there is nothing to measure\n",
                "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
