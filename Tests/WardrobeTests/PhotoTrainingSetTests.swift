import Foundation
import Imaging
import Testing
import Training
@testable import Wardrobe

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

    /// The map's folders are walked together: a symbolic link inside 'pants' to '../..' led
    /// back into the photos' folder and counted the three shoes as trousers too; a link that
    /// leads nowhere or in a loop was passed over without a word; a folder mapped twice under a
    /// link's name was read twice, under two sets of labels. Now each photo counts once, under
    /// its own folder, and each of the rest is a failure with the reason `import` gives.
    @Test func linksNeverCountAPhotoTwiceOrUnderAnotherFoldersLabels() throws {
        let root = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let manager = FileManager.default
        try manager.createDirectory(atPath: root + "/pants/more", withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: root + "/pants/more/up", withDestinationPath: "../..")
        try manager.createSymbolicLink(atPath: root + "/shoes/gone.jpg", withDestinationPath: "nowhere.jpg")
        try manager.createSymbolicLink(atPath: root + "/shoes/loop1", withDestinationPath: "loop2")
        try manager.createSymbolicLink(atPath: root + "/shoes/loop2", withDestinationPath: "loop1")
        try manager.createSymbolicLink(atPath: root + "/boots", withDestinationPath: "shoes")
        let map = try PhotoLabelMap(parsing: "shoes: Sandal, Sneaker, Ankle boot\npants: Trouser\nhat: none\nboots: Ankle boot",
                                    path: "test.map")
        let set = try PhotoTrainingSet(directory: root, map: map, recipe: PrepRecipes.photo)
        #expect(set.training.count + set.heldOut.count == 5, "each photo once; the hat's left out")
        #expect(set.perFolder.map(\.folder) == ["shoes", "pants", "boots"])
        let trousers = (0..<set.training.count).filter { set.training.acceptedLabels($0) == [1] }.count
            + (0..<set.heldOut.count).filter { set.heldOut.acceptedLabels($0) == [1] }.count
        #expect(trousers == 2, "only the two trousers are trousers")
        let failures = Dictionary(uniqueKeysWithValues: set.failures.map { (($0.path as NSString).lastPathComponent, $0.reason) })
        #expect(failures["gone.jpg"] == "a symbolic link to 'nowhere.jpg', which is not there", "\(failures)")
        #expect(failures["loop1"] == "a symbolic link that leads back to itself (a loop of links)", "\(failures)")
        #expect(failures["boots"] == "is the same folder as \(root)/shoes, whose photos count once, there", "\(failures)")
        #expect(failures["not-a-photo.jpg"] != nil && failures.count == 5, "\(failures)")
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

    @Test func viewsAddVariedCopiesOfTrainingPhotosOnly() throws {
        let root = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let plain = try PhotoTrainingSet(directory: root, map: Self.map, recipe: PrepRecipes.photo)
        let varied = try PhotoTrainingSet(directory: root, map: Self.map, recipe: PrepRecipes.photo, views: 3)
        let again = try PhotoTrainingSet(directory: root, map: Self.map, recipe: PrepRecipes.photo, views: 3)
        let otherSeed = try PhotoTrainingSet(directory: root, map: Self.map, recipe: PrepRecipes.photo, views: 3, seed: 2)
        #expect(varied.training.count == 3 * plain.training.count)
        #expect(varied.photos == plain.training, "each photo once, as it is")
        #expect(varied.heldOut == plain.heldOut, "held-out photos are not varied")
        #expect(varied.source == plain.source, "the record counts photos, not views")
        #expect(varied.training == again.training, "the same photo and seed give the same views")
        #expect(varied.training != otherSeed.training)
        var changed = 0
        for photo in 0..<plain.training.count {
            let original = Array(plain.training.values[photo * 784..<(photo + 1) * 784])
            #expect(Array(varied.training.values[(3 * photo) * 784..<(3 * photo + 1) * 784]) == original)
            for view in 1..<3 {
                let start = (3 * photo + view) * 784
                if Array(varied.training.values[start..<start + 784]) != original { changed += 1 }
                #expect(varied.training.acceptedLabels(3 * photo + view) == plain.training.acceptedLabels(photo))
            }
        }
        #expect(changed > plain.training.count, "most varied views differ from the photo as it is")
    }

    @Test func aVariationCropsWithinItsBoundsAndKeepsChannels() {
        let image = Bitmap(width: 200, height: 100, filledWith: [120, 60, 200])
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<50 {
            let varied = PhotoVariation().apply(to: image, generator: &generator)
            #expect((170...200).contains(varied.width) && (85...100).contains(varied.height))
            #expect(varied.channels == 3)
        }
    }

    @Test func aFolderWithoutMappedPhotosIsAClearError() {
        #expect(throws: WardrobeError.self) {
            _ = try PhotoTrainingSet(directory: Self.fixtures, map: Self.map, recipe: PrepRecipes.photo)
        }
    }
}
