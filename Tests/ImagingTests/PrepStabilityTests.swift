import Foundation
import Imaging
import Testing

/// What an import stores and classifies, pinned for the demo's photos: the thumbnail's bytes
/// and, bit for bit, the tensors `photo@1` to `photo@4` and `fashion-mnist@1` make of it. A catalogue's
/// classifications are only comparable while a recipe computes exactly what it did, so a
/// change to its arithmetic (a sum taken in another order, a resize made faster another way)
/// fails here and needs a new recipe version, not a new fingerprint.
@Suite struct PrepStabilityTests {
    /// FNV-1a over the thumbnail's bytes, then over each tensor value's bit pattern.
    static func fingerprint(_ processed: ProcessedImage) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ word: UInt64) { hash = (hash ^ word) &* 0x100_0000_01b3 }
        for byte in processed.thumbnail { add(UInt64(byte)) }
        for tensor in processed.tensors {
            for value in tensor.values { add(UInt64(value.bitPattern)) }
        }
        return String(hash, radix: 16)
    }

    /// Per demo photo: the fingerprint at photo@1, recorded from images whose thumbnails and
    /// logits were checked against an import by the build before the resizer summed a vector
    /// at a time; then at photo@2, recorded by the build that still gave those photo@1 values;
    /// then at photo@3, recorded by the build that still gave those photo@1 and photo@2 values;
    /// then at photo@4 (the recipe the bundled model was trained for), recorded by the build
    /// that still gave the three before. photo@4 segments again only where the first mask
    /// misses the middle of the picture, which none of these photos does, so its tensors are
    /// photo@3's (`PhotoRecipeMiddleTests` has a picture where they differ).
    static let expected: [String: (photo1: String, photo2: String, photo3: String, photo4: String)] = [
        "dress/07cddef1-1fc8-47e4-a28a-613e60912590.jpg": ("f9695f4bfe335de7", "6295481d0dd59704", "11fc9a389c995d1b", "11fc9a389c995d1b"),
        "hat/014b2a1b-c5a0-469b-b115-bc02b2001db5.jpg": ("7d562fcbec63c754", "2140bda2ed5ef7db", "29b7bc6ac5867328", "29b7bc6ac5867328"),
        "longsleeve/0354015d-9ed3-4175-9f85-dd5725dce0e1.jpg": ("249034a86637f16c", "82bb812cebb607e0", "93417b3306d6116d", "93417b3306d6116d"),
        "outwear/0ad8629f-2e9f-4591-a661-7489d6d49737.jpg": ("69c58e4cad56d913", "7624c28d1bd845ff", "41819765b16bce2a", "41819765b16bce2a"),
        "pants/012d1ca9-baaf-4b01-8b60-955f3408b1b7.jpg": ("78b1e10dba1c4431", "5d4f67261d756e89", "e216819704231328", "e216819704231328"),
        "shirt/00143901-a14c-4600-960f-7747b4a3a8cd.jpg": ("f72417331b5c03a7", "b907e6903bd56b9c", "6b334605e58c9a1e", "6b334605e58c9a1e"),
        "shoes/24535295-abe3-4613-91f6-a7fe87954662.jpg": ("e0a92fc00b782438", "d2d31f4a381b5985", "e84ceeb78cbbaa50", "e84ceeb78cbbaa50"),
        "t-shirt/0090ca2c-e8c8-43f6-b764-e48e0e954006.jpg": ("39338661c9eddc1f", "7fabb69f9a748b7a", "46bcc07701f8d347", "46bcc07701f8d347"),
    ]

    @Test(arguments: expected.keys.sorted())
    func demoPhotoGivesThePinnedThumbnailAndTensors(name: String) throws {
        let path = FileManager.default.currentDirectoryPath + "/Fixtures/photos/" + name
        let earlier = try ImageProcessor().process(contentsOf: path, recipes: [PhotoRecipe(version: 1), PrepRecipes.fashionMNIST])
        #expect(Self.fingerprint(earlier) == Self.expected[name]?.photo1, "photo@1: \(name)")
        let second = try ImageProcessor().process(contentsOf: path, recipes: [PhotoRecipe(version: 2), PrepRecipes.fashionMNIST])
        #expect(Self.fingerprint(second) == Self.expected[name]?.photo2, "photo@2: \(name)")
        let third = try ImageProcessor().process(contentsOf: path, recipes: [PhotoRecipe(version: 3), PrepRecipes.fashionMNIST])
        #expect(Self.fingerprint(third) == Self.expected[name]?.photo3, "photo@3: \(name)")
        let current = try ImageProcessor().process(contentsOf: path, recipes: [PrepRecipes.photo, PrepRecipes.fashionMNIST])
        #expect(Self.fingerprint(current) == Self.expected[name]?.photo4, "photo@4: \(name)")
    }

    /// A picture already in Fashion-MNIST's form (light on a black field, as bench-import's
    /// generated photos are), which the photo recipe hands to the baseline, at a size whose
    /// rows do not come in fours: every path of the resizer, RGB and gray.
    @Test func blackFieldPictureGivesThePinnedThumbnailAndTensors() throws {
        var picture = Bitmap(width: 203, height: 271, filledWith: [4, 2, 6])
        for y in 40..<230 {
            for x in 50..<160 { picture.set(x: x, y: y, to: [UInt8(140 + (x * 7 + y * 3) % 60), 60, UInt8(90 + y % 40)]) }
        }
        let png = try PNGEncoder().encode(picture)
        let processed = try ImageProcessor().process(bytes: png, recipes: [PrepRecipes.photo, PrepRecipes.fashionMNIST])
        #expect(processed.tensors[0] == processed.tensors[1], "the photo recipe hands a black field to the baseline")
        #expect(Self.fingerprint(processed) == "cde5e6b8149878de")
    }

    /// Pictures of a few pixels a side, and thin ones, whose working copies are one, two or
    /// three pixels across: the edges of every pass of the segmentation (blur, morphology,
    /// hole filling, band, centre weight) and of the render. A light field with a darker,
    /// coloured block in the middle, so the photo recipe segments it. The values were
    /// recorded (`import-bench fingerprints`) by the build before the segmentation worked on
    /// raw buffers: FNV-1a over each tensor's bit patterns, photo@1 then fashion-mnist@1.
    static let edgeCases: [String: String] = [
        "1x200": "497187f5af5a24bc ff7c79671edac431",
        "5x200": "2d9972846b2511dc 21d9c4b534eb5ae",
        "7x200": "912786069246fcd8 f58d501cb51f166d",
        "200x5": "f98724a43d4ebaff d45e5a7a4aca4a66",
        "200x1": "b473d746b5f5a347 6f6316ea08f68a4d",
        "8x8": "79397274d97d5294 600372f6c36527c0",
        "3x150": "4e89093444fa1755 17c77ccd9eb1e9e5",
        "150x3": "bb48b7fe05eedaa0 36f1281f80c0cbbe",
        "120x90": "2ad32129beafd5f3 ce411612db57668b",
        "97x255": "e8f6e7ca7f2bdc8a dc758cb9b247ce58",
    ]

    @Test(arguments: edgeCases.keys.sorted())
    func smallAndThinPicturesGiveThePinnedTensors(size: String) throws {
        let sides = size.split(separator: "x").map { Int($0)! }
        let (width, height) = (sides[0], sides[1])
        var picture = Bitmap(width: width, height: height, filledWith: [0, 0, 0])
        for y in 0..<height {
            for x in 0..<width {
                let inBlock = abs(2 * x - width) < 2 * width / 3 && abs(2 * y - height) < 2 * height / 3
                picture.set(x: x, y: y, to: inBlock
                    ? [UInt8(60 + (x * 7 + y * 3) % 50), UInt8(40 + y % 30), UInt8(90 + x % 40)]
                    : [UInt8(210 + (x + y) % 20), UInt8(205 + x % 15), UInt8(200 + y % 25)])
            }
        }
        let processed = try ImageProcessor().process(bytes: try PNGEncoder().encode(picture),
                                                     recipes: [PhotoRecipe(version: 1), PrepRecipes.fashionMNIST])
        let fingerprints = processed.tensors.map { tensor in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for value in tensor.values { hash = (hash ^ UInt64(value.bitPattern)) &* 0x100_0000_01b3 }
            return String(hash, radix: 16)
        }
        #expect(fingerprints.joined(separator: " ") == Self.edgeCases[size], "\(size)")
    }
}
