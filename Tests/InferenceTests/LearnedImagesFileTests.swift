import Foundation
import Inference
import SeededRandom
import Testing

/// The images a model learned from are the rows of the `U8` tensor `learned_images`
/// (32 bytes each) in the data section; as hex in the header they took 73 bytes an image,
/// and about 14,400 made a header the reader refuses. A file that lists them in its
/// `training` map, as every file did before, reads as it did.
@Suite struct LearnedImagesFileTests {
    static func hashes(_ count: Int, seed: UInt64) -> Set<String> {
        var random = SplitMix64(seed: seed)
        var hashes = Set<String>(minimumCapacity: count)
        while hashes.count < count {
            hashes.insert((0..<4).map { _ in
                let word = String(random.next(), radix: 16)
                return String(repeating: "0", count: 16 - word.count) + word
            }.joined())
        }
        return hashes
    }

    static func learned(_ file: ModelFile) -> Set<String>? {
        TrainingMetadata.learnedImages(in: file.description.training, digests: file.learnedImageDigests)
    }

    @Test func twoHundredThousandLearnedImagesLeaveTheHeaderAsSmall() throws {
        let hashes = Self.hashes(200_000, seed: 3)
        var file = ModelFileTests.tinyModel()
        let plainHeader = ModelFileTests.headerLength()
        file.learnedImageDigests = TrainingMetadata.digests(ofLearnedImages: hashes)
        let bytes = file.serialized()
        let (json, data) = ModelFileTests.split(bytes)
        let entry = try #require(json["learned_images"] as? [String: Any])
        #expect(entry["dtype"] as? String == "U8")
        #expect(entry["shape"] as? [Int] == [200_000, 32])
        let offsets = try #require(entry["data_offsets"] as? [Int])
        #expect(offsets.count == 2 && offsets[1] - offsets[0] == 6_400_000 && data.count == offsets[1])
        #expect(bytes.count - data.count - 8 < plainHeader + 100)
        let read = try ModelFile(bytes: bytes)
        #expect(read == file)
        #expect(Self.learned(read) == hashes)
        #expect(read.fingerprint != ModelFileTests.tinyModel().fingerprint)
    }

    @Test func aFileListingThemInItsTrainingMapReadsAsBefore() throws {
        let listed = Self.hashes(3, seed: 4)
        var file = ModelFileTests.tinyModel()
        file.description.training["learned_images"] = String(decoding: try JSONEncoder().encode(listed.sorted()), as: UTF8.self)
        let read = try ModelFile(bytes: file.serialized())
        #expect(read.learnedImageDigests.isEmpty)
        #expect(Self.learned(read) == listed)
        #expect(ModelSummary(read).training["learned_images"] == file.description.training["learned_images"])
        // A file holding both (made elsewhere) learned from both.
        let more = Self.hashes(2, seed: 5)
        file.learnedImageDigests = TrainingMetadata.digests(ofLearnedImages: more)
        let both = try ModelFile(bytes: file.serialized())
        #expect(Self.learned(both) == listed.union(more))
        let summarized = try JSONDecoder().decode([String].self, from: Data(try #require(ModelSummary(both).training["learned_images"]).utf8))
        #expect(summarized == listed.union(more).sorted())
        // Still refused as it was: a list that is not one of hashes.
        file.description.training["learned_images"] = #"["not a hash"]"#
        #expect(Self.learned(try ModelFile(bytes: file.serialized())) == nil)
    }

    @Test func aDamagedLearnedImagesTensorIsRefused() {
        func edited(_ change: (inout [String: Any]) -> Void) -> [UInt8] {
            var file = ModelFileTests.tinyModel()
            file.learnedImageDigests = TrainingMetadata.digests(ofLearnedImages: Self.hashes(2, seed: 6))
            var (json, data) = ModelFileTests.split(file.serialized())
            var entry = json["learned_images"] as! [String: Any]
            change(&entry)
            json["learned_images"] = entry
            return ModelFileTests.join(json, data)
        }
        #expect(throws: ModelError.badTensor(name: "learned_images", reason: "shape [4, 16] is not [N, 32], one SHA-256 digest a row")) {
            try ModelFile(bytes: edited { $0["shape"] = [4, 16] })
        }
        #expect(throws: ModelError.badTensor(name: "learned_images", reason: "shape [1, 32] needs 32 bytes, offsets give 64")) {
            try ModelFile(bytes: edited { $0["shape"] = [1, 32] })
        }
        #expect(throws: ModelError.badTensor(name: "learned_images", reason: "dtype I64, only F32 is supported")) {
            try ModelFile(bytes: edited { $0["dtype"] = "I64" })
        }
        // U8 is for that tensor only: a weight of bytes is refused as before.
        let weightOfBytes = ModelFileTests.edited { json, _ in
            var entry = json["fc.b"] as! [String: Any]
            entry["dtype"] = "U8"
            json["fc.b"] = entry
        }
        #expect(throws: ModelError.badTensor(name: "fc.b", reason: "dtype U8, only F32 is supported")) {
            try ModelFile(bytes: weightOfBytes)
        }
        // Over a weight's bytes.
        #expect(throws: ModelError.self) {
            try ModelFile(bytes: edited { $0["data_offsets"] = [0, 64] })
        }
    }
}
