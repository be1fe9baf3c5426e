import Foundation
import Imaging
import Testing
import Training
import Wardrobe

/// Folders of labelled photos made into training tensors: the import's own
/// prep, the hold-out by file hash, the fixed order, bad files reported.
@Suite struct PhotoTrainingSetTests {
    static let fixtures = FileManager.default.currentDirectoryPath + "/Fixtures/samples"

    /// shoes/ (three shoe photos), pants/ (two trousers and a text file named .jpg), hat/ (excluded).
    static func makeFolder() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("photo-set-\(UUID().uuidString)").path
        let layout = ["shoes": ["test-8-sandal.jpg", "test-9-sneaker.jpg", "test-0-ankle-boot.png"],
                      "pants": ["test-2-trouser.png", "test-3-trouser.jpg", "not-a-photo.jpg"],
                      "hat": ["test-1-pullover.png"]]
        for (folder, files) in layout {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
            for file in files { try FileManager.default.copyItem(atPath: fixtures + "/" + file, toPath: "\(root)/\(folder)/\(file)") }
        }
        return root
    }

    static let map = try! PhotoLabelMap(parsing: "shoes: Sandal, Sneaker, Ankle boot\npants: Trouser\nhat: none", path: "test.map")

    @Test func photosArePreparedAsImportPreparesThemAndHeldOutByHash() throws {
        let root = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let set = try PhotoTrainingSet(directory: root, map: Self.map, recipe: PrepRecipes.photo)
        #expect(set.failures.map { ($0.path as NSString).lastPathComponent } == ["not-a-photo.jpg"])
        #expect(set.training.count + set.heldOut.count == 5, "the hat photo is left out, the junk file fails")
        let all = set.training.values + set.heldOut.values
        // Every tensor is exactly what an import of one of the photos prepares.
        var expected: [(hash: [UInt8], tensor: [Float], shoes: Bool)] = []
        for (folder, names) in [("shoes", ["test-8-sandal.jpg", "test-9-sneaker.jpg", "test-0-ankle-boot.png"]),
                                ("pants", ["test-2-trouser.png", "test-3-trouser.jpg"])] {
            for name in names {
                let bytes = try ImageFile.read("\(root)/\(folder)/\(name)")
                let tensor = try ImageProcessor().process(bytes: bytes, recipe: PrepRecipes.photo).tensor.values
                expected.append((PhotoTrainingSet.hash(of: bytes), tensor, folder == "shoes"))
            }
        }
        let heldOut = expected.filter { $0.hash[0] < PhotoTrainingSet.heldOutBelow }
        #expect(set.heldOut.count == heldOut.count)
        for photo in expected {
            let index = (0..<5).first { Array(all[$0 * 784..<($0 + 1) * 784]) == photo.tensor }
            #expect(index != nil, "a photo's tensor is not the import's")
        }
        // Training photos come in hash order; shoes accept the three shoe labels.
        let learned = expected.filter { $0.hash[0] >= PhotoTrainingSet.heldOutBelow }
            .sorted { $0.hash.lexicographicallyPrecedes($1.hash) }
        for (i, photo) in learned.enumerated() {
            #expect(Array(set.training.values[i * 784..<(i + 1) * 784]) == photo.tensor)
            #expect(set.training.acceptedLabels(i) == (photo.shoes ? [5, 7, 9] : [1]))
        }
        #expect(set.source.perLabel.values.reduce(0, +) == set.training.count)
    }

    @Test func aLimitTakesTheFirstPhotosInHashOrder() throws {
        let root = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let all = try PhotoTrainingSet(directory: root, map: Self.map, recipe: PrepRecipes.photo)
        let two = try PhotoTrainingSet(directory: root, map: Self.map, recipe: PrepRecipes.photo, limit: 2)
        #expect(two.training.count == min(2, all.training.count))
        #expect(two.training.values == Array(all.training.values.prefix(two.training.count * 784)))
        #expect(two.heldOut == all.heldOut, "the held-out photos do not depend on the limit")
    }

    @Test func aFolderWithoutMappedPhotosIsAClearError() {
        #expect(throws: WardrobeError.self) {
            _ = try PhotoTrainingSet(directory: Self.fixtures, map: Self.map, recipe: PrepRecipes.photo)
        }
    }
}
