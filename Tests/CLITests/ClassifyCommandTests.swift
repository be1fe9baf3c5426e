import Catalogue
import Foundation
import Imaging
import Testing

/// `wardrobe classify` through the built binary, with the bundled model.
@Suite struct ClassifyCommandTests {
    struct Result: Decodable {
        struct Candidate: Decodable { var label: String; var probability: Float }
        var path: String
        var label: String
        var confidence: Float
        var top: [Candidate]
    }

    /// Fashion-MNIST test images written as PNG get the data set's labels,
    /// as often as the model's test accuracy says they should.
    @Test func fashionMNISTImagesGetTheirLabels() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let count = 100
        var paths: [String] = []
        for index in 0..<count {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)), to: "\(index).png")
            paths.append(folder.path("\(index).png"))
        }
        let run = try WardrobeProcess.run(["classify", "--no-save", "--prep", "fashion-mnist", "--json", "--top", "3"] + paths)
        #expect(run.status == 0, "\(run.stderr)")
        let results = try JSONDecoder().decode([Result].self, from: Data(run.stdout.utf8))
        #expect(results.count == count)
        let labels = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                      "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]
        let correct = results.enumerated().filter { index, result in
            result.label == labels[Int(PhotoFolder.testSet.labels[index])]
        }.count
        #expect(correct >= 85, "\(correct) of \(count) right")
        for result in results {
            #expect(result.top.count == 3)
            #expect(result.top[0].label == result.label)
            #expect(result.confidence > 0 && result.confidence <= 1)
        }
    }

    @Test func theSampleIsClassifiedOffline() throws {
        let run = try WardrobeProcess.run(["classify", "--sample", "--no-save"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("fashion-sample.png: "))
        #expect(run.stdout.contains("%)"))
    }

    @Test func resultsAreRecordedUnlessNoSave() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(3)), to: "3.png")
        try folder.write(Array("not an image".utf8), to: "bad.png")
        let db = folder.path("c.sqlite")
        let run = try WardrobeProcess.run(["classify", "--db", db, "--prep", "fashion-mnist",
                                           folder.path("3.png"), folder.path("bad.png")])
        #expect(run.status == 2)
        #expect(run.stderr.contains("bad.png: not an image"))
        let catalogue = try Catalogue(path: db, mode: .readOnly)
        #expect(try catalogue.stats().images == 1)
        #expect(try catalogue.failures().count == 1)

        let unsaved = try WardrobeProcess.run(["classify", "--db", folder.path("other.sqlite"), "--no-save",
                                               "--prep", "fashion-mnist", folder.path("3.png")])
        #expect(unsaved.status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.path("other.sqlite")))
    }
}
