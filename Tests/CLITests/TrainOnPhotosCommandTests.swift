import Foundation
import Testing

/// `wardrobe model train --photos --map --from` end to end on a quick trial, and the
/// recorded recipe becoming the default of the commands that prepare images for the model.
@Suite struct TrainOnPhotosCommandTests {
    static let root = FileManager.default.currentDirectoryPath

    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func fineTuneOnPhotosRecordsWhatItLearnedAndItsRecipeIsTheDefault() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("train-photos-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let photos = directory.appendingPathComponent("photos").path
        let samples = Self.root + "/Fixtures/samples/"
        for (folder, files) in [("shoes", ["test-8-sandal.jpg", "test-9-sneaker.jpg", "test-0-ankle-boot.png"]),
                                ("pants", ["test-2-trouser.png", "test-3-trouser.jpg", "not-a-photo.jpg"])] {
            try FileManager.default.createDirectory(atPath: photos + "/" + folder, withIntermediateDirectories: true)
            for file in files { try FileManager.default.copyItem(atPath: samples + file, toPath: "\(photos)/\(folder)/\(file)") }
        }
        let map = directory.appendingPathComponent("photos.map").path
        // "coats" is a typo'd or absent folder: said, not silently left out.
        try "shoes: Sandal, Sneaker, Ankle boot\npants: Trouser\ncoats: Coat\n".write(toFile: map, atomically: true, encoding: .utf8)
        let model = directory.appendingPathComponent("tuned.aimodel").path

        let train = try WardrobeProcess.run(["model", "train", "--from", Self.root + "/Models/fashion-mnist-only.aimodel",
                                             "--photos", photos, "--map", map, "--prep", "fashion-mnist",
                                             "--limit", "256", "--epochs", "1", "--out", model])
        #expect(train.status == 0, "stderr: \(train.stderr)")
        #expect(train.stderr.contains("not-a-photo.jpg"), "the junk file is named")
        #expect(train.stderr.contains("photos: "), "the photo counts are reported")
        #expect(train.stderr.contains("\(photos): no folder 'coats', which the map gives labels; nothing is learned for it"),
                "\(train.stderr)")

        let info = try WardrobeProcess.run(["model", "info", "--json", model])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])
        let training = try #require(json["training"] as? [String: String])
        #expect(training["recipe"] == "fashion-mnist@1")
        #expect(training["parent_sha256"]?.count == 64)
        #expect(training["training_seconds"] != nil)
        #expect(training["data_sources"]?.contains("Sandal | Sneaker | Ankle boot") == true, "\(training)")

        // The model's recipe is the default of prep; --recipe still wins.
        let prep = try WardrobeProcess.run(["prep", "--model", model, samples + "test-3-trouser.jpg"])
        #expect(prep.status == 0, "stderr: \(prep.stderr)")
        #expect(prep.stdout.contains("recipe fashion-mnist@1"))
        let named = try WardrobeProcess.run(["prep", "--model", model, "--recipe", "photo", samples + "test-3-trouser.jpg"])
        #expect(named.stdout.contains("recipe photo@4"))
    }

    /// A --from that is no model file is refused in one line with the reason, and nothing
    /// is written. A folder used to give "(NSCocoaErrorDomain error 256.)", a device was
    /// read without a size limit.
    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func aFromThatIsNoModelFileIsRefusedWithTheReason() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("never-\(UUID().uuidString).aimodel").path
        for (from, reason) in [("/tmp", "is a directory"), ("/dev/zero", "not a regular file (a character device)"),
                               ("/tmp/no-such-model.aimodel", "No such file or directory")] {
            let result = try WardrobeProcess.run(["model", "train", "--from", from, "--limit", "64", "--epochs", "1", "--out", out])
            #expect(result.status == 1)
            #expect(result.stderr == "error: model \(from): cannot read: \(reason)\n", "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    @Test func photosWithoutAMapIsAUsageError() throws {
        let result = try WardrobeProcess.run(["model", "train", "--photos", "/tmp", "--out", "/tmp/never.aimodel"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--photos needs --map"))
    }
}
