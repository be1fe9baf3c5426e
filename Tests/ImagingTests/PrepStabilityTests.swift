import Foundation
import Imaging
import Testing

/// What an import stores and classifies, pinned for the demo's photos: the thumbnail's bytes
/// and, bit for bit, the tensors `photo@1` and `fashion-mnist@1` make of it. A catalogue's
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

    /// Recorded at photo@1 (the recipe the bundled model was trained for), from images whose
    /// thumbnails and logits were checked against an import by the build before the resizer
    /// summed a vector at a time.
    static let expected: [String: String] = [
        "dress/07cddef1-1fc8-47e4-a28a-613e60912590.jpg": "f9695f4bfe335de7",
        "hat/014b2a1b-c5a0-469b-b115-bc02b2001db5.jpg": "7d562fcbec63c754",
        "longsleeve/0354015d-9ed3-4175-9f85-dd5725dce0e1.jpg": "249034a86637f16c",
        "outwear/0ad8629f-2e9f-4591-a661-7489d6d49737.jpg": "69c58e4cad56d913",
        "pants/012d1ca9-baaf-4b01-8b60-955f3408b1b7.jpg": "78b1e10dba1c4431",
        "shirt/00143901-a14c-4600-960f-7747b4a3a8cd.jpg": "f72417331b5c03a7",
        "shoes/24535295-abe3-4613-91f6-a7fe87954662.jpg": "e0a92fc00b782438",
        "t-shirt/0090ca2c-e8c8-43f6-b764-e48e0e954006.jpg": "39338661c9eddc1f",
    ]

    @Test(arguments: expected.keys.sorted())
    func demoPhotoGivesThePinnedThumbnailAndTensors(name: String) throws {
        let path = FileManager.default.currentDirectoryPath + "/Fixtures/photos/" + name
        let processed = try ImageProcessor().process(contentsOf: path, recipes: [PrepRecipes.photo, PrepRecipes.fashionMNIST])
        #expect(Self.fingerprint(processed) == Self.expected[name], "\(name)")
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
}
