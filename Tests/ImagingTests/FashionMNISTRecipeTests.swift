import Imaging
import Testing
import Training

@Suite struct FashionMNISTRecipeTests {
    @Test func pngOfATestImageGivesExactlyTheDataSetsTensor() throws {
        let data = try FashionMNIST(split: .test)
        let processor = ImageProcessor()
        let recipe = try PrepRecipes.named("fashion-mnist")
        for index in stride(from: 0, to: 10_000, by: 97) {
            let bytes = Array(data.image(index))
            let png = try PNGEncoder().encode(Bitmap(width: 28, height: 28, channels: 1, pixels: bytes))
            let processed = try processor.process(bytes: png, recipe: recipe)
            #expect(processed.tensor.values == bytes.map { Float($0) / 255 }, "test image \(index)")
            #expect(processed.width == 28 && processed.height == 28 && processed.format == .png)
        }
    }

    @Test func largerImagesAreAreaAveraged() throws {
        // Each 28x28 pixel enlarged to a 4x4 block comes back as that pixel.
        let data = try FashionMNIST(split: .test)
        let small = Array(data.image(0))
        var large = [UInt8](repeating: 0, count: 112 * 112)
        for y in 0..<112 { for x in 0..<112 { large[y * 112 + x] = small[(y / 4) * 28 + x / 4] } }
        let tensor = FashionMNISTRecipe().prepare(Bitmap(width: 112, height: 112, channels: 1, pixels: large))
        #expect(tensor.values == small.map { Float($0) / 255 })
        // A uniform 2x1 block average: (0 + 255) / 2 rounds to 128.
        let halves = Bitmap(width: 56, height: 28, channels: 1, pixels: (0..<(56 * 28)).map { $0 % 2 == 0 ? 0 : 255 })
        #expect(FashionMNISTRecipe().prepare(halves).values.allSatisfy { $0 == Float(128) / 255 })
    }

    @Test func registryFindsRecipesByNameAndIdentity() throws {
        #expect(try PrepRecipes.named("fashion-mnist").version == 1)
        #expect(try PrepRecipes.named("fashion-mnist@1").name == "fashion-mnist")
        #expect(PrepRecipes.names.contains("fashion-mnist"))
        #expect {
            _ = try PrepRecipes.named("sepia")
        } throws: { error in
            (error as? ImagingError)?.kind == .unknownRecipe && "\(error)".contains("fashion-mnist")
        }
    }
}
